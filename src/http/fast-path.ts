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
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Body } from '../serve/index.ts';
import type { AppContext } from './context.ts';
import { bearerKey, clientIp, handOverRefused, type MeterCall, meterCall } from './metering.ts';
import { MAX_URL_LENGTH } from './pre-routing.ts';
import { answerBody } from './send.ts';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface FastPathDeps {
  ctx: AppContext;
  /** The app's request id generator (Fastify's `genReqId`). */
  nextRequestId: () => string;
  /** The headers on every response, flat `[name, value, …]` (app.ts). */
  commonHeaders: readonly string[];
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
  const { ctx } = deps;
  return (req, res) => {
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
    if (typeof metered === 'boolean') answer(deps, req, res, body, rate, fallback);
    else answerLater(deps, req, res, body, rate, metered, fallback);
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
  deps: FastPathDeps,
  req: IncomingMessage,
  res: ServerResponse,
  body: Body,
  rate: string[],
  metered: Promise<boolean>,
  fallback: RequestListener,
): void {
  metered.then(
    () => answer(deps, req, res, body, rate, fallback),
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
  deps: FastPathDeps,
  req: IncomingMessage,
  res: ServerResponse,
  body: Body,
  rate: string[],
  fallback: RequestListener,
): void {
  try {
    const a = answerBody(body, req.headers['if-none-match'], req.headers['accept-encoding'], deps.ctx.tick().toRefresh);
    const headers = [...deps.commonHeaders, 'x-request-id', deps.nextRequestId(), ...rate, ...a.headers];
    if (a.payload) headers.push('content-length', String(a.payload.length));
    res.writeHead(a.status, headers);
    res.end(a.payload ?? undefined);
  } catch (err) {
    if (res.headersSent) res.destroy(err as Error);
    else handOver(req, res, rate, err, fallback);
  }
}
