/**
 * The hot read path. `GET /v1/markets/{id}` and `GET /v1/events/{slug}` are the lookups clients and agents make
 * most, and their answers are precomputed bytes; for a 6 KB market, Fastify's per-request machinery (request
 * and reply objects, routing, hooks, a child logger) costs about as much as the bytes themselves. So this
 * listener sits in front of Fastify on the same `node:http` server and answers those lookups directly,
 * through the very functions the Fastify routes use: `QueryService` for the body, `meterCall` for the limits,
 * `answerBody` for ETag/304/Cache-Control/compression, and the app's common headers and request ids.
 *
 * It takes only requests that need nothing else: GET, a path of unreserved characters (no percent-escapes,
 * no trailing slash, no query string), an existing event or market. Everything else, a miss included, goes
 * to Fastify untouched, before anything is metered. After metering, a refusal (401 for an unknown key, 429
 * over the limit) or a failure while answering goes to Fastify marked with that error, so it is answered in
 * the one error shape (a failure as a 500 that leaks nothing) and not metered twice.
 *
 * With metrics on, what it answers is recorded under the same route labels as the Fastify routes
 * (`/v1/markets/:id`, `/v1/events/:slug`); what it hands to Fastify is recorded by Fastify's hook, once.
 * While the server drains it answers with `Connection: close`, as Fastify does, so kept-alive clients move on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { HttpMetrics, RouteRecorder } from '../metrics/index.ts';
import type { Body } from '../serve/index.ts';
import type { AppContext } from './context.ts';
import { bearerKey, clientIp, handOverRefused, type MeterCall, meterCall } from './metering.ts';
import { MAX_URL_LENGTH } from './pre-routing.ts';
import { getEventRoute } from './routes/events.get.ts';
import { getMarketRoute } from './routes/markets.get.ts';
import { answerBody } from './send.ts';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface FastPathDeps {
  ctx: AppContext;
  /** The app's request id generator (Fastify's `genReqId`). */
  nextRequestId: () => string;
  /** The headers on every response, flat `[name, value, …]` (app.ts). */
  commonHeaders: readonly string[];
  /** Request metrics, when on (PMREF_METRICS_PORT). */
  metrics?: HttpMetrics;
  /** True once the server drains (graceful stop): answers then close their connection. */
  draining?: () => boolean;
}

/** The two hot routes' recorders, looked up once. */
interface HotRecorders {
  market: RouteRecorder;
  event: RouteRecorder;
}

/** What `answer` needs beyond the request: the deps and the hot routes' recorders (null with metrics off). */
interface Answering {
  deps: FastPathDeps;
  recorders: HotRecorders | null;
}

const MARKETS = '/v1/markets/';
const EVENTS = '/v1/events/';
/** One path segment of RFC 3986 unreserved characters: the router would hand it to the route unchanged. */
const PLAIN_SEGMENT = /^[\w.~-]+$/;

/** The body a hot-path request asks for, or null when the request is not one the hot path takes. */
function hotBody(ctx: AppContext, method: string | undefined, url: string | undefined): Body | null {
  // An over-long URL is Fastify's to refuse (414), whatever it names.
  if (method !== 'GET' || url === undefined || url.length > MAX_URL_LENGTH) return null;
  let ref: string;
  if (url.startsWith(MARKETS)) {
    ref = url.slice(MARKETS.length);
    if (ref === 'movers' || !PLAIN_SEGMENT.test(ref)) return null;
    return ctx.query.getMarket(ref);
  }
  if (url.startsWith(EVENTS)) {
    ref = url.slice(EVENTS.length);
    if (!PLAIN_SEGMENT.test(ref)) return null;
    return ctx.query.getEvent(ref);
  }
  return null;
}

/** Wraps Fastify's request listener with the hot path. */
export function withFastPath(deps: FastPathDeps, fallback: RequestListener): RequestListener {
  const { ctx, metrics } = deps;
  const answering: Answering = {
    deps,
    recorders: metrics
      ? { market: metrics.recorder(getMarketRoute.url, 'GET'), event: metrics.recorder(getEventRoute.url, 'GET') }
      : null,
  };
  return (req, res) => {
    const started = answering.recorders ? performance.now() : 0;
    let body: Body | null;
    try {
      body = hotBody(ctx, req.method, req.url);
    } catch {
      body = null; // e.g. no read model yet: Fastify answers, in the one error shape
    }
    if (!body) {
      fallback(req, res);
      return;
    }
    const rate: string[] = [];
    let metered: boolean | Promise<boolean>;
    try {
      metered = meterCall(ctx, callOf(req, ctx.trustProxy), rate);
    } catch (err) {
      handOver(req, res, rate, err, fallback);
      return;
    }
    if (typeof metered === 'boolean') answer(answering, req, res, body, rate, fallback, started);
    else answerLater(answering, req, res, body, rate, metered, fallback, started);
  };
}

function callOf(req: IncomingMessage, trustProxy: boolean): MeterCall {
  return {
    method: 'GET',
    url: req.url as string,
    ip: clientIp(req, trustProxy),
    key: bearerKey(req.headers.authorization),
  };
}

/** A keyed call (or counters in Redis): answers once the meter has. */
function answerLater(
  answering: Answering,
  req: IncomingMessage,
  res: ServerResponse,
  body: Body,
  rate: string[],
  metered: Promise<boolean>,
  fallback: RequestListener,
  started: number,
): void {
  metered.then(
    () => answer(answering, req, res, body, rate, fallback, started),
    (err: unknown) => handOver(req, res, rate, err, fallback),
  );
}

/**
 * Hands a refused (401, 429) or failed call to Fastify, which answers it in the one error shape without
 * metering it again.
 */
function handOver(
  req: IncomingMessage,
  res: ServerResponse,
  rate: string[],
  err: unknown,
  fallback: RequestListener,
): void {
  for (let i = 0; i < rate.length; i += 2) res.setHeader(rate[i] as string, rate[i + 1] as string);
  handOverRefused(req, err instanceof Error ? err : new Error(String(err)));
  fallback(req, res);
}

/**
 * Writes the answer. Should anything in it throw (it has no known way to), the request goes to Fastify with
 * the error, which answers 500 in the one error shape and logs it: the server never crashes on a request.
 */
function answer(
  answering: Answering,
  req: IncomingMessage,
  res: ServerResponse,
  body: Body,
  rate: string[],
  fallback: RequestListener,
  started: number,
): void {
  const { deps, recorders } = answering;
  try {
    const a = answerBody(body, req.headers['if-none-match'], req.headers['accept-encoding'], deps.ctx.tick().toRefresh);
    const headers = [...deps.commonHeaders, 'x-request-id', deps.nextRequestId(), ...rate, ...a.headers];
    if (a.payload) headers.push('content-length', String(a.payload.length));
    if (deps.draining?.()) headers.push('connection', 'close');
    res.writeHead(a.status, headers);
    res.end(a.payload ?? undefined);
    if (recorders) {
      const recorder = (req.url as string).startsWith(MARKETS) ? recorders.market : recorders.event;
      recorder.record(a.status, (performance.now() - started) / 1000);
    }
  } catch (err) {
    if (res.headersSent) res.destroy(err as Error);
    else handOver(req, res, rate, err, fallback);
  }
}
