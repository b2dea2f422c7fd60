/**
 * `GET /v1/markets/{id}/history` (issue 20, item 1): one market's daily marks over a date range, or its hourly
 * quotes over an hour range, each with how it was obtained. The store keeps one mark per market per UTC date
 * (README "History and retention"): the day's last refresh is the day's mark, the backfill adds past days from the
 * venues' price history, and a run whose venue failed carries the previous mark forward. Hourly detail is kept
 * for the last PMREF_HOURLY_RETENTION_DAYS days (a row per market and hour where its quote changed); the hourly
 * series is built from it by hourly-history.ts. The retention served is the one the newest published run kept
 * (its summary's `hourly.retention_days`): the pipeline decides what is kept, so a server configured otherwise
 * cannot promise hours that were pruned.
 *
 * A live store query (the marks are not in the read model), but its answer only changes when a run publishes:
 * the ETag is the generation and the resolved range, so a revalidation is answered before the marks are read.
 */
import {
  type HistoryPoint,
  historyQuoteOf,
  type MarketDetail,
  type MarketHistory,
  type MarkFacts,
  type Venue,
} from '../domain/index.ts';
import { addHours, type HourKey, hourlyRetentionStart, hourStartMs, type RunHour, type Store } from '../store/index.ts';
import { obtainedOf } from './history-obtained.ts';
import { hourIso, hourlyPoints } from './hourly-history.ts';
import { Body, etagFor } from './json-bytes.ts';
import { resolveMarketRef } from './market-ref.ts';
import type { Raw } from './params.ts';
import type { ReadModelSource } from './query-service.ts';
import type { ReadModel } from './read-model.ts';
import { marketIdForRef } from './resolve.ts';
import { provenanceOf, venueQuoteTime } from './serialize.ts';

export { obtainedOf };

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

/** A resolved request: which market, which dates (or hours), and the validator its answer carries. */
export interface HistoryPlan {
  marketId: string;
  interval: 'day' | 'hour';
  /** YYYY-MM-DD, or for interval=hour the hour key YYYY-MM-DDTHH. */
  from: string;
  to: string;
  etag: string;
}

/** One stored mark as a history point. */
export function historyPoint(mark: MarkFacts): HistoryPoint {
  return {
    date: mark.snapshot_date,
    snapshot_at: mark.snapshot_at,
    ...historyQuoteOf(mark),
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

function parseInterval(raw: Raw): 'day' | 'hour' {
  const text = raw === undefined || raw === null || raw === '' ? 'day' : String(raw);
  if (text === 'day' || text === 'hour') return text;
  throw new HistoryQueryError(
    'interval is not one of day, hour',
    'Pass interval=day (or leave it out) or interval=hour.',
  );
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
  if (parseInterval(query.interval) === 'hour') throw new Error('historyRange is the daily range: use hourlyRange');
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

/** An ISO UTC hour or time: YYYY-MM-DDTHH, YYYY-MM-DDTHH:MM, …:SS(.fff), with Z or an offset (none: UTC). */
const ISO_HOUR = /^(\d{4}-\d{2}-\d{2})T(\d{2})(:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * The hour key of a `from`/`to` value of interval=hour: a date (from: its first hour; to: its last) or an ISO UTC
 * hour or time (the hour it falls in). Undefined when absent; throws on anything else.
 */
function parseHour(name: 'from' | 'to', raw: Raw): HourKey | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw);
  const bad = () =>
    new HistoryQueryError(
      `${name} is not a date or an hour`,
      `Pass ${name} as a UTC date (YYYY-MM-DD) or an ISO hour or time (e.g. 2026-11-20T14 or 2026-11-20T14:30:00Z).`,
    );
  if (ISO_DATE.test(text)) {
    const date = parseDate(name, text);
    if (date === undefined) throw bad();
    return `${date}T${name === 'from' ? '00' : '23'}`;
  }
  const m = ISO_HOUR.exec(text);
  if (!m || m[1] === undefined || dateOf(dayNumber(m[1])) !== m[1] || Number(m[2]) > 23) throw bad();
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3] ?? ':00'}${m[6] ?? 'Z'}`);
  if (!Number.isFinite(ms)) throw bad();
  return new Date(ms).toISOString().slice(0, 13);
}

/** What the newest published run kept of hourly detail: its retention and its clock. */
export interface HourlyKept {
  /** Days of hourly detail; 0 or null (a run from before hourly detail): none. */
  retentionDays: number | null;
  /** The newest published run's clock (null: nothing published). */
  asOf: string | null;
}

/**
 * The hour range asked for with interval=hour: `to` defaults to the hour of the newest published run, `from` to the
 * first hour kept. Throws HistoryQueryError when hourly detail is off, for a malformed value, from after to, a
 * from before the first hour kept, or a range longer than the retention window (N days and today).
 */
export function hourlyRange(query: { from?: Raw; to?: Raw }, kept: HourlyKept): { from: HourKey; to: HourKey } {
  const days = kept.retentionDays;
  if (days === null || days === 0 || kept.asOf === null) {
    throw new HistoryQueryError(
      'hourly detail is off: the pipeline keeps no hourly marks (PMREF_HOURLY_RETENTION_DAYS=0, or no run has kept any yet)',
      'Ask for interval=day, or run the pipeline with PMREF_HOURLY_RETENTION_DAYS above 0. README "History and retention" says what is kept.',
    );
  }
  const first = hourlyRetentionStart(kept.asOf, days);
  const to = parseHour('to', query.to) ?? kept.asOf.slice(0, 13);
  const from = parseHour('from', query.from) ?? first;
  if (from > to) throw new HistoryQueryError('from is after to', 'Pass from on or before to.');
  if (from < first) {
    throw new HistoryQueryError(
      `hourly detail before ${hourIso(first)} is not kept`,
      `Hourly detail is kept for ${days} days and today (PMREF_HOURLY_RETENTION_DAYS=${days}); ask interval=day for older dates.`,
    );
  }
  const maxHours = (days + 1) * 24;
  if ((hourStartMs(to) - hourStartMs(from)) / 3_600_000 + 1 > maxHours) {
    throw new HistoryQueryError(
      `the range is longer than the ${days + 1} days of hourly detail kept (${maxHours} hours)`,
      `Ask for at most ${maxHours} hours per request (PMREF_HOURLY_RETENTION_DAYS=${days}: the last ${days} days and today).`,
    );
  }
  return { from, to };
}

export class MarketHistoryService {
  /** What the newest published run kept, read once per served generation. */
  private kept: { generation: number; value: Promise<HourlyKept> } | null = null;
  private hours: { key: string; value: Promise<RunHour[]> } | null = null;

  constructor(
    private readonly store: Store,
    private readonly source: ReadModelSource,
  ) {}

  /**
   * Resolves a market reference (any form `GET /v1/markets/{id}` takes) and the range. Null when no published
   * market matches; throws HistoryQueryError for a bad query.
   */
  async plan(ref: string, query: { from?: Raw; to?: Raw; interval?: Raw }): Promise<HistoryPlan | null> {
    const model = this.source.current();
    const interval = parseInterval(query.interval);
    const marketId =
      resolveMarketRef(ref, model.marketById, model.marketByNative)?.marketId ?? marketIdForRef(model, ref);
    if (marketId === null) return null;
    const { from, to } =
      interval === 'day'
        ? historyRange(query, () => latestMarkDate(model, marketId))
        : hourlyRange(query, await this.hourlyKept(model.generation));
    const key = interval === 'day' ? `h:${marketId}:${from}:${to}` : `hh:${marketId}:${from}:${to}`;
    return { marketId, interval, from, to, etag: etagFor(model.generation, key) };
  }

  private hourlyKept(generation: number): Promise<HourlyKept> {
    if (this.kept?.generation !== generation) {
      const value = this.store.lastRun({ published: true }).then((run) => {
        const hourly = run?.summary.hourly as { retention_days?: unknown } | undefined;
        const days = hourly?.retention_days;
        return { retentionDays: typeof days === 'number' ? days : null, asOf: run?.started_at ?? null };
      });
      // A failed read is not remembered: the next request asks again.
      value.catch(() => {
        if (this.kept?.value === value) this.kept = null;
      });
      this.kept = { generation, value };
    }
    return this.kept.value;
  }

  /**
   * Store.runHours, remembered for the last range asked at this generation: most requests ask the default range,
   * and each run's summary is parsed to read its venues.
   */
  private runHours(generation: number, from: HourKey, to: HourKey): Promise<RunHour[]> {
    const key = `${generation}:${from}:${to}`;
    if (this.hours?.key !== key) {
      const value = this.store.runHours(from, to);
      value.catch(() => {
        if (this.hours?.value === value) this.hours = null;
      });
      this.hours = { key, value };
    }
    return this.hours.value;
  }

  /** The history a plan names, read from the store. */
  async history(plan: HistoryPlan): Promise<MarketHistory> {
    const model = this.source.current();
    const points = plan.interval === 'day' ? await this.dailyPoints(plan) : await this.hourlyPoints(plan, model);
    return {
      market_id: plan.marketId,
      interval: plan.interval,
      from: plan.interval === 'day' ? plan.from : hourIso(plan.from),
      to: plan.interval === 'day' ? plan.to : hourIso(plan.to),
      count: points.length,
      points,
      _provenance: provenanceOf(model.origin, plan.marketId),
      _notice: model.notice,
    };
  }

  private async dailyPoints(plan: HistoryPlan): Promise<HistoryPoint[]> {
    const marks = await this.store.listMarks({
      marketIds: [plan.marketId],
      since: plan.from,
      until: plan.to,
      withoutRaw: true,
    });
    return marks.map(historyPoint);
  }

  /**
   * The hourly grid (hourly-history.ts): the run hours, the market's hourly rows, and its daily marks from the day
   * before the range (an hour without a row takes the last observation before it). A market with neither a row
   * nor a mark in that window (no quote for days) has its older marks read once more.
   */
  private async hourlyPoints(plan: HistoryPlan, model: ReadModel): Promise<HistoryPoint[]> {
    const firstDate = plan.from.slice(0, 10);
    const dayBefore = dateOf(dayNumber(firstDate) - 1);
    const ids = [plan.marketId];
    const [runs, hourly, recent] = await Promise.all([
      this.runHours(model.generation, plan.from, plan.to),
      this.store.listHourlyMarks(plan.marketId, plan.from, plan.to),
      this.store.listMarks({ marketIds: ids, since: dayBefore, until: plan.to.slice(0, 10), withoutRaw: true }),
    ]);
    let daily: MarkFacts[] = recent;
    const seeded =
      (hourly[0]?.snapshot_hour ?? plan.from) < plan.from || (recent[0]?.snapshot_date ?? firstDate) < firstDate;
    if (!seeded) {
      const older = await this.store.listMarks({
        marketIds: ids,
        until: addHours(`${dayBefore}T00`, -24).slice(0, 10),
        withoutRaw: true,
      });
      const last = older[older.length - 1];
      if (last) daily = [last, ...recent];
    }
    const venue = model.marketById.get(plan.marketId)?.detail.value<MarketDetail>().platform ?? null;
    return hourlyPoints(runs, hourly, daily, venue as Venue | null);
  }

  /** The history as a response body with the plan's ETag (pretty-printed like every served body). */
  async body(plan: HistoryPlan): Promise<Body> {
    return new Body(JSON.stringify(await this.history(plan), null, 2), plan.etag);
  }
}
