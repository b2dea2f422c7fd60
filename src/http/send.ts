/**
 * Sends read-model bodies with HTTP manners (served-shapes §1 (c)): ETag and 304 on If-None-Match,
 * Cache-Control expiring at the next refresh, and precompressed bytes when the client accepts them.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
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

/**
 * The encoding to use for a request's Accept-Encoding, or null for identity: `held` (the encoding a body is
 * already held in, so it is sent as it is) when accepted, else brotli, else gzip.
 */
export function pickEncoding(
  acceptEncoding: string | undefined,
  held: ContentEncoding | null = null,
): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = acceptEncoding
    .toLowerCase()
    .split(',')
    .map((p) => p.trim().split(';'))
    .filter(([, q]) => q === undefined || !/^\s*q=0(\.0*)?\s*$/.test(q))
    .map(([name]) => name?.trim());
  if (held && accepted.includes(held)) return held;
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

/** How one body is answered: the status, the headers beyond the common ones, and the bytes (none for a 304). */
export interface BodyAnswer {
  status: 200 | 304;
  /** Flat `[name, value, name, value, …]`, lower-case names, as `ServerResponse.writeHead` takes them. */
  headers: string[];
  payload: Buffer | null;
}

/**
 * Decides how one read-model body is answered: 304 when the client holds it, else the (possibly
 * precompressed) bytes. A body held gzip (json-bytes.ts, `GzipBody`) goes out as it is to every client that
 * accepts gzip, brotli or not: a second compressed form would cost memory per body. Shared by the Fastify routes (`sendBody`) and the hot read path (`fast-path.ts`), so
 * both send the very same response.
 */
export function answerBody(
  body: Body,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  maxAge: number,
  contentType: string = JSON_TYPE,
): BodyAnswer {
  const headers = [
    'etag',
    body.etag,
    'cache-control',
    `public, max-age=${maxAge}`,
    'vary',
    'Accept-Encoding, Authorization',
  ];
  if (etagMatches(ifNoneMatch, body.etag)) return { status: 304, headers, payload: null };
  headers.push('content-type', contentType);
  if (body.length >= COMPRESS_MIN_BYTES) {
    const encoding = pickEncoding(acceptEncoding, body.heldEncoding);
    if (encoding) {
      headers.push('content-encoding', encoding);
      return { status: 200, headers, payload: body.encoded(encoding) };
    }
  }
  return { status: 200, headers, payload: body.bytes };
}

/** Sends one body through Fastify (see `answerBody`). */
export function sendBody(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  body: Body,
  opts: SendOptions = {},
): FastifyReply {
  const answer = answerBody(
    body,
    req.headers['if-none-match'],
    req.headers['accept-encoding'],
    opts.maxAge ?? ctx.tick().toRefresh,
    opts.contentType,
  );
  const h = answer.headers;
  for (let i = 0; i < h.length; i += 2) reply.header(h[i] as string, h[i + 1]);
  reply.code(answer.status);
  return answer.payload ? reply.send(answer.payload) : reply.send();
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Sends a JSON value computed for this request (key creation, `/v1/status`, the marks feed) pretty-printed
 * (served-shapes §1) and `no-store`. A large body is compressed when the client accepts it, on the thread pool
 * so the event loop keeps serving meanwhile (brotli at quality 4: the default 11 costs seconds on a
 * multi-megabyte page).
 */
export async function sendJson(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  value: unknown,
): Promise<FastifyReply> {
  const bytes = Buffer.from(JSON.stringify(value, null, 2));
  reply.code(status).header('content-type', JSON_TYPE).header('cache-control', 'no-store');
  reply.header('vary', 'Accept-Encoding, Authorization');
  const encoding = bytes.length >= COMPRESS_MIN_BYTES ? pickEncoding(req.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(bytes);
  const packed =
    encoding === 'br'
      ? await brotliAsync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        })
      : await gzipAsync(bytes, { level: 6 });
  reply.header('content-encoding', encoding);
  return reply.send(packed);
}
