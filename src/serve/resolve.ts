/**
 * Resolving a reference (issue 20, item 4): `GET /v1/resolve`, and any market reference `GET /v1/markets/{id}`
 * and the agent tools take. A reference is read into lookups (resolve-ref.ts), the first group of lookups with
 * a hit decides (ref-index.ts), and the answer is the one record it names with every identifier it has, or,
 * when several records share the reference, all of them as candidates: the resolver never picks one.
 */
import {
  type Event,
  type IdentifierKind,
  MAX_CANDIDATES,
  type MarketVenueRefs,
  type RecordIdentifiers,
  type ResolveAnswer,
  type ResolvedRecord,
} from '../domain/index.ts';
import type { ReadModel } from './read-model.ts';
import { KIND_TARGET, type MarketIdentity, type RefIndex } from './ref-index.ts';
import { type ParsedRef, parseRef } from './resolve-ref.ts';

/** What a reference matched: the kind that matched first, and the places of the records it names. */
export interface Resolution {
  parsed: ParsedRef;
  matchedOn: IdentifierKind;
  markets: number[];
  events: number[];
}

/** The records a reference names, from the first group of its lookups with a hit; null when none hits. */
export function resolveIn(index: RefIndex, ref: string): Resolution | null {
  const parsed = parseRef(ref);
  for (const group of parsed.groups) {
    const markets = new Set<number>();
    const events = new Set<number>();
    let matchedOn: IdentifierKind | null = null;
    for (const probe of group) {
      const hits = index.lookup(probe);
      if (hits.length === 0) continue;
      matchedOn ??= probe.kind;
      for (const at of hits) (KIND_TARGET[probe.kind] === 'market' ? markets : events).add(at);
    }
    if (matchedOn !== null) return { parsed, matchedOn, markets: [...markets], events: [...events] };
  }
  return null;
}

/**
 * The one market a reference names, for the faces that want a market (`GET /v1/markets/{id}`, `get_market`,
 * `compare_question`): a market, or an event of the venue's with exactly one market (a venue_b single-market event
 * shares its slug with that market; a venue_a event page is the only page its market has). Null when the
 * reference names no market or more than one, and for a pmref event or question id: a client that names the
 * event or the question itself is told to ask for that instead (`get_event`, `compare_question`).
 */
export function marketIdForRef(model: ReadModel, ref: string): string | null {
  const index = model.refs;
  const found = resolveIn(index, ref);
  if (!found || found.matchedOn === 'event_id' || found.matchedOn === 'question_id') return null;
  const places = new Set(found.markets);
  for (const e of found.events) {
    const only = index.marketsOfEvent[e];
    if (only?.length === 1 && only[0] !== undefined) places.add(only[0]);
  }
  if (places.size !== 1) return null;
  const [place] = places;
  return place === undefined ? null : (index.markets[place]?.market_id ?? null);
}

/** `GET /v1/resolve`: the record(s) a reference names with all their identifiers; null when nothing matches. */
export function resolveRef(model: ReadModel, ref: string): ResolveAnswer | null {
  const index = model.refs;
  const found = resolveIn(index, ref);
  if (!found) return null;
  const head = {
    ref,
    kind: found.parsed.shape === 'identifier' ? found.matchedOn : found.parsed.shape,
    matched_on: found.matchedOn,
  };
  const byId = (a: ResolvedRecord, b: ResolvedRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const records = [
    ...found.markets.map((m) => marketRecord(index, m)).sort(byId),
    ...found.events.map((e) => eventRecord(index, e)).sort(byId),
  ];
  const [only] = records;
  if (records.length === 1 && only) return { ...only, ...head };
  return { ...head, match: 'ambiguous', total: records.length, candidates: records.slice(0, MAX_CANDIDATES) };
}

function marketRecord(index: RefIndex, place: number): ResolvedRecord {
  const m = index.markets[place] as MarketIdentity;
  const eventAt = m.event_id === null ? undefined : index.lookup({ kind: 'event_id', key: m.event_id })[0];
  const event = eventAt === undefined ? null : (index.events[eventAt] ?? null);
  const refs = index.venueRefs.get(m.market_id) ?? {};
  const series = eventAt === undefined ? null : (index.seriesOfEvent[eventAt] ?? null);
  const identifiers: RecordIdentifiers = {
    venue: m.platform,
    market_id: m.market_id,
    event_id: m.event_id,
    event_slug: event?.slug ?? null,
    question_id: m.question_id,
    ...(m.platform === 'venue_a'
      ? venueAIds(m.platform_market_id, event, series)
      : venueBIds(m.platform_market_id, event, refs)),
    venue_urls: venueUrls(m.platform, event, series, refs.market_slug),
  };
  return {
    match: 'market',
    id: m.market_id,
    path: `/v1/markets/${m.market_id}`,
    page: event ? `/events/${event.slug}` : null,
    identifiers,
  };
}

function eventRecord(index: RefIndex, place: number): ResolvedRecord {
  const event = index.events[place] as Event;
  const series = index.seriesOfEvent[place] ?? null;
  const markets = index.marketsOfEvent[place] ?? [];
  const first = markets[0] === undefined ? undefined : index.markets[markets[0]];
  const venue = event.venue ?? first?.platform ?? 'venue_a';
  const identifiers: RecordIdentifiers = {
    venue,
    market_id: null,
    event_id: event.event_id,
    event_slug: event.slug,
    market_ids: markets.flatMap((m) => index.markets[m]?.market_id ?? []),
    ...(venue === 'venue_a' ? venueAIds(null, event, series) : venueBIds(null, event, {})),
    venue_urls: venueUrls(venue, event, series, undefined),
  };
  return {
    match: 'event',
    id: event.event_id,
    path: `/v1/events/${event.event_id}`,
    page: `/events/${event.slug}`,
    identifiers,
  };
}

function venueAIds(ticker: string | null, event: Event | null, series: string | null) {
  return {
    ...(ticker === null ? {} : { ticker }),
    ...(event?.platform_event_id ? { event_ticker: event.platform_event_id } : {}),
    ...(series === null ? {} : { series_ticker: series }),
  };
}

function venueBIds(conditionId: string | null, event: Event | null, refs: MarketVenueRefs) {
  return {
    ...(conditionId === null ? {} : { condition_id: conditionId }),
    ...(refs.market_slug ? { market_slug: refs.market_slug } : {}),
    ...(refs.token_ids && refs.token_ids.length > 0 ? { token_ids: refs.token_ids } : {}),
    ...(refs.venue_question_id ? { venue_question_id: refs.venue_question_id } : {}),
    ...(refs.venue_market_id ? { venue_market_id: refs.venue_market_id } : {}),
    ...(event?.platform_event_id ? { venue_event_id: event.platform_event_id } : {}),
  };
}

/**
 * The venue's public pages for a record: venue_a lists an event on its series page
 * (`kalshi.com/markets/<series>`); venue_b shows an event at `polymarket.com/event/<event slug>` and a market of it
 * at `…/<event slug>/<market slug>`. pmref builds them from the identifiers and never fetches them.
 */
function venueUrls(venue: Venue, event: Event | null, series: string | null, marketSlug: string | undefined): string[] {
  if (venue === 'venue_a') {
    return series === null ? [] : [`https://kalshi.com/markets/${encodeURIComponent(series.toLowerCase())}`];
  }
  if (event === null) return [];
  const page = `https://polymarket.com/event/${encodeURIComponent(event.slug)}`;
  return marketSlug ? [page, `${page}/${encodeURIComponent(marketSlug)}`] : [page];
}

type Venue = RecordIdentifiers['venue'];
