/**
 * A minimal venue-native → (Market, VenueFacts) mapping for `pmref canon`, so the command can read
 * any recorded fixture shape without the pipeline. It is deliberately small: the venue adapters'
 * normalizer (issue 3) is the real one, and the command should switch to it once it lands.
 * Pure: the caller reads the files and passes the parsed JSON and the run time.
 */
import type { Event, Market, Venue, VenueFacts } from '../../domain/index.ts';
import { blankMarket, emptyVenueFacts, eventIdFor } from '../../domain/index.ts';

export interface NativeRecord {
  market: Market;
  facts: VenueFacts;
  mark: { last_price: number | null; volume_24h_usd: number | null; liquidity_usd: number | null };
  /** Native event id (venue_a event ticker, venue_b event id) when the record carried one. */
  nativeEventId: string | null;
  eventTitle: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
  return Number.isFinite(n) ? n : null;
};
const iso = (v: unknown): string | null => {
  const s = str(v);
  if (!s || s.startsWith('0001-')) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
};
const jsonList = (v: unknown): string[] | null => {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.map(String) : null;
  } catch {
    return null;
  }
};

function fromVenueA(m: Obj, event: Obj | null, now: string): NativeRecord | null {
  const ticker = str(m.ticker);
  if (!ticker) return null;
  const market = blankMarket('venue_a', ticker, now);
  const title = str(m.title) ?? '';
  const sub = str(m.yes_sub_title);
  const rules = [str(m.rules_primary), str(m.rules_secondary)].filter(Boolean).join('\n\n');
  const status = str(m.status) ?? 'active';
  const eventTicker = str(m.event_ticker) ?? str(event?.event_ticker);
  Object.assign(market, {
    platform_event_id: eventTicker,
    // As the venue normalizer does: the title is the question, the yes-subtitle the child's label.
    question_raw: title || null,
    description_raw: sub,
    resolution_rules_raw: rules || null,
    category_raw: str(m.category) ?? str(event?.category),
    group_item_title: sub,
    close_at: iso(m.close_time),
    last_trading_date: iso(m.close_time),
    resolve_at: iso(m.expected_expiration_time) ?? iso(m.expiration_time),
    status: status === 'active' ? 'open' : status === 'finalized' || status === 'settled' ? 'resolved' : 'closed',
  } satisfies Partial<Market>);
  const facts: VenueFacts = {
    ...emptyVenueFacts(),
    strike_type: str(m.strike_type),
    floor_strike: num(m.floor_strike),
    cap_strike: num(m.cap_strike),
    custom_strike: isObj(m.custom_strike) ? m.custom_strike : null,
    expiration_time: iso(m.expected_expiration_time) ?? iso(m.latest_expiration_time),
    series_ticker: str(event?.series_ticker) ?? (eventTicker ? (eventTicker.split('-')[0] ?? null) : null),
    event_title: str(event?.title),
    mutually_exclusive: typeof event?.mutually_exclusive === 'boolean' ? event.mutually_exclusive : null,
    early_close_condition: str(m.early_close_condition),
  };
  const cents = (v: unknown) => (num(v) === null ? null : (num(v) ?? 0) / 100);
  return {
    market,
    facts,
    mark: {
      last_price: num(m.last_price_dollars) ?? cents(m.last_price),
      volume_24h_usd: num(m.volume_24h_fp) ?? num(m.volume_24h),
      liquidity_usd: num(m.liquidity_dollars) ?? cents(m.liquidity),
    },
    nativeEventId: eventTicker,
    eventTitle: str(event?.title),
  };
}

function fromVenueB(m: Obj, event: Obj | null, now: string): NativeRecord | null {
  const cid = str(m.conditionId) ?? str(m.id);
  if (!cid) return null;
  const ev = event ?? (Array.isArray(m.events) && isObj(m.events[0]) ? m.events[0] : null);
  const market = blankMarket('venue_b', cid, now);
  const closed = m.closed === true;
  const resolved = str(m.umaResolutionStatus) === 'resolved';
  Object.assign(market, {
    platform_event_id: ev ? String(ev.id ?? '') || null : null,
    question_raw: str(m.question),
    description_raw: str(m.description),
    resolution_rules_raw: str(m.description),
    group_item_title: str(m.groupItemTitle),
    close_at: iso(m.endDate),
    last_trading_date: iso(m.endDate),
    resolve_at: iso(m.endDate),
    status: closed ? (resolved ? 'resolved' : 'closed') : 'open',
  } satisfies Partial<Market>);
  const tags = Array.isArray(ev?.tags) ? ev.tags.filter(isObj).map((t) => String(t.label ?? '')) : [];
  const facts: VenueFacts = {
    ...emptyVenueFacts(),
    expiration_time: iso(m.endDate),
    resolution_source_field: str(m.resolutionSource),
    event_title: str(ev?.title),
    event_description: str(ev?.description),
    neg_risk: typeof (ev?.negRisk ?? m.negRisk) === 'boolean' ? Boolean(ev?.negRisk ?? m.negRisk) : null,
    neg_risk_augmented: typeof ev?.negRiskAugmented === 'boolean' ? ev.negRiskAugmented : null,
    outcomes: jsonList(m.outcomes),
    uma_resolution_status: str(m.umaResolutionStatus),
    venue_tags: tags.filter(Boolean),
  };
  const prices = jsonList(m.outcomePrices);
  return {
    market,
    facts,
    mark: {
      last_price: num(m.lastTradePrice) ?? (prices?.[0] !== undefined ? num(prices[0]) : null),
      volume_24h_usd: num(m.volume24hr),
      liquidity_usd: num(m.liquidityNum) ?? num(m.liquidity),
    },
    nativeEventId: ev ? String(ev.id ?? '') || null : null,
    eventTitle: str(ev?.title),
  };
}

/** A canonical Market record (or the curated specimen's near-canonical one, venue names spelled out). */
function fromCanonical(m: Obj, now: string): NativeRecord | null {
  const platform = str(m.platform);
  const venue: Venue | null =
    platform === 'venue_a' || platform === 'kalshi'
      ? 'venue_a'
      : platform === 'venue_b' || platform === 'polymarket'
        ? 'venue_b'
        : null;
  const nativeId = str(m.platform_market_id);
  if (!venue || !nativeId) return null;
  const market = blankMarket(venue, nativeId, now);
  for (const k of Object.keys(market) as Array<keyof Market>) {
    if (k in m && k !== 'platform' && k !== 'market_id' && k !== 'event_id' && k !== 'field_provenance') {
      (market as Record<string, unknown>)[k] = m[k];
    }
  }
  const rec = market as Record<string, unknown>;
  for (const k of ['close_at', 'last_trading_date', 'resolve_at', 'resolved_at'] as const) rec[k] = iso(m[k]);
  return {
    market,
    facts: emptyVenueFacts(),
    mark: { last_price: null, volume_24h_usd: null, liquidity_usd: null },
    nativeEventId: market.platform_event_id,
    eventTitle: null,
  };
}

/**
 * Every market record in a parsed fixture of any shape: venue_a events with nested markets,
 * `{cursor, events}` pages, `{markets}` pages, plain market lists, Gamma events with nested markets,
 * Gamma market lists, single records, canonical records. De-duplicated by venue and native id
 * (last seen wins).
 */
export function nativeRecordsOf(json: unknown, now: string): NativeRecord[] {
  const out = new Map<string, NativeRecord>();
  const add = (r: NativeRecord | null) => {
    if (r) out.set(`${r.market.platform}:${r.market.platform_market_id}`, r);
  };
  const walk = (v: unknown, event: Obj | null, depth: number): void => {
    if (depth > 6) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, event, depth + 1);
      return;
    }
    if (!isObj(v)) return;
    if (
      typeof v.ticker === 'string' &&
      typeof v.event_ticker === 'string' &&
      ('rules_primary' in v || 'strike_type' in v)
    ) {
      add(fromVenueA(v, event, now));
      return;
    }
    if (typeof v.conditionId === 'string' || (typeof v.question === 'string' && 'outcomes' in v)) {
      add(fromVenueB(v, event, now));
      return;
    }
    if (typeof v.platform_market_id === 'string' && typeof v.platform === 'string') {
      add(fromCanonical(v, now));
      return;
    }
    if (Array.isArray(v.markets) && (typeof v.event_ticker === 'string' || typeof v.slug === 'string')) {
      walk(v.markets, v, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'orderbook' || k === 'orderbook_fp' || k === 'series') continue;
      if (typeof x === 'object' && x !== null) walk(x, event, depth + 1);
    }
  };
  walk(json, null, 0);
  return [...out.values()];
}

/** A bare single-venue Event for a group of native records (the canon command's stand-in for ingest). */
export function blankEvent(venue: Venue, nativeEventId: string, title: string, now: string): Event {
  return {
    event_id: eventIdFor(venue, nativeEventId),
    slug: nativeEventId.toLowerCase(),
    question: title,
    category: 'politics',
    tags: [],
    primary_market_id: null,
    primary_market_locked: false,
    catalyst_dates: [],
    published: false,
    editorial_notes: null,
    venue,
    bundle_type: null,
    resolution_reference: null,
    created_at: now,
    updated_at: now,
    field_provenance: {},
    platform_event_id: nativeEventId,
    event_type: 'BINARY',
    ladder_distribution: null,
    ladder_distribution_reason: null,
    catalyst_types: [],
  };
}
