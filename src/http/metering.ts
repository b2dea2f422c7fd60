/**
 * Metering (spec §8, served-shapes §11): every GET of `/` and `/v1/*` (unknown /v1 paths included: the call is
 * spent before the 404) counts against the caller's daily limit: per key when a valid key is sent, else per
 * client IP. Discovery documents (/openapi.json, /llms.txt, /schemas, /docs), /health, the probes /healthz and
 * /readyz (a load balancer polls them every few seconds from one address: metered, it would spend that address's
 * budget and then be refused with 429, taking the service out of rotation), and OPTIONS are free;
 * POST /v1/keys has its own per-IP limit; POST /mcp and POST /a2a spend from the caller's daily budget. Every metered response carries RateLimit-* headers; a 429 adds
 * Retry-After and a hint.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { Limits, MeterResult } from './limits.ts';

/** One call to meter, from either door: the Fastify hook or the hot read path (`fast-path.ts`). */
export interface MeterCall {
  method: string;
  /** The path and query as received (after trailing-slash stripping on the Fastify side). */
  url: string;
  /** The client address (`clientIp`). */
  ip: string;
  /** The key the call presents (`Authorization: Bearer …` or `?key=…`), if any. */
  key: string | undefined;
}

/** Where `meterCall` puts the RateLimit-* headers: flat `[name, value, …]`. */
export type HeaderList = string[];

/** Whether a call spends from a daily budget: `/` and `/v1/*` reads and the agent faces; nothing else. */
export function isMetered(method: string, url: string): boolean {
  // The agent faces spend from the same daily budget (spec §8: limits apply to all endpoints).
  if (method === 'POST') return url === '/mcp' || url.startsWith('/mcp?') || url === '/a2a' || url.startsWith('/a2a?');
  if (method !== 'GET' && method !== 'HEAD') return false;
  return url === '/' || url.startsWith('/?') || url.startsWith('/v1/');
}

/**
 * The caller's address: the socket's peer or, when PMREF_TRUST_PROXY is on, the last entry of
 * `X-Forwarded-For`: the one the trusted proxy in front of the service appended. Earlier entries come from
 * the client and could be forged to dodge the limits, so they are never used. The one definition both doors
 * (Fastify and the hot path) use.
 */
export function clientIp(raw: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = raw.headers['x-forwarded-for'];
    const header = Array.isArray(xff) ? xff.join(',') : xff;
    if (header) {
      const last = header.slice(header.lastIndexOf(',') + 1).trim();
      if (last) return last;
    }
  }
  return raw.socket.remoteAddress ?? '';
}

/** The key in an `Authorization: Bearer …` header; undefined when there is none. */
export function bearerKey(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m?.[1] || undefined;
}

/** The key a Fastify request presents: `Authorization: Bearer …` or `?key=…`; undefined when none. */
export function presentedKey(req: FastifyRequest): string | undefined {
  const bearer = bearerKey(req.headers.authorization);
  if (bearer) return bearer;
  const q = (req.query as Record<string, unknown> | undefined)?.key;
  if (typeof q === 'string' && q !== '') return q;
  if (Array.isArray(q) && typeof q[0] === 'string') return q[0];
  return undefined;
}

/** A count as the hints print it: 1,000. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The 401 hint: names this deployment's limits (PMREF_ANON_DAILY_LIMIT, PMREF_KEY_DAILY_LIMIT), never the defaults.
 * @example invalidKeyHint(defaultLimits()) // 'Omit the key for anonymous access (1,000 requests/day per IP), …'
 */
export function invalidKeyHint(limits: Pick<Limits, 'anonDaily' | 'keyDaily'>): string {
  return (
    `Omit the key for anonymous access (${count(limits.anonDaily)} requests/day per IP), ` +
    `or get one with POST /v1/keys {"email": …} for ${count(limits.keyDaily)}/day.`
  );
}

/**
 * Meters one call and adds its RateLimit-* headers to `headers`. Returns whether it was keyed; throws (or rejects with)
 * ApiError 401 for an unknown key and 429 over the limit. Synchronous on the common path (anonymous call,
 * in-memory counters), so that path allocates no promise.
 */
export function meterCall(ctx: AppContext, call: MeterCall, headers: HeaderList): boolean | Promise<boolean> {
  if (!isMetered(call.method, call.url)) return false;
  if (call.key === undefined) {
    const r = ctx.limits.meter.consume(`ip:${call.ip}`, ctx.limits.anonDaily, ctx.tick());
    if (r instanceof Promise) return r.then((res) => apply(ctx, false, headers, res));
    return apply(ctx, false, headers, r);
  }
  return ctx.keys
    .find(call.key)
    .then((record) => {
      if (!record) {
        throw new ApiError('invalid_api_key', 'Invalid API key', invalidKeyHint(ctx.limits));
      }
      return ctx.limits.meter.consume(`key:${record.key_hash}`, record.daily_limit, ctx.tick());
    })
    .then((res) => apply(ctx, true, headers, res));
}

/**
 * Meters a Fastify request (the `onRequest` hook); sets `req.keyed`. A request the hot path already metered
 * and refused carries that refusal (`handOverRefused`) and is not metered twice.
 */
export function meter(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
  const refused = (req.raw as Refusable)[REFUSED];
  if (refused) throw refused;
  const call: MeterCall = {
    method: req.method,
    url: req.url,
    ip: clientIp(req.raw, ctx.trustProxy),
    key: presentedKey(req),
  };
  const headers: HeaderList = [];
  const setHeaders = (): void => {
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1]);
  };
  let keyed: boolean | Promise<boolean>;
  try {
    keyed = meterCall(ctx, call, headers);
  } finally {
    setHeaders();
  }
  if (typeof keyed === 'boolean') {
    req.keyed = keyed;
    return undefined;
  }
  return keyed.then(
    (k) => {
      setHeaders();
      req.keyed = k;
    },
    (err: unknown) => {
      setHeaders();
      throw err;
    },
  );
}

const REFUSED = Symbol('pmref.meterRefused');
type Refusable = IncomingMessage & { [REFUSED]?: Error };

/** Marks a raw request the hot path metered and refused, before handing it to Fastify to answer. */
export function handOverRefused(raw: IncomingMessage, error: Error): void {
  (raw as Refusable)[REFUSED] = error;
}

function apply(ctx: AppContext, keyed: boolean, headers: HeaderList, r: MeterResult): boolean {
  headers.push(
    'ratelimit-limit',
    String(r.limit),
    'ratelimit-remaining',
    String(r.remaining),
    'ratelimit-reset',
    String(r.resetSeconds),
  );
  if (r.allowed) return keyed;
  const limit = r.limit;
  const hint = keyed
    ? `This key allows ${count(limit)} calls/day; the count resets at 00:00 UTC.`
    : `Get a free key for ${count(ctx.limits.keyDaily)}/day: POST /v1/keys {"email": …}. The count resets at 00:00 UTC.`;
  throw new ApiError(
    'rate_limited',
    keyed
      ? 'Daily rate limit exceeded'
      : `Daily rate limit exceeded: anonymous access allows ${limit} requests/day per IP`,
    hint,
    { 'retry-after': String(r.resetSeconds) },
  );
}
