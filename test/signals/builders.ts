/** Record builders for the signal tests: a published event with its markets and daily marks. */
import type { Catalyst, Event, Mark, Market, Rcg, SpotRow } from '../../src/domain/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

export const NOW = '2026-06-10T12:00:00.000Z';
export const TODAY = '2026-06-10';

export function rcgOf(grade: 'A' | 'B' | 'C'): Rcg {
  return {
    grade,
    score: grade === 'A' ? 90 : grade === 'B' ? 70 : 40,
    caps: [],
    applied_factors: 7,
    rubric_version: 't',
    factors: [],
  };
}

let markId = 0;

/** A venue-snapshot mark; `price` sets both implied_probability and yes_last_price. */
export function makeMark(
  market: Market,
  date: string,
  price: number | null,
  volume: number | null = 5000,
  extra: Partial<Mark> = {},
): Mark {
  markId += 1;
  return {
    mark_id: markId,
    market_id: market.market_id,
    snapshot_date: date,
    snapshot_at: `${date}T12:00:00.000Z`,
    source_updated_at: `${date}T11:59:00.000Z`,
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: price,
    implied_probability: price,
    volume_24h_usd: volume,
    volume_total_usd: null,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: null,
    spread: null,
    mid: null,
    divergence_from_primary: null,
    hours_since_source_update: null,
    field_provenance: {},
    ...extra,
  };
}

/** An event and one market on it (native ids derive from `native`). */
export function eventWithMarket(
  native: string,
  e: Partial<Event> = {},
  m: Partial<Market> & { native?: string } = {},
): { event: Event; market: Market } {
  const event = makeEvent({ native, slug: native.toLowerCase(), ...e });
  const platform = m.platform ?? 'venue_a';
  const market = makeMarket({
    native: `${native}-M`,
    event_id: event.event_id,
    platform_event_id: native,
    ...m,
    platform,
  });
  return { event: { ...event, venue: platform }, market };
}

export function spotRow(coin: string, price: number, asOf = '2026-06-10T11:55:00.000Z'): SpotRow {
  return { coin, price_usd: price, as_of: asOf };
}

export function catalyst(
  date: string,
  type: string,
  eventIds: string[] = [],
  origin: Catalyst['origin'] = 'calendar',
): Catalyst {
  return {
    date,
    type,
    label: `${type} on ${date}`,
    source_url: `https://www.bls.gov/${type}`,
    origin,
    event_ids: eventIds,
  };
}

/** Input with nothing in it, to spread overrides into. */
export function emptyInput() {
  return {
    events: [] as Event[],
    markets: [] as Market[],
    marks: [] as Mark[],
    spot: [] as SpotRow[],
    catalysts: [] as Catalyst[],
    now: NOW,
  };
}
