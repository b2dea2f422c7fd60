/** What route handlers reach: services passed in through buildApp, never module singletons (STYLE.md). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ChangeFeed, MarketHistoryService, MarksFeed, QueryService, StatusService } from '../serve/index.ts';
import type { SitePages } from '../site/pages/index.ts';
import type { ChangeStreams } from './change-stream.ts';
import type { KeyRegistry } from './keys.ts';
import type { Limits, Tick } from './limits.ts';

export interface HttpTick extends Tick {
  /** Seconds to the next refresh boundary (Cache-Control max-age). */
  toRefresh: number;
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface AppContext {
  query: QueryService;
  /** `GET /v1/status`: computed per request from the store and the read model in hand. */
  status: StatusService;
  /** `GET /v1/marks`: a live, paged store query. */
  marks: MarksFeed;
  /** `GET /v1/markets/{id}/history`: one market's daily marks, read from the store. */
  history: MarketHistoryService;
  /** `GET /v1/changes`: the sequenced change feed, a live, paged store query (issue 20). */
  changes: ChangeFeed;
  /** `GET /v1/changes/stream`: the open server-sent event streams of the change feed. */
  changeStreams: ChangeStreams;
  keys: KeyRegistry;
  limits: Limits;
  clock: () => Date;
  /** Day, seconds to midnight and seconds to the next refresh, memoized per second of `clock`. */
  tick(): HttpTick;
  /** Minutes between pipeline refreshes; Cache-Control expires at the next boundary. */
  refreshMinutes: number;
  /** Take the client address from X-Forwarded-For (PMREF_TRUST_PROXY; see `clientIp`). */
  trustProxy: boolean;
  /** The public origin (PMREF_BASE_URL or the listen address). */
  origin: string;
  /** Human pages and screen artifacts (site routes, not /v1). */
  pages: SitePages;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** True when the request carried a valid API key. */
    keyed: boolean;
  }
  interface FastifyInstance {
    /** The open change streams (`/v1/changes/stream`): how many, for tests and operators. */
    changeStreams: ChangeStreams;
  }
}
