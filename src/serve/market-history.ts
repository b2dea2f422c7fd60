/**
 * `GET /v1/markets/{id}/history` (issue 20, item 1): one market's daily marks over a date range, each with how it
 * was obtained. The store keeps one mark per market per UTC date (README "History and retention"): the day's
 * last refresh is the day's mark, the backfill adds past days from the venues' price history, and a run whose
 * venue failed carries the previous mark forward. There is no intraday detail, so `interval=hour` is refused
 * rather than answered with an empty or a daily series.
 *
 * A live store query (the marks are not in the read model), but its answer only changes when a run publishes:
 * the ETag is the generation and the resolved range, so a revalidation is answered before the store is read.
 */
import {
  type HistoryObtained,
  type HistoryPoint,
  type Mark,
  type MarketDetail,
  type MarketHistory,
  VENUE_HISTORY_NOTE,
} from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import { Body, etagFor } from './json-bytes.ts';
import { resolveMarketRef } from './market-ref.ts';
import type { Raw } from './params.ts';
import type { ReadModelSource } from './query-service.ts';
import type { ReadModel } from './read-model.ts';
import { marketIdForRef } from './resolve.ts';
import { provenanceOf, venueQuoteTime } from './serialize.ts';

/** Days before `to` that `from` defaults to. */
export const HISTORY_DEFAULT_DAYS = 365;
/** The longest range one request may ask for, in days (ten years and change). */
export const HISTORY_MAX_DAYS = 3660;

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A request the history cannot answer: the route turns it into a 400 with this message and hint. */
export class HistoryQueryError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** A resolved request: which market, which dates, and the validator its answer carries. */
export interface HistoryPlan {
  marketId: string;
  from: string;
  to: string;
  etag: string;
}

/** How a stored mark was obtained (see `HistoryObtainedSchema`). */
export function obtainedOf(mark: Pick<Mark, 'mark_method' | 'field_provenance'>): HistoryObtained {
  if (mark.mark_method === 'imputed_carry_forward') return 'carried_forward';
  if (mark.mark_method === 'editorial_override') return 'editorial_override';
  return mark.field_provenance.snapshot_at?.note === VENUE_HISTORY_NOTE ? 'venue_history' : 'venue_snapshot';
}

/** One stored mark as a history point. */
export function historyPoint(mark: Mark): HistoryPoint {
  return {
    date: mark.snapshot_date,
    snapshot_at: mark.snapshot_at,
    yes_bid: mark.yes_bid,
    yes_ask: mark.yes_ask,
    no_bid: mark.no_bid,
    no_ask: mark.no_ask,
    yes_bid_size_usd: mark.yes_bid_size_usd,
    yes_ask_size_usd: mark.yes_ask_size_usd,
    no_bid_size_usd: mark.no_bid_size_usd,
    no_ask_size_usd: mark.no_ask_size_usd,
    yes_last_price: mark.yes_last_price,
    implied_probability: mark.implied_probability,
    mid: mark.mid,
    spread: mark.spread,
    volume_24h_usd: mark.volume_24h_usd,
    volume_total_usd: mark.volume_total_usd,
    open_interest_usd: mark.open_interest_usd,
    stale_flag: mark.stale_flag,
    price_as_of: venueQuoteTime(mark),
    obtained: obtainedOf(mark),
  };
}

function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD` that names a real date, or undefined when absent; throws on anything else. */
function parseDate(name: string, raw: Raw): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw);
  // The value is not quoted back: an error body never echoes request input.
  if (!ISO_DATE.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)) || dateOf(dayNumber(text)) !== text) {
    throw new HistoryQueryError(`${name} is not a date`, `Pass ${name} as a UTC date, YYYY-MM-DD (e.g. 2026-11-20).`);
  }
  return text;
}

function parseInterval(raw: Raw): 'day' {
  const text = raw === undefined || raw === null || raw === '' ? 'day' : String(raw);
  if (text === 'day') return 'day';
  if (text === 'hour') {
    throw new HistoryQueryError(
      'hourly detail is not kept: the store holds one mark per market per UTC date',
      'Ask for interval=day. README "History and retention" says what is kept.',
    );
  }
  throw new HistoryQueryError('interval is not one of day, hour', 'Pass interval=day (or leave it out).');
}

/** The date a market's newest mark is of: its detail's `last_checked_at`, else the model's day. */
function latestMarkDate(model: ReadModel, marketId: string): string {
  const checked = model.marketById.get(marketId)?.detail.value<MarketDetail>().last_checked_at;
  return checked ? checked.slice(0, 10) : model.today;
}

/**
 * The range asked for: `to` defaults to the date of the market's newest mark, `from` to 365 days before `to`.
 * Throws HistoryQueryError for a malformed date, from after to, a range over HISTORY_MAX_DAYS, or a bad interval.
 */
export function historyRange(
  query: { from?: Raw; to?: Raw; interval?: Raw },
  defaultTo: () => string,
): { from: string; to: string } {
  parseInterval(query.interval);
  const to = parseDate('to', query.to) ?? defaultTo();
  const from = parseDate('from', query.from) ?? dateOf(dayNumber(to) - HISTORY_DEFAULT_DAYS);
  if (from > to) throw new HistoryQueryError('from is after to', 'Pass from on or before to (both YYYY-MM-DD).');
  if (dayNumber(to) - dayNumber(from) > HISTORY_MAX_DAYS) {
    throw new HistoryQueryError(
      `the range is longer than ${HISTORY_MAX_DAYS} days`,
      `Ask for at most ${HISTORY_MAX_DAYS} days per request and page by date.`,
    );
  }
  return { from, to };
}

export class MarketHistoryService {
  constructor(
    private readonly store: Store,
    private readonly source: ReadModelSource,
  ) {}

  /**
   * Resolves a market reference (any form `GET /v1/markets/{id}` takes) and the range. Null when no published
   * market matches; throws HistoryQueryError for a bad query.
   */
  plan(ref: string, query: { from?: Raw; to?: Raw; interval?: Raw }): HistoryPlan | null {
    const model = this.source.current();
    const marketId =
      resolveMarketRef(ref, model.marketById, model.marketByNative)?.marketId ?? marketIdForRef(model, ref);
    if (marketId === null) return null;
    const { from, to } = historyRange(query, () => latestMarkDate(model, marketId));
    return { marketId, from, to, etag: etagFor(model.generation, `h:${marketId}:${from}:${to}`) };
  }

  /** The history a plan names, read from the store. */
  async history(plan: HistoryPlan): Promise<MarketHistory> {
    const model = this.source.current();
    const marks = await this.store.listMarks({ marketIds: [plan.marketId], since: plan.from });
    const points = marks.filter((m) => m.snapshot_date <= plan.to).map(historyPoint);
    return {
      market_id: plan.marketId,
      interval: 'day',
      from: plan.from,
      to: plan.to,
      count: points.length,
      points,
      _provenance: provenanceOf(model.origin, plan.marketId),
      _notice: model.notice,
    };
  }

  /** The history as a response body with the plan's ETag (pretty-printed like every served body). */
  async body(plan: HistoryPlan): Promise<Body> {
    return new Body(JSON.stringify(await this.history(plan), null, 2), plan.etag);
  }
}
