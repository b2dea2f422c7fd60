/**
 * The reference index (issue 20, item 4): every identifier of every served market and event, in its normal form
 * (`normalizeKey`), to the record it names. Built once per read model, beside it: a key is a string the model
 * already holds (an id, a ticker, a slug) unless normalizing changed it, and a record is a small integer (its
 * place in `markets` or `events`), so the index costs a map entry per identifier.
 *
 * A key several records share (a question_id, a series ticker, a slug used by an event and by a market) keeps all
 * of them: the resolver lists them rather than choose.
 */
import type { Event, IdentifierKind, MarketVenueRefs, Venue } from '../domain/index.ts';
import { normalizeKey, type Probe } from './resolve-ref.ts';

/** What a market contributes: its pmref and venue ids (a catalog row item has them). */
export interface MarketIdentity {
  market_id: string;
  event_id: string | null;
  platform: Venue;
  platform_market_id: string;
  question_id: string | null;
}

/** What the index is built from: the served markets and published events, in the read model's order. */
export interface RefIndexInput {
  markets: readonly MarketIdentity[];
  events: readonly Event[];
  /** Venue identifiers beyond the ticker or condition id, by market id, for the markets whose record has them. */
  venueRefs: ReadonlyMap<string, MarketVenueRefs>;
}

/** Whether a kind names markets or events. */
export const KIND_TARGET: Readonly<Record<IdentifierKind, 'market' | 'event'>> = {
  market_id: 'market',
  event_id: 'event',
  question_id: 'market',
  ticker: 'market',
  event_ticker: 'event',
  series_ticker: 'event',
  condition_id: 'market',
  token_id: 'market',
  venue_question_id: 'market',
  venue_market_id: 'market',
  venue_event_id: 'event',
  market_slug: 'market',
  event_slug: 'event',
};

/** One record, or several when they share the key. */
type Slot = number | number[];

const NONE: readonly number[] = [];

export class RefIndex {
  readonly markets: readonly MarketIdentity[];
  readonly events: readonly Event[];
  readonly venueRefs: ReadonlyMap<string, MarketVenueRefs>;
  /** Per event (by place), the places of its markets. */
  readonly marketsOfEvent: readonly number[][];
  /** Per event (by place), its venue_a series ticker; null for venue_b events. */
  readonly seriesOfEvent: ReadonlyArray<string | null>;
  private readonly keys = new Map<IdentifierKind, Map<string, Slot>>();

  constructor(input: RefIndexInput) {
    this.markets = input.markets;
    this.events = input.events;
    this.venueRefs = input.venueRefs;
    const eventAt = new Map<string, number>();
    input.events.forEach((e, i) => {
      eventAt.set(e.event_id, i);
      this.put('event_id', e.event_id, i);
      this.put('event_slug', e.slug, i);
      if (e.platform_event_id === null) return;
      if (e.venue === 'venue_a') this.put('event_ticker', e.platform_event_id, i);
      else if (e.venue === 'venue_b') this.put('venue_event_id', e.platform_event_id, i);
    });
    const marketsOfEvent: number[][] = input.events.map(() => []);
    const recordedSeries: Array<string | null> = input.events.map(() => null);
    input.markets.forEach((m, i) => {
      this.put('market_id', m.market_id, i);
      if (m.question_id !== null) this.put('question_id', m.question_id, i);
      this.put(m.platform === 'venue_a' ? 'ticker' : 'condition_id', m.platform_market_id, i);
      const at = m.event_id === null ? undefined : eventAt.get(m.event_id);
      if (at !== undefined) marketsOfEvent[at]?.push(i);
      const refs = input.venueRefs.get(m.market_id);
      if (!refs) return;
      if (refs.market_slug) this.put('market_slug', refs.market_slug, i);
      for (const token of refs.token_ids ?? []) this.put('token_id', token, i);
      if (refs.venue_question_id) this.put('venue_question_id', refs.venue_question_id, i);
      if (refs.venue_market_id) this.put('venue_market_id', refs.venue_market_id, i);
      if (refs.series_ticker && at !== undefined) recordedSeries[at] ??= refs.series_ticker;
    });
    this.marketsOfEvent = marketsOfEvent;
    this.seriesOfEvent = input.events.map((e, i) => {
      if (e.venue !== 'venue_a') return null;
      const series = recordedSeries[i] ?? seriesFromEventTicker(e.platform_event_id);
      if (series !== null) this.put('series_ticker', series, i);
      return series;
    });
  }

  /** The places (in `markets` or `events`, as `KIND_TARGET` says) of the records a probe's key names. */
  lookup(probe: Probe): readonly number[] {
    const slot = this.keys.get(probe.kind)?.get(probe.key);
    if (slot === undefined) return NONE;
    return typeof slot === 'number' ? [slot] : slot;
  }

  /** Keys held per kind (for the tests and the footprint figures). */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.keys].map(([kind, map]) => [kind, map.size]));
  }

  private put(kind: IdentifierKind, value: string, place: number): void {
    const normal = normalizeKey(kind, value);
    // The model's own string when normalizing left it as it was: the index then adds no string of its own.
    const key = normal === value ? value : normal;
    let map = this.keys.get(kind);
    if (!map) {
      map = new Map();
      this.keys.set(kind, map);
    }
    const slot = map.get(key);
    if (slot === undefined) map.set(key, place);
    else if (typeof slot === 'number') {
      if (slot !== place) map.set(key, [slot, place]);
    } else if (!slot.includes(place)) slot.push(place);
  }
}

/**
 * The series of a venue_a event whose record does not name one: its event ticker up to the first hyphen, which
 * is how the venue forms event tickers (`KXFED-26APR` in series `KXFED`). The venue warns that this does not
 * always hold, so a recorded series ticker wins.
 * @example seriesFromEventTicker('KXFED-26APR') // 'KXFED'
 */
export function seriesFromEventTicker(eventTicker: string | null): string | null {
  if (eventTicker === null) return null;
  const head = eventTicker.split('-', 1)[0] ?? '';
  return head.length > 0 ? head : null;
}

/**
 * A market record's venue identifiers beyond its ticker or condition id (its `venue_refs`, see
 * `MarketVenueRefsSchema`); null when it carries none. Records stored before the venue normalizers recorded them
 * carry none: such a market is still found by its pmref ids, ticker or condition id and its event's ids.
 */
export function venueRefsOf(market: {
  market_id: string;
  venue_refs?: MarketVenueRefs | null | undefined;
}): MarketVenueRefs | null {
  const refs = market.venue_refs;
  return refs && Object.keys(refs).length > 0 ? refs : null;
}
