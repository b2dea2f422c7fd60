/**
 * Venue price history → one mark per past UTC date (the backfill stage's pure half). venue_a gives
 * daily candlesticks (`GET /markets/candlesticks`, period 1440), venue_b CLOB gives a price series
 * (`GET /prices-history`). Both are read loosely: a field missing or unreadable becomes null with a
 * provenance note, never a guess.
 */
import { type FieldProvenance, type Market, type NewMark, VENUE_HISTORY_NOTE } from '../domain/index.ts';
import { derivedPriceFields, utcDate } from './marks.ts';

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A price from a venue_a OHLC object: the `*_dollars` string first, else integer cents. */
function dollarsOf(ohlc: unknown, key: string): number | null {
  const o = record(ohlc);
  if (o === null) return null;
  const dollars = num(o[`${key}_dollars`]);
  if (dollars !== null) return dollars;
  const cents = num(o[key]);
  return cents === null ? null : cents / 100;
}

function prob(value: number | null): number | null {
  return value !== null && value >= 0 && value <= 1 ? Math.round(value * 1e6) / 1e6 : null;
}

function complement(value: number | null): number | null {
  return value === null ? null : Math.round((1 - value) * 1e6) / 1e6;
}

/** The first and last UTC date a backfill covers: the `days` dates before `today`. */
export function backfillWindow(today: string, days: number): { from: string; toExclusive: string } {
  const t = Date.parse(`${today}T00:00:00Z`);
  return { from: new Date(t - days * 86_400_000).toISOString().slice(0, 10), toExclusive: today };
}

function baseMark(market: Market, at: string, raw: Record<string, unknown>): NewMark {
  return {
    market_id: market.market_id,
    snapshot_date: utcDate(at),
    snapshot_at: at,
    source_updated_at: at,
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: null,
    implied_probability: null,
    volume_24h_usd: null,
    volume_total_usd: null,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: raw,
    spread: null,
    mid: null,
    divergence_from_primary: null,
    hours_since_source_update: 0,
    field_provenance: {},
  };
}

// History marks share one compact provenance object per venue: the store holds about half a
// million of them for the full universe. Fields not listed come from the venue's history as is.
const HISTORY_COMMON_PROVENANCE: FieldProvenance = {
  snapshot_at: { source: 'platform_api', note: VENUE_HISTORY_NOTE },
  divergence_from_primary: { source: 'derived', note: 'not computed for history marks' },
};

const VENUE_A_HISTORY_PROVENANCE: FieldProvenance = {
  ...HISTORY_COMMON_PROVENANCE,
  no_bid: { source: 'derived', note: '1 - yes_ask' },
  no_ask: { source: 'derived', note: '1 - yes_bid' },
  volume_24h_usd: { source: 'imputed', note: 'contracts × price' },
  volume_total_usd: { source: 'null_by_venue_limitation' },
  yes_bid_size_usd: { source: 'null_by_venue_limitation', note: 'history carries no book sizes' },
  yes_ask_size_usd: { source: 'null_by_venue_limitation' },
  no_bid_size_usd: { source: 'null_by_venue_limitation' },
  no_ask_size_usd: { source: 'null_by_venue_limitation' },
};

/**
 * Marks from venue_a daily candlesticks, one per UTC date in [from, toExclusive). A candle's close is
 * the state at `end_period_ts`, so its mark is dated like any mark: the UTC date of that moment
 * (the same convention as a pipeline run at that time). When two candles fall on one date the later wins.
 */
export function marksFromCandles(
  market: Market,
  candles: readonly unknown[],
  window: { from: string; toExclusive: string },
): NewMark[] {
  const byDate = new Map<string, NewMark>();
  for (const c of candles) {
    const candle = record(c);
    const end = num(candle?.end_period_ts);
    if (candle === null || end === null) continue;
    const at = new Date(end * 1000).toISOString();
    const date = utcDate(at);
    if (date < window.from || date >= window.toExclusive) continue;
    const price = candle.price;
    const last = prob(dollarsOf(price, 'close') ?? dollarsOf(price, 'previous'));
    const yesBid = prob(dollarsOf(candle.yes_bid, 'close'));
    const yesAsk = prob(dollarsOf(candle.yes_ask, 'close'));
    const contracts = num(candle.volume_fp) ?? num(candle.volume);
    const oiContracts = num(candle.open_interest_fp) ?? num(candle.open_interest);
    const mid = yesBid !== null && yesAsk !== null ? (yesBid + yesAsk) / 2 : null;
    const volumePrice = last ?? mid;
    const mark = baseMark(market, at, candle);
    mark.yes_bid = yesBid;
    mark.yes_ask = yesAsk;
    mark.no_bid = complement(yesAsk);
    mark.no_ask = complement(yesBid);
    mark.yes_last_price = last;
    mark.implied_probability = market.contract_type === 'binary' ? last : null;
    // Same conventions as the venue_a normalizer: volume in contracts × price, open interest × $1 notional.
    mark.volume_24h_usd =
      contracts !== null && volumePrice !== null ? Math.round(contracts * volumePrice * 100) / 100 : null;
    mark.open_interest_usd =
      oiContracts !== null ? Math.round(oiContracts * (market.contract_multiplier ?? 1) * 100) / 100 : null;
    Object.assign(mark, derivedPriceFields(yesBid, yesAsk, last, null));
    mark.field_provenance = VENUE_A_HISTORY_PROVENANCE;
    byDate.set(date, mark);
  }
  return [...byDate.values()].sort((a, b) => a.snapshot_date.localeCompare(b.snapshot_date));
}

/**
 * Marks from a venue_b CLOB `prices-history` series (`{history: [{t, p}]}`): the last point of each
 * UTC date is that date's YES price. venue_b history has no book and no volume: those fields are
 * null with `null_by_venue_limitation`.
 */
export function marksFromPriceHistory(
  market: Market,
  points: readonly unknown[],
  window: { from: string; toExclusive: string },
): NewMark[] {
  // Day numbers instead of date strings per point: a market carries hundreds of hourly points.
  const fromDay = Date.parse(`${window.from}T00:00:00Z`) / 86_400_000;
  const toDay = Date.parse(`${window.toExclusive}T00:00:00Z`) / 86_400_000;
  const lastOfDay = new Map<number, { t: number; p: number; raw: Record<string, unknown> }>();
  for (const item of points) {
    const point = record(item);
    if (point === null) continue;
    const t = num(point.t);
    const p = prob(num(point.p));
    if (t === null || p === null) continue;
    const day = Math.floor(t / 86_400);
    if (day < fromDay || day >= toDay) continue;
    const seen = lastOfDay.get(day);
    if (seen === undefined || t >= seen.t) lastOfDay.set(day, { t, p, raw: point });
  }
  const out: NewMark[] = [];
  for (const [, { t, p, raw }] of [...lastOfDay].sort(([a], [b]) => a - b)) {
    const mark = baseMark(market, new Date(t * 1000).toISOString(), raw);
    mark.yes_last_price = p;
    mark.implied_probability = market.contract_type === 'binary' ? p : null;
    mark.field_provenance = VENUE_B_HISTORY_PROVENANCE;
    out.push(mark);
  }
  return out;
}

const LIMITED = { source: 'null_by_venue_limitation' } as const;
const VENUE_B_HISTORY_PROVENANCE: FieldProvenance = {
  ...HISTORY_COMMON_PROVENANCE,
  yes_bid: { source: 'null_by_venue_limitation', note: 'price history carries no book, volume or open interest' },
  yes_ask: LIMITED,
  no_bid: LIMITED,
  no_ask: LIMITED,
  yes_bid_size_usd: LIMITED,
  yes_ask_size_usd: LIMITED,
  no_bid_size_usd: LIMITED,
  no_ask_size_usd: LIMITED,
  volume_24h_usd: LIMITED,
  volume_total_usd: LIMITED,
  open_interest_usd: LIMITED,
};
