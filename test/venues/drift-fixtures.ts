/**
 * The recorded venue files of ../shared/fixtures/venues as the drift watch sees them: for each file, the
 * response bodies it holds (with the endpoint that returned them) or, where the recorder kept records without
 * their page, the bare records (with their document schema name). SOURCES.md there says what each file is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_VENUES_DIR } from './helpers.ts';

export type RecordedBody = { endpoint: string; body: unknown } | { record: string; body: unknown };

export interface RecordedFile {
  file: string;
  bodies: RecordedBody[];
}

type Json = Record<string, unknown>;

const records = (record: string, list: unknown): RecordedBody[] =>
  (Array.isArray(list) ? list : []).map((body) => ({ record, body }));

/** venue_a files: how each holds its responses (a page, a single payload, or records lifted out of one). */
const VENUE_A: Record<string, (j: Json & unknown[]) => RecordedBody[]> = {
  'kalshi_candlesticks_sample_2025.json': (j) => [
    { endpoint: 'GET /series/{series_ticker}/markets/{ticker}/candlesticks', body: j },
  ],
  // A recorder's wrapper {timestamp, total_open_events, events}: the events are raw, the wrapper is not.
  'kalshi_events_list_2025-02-24.json': (j) => records('EventData', j.events),
  'kalshi_events_nested_2025-12-23.json': (j) => [{ endpoint: 'GET /events', body: j }],
  'kalshi_events_nested_2026-03-01_iran_fed.json': (j) => records('EventData', j),
  'kalshi_market_KXBTC15M-26FEB202115_2026-02-21.json': (j) => [{ record: 'Market', body: j }],
  'kalshi_market_single_and_orderbook_2026-08-09.json': (j) => [
    { record: 'Market', body: j.nested },
    { endpoint: 'GET /markets/{ticker}', body: j.single },
    { endpoint: 'GET /markets/{ticker}/orderbook', body: j.orderbook },
  ],
  'kalshi_markets_2025-09_mixed_status.json': (j) => records('Market', j),
  'kalshi_markets_2026-01_extracted.json': (j) => records('Market', j.markets),
  'kalshi_markets_mve_combos_2026-02-13.json': (j) => [{ endpoint: 'GET /markets', body: j }],
  'kalshi_markets_settled_2026-08_sports.json': (j) => records('Market', j.markets),
  'kalshi_series_by_ticker_2026-08-20.json': (j) =>
    Object.values(j.payloads as Json).map((body) => ({ endpoint: 'GET /series/{series_ticker}', body })),
  'kalshi_series_sample_2026-02.json': (j) => [
    ...records('Series', j.series),
    ...records('EventData', j.events),
    ...records('Market', j.markets),
  ],
};

/** venue_b files: Gamma lists as /events or /markets responses. The CLOB book is not in the Gamma document. */
const VENUE_B: Record<string, (j: Json & unknown[]) => RecordedBody[]> = {
  'polymarket_event_btc-updown-15m-1771640100_2026-02-21.json': (j) => [{ endpoint: 'GET /events', body: j }],
  'polymarket_event_btc-updown-15m-1771643700_2026-02-21.json': (j) => [{ endpoint: 'GET /events', body: j }],
  'polymarket_events_nested_2025-06.json': (j) => [{ endpoint: 'GET /events', body: j }],
  'polymarket_events_nested_2026-03-01_iran_fed.json': (j) => [{ endpoint: 'GET /events', body: j }],
  'polymarket_market_bitcoin-up-or-down-february-20-9pm-et.json': (j) => [{ endpoint: 'GET /markets/{id}', body: j }],
  'polymarket_markets_2025-11-04_top.json': (j) => [{ endpoint: 'GET /markets', body: j }],
  'polymarket_markets_2026-02-07.json': (j) => [{ endpoint: 'GET /markets', body: j }],
  'polymarket_markets_2026-02_open_and_closed.json': (j) => [{ endpoint: 'GET /markets', body: j }],
};

/** Files of a venue the drift watch cannot check, with why. */
export const NOT_WATCHED: Record<string, string> = {
  'clob_book_sample.json': 'a CLOB /book response; the Gamma document does not describe the CLOB',
};

/** Every recorded file of a venue with the bodies it holds, in file-name order. */
export function recordedVenueBodies(venue: 'venue_a' | 'venue_b'): RecordedFile[] {
  const table = venue === 'venue_a' ? VENUE_A : VENUE_B;
  return Object.keys(table)
    .sort()
    .map((file) => {
      const json = JSON.parse(readFileSync(join(SHARED_VENUES_DIR, venue, file), 'utf8')) as Json & unknown[];
      return { file, bodies: (table[file] as (j: Json & unknown[]) => RecordedBody[])(json) };
    });
}
