/**
 * venue_a native records → canonical Event / Market records, VenueFacts and a quote (spec §2).
 *
 * Scope: multivariate combos (`mve_collection_ticker` / `mve_selected_legs`), non-binary markets and
 * categories outside the nine are counted with a reason and not stored.
 */
import {
  emptyVenueFacts,
  type FieldProvenance,
  type MarketFeeTerms,
  type MarketStatus,
  type ResolutionHistory,
  type VenueFacts,
} from '../../domain/index.ts';
import { type CategoryVerdict, categoryFromKeywords, categoryFromVenueA, refinePolitics } from '../categories.ts';
import { isoOrNull, isRecord, numOrNull, slugify, strOrNull } from '../parse.ts';
import {
  baseEvent,
  baseMarket,
  lifecycleStatus,
  marketProblem,
  nonNegative,
  prob,
  pushEvent,
  ResultBuilder,
  usd,
} from '../records.ts';
import type { IdResolver, NormalizedMarket, NormalizeResult, RawVenuePull, VenueQuote } from '../types.ts';
import {
  schemaReason,
  type VenueAEvent,
  VenueAEventSchema,
  type VenueAMarket,
  VenueAMarketSchema,
  type VenueASeries,
  VenueASeriesSchema,
} from './schemas.ts';

const API: FieldProvenance[string] = { source: 'platform_api' };

/** A `*_dollars` string when present (newer schema), else integer cents ÷ 100 (older schema). */
export function venueAPrice(dollars: unknown, cents: unknown): number | null {
  const d = numOrNull(dollars);
  if (d !== null) return d;
  const c = numOrNull(cents);
  return c === null ? null : c / 100;
}

/** A `*_fp` string when present, else the integer field. */
function fp(fpValue: unknown, intValue: unknown): number | null {
  return numOrNull(fpValue) ?? numOrNull(intValue);
}

/**
 * venue_a status → canonical status; null for a status we do not know (the record is rejected). Kalshi v2's
 * lifecycle is initialized → active → closed → determined (outcome set, settlement timer running) → finalized,
 * with `disputed` and `amended` on the way. An outcome is final only once `finalized` (older records:
 * `settled`): `determined` and `disputed` are closed markets whose outcome is proposed, not committed.
 */
export function venueAStatus(status: string | null | undefined): MarketStatus | null {
  switch ((status ?? '').toLowerCase()) {
    case 'active':
    case 'open':
    case 'initialized':
    case 'unopened':
      return 'open';
    case 'closed':
    case 'inactive':
    case 'paused':
    case 'determined':
    case 'disputed':
      return 'closed';
    case 'settled':
    case 'finalized':
      return 'resolved';
    case 'amended':
      return 'amended';
    default:
      return null;
  }
}

/** Kalshi statuses that are steps of settlement: the resolution history a venue_a snapshot can show. */
const SETTLEMENT_STATES = new Set(['determined', 'disputed', 'amended', 'finalized', 'settled']);

/**
 * The resolution process a venue_a snapshot shows: its one settlement state, if any. `determined` is the
 * exchange's outcome determination (a proposal in spec §6 terms) and `disputed` a challenge to it; Kalshi
 * publishes no history, so earlier steps are known only from the log of earlier runs.
 */
export function venueAResolutionHistory(status: string | null | undefined): ResolutionHistory | null {
  const state = (status ?? '').toLowerCase();
  if (!SETTLEMENT_STATES.has(state)) return null;
  return {
    state,
    statuses: [state],
    proposals: state === 'determined' ? 1 : 0,
    disputes: state === 'disputed' ? 1 : 0,
  };
}

/** Normalizes a venue_a pull. Every pulled record ends normalized, out of scope or rejected. */
export function normalizeVenueA(pull: RawVenuePull, ids: IdResolver, now: string): NormalizeResult {
  const out = new ResultBuilder();
  const seriesByTicker = new Map<string, VenueASeries>();
  for (const [ticker, raw] of Object.entries(pull.series)) {
    const s = VenueASeriesSchema.safeParse(raw);
    if (s.success) seriesByTicker.set(ticker, s.data);
  }
  const seen = new Set<string>();
  for (const rawEvent of pull.events) {
    const parsed = VenueAEventSchema.safeParse(rawEvent);
    const nativeEventId = isRecord(rawEvent) ? String(rawEvent.event_ticker ?? '?') : '?';
    if (!parsed.success) {
      const reason = schemaReason(parsed.error);
      const markets = isRecord(rawEvent) && Array.isArray(rawEvent.markets) ? rawEvent.markets : [];
      if (markets.length === 0) out.reject('event', nativeEventId, reason);
      for (const m of markets) out.reject('market', marketTickerOf(m), `event_${reason}`);
      continue;
    }
    normalizeEvent(parsed.data, seriesByTicker, ids, now, out, seen);
  }
  return out.result();
}

function marketTickerOf(m: unknown): string {
  return isRecord(m) && typeof m.ticker === 'string' ? m.ticker : '?';
}

function normalizeEvent(
  ev: VenueAEvent,
  seriesByTicker: Map<string, VenueASeries>,
  ids: IdResolver,
  now: string,
  out: ResultBuilder,
  seen: Set<string>,
): void {
  const rawMarkets = ev.markets ?? [];
  if (rawMarkets.length === 0) {
    out.out('event', ev.event_ticker, 'event_without_markets');
    return;
  }
  const seriesTicker = strOrNull(ev.series_ticker) ?? ev.event_ticker.split('-')[0] ?? null;
  const series = seriesTicker ? (seriesByTicker.get(seriesTicker) ?? null) : null;
  const markets: VenueAMarket[] = [];
  for (const raw of rawMarkets) {
    const m = VenueAMarketSchema.safeParse(raw);
    if (!m.success) {
      out.reject('market', marketTickerOf(raw), schemaReason(m.error));
      continue;
    }
    const mk = m.data;
    if (seen.has(mk.ticker)) {
      out.reject('market', mk.ticker, 'duplicate_market_in_pull');
      continue;
    }
    seen.add(mk.ticker);
    if (strOrNull(mk.mve_collection_ticker) || (mk.mve_selected_legs?.length ?? 0) > 0) {
      out.out('market', mk.ticker, 'multivariate_combo');
      continue;
    }
    if (mk.market_type && mk.market_type !== 'binary') {
      out.out('market', mk.ticker, 'non_binary');
      continue;
    }
    markets.push(mk);
  }
  if (markets.length === 0) return;

  const verdict = eventCategory(ev, series, markets);
  if (verdict.kind === 'out') {
    for (const mk of markets) out.out('market', mk.ticker, verdict.reason);
    return;
  }
  const eventId = ids.eventId(ev.event_ticker);
  const normalized: NormalizedMarket[] = [];
  for (const mk of markets) {
    const built = buildMarket(mk, ev, series, eventId, ids, now);
    if (typeof built === 'string') {
      out.reject('market', mk.ticker, built);
      continue;
    }
    normalized.push(built);
  }
  if (normalized.length === 0) return;
  const title = strOrNull(ev.title) ?? strOrNull(markets[0]?.title) ?? ev.event_ticker;
  const categoryProv: FieldProvenance[string] =
    verdict.via === 'venue'
      ? { source: 'platform_api', note: `venue category "${verdict.matched}" mapped by the venue_a table` }
      : { source: 'derived', note: `keyword classifier matched "${verdict.matched}"` };
  const event = baseEvent({
    event_id: eventId,
    venue: 'venue_a',
    platform_event_id: ev.event_ticker,
    slug: `${slugify(title, 60)}-${slugify(ev.event_ticker, 40)}`.replace(/^-/, ''),
    question: title,
    category: verdict.category,
    now,
    field_provenance: { slug: { source: 'derived' }, question: API, category: categoryProv, platform_event_id: API },
  });
  pushEvent(out, event, normalized);
}

function eventCategory(ev: VenueAEvent, series: VenueASeries | null, markets: VenueAMarket[]): CategoryVerdict {
  const fromVenue =
    categoryFromVenueA(strOrNull(ev.category)) ??
    categoryFromVenueA(strOrNull(series?.category)) ??
    categoryFromVenueA(strOrNull(markets[0]?.category));
  if (fromVenue) return refinePolitics(fromVenue, [ev.title, markets[0]?.title].filter(Boolean).join('\n'));
  // Short texts first: rules text mentions many things in passing.
  const short = [ev.title, ev.sub_title, series?.title, ...markets.slice(0, 5).map((m) => m.title)].filter(Boolean);
  const v = categoryFromKeywords(short.join('\n'));
  if (v.kind === 'in' || v.via !== 'none') return v;
  return categoryFromKeywords([markets[0]?.rules_primary, markets[0]?.rules_secondary].filter(Boolean).join('\n'));
}

function buildMarket(
  mk: VenueAMarket,
  ev: VenueAEvent,
  series: VenueASeries | null,
  eventId: string,
  ids: IdResolver,
  now: string,
): NormalizedMarket | string {
  const venueStatus = venueAStatus(mk.status);
  if (venueStatus === null) return `unknown_status:${mk.status ?? 'missing'}`;
  const closeAt = isoOrNull(mk.close_time);
  const lifecycle = lifecycleStatus(venueStatus, closeAt, now, `status "${mk.status}"`);
  const status = lifecycle.status;
  const prov: FieldProvenance = {};
  const set = (k: string, p: FieldProvenance[string] = API) => {
    prov[k] = p;
  };
  const rulesPrimary = strOrNull(mk.rules_primary);
  const rulesSecondary = strOrNull(mk.rules_secondary);
  const rules =
    rulesPrimary && rulesSecondary ? `${rulesPrimary}\n\n${rulesSecondary}` : (rulesPrimary ?? rulesSecondary);
  const expected = isoOrNull(mk.expected_expiration_time);
  const resolveAt = expected ?? isoOrNull(mk.latest_expiration_time) ?? isoOrNull(mk.expiration_time);
  const result = (mk.result ?? '').toLowerCase();
  let outcome: string | null = null;
  let value: number | null = null;
  if (status === 'resolved' || status === 'amended') {
    if (result === 'yes') outcome = 'YES';
    else if (result === 'no') outcome = 'NO';
    else if (result === 'scalar') {
      value = venueAPrice(mk.settlement_value_dollars, mk.settlement_value);
      outcome = value === null ? null : String(value);
    }
  }
  const sources = series
    ? (series.settlement_sources ?? []).map((s) => ({
        name: strOrNull(s.name),
        url: strOrNull(s.url),
        provenance: 'platform_api' as const,
      }))
    : null;
  const tick = numOrNull(mk.tick_size);
  const step = numOrNull(mk.price_ranges?.[0]?.step);
  const subtitle = strOrNull(mk.yes_sub_title) ?? (/[a-z0-9]/i.test(mk.subtitle ?? '') ? strOrNull(mk.subtitle) : null);
  for (const k of [
    'platform_market_id',
    'platform_event_id',
    'question_raw',
    'category_raw',
    'close_at',
    'last_trading_date',
    'resolution_rules_raw',
    'settlement_currency',
  ])
    set(k);
  set('status', lifecycle.provenance);
  if (subtitle) set('description_raw');
  if (subtitle) set('group_item_title');
  if (resolveAt)
    set('resolve_at', {
      source: 'native:expiration_time',
      note: expected ? 'expected_expiration_time' : 'latest/expiration_time',
    });
  if (sources) set('resolution_source_list', { source: 'platform_api', note: 'series settlement_sources' });
  if (series?.contract_terms_url)
    set('contract_terms_url', { source: 'platform_api', note: 'series contract_terms_url' });
  if (outcome) set('resolution_outcome', { source: 'platform_api', note: `result "${mk.result}"` });
  const resolvedAt = outcome !== null ? isoOrNull(mk.settlement_ts) : null;
  if (resolvedAt) set('resolved_at', { source: 'platform_api', note: 'settlement_ts' });
  const history = venueAResolutionHistory(mk.status);
  if (history) set('resolution_history', { source: 'platform_api', note: `status "${mk.status}"` });
  set('tick_size');
  const market = baseMarket(
    {
      market_id: ids.marketId(mk.ticker),
      platform: 'venue_a',
      platform_market_id: mk.ticker,
      event_id: eventId,
      platform_event_id: ev.event_ticker,
      question_raw: strOrNull(mk.title),
      description_raw: subtitle,
      category_raw: strOrNull(ev.category) ?? strOrNull(series?.category) ?? strOrNull(mk.category),
      settlement_currency: 'USD',
      tick_size: tick !== null ? tick / 100 : step,
      contract_multiplier: venueAPrice(mk.notional_value_dollars, mk.notional_value) ?? 1,
      group_item_title: subtitle,
      close_at: closeAt,
      last_trading_date: closeAt,
      resolve_at: resolveAt,
      status,
      resolution_rules_raw: rules,
      resolution_source_list: sources,
      contract_terms_url: strOrNull(series?.contract_terms_url),
      resolution_outcome: outcome,
      resolution_value: value,
      resolved_at: resolvedAt,
      field_provenance: prov,
      resolution_history: history,
      // The series as the venue names it (issue 20: resolving a series ticker or page); never parsed from tickers.
      venue_refs: strOrNull(ev.series_ticker) ? { series_ticker: String(ev.series_ticker) } : null,
      fee_terms: seriesFeeTerms(series),
    },
    now,
  );
  const problem = marketProblem(market);
  if (problem) return problem;
  return { market, facts: facts(mk, ev, series), quote: quote(mk, ev) };
}

/** Fee types the venue's general (quadratic) table prices; the maker-fee variant charges takers the same. */
const QUADRATIC_FEE_TYPES = new Set(['quadratic', 'quadratic_with_maker_fees']);

/**
 * The series' own fee terms (issue 20, item 5): `fee_type` quadratic (or with maker fees) is the general table at
 * the series' `fee_multiplier` (1 when absent); any other type (flat: the Specific Trading Fees Table, or one
 * pmref does not know) is a fee pmref cannot price. Null when the series is unknown or names no fee type.
 */
export function seriesFeeTerms(series: VenueASeries | null): MarketFeeTerms | null {
  const type = strOrNull(series?.fee_type);
  if (series === null || type === null) return null;
  const raw = series.fee_multiplier;
  const multiplier = raw === null || raw === undefined || raw === '' ? null : Number(raw);
  const venueFields: MarketFeeTerms['venue_fields'] = { fee_type: type };
  if (multiplier !== null) venueFields.fee_multiplier = Number.isFinite(multiplier) ? multiplier : String(raw);
  const known =
    QUADRATIC_FEE_TYPES.has(type) && (multiplier === null || (Number.isFinite(multiplier) && multiplier >= 0));
  return { taker_multiplier: known ? (multiplier ?? 1) : null, basis: 'venue_series', venue_fields: venueFields };
}

function facts(mk: VenueAMarket, ev: VenueAEvent, series: VenueASeries | null): VenueFacts {
  return {
    ...emptyVenueFacts(),
    strike_type: strOrNull(mk.strike_type),
    floor_strike: numOrNull(mk.floor_strike),
    cap_strike: numOrNull(mk.cap_strike),
    custom_strike: mk.custom_strike ?? null,
    expiration_time:
      isoOrNull(mk.expected_expiration_time) ?? isoOrNull(mk.latest_expiration_time) ?? isoOrNull(mk.expiration_time),
    series_ticker: strOrNull(ev.series_ticker) ?? series?.ticker ?? null,
    series_title: strOrNull(series?.title),
    settlement_sources: (series?.settlement_sources ?? []).map((s) => ({
      name: strOrNull(s.name),
      url: strOrNull(s.url),
    })),
    event_title: strOrNull(ev.title),
    mutually_exclusive: ev.mutually_exclusive ?? null,
    early_close_condition: strOrNull(mk.early_close_condition),
    venue_tags: series?.tags ?? [],
  };
}

/**
 * The venue's own time for a venue_a quote (served as `price_as_of`). Kalshi's market has no trade or quote
 * timestamp: `updated_time` (its last update) is the closest it gives, then the event's `last_updated_ts`.
 * Markets nested in events carry the placeholder `0001-01-01` there, and some events no `last_updated_ts`:
 * then the time is null and says why — never the pull or build time dressed up as the venue's.
 */
function quoteTime(mk: VenueAMarket, ev: VenueAEvent): { at: string | null; provenance: FieldProvenance[string] } {
  const updated = isoOrNull(mk.updated_time);
  if (updated) return { at: updated, provenance: { source: 'platform_api', note: 'market updated_time' } };
  const eventUpdated = isoOrNull(ev.last_updated_ts);
  if (eventUpdated) return { at: eventUpdated, provenance: { source: 'platform_api', note: 'event last_updated_ts' } };
  return {
    at: null,
    provenance: {
      source: 'null_by_venue_limitation',
      note: 'venue_a gave no update time for this market (placeholder updated_time, no event last_updated_ts)',
    },
  };
}

const QUOTE_KEY =
  /(_dollars|_fp|^yes_|^no_|^last_price|^volume|^open_interest|^liquidity|^status$|^result$|^updated_time$|^ticker$)/;

function quote(mk: VenueAMarket, ev: VenueAEvent): VenueQuote {
  const yesBid = prob(venueAPrice(mk.yes_bid_dollars, mk.yes_bid));
  const yesAsk = prob(venueAPrice(mk.yes_ask_dollars, mk.yes_ask));
  const noBid = prob(venueAPrice(mk.no_bid_dollars, mk.no_bid));
  const noAsk = prob(venueAPrice(mk.no_ask_dollars, mk.no_ask));
  const last = prob(venueAPrice(mk.last_price_dollars, mk.last_price));
  const bidSize = numOrNull(mk.yes_bid_size_fp);
  const askSize = numOrNull(mk.yes_ask_size_fp);
  const mid = yesBid !== null && yesAsk !== null ? (yesBid + yesAsk) / 2 : null;
  const volumePrice = last ?? mid;
  const volume = fp(mk.volume_fp, mk.volume);
  const volume24 = fp(mk.volume_24h_fp, mk.volume_24h);
  const oi = fp(mk.open_interest_fp, mk.open_interest);
  const notional = venueAPrice(mk.notional_value_dollars, mk.notional_value) ?? 1;
  const noBook: FieldProvenance[string] = {
    source: 'null_by_venue_limitation',
    note: 'top-of-book size not in this venue_a market payload (older schema has no *_size_fp)',
  };
  const provenance: FieldProvenance = {
    yes_bid: API,
    yes_ask: API,
    no_bid: API,
    no_ask: API,
    last_price: API,
    liquidity_usd: API,
    yes_bid_size_usd: bidSize !== null ? { source: 'platform_api', note: 'yes_bid_size_fp × yes_bid' } : noBook,
    yes_ask_size_usd: askSize !== null ? { source: 'platform_api', note: 'yes_ask_size_fp × yes_ask' } : noBook,
    // A NO bid at p is the other side of a YES ask at 1 − p: same contracts.
    no_bid_size_usd: askSize !== null ? { source: 'derived', note: 'yes_ask_size_fp × no_bid' } : noBook,
    no_ask_size_usd: bidSize !== null ? { source: 'derived', note: 'yes_bid_size_fp × no_ask' } : noBook,
    volume_total_usd: { source: 'imputed', note: 'venue volume is in contracts; × last price (mid when no trade)' },
    volume_24h_usd: { source: 'imputed', note: 'venue volume_24h is in contracts; × last price (mid when no trade)' },
    open_interest_usd: { source: 'platform_api', note: 'open interest in contracts × notional value ($1)' },
    source_updated_at: quoteTime(mk, ev).provenance,
  };
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(mk)) if (QUOTE_KEY.test(k)) raw[k] = v;
  return {
    yes_bid: yesBid,
    yes_ask: yesAsk,
    no_bid: noBid,
    no_ask: noAsk,
    yes_bid_size_usd: usd(bidSize, yesBid),
    yes_ask_size_usd: usd(askSize, yesAsk),
    no_bid_size_usd: usd(askSize, noBid),
    no_ask_size_usd: usd(bidSize, noAsk),
    last_price: last,
    volume_24h_usd: usd(volume24, volumePrice),
    volume_total_usd: usd(volume, volumePrice),
    open_interest_usd: usd(oi, notional),
    liquidity_usd: nonNegative(venueAPrice(mk.liquidity_dollars, mk.liquidity)),
    source_updated_at: quoteTime(mk, ev).at,
    provenance,
    raw,
  };
}

/**
 * The venue_a market fields only `quote` reads (issue 18, requote.ts): the book, the last price, volume, open
 * interest, liquidity and the update time. Together with the fields the market schema does not name (read by
 * nothing but the quote's raw payload), they are a market's quote part: a change there changes its quote and
 * nothing else normalization gives (test/venues/requote.test.ts checks it on every fixture market).
 */
const QUOTE_FIELDS = new Set([
  'yes_bid',
  'yes_ask',
  'no_bid',
  'no_ask',
  'last_price',
  'yes_bid_dollars',
  'yes_ask_dollars',
  'no_bid_dollars',
  'no_ask_dollars',
  'last_price_dollars',
  'yes_bid_size_fp',
  'yes_ask_size_fp',
  'volume',
  'volume_fp',
  'volume_24h',
  'volume_24h_fp',
  'open_interest',
  'open_interest_fp',
  'liquidity',
  'liquidity_dollars',
  'updated_time',
]);
const SCHEMA_FIELDS: ReadonlySet<string> = new Set(Object.keys(VenueAMarketSchema.shape));

/** Whether a raw venue_a market field is in its quote part (see QUOTE_FIELDS). */
export function isVenueAQuoteField(field: string): boolean {
  return QUOTE_FIELDS.has(field) || !SCHEMA_FIELDS.has(field);
}

/**
 * The quotes normalization gives raw venue_a markets of a raw event, without normalizing either: null for a market
 * that does not read, every one when the event does not (normalization would reject them).
 */
export function requoteVenueA(rawEvent: unknown, rawMarkets: readonly unknown[]): (VenueQuote | null)[] {
  const ev = VenueAEventSchema.safeParse(rawEvent);
  return rawMarkets.map((raw) => {
    const mk = VenueAMarketSchema.safeParse(raw);
    return ev.success && mk.success ? quote(mk.data, ev.data) : null;
  });
}
