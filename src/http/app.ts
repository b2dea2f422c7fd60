/**
 * The fastify app factory (STYLE.md): `buildApp(...)` returns an unstarted instance; only `src/commands/*`
 * call `listen`. HTTP manners of served-shapes §1 and §11 live here: common headers, CORS, OPTIONS, trailing
 * slashes, 405, metering, and the one error shape; and, when asked for, request metrics (issue 19).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { HttpMetrics } from '../metrics/index.ts';
import {
  ChangeFeed,
  MarketHistoryService,
  MarksFeed,
  QueryService,
  ReadModelHolder,
  type ReadModelSource,
  StatusService,
} from '../serve/index.ts';
import { registerSiteBeforeRoutes, registerSiteRoutes } from '../site/index.ts';
import { methodologyMarkdown, SitePages } from '../site/pages/index.ts';
import type { Store } from '../store/index.ts';
import { ChangeStreams } from './change-stream.ts';
import type { App, AppContext, HttpTick } from './context.ts';
import { ApiError, type ErrorCode, errorBody, notFound, statusOf } from './errors.ts';
import { withFastPath } from './fast-path.ts';
import { KeyRegistry } from './keys.ts';
import { KnownPaths } from './known-paths.ts';
import { defaultLimits, type Limits, secondsToUtcMidnight } from './limits.ts';
import { liveExamples } from './live-examples.ts';
import { meter } from './metering.ts';
import {
  clientErrorHandler,
  MAX_URL_LENGTH,
  type PreRoutingDeps,
  refuseNonHttp,
  setServerManners,
} from './pre-routing.ts';
import { registerRoutes } from './routes/index.ts';
import type { ReadinessOptions } from './routes/readyz.get.ts';
import { JSON_TYPE, secondsToNextRefresh } from './send.ts';

export interface AppConfig {
  /** Public origin used in `_provenance`, `_notice` and docs; defaults to http://127.0.0.1. */
  origin: string;
  trustProxy: boolean;
  refreshMinutes: number;
  /** Log requests (off by default: the hot path stays lean; errors are always logged). */
  logRequests?: boolean;
}

export interface BuildAppOptions {
  store: Store;
  readModel: ReadModelSource;
  config: AppConfig;
  clock?: () => Date;
  logger?: FastifyBaseLogger;
  limits?: Limits;
  /**
   * What `/readyz` judges beyond the model: the age bound (default 180 minutes, PMREF_READY_MAX_AGE_MINUTES) and
   * whether the server drains (default never). The served data's age comes from `readModel` when it is a
   * ReadModelHolder; a fixed model's age is unknown, so it is never judged fresh.
   */
  readiness?: { maxAgeMinutes?: number; draining?: () => boolean };
  /** Request metrics (PMREF_METRICS_PORT set). Absent: no per-request instrumentation at all. */
  metrics?: HttpMetrics;
  /** The change stream's heartbeat (default 15 s, PMREF_CHANGES_HEARTBEAT_SECONDS) and replay bound (tests). */
  changes?: { heartbeatMs?: number; replayBound?: number };
}

/** The default of PMREF_CHANGES_HEARTBEAT_SECONDS, for apps built without a configuration. */
const DEFAULT_CHANGES_HEARTBEAT_SECONDS = 15;

/** The default of PMREF_READY_MAX_AGE_MINUTES (config.ts says why), for apps built without a configuration. */
const DEFAULT_READY_MAX_AGE_MINUTES = 180;

/**
 * Headers on every response (served-shapes §1), plus the security headers that apply to JSON: nosniff and a
 * deny-all CSP (which also forbids framing). HTML documents add referrer and framing headers of their own
 * (src/site/headers.ts). Each header line is a cost on every request, for the server and for every client
 * parsing it (a third of the small-body req/s in the benchmark), so only headers with an effect are sent:
 * `Cross-Origin-Resource-Policy: cross-origin` was dropped because it restates the default.
 */
const COMMON_HEADERS = {
  'x-schema-version': 'v0.2.0',
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-expose-headers':
    'X-Schema-Version, X-Request-Id, ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

const COMMON_HEADER_LIST = Object.entries(COMMON_HEADERS);
const COMMON_HEADER_FLAT = COMMON_HEADER_LIST.flat();

/** POST bodies are tiny ({email}); anything bigger is refused with 413. Routes may set their own (`/mcp`). */
export const BODY_LIMIT_BYTES = 4096;

function stripTrailingSlash(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // The docs page lives at /docs/ (its assets are relative); every other trailing slash is stripped.
  if (path.length <= 1 || !path.endsWith('/') || path === '/docs/') return url;
  // A scan, not /\/+$/: that regex backtracks quadratically on a long run of slashes that is not trailing, and
  // this runs before any length check (measured: 0.7 s of event loop for a 16 KB path of slashes and `x/`).
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  const trimmed = path.slice(0, end) || '/';
  return q === -1 ? trimmed : trimmed + url.slice(q);
}

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Sends the one error shape, with the common headers and an `X-Request-Id` equal to the body's `request_id`.
 * The onRequest hook sets those headers too, but not every error passes it: Fastify answers some requests
 * (a URL the router cannot decode, its not-found fallback) without running hooks, so an error response does
 * not count on them having run.
 */
export function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  hint?: string,
  headers: Record<string, string> = {},
): FastifyReply {
  const requestId = String(reply.request.id);
  const body = errorBody(code, message, requestId, hint);
  const raw = reply.raw;
  for (const [name, value] of COMMON_HEADER_LIST) raw.setHeader(name, value);
  raw.setHeader('x-request-id', requestId);
  reply.code(statusOf(code));
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  reply.header('content-type', JSON_TYPE);
  reply.header('cache-control', 'no-store');
  return reply.send(Buffer.from(JSON.stringify(body, null, 2)));
}

/** 414 in the one error shape. */
function sendUriTooLong(reply: FastifyReply): FastifyReply {
  return sendError(
    reply,
    'uri_too_long',
    'Request URL is too long',
    `Keep the path and query under ${MAX_URL_LENGTH} characters; page through lists with limit and offset.`,
  );
}

function translateError(err: FastifyError & { validation?: unknown }, req: FastifyRequest): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err.validation) return new ApiError('invalid_request', `Invalid request: ${err.message}`);
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // The limit of the route that refused it: /mcp and /a2a take 64 KB, the REST routes 4 KB.
      return new ApiError('payload_too_large', `Request body is over ${req.routeOptions.bodyLimit} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'unsupported_media_type',
        'Send the body as application/json',
        'Content-Type: application/json',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_body', 'Body must be JSON: { "email": "you@example.com" }');
    default:
      break;
  }
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return new ApiError('invalid_body', 'Body must be JSON: { "email": "you@example.com" }');
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('invalid_request', 'Invalid request');
  }
  return null;
}

/** Builds the app: routes, metering, docs. Call `ready()`/`listen()` on the result. */
export async function buildApp(opts: BuildAppOptions): Promise<App> {
  const clock = opts.clock ?? (() => new Date());
  const limits = opts.limits ?? defaultLimits();
  const idPrefix = randomBytes(4).toString('hex');
  let seq = 0;
  const nextRequestId = (): string => `${idPrefix}-${(++seq).toString(36)}`;
  let tickCache: { second: number; tick: HttpTick } = {
    second: Number.NaN,
    tick: { day: '', toMidnight: 0, toRefresh: 0 },
  };
  const tick = (): HttpTick => {
    const now = clock();
    const second = Math.floor(now.getTime() / 1000);
    if (second !== tickCache.second) {
      tickCache = {
        second,
        tick: {
          day: now.toISOString().slice(0, 10),
          toMidnight: secondsToUtcMidnight(now),
          toRefresh: secondsToNextRefresh(now, opts.config.refreshMinutes),
        },
      };
    }
    return tickCache.tick;
  };
  const changeFeed = new ChangeFeed(opts.store, opts.readModel, { clock, origin: opts.config.origin });
  const changeStreams = new ChangeStreams(changeFeed, {
    heartbeatMs: opts.changes?.heartbeatMs ?? DEFAULT_CHANGES_HEARTBEAT_SECONDS * 1000,
    ...(opts.changes?.replayBound === undefined ? {} : { replayBound: opts.changes.replayBound }),
  });
  const history = new MarketHistoryService(opts.store, opts.readModel);
  const ctx: AppContext = {
    query: new QueryService(opts.readModel, clock),
    status: new StatusService(opts.store, opts.readModel, {
      clock,
      refreshMinutes: opts.config.refreshMinutes,
      origin: opts.config.origin,
      onStoreError: (err) => opts.logger?.error({ err }, 'status: the store cannot be read'),
      rateLimits: () => limits.meter.health(),
    }),
    marks: new MarksFeed(opts.store, opts.readModel, { clock, origin: opts.config.origin }),
    history,
    changes: changeFeed,
    changeStreams,
    keys: new KeyRegistry(opts.store, clock),
    limits,
    clock,
    tick,
    refreshMinutes: opts.config.refreshMinutes,
    trustProxy: opts.config.trustProxy,
    origin: opts.config.origin,
    pages: new SitePages(opts.readModel, opts.store, methodologyMarkdown(), history),
  };

  // One trusted proxy hop (the nearest), as `clientIp` (metering.ts) reads X-Forwarded-For.
  const trustNearest = (_address: string, hop: number): boolean => opts.config.trustProxy && hop < 1;
  const preRouting: PreRoutingDeps = {
    nextRequestId,
    commonHeaders: COMMON_HEADER_LIST,
    logDebug: (detail, message) => opts.logger?.debug(detail, message),
  };
  const knownPaths = new KnownPaths();
  const draining = opts.readiness?.draining ?? (() => false);
  const holder = opts.readModel instanceof ReadModelHolder ? opts.readModel : null;
  // Change streams hear of new changes when the holder looks for a new generation (its poll, Redis announcements).
  const stopWatchingChanges = holder ? holder.onRefresh(() => void changeFeed.check()) : () => {};
  const readiness: ReadinessOptions = {
    maxAgeMinutes: opts.readiness?.maxAgeMinutes ?? DEFAULT_READY_MAX_AGE_MINUTES,
    draining,
    served: holder ? () => holder.served() : null,
  };
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: !opts.config.logRequests }),
    trustProxy: trustNearest,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: nextRequestId,
    // A graceful stop (issue 19): requests that still arrive on open connections while the server drains are
    // answered as usual, with `Connection: close` (Fastify adds it), rather than with Fastify's own 503 body,
    // which is not the one error shape; `/readyz` answers 503 "shutting down" then. Idle kept-alive connections
    // are closed when the drain begins.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    rewriteUrl: (req) => stripTrailingSlash(req.url ?? '/'),
    // A path parameter may be as long as a URL may be (a venue market URL passed as an id runs past Fastify's
    // default of 100): the one length limit is MAX_URL_LENGTH, answered 414 in the one error shape.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    // Errors raised before routing, in the one error shape (pre-routing.ts): node's parser errors here, a
    // URL the router cannot decode in `frameworkErrors`.
    clientErrorHandler: clientErrorHandler(preRouting),
    frameworkErrors: (err, _req, reply) => {
      if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return void sendUriTooLong(reply);
      sendError(
        reply,
        'invalid_request',
        'Malformed URL: the path is not valid percent-encoded UTF-8',
        'Percent-encode the path (RFC 3986), e.g. a space as %20 and a slash inside an id as %2F.',
      );
    },
    // The hot read path answers plain event and market lookups ahead of Fastify (fast-path.ts), unless every
    // request is to be logged (Fastify logs them); in front of both, a request that is not HTTP/1.x is refused
    // (pre-routing.ts `refuseNonHttp`). The server keeps the timeouts Fastify would have set.
    serverFactory: (handler, options) => {
      const listener = refuseNonHttp(
        preRouting,
        opts.config.logRequests
          ? handler
          : withFastPath(
              {
                ctx,
                nextRequestId,
                commonHeaders: COMMON_HEADER_FLAT,
                draining,
                ...(opts.metrics ? { metrics: opts.metrics } : {}),
              },
              handler,
            ),
      );
      const server = createServer(listener);
      setServerManners(server, preRouting, listener);
      const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options;
      if (typeof keepAliveTimeout === 'number') server.keepAliveTimeout = keepAliveTimeout;
      if (typeof requestTimeout === 'number') server.requestTimeout = requestTimeout;
      if (typeof connectionTimeout === 'number') server.setTimeout(connectionTimeout);
      if (typeof maxRequestsPerSocket === 'number' && maxRequestsPerSocket > 0) {
        server.maxRequestsPerSocket = maxRequestsPerSocket;
      }
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Query parameters are lenient by contract (unknown values → 200 with a notice, out-of-range → clamped) and
  // path parameters are any string (an unknown one is a 404), so the query service judges both; their zod
  // schemas document them in /openapi.json and are not re-run per request. Bodies are validated.
  app.setValidatorCompiler((route) =>
    route.httpPart === 'querystring' || route.httpPart === 'params'
      ? (value: unknown) => ({ value })
      : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]),
  );
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('keyed', false);
  app.decorate('changeStreams', changeStreams);
  // Open change streams never end on their own: a graceful stop ends them first, so the drain does not wait on them.
  app.addHook('preClose', (done) => {
    stopWatchingChanges();
    changeStreams.closeAll();
    done();
  });

  app.addHook('onRoute', (route) => knownPaths.add(route.url, route.method));

  // Request metrics: one observation per answered request, labelled by the route's pattern (never the raw URL;
  // a request no route takes has no pattern and counts as `unmatched`). Fastify times every reply anyway
  // (`elapsedTime`, from routing to the response's end). Requests the hot path answers are recorded there.
  const metrics = opts.metrics;
  if (metrics) {
    app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const route = req.is404 ? undefined : req.routeOptions.url;
      metrics.recorder(route, req.method).record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }

  /**
   * A request no route takes: 405 with `Allow` when its path has routes under other methods, else 404. Answered
   * from the onRequest hook, before any body is read, so that a wrong method with a body (an empty or
   * malformed JSON one included) is a 405 and never the body parser's 400.
   */
  const answerUnrouted = (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const allow = knownPaths.allowOf(pathOf(req.url));
    // A route that took the request and then called `callNotFound` (an unknown schema name) is a 404: the
    // method is allowed there, only the resource is missing.
    if (allow !== null && !allow.split(', ').includes(req.method)) {
      return sendError(reply, 'method_not_allowed', 'Method not allowed', `This path answers ${allow}.`, {
        allow,
      });
    }
    const e = notFound.path();
    return sendError(reply, e.code, e.message, e.hint);
  };

  // One hook for every request: common headers, the URL length, metering, then the answer to a request no
  // route takes. A callback hook (not async) so the common path, an anonymous request on in-memory counters,
  // allocates no promise. A hook that answers does not call `done`.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const raw = reply.raw;
    for (const [name, value] of COMMON_HEADER_LIST) raw.setHeader(name, value);
    raw.setHeader('x-request-id', req.id);
    if (req.originalUrl.length > MAX_URL_LENGTH) {
      sendUriTooLong(reply);
      return;
    }
    const proceed = (): void => {
      if (req.is404) answerUnrouted(req, reply);
      else done();
    };
    let pending: Promise<void> | undefined;
    try {
      pending = meter(ctx, req, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (pending) pending.then(proceed, done);
    else proceed();
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    // Fastify's last-resort not-found (a method its router has no table for) is a request no route takes, not
    // an invalid one; refuseNonHttp keeps such methods away, and this keeps the answer true if one gets by.
    if (err.code === 'FST_ERR_NOT_FOUND') return answerUnrouted(req, reply);
    const apiError = translateError(err, req);
    if (apiError) return sendError(reply, apiError.code, apiError.message, apiError.hint, apiError.headers);
    req.log.error({ err, url: req.url, request_id: req.id }, 'unhandled error');
    return sendError(
      reply,
      'internal',
      'Internal error',
      `Retry; if it persists, contact the operator quoting request_id ${String(req.id)}.`,
    );
  });
  // Reached only if the onRequest hook did not answer (it always does today); the same answer either way.
  app.setNotFoundHandler((req, reply) => answerUnrouted(req, reply));
  // OPTIONS on any path: 204 with the CORS headers only (served-shapes §1).
  app.route({
    method: 'OPTIONS',
    url: '*',
    schema: { hide: true },
    handler: async (_req, reply) => reply.code(204).send(),
  });

  const site = {
    origin: ctx.origin,
    readModel: opts.readModel,
    liveExamples: () => liveExamples(ctx.query),
  };
  const plain = app as unknown as FastifyInstance;
  await registerSiteBeforeRoutes(plain, site);
  registerRoutes(app, ctx, readiness);
  await registerSiteRoutes(plain, site);
  return app;
}
