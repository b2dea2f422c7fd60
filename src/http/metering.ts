/**
 * Metering (spec §8, served-shapes §11): every GET of `/` and `/v1/*` (unknown /v1 paths included: the call is
 * spent before the 404) counts against the caller's daily limit: per key when a valid key is sent, else per
 * client IP. Discovery documents (/openapi.json, /llms.txt, /schemas, /docs), /health and OPTIONS are free;
 * POST /v1/keys has its own per-IP limit; POST /mcp and POST /a2a spend from the caller's daily budget. Every metered response carries RateLimit-* headers; a 429 adds
 * Retry-After and a hint.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { MeterResult } from './limits.ts';

function isMetered(method: string, url: string): boolean {
  // The agent faces spend from the same daily budget (spec §8: limits apply to all endpoints).
  if (method === 'POST') return url === '/mcp' || url.startsWith('/mcp?') || url === '/a2a' || url.startsWith('/a2a?');
  if (method !== 'GET' && method !== 'HEAD') return false;
  return url === '/' || url.startsWith('/?') || url.startsWith('/v1/');
}

/** The key a request presents: `Authorization: Bearer …` or `?key=…`; undefined when none. */
export function presentedKey(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m?.[1]) return m[1];
  }
  const q = (req.query as Record<string, unknown> | undefined)?.key;
  if (typeof q === 'string' && q !== '') return q;
  if (Array.isArray(q) && typeof q[0] === 'string') return q[0];
  return undefined;
}

function setRateHeaders(reply: FastifyReply, limit: number, remaining: number, reset: number): void {
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', String(remaining));
  reply.header('ratelimit-reset', String(reset));
}

/**
 * Meters one request; resolves when it may proceed, throws ApiError (401, 429) when it may not. Synchronous
 * (returns undefined) on the common path: anonymous request, in-memory counters.
 */
export function meter(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
  if (!isMetered(req.method, req.url)) return undefined;
  const key = presentedKey(req);
  if (key === undefined) {
    return settle(ctx, req, reply, `ip:${req.ip}`, ctx.limits.anonDaily);
  }
  return ctx.keys.find(key).then((record) => {
    if (!record) {
      throw new ApiError(
        'invalid_api_key',
        'Invalid API key',
        'Omit the key for anonymous access (1,000 requests/day), or get one with POST /v1/keys {"email": …}.',
      );
    }
    req.keyed = true;
    return settle(ctx, req, reply, `key:${record.key_hash}`, record.daily_limit);
  });
}

function settle(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  bucket: string,
  limit: number,
): Promise<void> | undefined {
  const r = ctx.limits.meter.consume(bucket, limit, ctx.tick());
  if (r instanceof Promise) return r.then((res) => apply(ctx, req, reply, res));
  apply(ctx, req, reply, r);
  return undefined;
}

function apply(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, r: MeterResult): void {
  setRateHeaders(reply, r.limit, r.remaining, r.resetSeconds);
  if (r.allowed) return;
  const limit = r.limit;
  const hint = req.keyed
    ? `This key allows ${limit} calls/day; the count resets at 00:00 UTC.`
    : `Get a free key for ${ctx.limits.keyDaily.toLocaleString('en-US')}/day: POST /v1/keys {"email": …}. The count resets at 00:00 UTC.`;
  throw new ApiError(
    'rate_limited',
    req.keyed
      ? 'Daily rate limit exceeded'
      : `Daily rate limit exceeded: anonymous access allows ${limit} requests/day per IP`,
    hint,
    { 'retry-after': String(r.resetSeconds) },
  );
}
