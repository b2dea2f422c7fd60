/**
 * venue_b client: Gamma `GET /events` (offset/limit paging, `closed=false` then `closed=true`) with
 * nested markets, then CLOB `GET /book?token_id=` for the YES token of the most-traded open markets
 * (bounded by `maxBookCalls`; the rest get sizes null with `null_by_venue_limitation`).
 */
import { z } from 'zod';
import { VENUE_SHAPES } from '../drift/manifests.ts';
import { createDriftWatch } from '../drift/watch.ts';
import { createVenueHttp, mapBounded, VenueFetchError } from '../http.ts';
import { decodeJsonList, idOrNull, isRecord, numOrNull } from '../parse.ts';
import type { RawVenuePull, VenueClientOptions } from '../types.ts';

export const VENUE_B_DEFAULT_BASE_URL = 'https://gamma-api.polymarket.com';
export const VENUE_B_DEFAULT_CLOB_URL = 'https://clob.polymarket.com';
const MAX_PAGES = 10_000;
const EventsPageSchema = z.array(z.unknown());

export function countVenueBRecords(events: readonly unknown[]): number {
  let n = 0;
  for (const e of events) {
    const markets = isRecord(e) && Array.isArray(e.markets) ? e.markets.length : 0;
    n += markets > 0 ? markets : 1;
  }
  return n;
}

/**
 * Pulls every Gamma event (open and closed) with nested markets, and a bounded set of CLOB books.
 * Never throws for an upstream fault: the result carries `error` and what arrived before it.
 */
export async function pullVenueB(opts: VenueClientOptions & { maxBookCalls?: number }): Promise<RawVenuePull> {
  const http = createVenueHttp('venue_b', { ratePerSecond: 20, ...opts });
  const base = opts.baseUrl.replace(/\/+$/, '');
  const clob = (opts.clobBaseUrl ?? VENUE_B_DEFAULT_CLOB_URL).replace(/\/+$/, '');
  const limit = Math.max(1, opts.pageSize ?? 100);
  const maxBooks = Math.max(0, opts.maxBookCalls ?? 200);
  const byId = new Map<string, unknown>();
  const books: Record<string, unknown> = {};
  let error: string | null = null;
  const degraded: Record<string, string> = {};
  // Every Gamma page is checked against the venue's published shapes (drift/watch.ts). CLOB books are not: the
  // Gamma document does not describe the CLOB (the manifest's not_covered says so).
  const shapes = opts.driftShapes === undefined ? VENUE_SHAPES.venue_b : opts.driftShapes;
  const watch = shapes === null ? null : createDriftWatch(shapes);
  try {
    for (const closed of [false, true]) {
      for (let page = 0, offset = 0; ; page++, offset += limit) {
        if (page >= MAX_PAGES) throw new Error(`venue_b: more than ${MAX_PAGES} pages of closed=${closed}; stopping`);
        const since =
          closed && opts.closedSinceMs !== undefined
            ? `&end_date_min=${encodeURIComponent(new Date(opts.closedSinceMs).toISOString())}`
            : '';
        const url = `${base}/events?limit=${limit}&offset=${offset}&closed=${closed}${since}`;
        const body = await http.getJson(url);
        watch?.response('GET /events', body, { listing: `closed=${closed}`, limit });
        const parsed = EventsPageSchema.safeParse(body);
        if (!parsed.success) throw new Error(`venue_b: ${url} did not return a list of events`);
        for (const ev of parsed.data) {
          const key = (isRecord(ev) ? idOrNull(ev.id) : null) ?? `#${byId.size}`;
          byId.set(key, ev);
        }
        if (parsed.data.length < limit) break;
      }
    }
    const tokens = bookCandidates([...byId.values()]).slice(0, maxBooks);
    let missing = 0;
    let failed = 0;
    let firstFailure = '';
    await mapBounded(tokens, opts.concurrency ?? 4, async (token) => {
      try {
        const body = await http.getJson(`${clob}/book?token_id=${encodeURIComponent(token)}`, { allow404: true });
        if (body === undefined) missing++;
        else books[token] = body;
      } catch (err) {
        if (err instanceof VenueFetchError && err.kind === 'aborted') throw err;
        missing++;
        failed++;
        firstFailure ||= (err as Error).message;
        opts.logger?.warn(
          { venue: 'venue_b', token, err: (err as Error).message },
          'venue_b: book not fetched; sizes for this market stay null (null_by_venue_limitation)',
        );
      }
    });
    if (missing > 0) opts.logger?.info({ venue: 'venue_b', missing, asked: tokens.length }, 'venue_b: books missing');
    // A 404 is a market without a book; a failed request is a fallback the run must own up to (issue 15).
    if (failed > 0) {
      degraded.order_books = `${failed} of ${tokens.length} order books could not be fetched (first error: ${firstFailure}); their sizes stay null`;
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    opts.logger?.warn({ venue: 'venue_b', err: error, events_so_far: byId.size }, 'venue_b: pull failed');
  }
  const events = [...byId.values()];
  const s = http.stats();
  opts.logger?.info(
    { venue: 'venue_b', events: events.length, books: Object.keys(books).length, ...s, error },
    'venue_b: pull done',
  );
  return {
    venue: 'venue_b',
    events,
    series: {},
    books,
    pulled: countVenueBRecords(events),
    error,
    ...(Object.keys(degraded).length > 0 ? { degraded } : {}),
    ...(watch ? { drift: watch.summary() } : {}),
    requests: s.requests,
    retries: s.retries,
  };
}

/** YES tokens of open order-book markets, most 24 h volume first (ties by total volume, then token). */
export function bookCandidates(events: readonly unknown[]): string[] {
  const rows: Array<{ token: string; v24: number; v: number }> = [];
  for (const e of events) {
    if (!isRecord(e) || !Array.isArray(e.markets)) continue;
    for (const m of e.markets) {
      if (!isRecord(m) || m.closed === true || m.enableOrderBook === false) continue;
      const ids = decodeJsonList(m.clobTokenIds);
      const yes = ids.ok ? ids.value?.[0] : undefined;
      if (typeof yes !== 'string' || yes === '') continue;
      rows.push({ token: yes, v24: numOrNull(m.volume24hr) ?? 0, v: numOrNull(m.volumeNum ?? m.volume) ?? 0 });
    }
  }
  rows.sort((a, b) => b.v24 - a.v24 || b.v - a.v || a.token.localeCompare(b.token));
  return [...new Set(rows.map((r) => r.token))];
}
