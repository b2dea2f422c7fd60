/**
 * Daily marks (spec §2.3; DESIGN.md §4 step 6). One mark per market per UTC date: an hourly run
 * upserts today's mark, so the last run of a day decides it. Derived fields (spread, mid, divergence,
 * hours since update, stale flag) are computed here, at write, never at serve time.
 */

import type { FieldProvenance, Market, MarkFacts, NewMark } from '../domain/index.ts';
import type { VenueQuote } from '../venues/index.ts';

/** A mark older than this many hours since the venue last updated it is stale (spec §2.3). */
export const STALE_AFTER_HOURS = 4;

/** The quote fields a mark is made from: the venues' own quote, less liquidity (marks do not carry it). */
export type QuoteInput = Omit<VenueQuote, 'liquidity_usd'>;

const PRICE_FIELDS = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask'] as const;
const USD_FIELDS = [
  'yes_bid_size_usd',
  'yes_ask_size_usd',
  'no_bid_size_usd',
  'no_ask_size_usd',
  'volume_24h_usd',
  'volume_total_usd',
  'open_interest_usd',
] as const;

/** Fields a carried-forward mark copies from the mark it carries. */
const CARRIED_FIELDS = [...PRICE_FIELDS, ...USD_FIELDS, 'yes_last_price', 'implied_probability'] as const;

const UTC_ISO = /^\d{4}-\d{2}-\d{2}T[^+-]*Z$/;

/** UTC date (YYYY-MM-DD) of an ISO time. */
export function utcDate(iso: string): string {
  // Fast path for times already in UTC ('…Z'): their date is their first ten characters.
  return UTC_ISO.test(iso) ? iso.slice(0, 10) : new Date(iso).toISOString().slice(0, 10);
}

/** Rounds away float noise (0.53 - 0.51 = 0.020000000000000018) so reruns store identical numbers. */
function round(value: number, digits = 6): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function probability(value: number | null): number | null {
  return value !== null && Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}

function usd(value: number | null): number | null {
  return value !== null && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Hours from the venue's update time to the snapshot, never negative; null when either is unknown. */
export function hoursBetween(sourceUpdatedAt: string | null, snapshotAt: string): number | null {
  if (sourceUpdatedAt === null) return null;
  const ms = Date.parse(snapshotAt) - Date.parse(sourceUpdatedAt);
  return Number.isFinite(ms) ? round(Math.max(0, ms) / 3_600_000, 4) : null;
}

/** Spread, mid and divergence from the bid/ask/last, as spec §2.3 defines them. */
export function derivedPriceFields(
  yesBid: number | null,
  yesAsk: number | null,
  last: number | null,
  primaryPrice: number | null,
): Pick<NewMark, 'spread' | 'mid' | 'divergence_from_primary'> {
  const both = yesBid !== null && yesAsk !== null;
  return {
    spread: both ? round(yesAsk - yesBid) : null,
    mid: both ? round((yesBid + yesAsk) / 2) : null,
    divergence_from_primary: last !== null && primaryPrice !== null ? round(Math.abs(last - primaryPrice)) : null,
  };
}

const DERIVED_PROVENANCE: FieldProvenance = {
  spread: { source: 'derived', note: 'yes_ask - yes_bid' },
  mid: { source: 'derived', note: '(yes_bid + yes_ask) / 2' },
  divergence_from_primary: { source: 'derived', note: "|yes_last_price - primary market's yes_last_price|" },
  hours_since_source_update: { source: 'derived', note: 'snapshot_at - source_updated_at, in hours' },
  stale_flag: { source: 'derived', note: `hours_since_source_update > ${STALE_AFTER_HOURS}` },
};

export interface MarkOptions {
  /** Time of the venue pull (the run clock). */
  now: string;
  /**
   * The event's primary market's yes_last_price; null when the event has one market or no primary
   * (divergence is then null, spec §2.3).
   */
  primaryPrice: number | null;
}

/**
 * Today's mark of a market from its venue quote (spec §2.3). When the venue gives no update time,
 * `source_updated_at` falls back to the pull time and the provenance says so; hours-since-update is
 * then unknown (null) rather than a false "fresh".
 * @example markFromQuote(market, quote, { now: '2026-03-01T12:00:00Z', primaryPrice: null }).snapshot_date // '2026-03-01'
 */
export function markFromQuote(market: Market, quote: QuoteInput, options: MarkOptions): NewMark {
  const { now, primaryPrice } = options;
  const provenance: FieldProvenance = { ...quote.provenance, ...DERIVED_PROVENANCE };
  const sourceUpdatedAt = quote.source_updated_at ?? now;
  if (quote.source_updated_at === null) {
    provenance.source_updated_at = { source: 'imputed', note: 'venue gave no update time; the pull time is used' };
    provenance.hours_since_source_update = { source: 'derived', note: 'unknown: the venue gave no update time' };
  }
  const hours = quote.source_updated_at === null ? null : hoursBetween(quote.source_updated_at, now);
  const last = probability(quote.last_price);
  const binary = market.contract_type === 'binary';
  provenance.implied_probability = binary
    ? { source: 'derived', note: 'equals yes_last_price for binary markets' }
    : { source: 'derived', note: 'scalar: the normalized ladder mass is computed at serve time' };
  const yesBid = probability(quote.yes_bid);
  const yesAsk = probability(quote.yes_ask);
  return {
    market_id: market.market_id,
    snapshot_date: utcDate(now),
    snapshot_at: now,
    source_updated_at: sourceUpdatedAt,
    yes_bid: yesBid,
    yes_ask: yesAsk,
    no_bid: probability(quote.no_bid),
    no_ask: probability(quote.no_ask),
    yes_bid_size_usd: usd(quote.yes_bid_size_usd),
    yes_ask_size_usd: usd(quote.yes_ask_size_usd),
    no_bid_size_usd: usd(quote.no_bid_size_usd),
    no_ask_size_usd: usd(quote.no_ask_size_usd),
    yes_last_price: last,
    implied_probability: binary ? last : null,
    volume_24h_usd: usd(quote.volume_24h_usd),
    volume_total_usd: usd(quote.volume_total_usd),
    open_interest_usd: usd(quote.open_interest_usd),
    mark_method: 'venue_snapshot',
    stale_flag: hours !== null && hours > STALE_AFTER_HOURS,
    source_count: 1,
    raw_payload: isRecord(quote.raw) ? quote.raw : null,
    ...derivedPriceFields(yesBid, yesAsk, last, primaryPrice),
    hours_since_source_update: hours,
    field_provenance: provenance,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Today's mark for a market whose venue could not be read: the latest mark's values carried to
 * today with `mark_method: imputed_carry_forward` (DESIGN.md §4 step 1). The venue's update time is
 * kept, so hours-since-update grows and the mark turns stale honestly. Never invents a mark: callers
 * only carry a market that has a previous mark.
 */
export function carryForwardMark(latest: MarkFacts, now: string): NewMark {
  const provenance: FieldProvenance = { ...latest.field_provenance };
  const note = `carried forward from the ${latest.snapshot_date} mark: the venue could not be read`;
  for (const field of CARRIED_FIELDS) {
    if (latest[field] !== null) provenance[field] = { source: 'imputed', note };
  }
  const hours = hoursBetween(latest.source_updated_at, now);
  provenance.hours_since_source_update = DERIVED_PROVENANCE.hours_since_source_update ?? { source: 'derived' };
  provenance.mark_method = { source: 'imputed', note };
  // Spelled out in the mark's key order (the latest mark may come without its raw payload: latestMarkFacts).
  return {
    market_id: latest.market_id,
    snapshot_date: utcDate(now),
    snapshot_at: now,
    source_updated_at: latest.source_updated_at,
    yes_bid: latest.yes_bid,
    yes_ask: latest.yes_ask,
    no_bid: latest.no_bid,
    no_ask: latest.no_ask,
    yes_bid_size_usd: latest.yes_bid_size_usd,
    yes_ask_size_usd: latest.yes_ask_size_usd,
    no_bid_size_usd: latest.no_bid_size_usd,
    no_ask_size_usd: latest.no_ask_size_usd,
    yes_last_price: latest.yes_last_price,
    implied_probability: latest.implied_probability,
    volume_24h_usd: latest.volume_24h_usd,
    volume_total_usd: latest.volume_total_usd,
    open_interest_usd: latest.open_interest_usd,
    mark_method: 'imputed_carry_forward',
    stale_flag: hours !== null && hours > STALE_AFTER_HOURS,
    source_count: latest.source_count,
    raw_payload: null,
    spread: latest.spread,
    mid: latest.mid,
    divergence_from_primary: latest.divergence_from_primary,
    hours_since_source_update: hours,
    field_provenance: provenance,
  };
}

/**
 * Carry-forward marks for the markets that got no fresh quote today. A market gets one only when it
 * has a previous mark from an earlier date (a mark already written today, e.g. by an earlier hourly
 * run, is a better value than a carried one and is left alone).
 */
export function carryForwardMarks(
  marketIds: Iterable<string>,
  latestByMarket: ReadonlyMap<string, MarkFacts>,
  now: string,
): NewMark[] {
  const today = utcDate(now);
  const out: NewMark[] = [];
  for (const id of marketIds) {
    const latest = latestByMarket.get(id);
    if (latest === undefined || latest.snapshot_date >= today) continue;
    out.push(carryForwardMark(latest, now));
  }
  return out;
}
