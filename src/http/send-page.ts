/**
 * Sends the explorer's server-rendered pages (issue 17 item 6) and decides, for `/`, whether a client asked
 * for a page or for JSON.
 *
 * Pages render per request from the plain data QueryService returns (a page of 25 rows renders in well under a
 * millisecond), so their ETag is a hash of the bytes: a client holding the page gets a 304 and an unchanged
 * page after a refresh keeps its ETag. They expire at the next refresh like the data they show.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOCUMENT_HEADERS } from '../site/index.ts';
import type { AppContext } from './context.ts';

/**
 * The policy of every HTML page: nothing from elsewhere, no script at all, inline styles only (the pages carry
 * one inline stylesheet), images from this host or data URIs, never framed.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const HTML = 'text/html; charset=utf-8';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [media = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = media.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The quality an Accept header gives a media type: that of its most specific matching range (RFC 9110 §12.5.1). */
function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' ? 0 : -1;
    if (specificity > best) {
      best = specificity;
      q = r.q;
    }
  }
  return q;
}

/**
 * True when the client prefers an HTML page to JSON: `text/html` is acceptable and ranked strictly above
 * `application/json`. A browser's navigation (`text/html,…,*\/*;q=0.8`) gets the page; `curl` (`*\/*`), `fetch`
 * and every JSON client, which rank both alike or ask for JSON, keep getting JSON, as before the page existed.
 *
 * @example prefersHtml('text/html,application/xhtml+xml,*\/*;q=0.8') // true
 * @example prefersHtml('*\/*') // false
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const html = qualityOf(ranges, 'text', 'html');
  return html > 0 && html > qualityOf(ranges, 'application', 'json');
}

/** Sends one explorer page with ETag/304, the page CSP and the document headers. */
export function sendPage(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  html: string,
  vary?: string,
): FastifyReply {
  const bytes = Buffer.from(html);
  const etag = `"p-${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
  reply
    .header('etag', etag)
    .header('cache-control', `public, max-age=${ctx.tick().toRefresh}`)
    .header('content-security-policy', PAGE_CSP)
    .headers(DOCUMENT_HEADERS);
  if (vary) reply.header('vary', vary);
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) return reply.code(304).send();
  return reply.header('content-type', HTML).send(bytes);
}

/**
 * The listed query parameters of a request as the page echoes them: the first value of each, absent when
 * empty, at most 200 characters (a longer value is cut, never an error: the form's own inputs stop at 200).
 */
export function pageParams(query: unknown, keys: readonly string[]): Record<string, string | undefined> {
  const q = (query ?? {}) as Record<string, unknown>;
  const out: Record<string, string | undefined> = {};
  for (const k of keys) {
    const raw = q[k];
    const v = Array.isArray(raw) ? raw[0] : raw;
    if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim().slice(0, 200);
  }
  return out;
}
