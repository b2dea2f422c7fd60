/**
 * venue_a client: `GET /events?with_nested_markets=true&status=…` with cursor paging over the
 * statuses open, closed and settled, then `GET /series/{ticker}` once per series seen (cached for
 * the run; series carry settlement sources, contract terms URL, category and tags).
 */
import { VENUE_SHAPES } from '../drift/manifests.ts';
import { createDriftWatch } from '../drift/watch.ts';
import { createVenueHttp, mapBounded, VenueFetchError } from '../http.ts';
import { isRecord } from '../parse.ts';
import type { RawVenuePull, VenueClientOptions } from '../types.ts';
import { VenueAEventsPageSchema, VenueASeriesResponseSchema } from './schemas.ts';

export const VENUE_A_DEFAULT_BASE_URL = 'https://api.elections.kalshi.com/trade-api/v2';
export const VENUE_A_STATUSES = ['open', 'closed', 'settled'] as const;
const MAX_PAGES = 5_000;

/** Counts the records of a venue_a pull: nested markets, plus events that carry none. */
export function countVenueARecords(events: readonly unknown[]): number {
  let n = 0;
  for (const e of events) {
    const markets = isRecord(e) && Array.isArray(e.markets) ? e.markets.length : 0;
    n += markets > 0 ? markets : 1;
  }
  return n;
}

/**
 * Pulls every venue_a event with its nested markets, and the series behind them. Never throws for
 * an upstream fault: the result carries `error` and what arrived before the failure.
 */
export async function pullVenueA(opts: VenueClientOptions): Promise<RawVenuePull> {
  const http = createVenueHttp('venue_a', { ratePerSecond: 10, ...opts });
  const base = opts.baseUrl.replace(/\/+$/, '');
  const limit = Math.min(200, Math.max(1, opts.pageSize ?? 200));
  const byTicker = new Map<string, unknown>();
  const series: Record<string, unknown> = {};
  let error: string | null = null;
  const degraded: Record<string, string> = {};
  // Every page and series body is checked against the venue's published shapes (drift/watch.ts; cheap: each
  // distinct field set once). The watch reads; it never changes what the pull keeps.
  const shapes = opts.driftShapes === undefined ? VENUE_SHAPES.venue_a : opts.driftShapes;
  const watch = shapes === null ? null : createDriftWatch(shapes);
  try {
    for (const status of VENUE_A_STATUSES) {
      let cursor = '';
      const seen = new Set<string>();
      for (let page = 0; ; page++) {
        if (page >= MAX_PAGES) throw new Error(`venue_a: more than ${MAX_PAGES} pages of status=${status}; stopping`);
        const since =
          status !== 'open' && opts.closedSinceMs !== undefined
            ? `&min_close_ts=${Math.floor(opts.closedSinceMs / 1000)}`
            : '';
        const url = `${base}/events?with_nested_markets=true&status=${status}&limit=${limit}${since}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const body = await http.getJson(url);
        watch?.response('GET /events', body, { listing: `status=${status}` });
        const parsed = VenueAEventsPageSchema.safeParse(body);
        if (!parsed.success) throw new Error(`venue_a: ${url} did not return an events page ({events, cursor})`);
        for (const ev of parsed.data.events) {
          const key = isRecord(ev) && typeof ev.event_ticker === 'string' ? ev.event_ticker : `#${byTicker.size}`;
          // An event that moved between status lists during the pull: keep the later copy.
          byTicker.set(key, ev);
        }
        const next = parsed.data.cursor ?? '';
        if (next === '' || parsed.data.events.length === 0) break;
        if (seen.has(next)) throw new Error(`venue_a: cursor ${next} repeated on status=${status}; stopping`);
        seen.add(next);
        cursor = next;
      }
    }
    // Series enrich markets; events that arrive without markets are out of scope and need none.
    const withMarkets = [...byTicker.values()].filter(
      (e) => isRecord(e) && Array.isArray(e.markets) && e.markets.length > 0,
    );
    const tickers = [...new Set(withMarkets.flatMap((e) => seriesTickerOf(e) ?? []))].sort();
    let seriesFailed = 0;
    let firstFailure = '';
    await mapBounded(tickers, opts.concurrency ?? 4, async (t) => {
      try {
        const body = await http.getJson(`${base}/series/${encodeURIComponent(t)}`, { allow404: true });
        if (body === undefined) return;
        watch?.response('GET /series/{series_ticker}', body);
        const parsed = VenueASeriesResponseSchema.safeParse(body);
        if (parsed.success) series[t] = parsed.data.series;
        else opts.logger?.warn({ venue: 'venue_a', series: t }, 'venue_a: series response without `series`; skipped');
      } catch (err) {
        // A series is enrichment (sources, terms URL): its loss is logged, not fatal for the pull.
        if (err instanceof VenueFetchError && err.kind === 'aborted') throw err;
        seriesFailed++;
        firstFailure ||= (err as Error).message;
        opts.logger?.warn(
          { venue: 'venue_a', series: t, err: (err as Error).message },
          'venue_a: series not fetched; its markets go without settlement sources',
        );
      }
    });
    // Lost series are a fallback the run must own up to (issue 15): their markets go without sources.
    if (seriesFailed > 0) {
      degraded.series = `${seriesFailed} of ${tickers.length} series could not be fetched (first error: ${firstFailure}); their markets go without settlement sources`;
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    opts.logger?.warn({ venue: 'venue_a', err: error, events_so_far: byTicker.size }, 'venue_a: pull failed');
  }
  const events = [...byTicker.values()];
  const s = http.stats();
  opts.logger?.info(
    { venue: 'venue_a', events: events.length, series: Object.keys(series).length, ...s, error },
    'venue_a: pull done',
  );
  return {
    venue: 'venue_a',
    events,
    series,
    books: {},
    pulled: countVenueARecords(events),
    error,
    ...(Object.keys(degraded).length > 0 ? { degraded } : {}),
    ...(watch ? { drift: watch.summary() } : {}),
    requests: s.requests,
    retries: s.retries,
  };
}

function seriesTickerOf(e: unknown): string | null {
  if (!isRecord(e)) return null;
  if (typeof e.series_ticker === 'string' && e.series_ticker !== '') return e.series_ticker;
  // Older events omit series_ticker; the series is the event ticker's first dash-separated part.
  if (typeof e.event_ticker === 'string' && e.event_ticker !== '') return e.event_ticker.split('-')[0] ?? null;
  return null;
}
