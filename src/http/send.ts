/**
 * Sends read-model bodies with HTTP manners (served-shapes §1 (c)): ETag and 304 on If-None-Match,
 * Cache-Control expiring at the next refresh, and precompressed bytes when the client accepts them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Body, COMPRESS_MIN_BYTES, type ContentEncoding } from '../serve/index.ts';
import type { AppContext } from './context.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Seconds from `now` to the next refresh boundary (every `minutes` from 00:00 UTC; hourly at minute 0). */
export function secondsToNextRefresh(now: Date, minutes: number): number {
  const period = minutes * 60_000;
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = now.getTime() - midnight;
  const next = midnight + (Math.floor(since / period) + 1) * period;
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** The encoding to use for a request's Accept-Encoding (brotli preferred), or null for identity. */
export function pickEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = acceptEncoding
    .toLowerCase()
    .split(',')
    .map((p) => p.trim().split(';'))
    .filter(([, q]) => q === undefined || !/^\s*q=0(\.0*)?\s*$/.test(q))
    .map(([name]) => name?.trim());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === etag || v === `W/${etag}`;
  });
}

export interface SendOptions {
  /** `refresh` (data: expires at the next refresh) or a fixed max-age in seconds (discovery documents). */
  maxAge?: number;
  contentType?: string;
}

/** Sends one body: 304 when the client holds it, else the (possibly compressed) bytes. */
export function sendBody(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  body: Body,
  opts: SendOptions = {},
): FastifyReply {
  const maxAge = opts.maxAge ?? ctx.tick().toRefresh;
  reply.header('etag', body.etag);
  reply.header('cache-control', `public, max-age=${maxAge}`);
  reply.header('vary', 'Accept-Encoding, Authorization');
  if (etagMatches(req.headers['if-none-match'], body.etag)) {
    return reply.code(304).send();
  }
  reply.header('content-type', opts.contentType ?? JSON_TYPE);
  if (body.bytes.length >= COMPRESS_MIN_BYTES) {
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (encoding) {
      reply.header('content-encoding', encoding);
      return reply.send(body.encoded(encoding));
    }
  }
  return reply.send(body.bytes);
}

/** Sends a small, uncached JSON value pretty-printed (served-shapes §1): key creation and the like. */
export function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  reply.code(status).header('content-type', JSON_TYPE).header('cache-control', 'no-store');
  return reply.send(Buffer.from(JSON.stringify(value, null, 2)));
}
