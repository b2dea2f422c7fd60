/**
 * Indexes over the stored records that every detector reads: markets and events by id, each market's
 * daily marks in date order, and the two latest snapshot dates. Built once per run; pure.
 */
import type { Catalyst, Event, Market, MarkFigures, SpotRow } from '../domain/index.ts';

/** What the detectors read: stored records plus the run's clock. */
export interface SignalInput {
  events: readonly Event[];
  markets: readonly Market[];
  marks: readonly MarkFigures[];
  spot: readonly SpotRow[];
  catalysts: readonly Catalyst[];
  /** ISO time of the run; becomes every bulletin's published_at. */
  now: string;
}

export interface SignalContext extends SignalInput {
  /** UTC date of `now`; part of every slug. */
  today: string;
  eventById: ReadonlyMap<string, Event>;
  marketById: ReadonlyMap<string, Market>;
  /** Each market's marks, snapshot_date ascending, one per date. */
  marksByMarket: ReadonlyMap<string, readonly MarkFigures[]>;
  /** Newest snapshot date at or before today, and the one before it (null when fewer exist). */
  latestDate: string | null;
  priorDate: string | null;
}

const DAY_MS = 86_400_000;

/** UTC calendar date of an ISO time. */
export function utcDate(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/** `date` plus `days` (may be negative), as an ISO date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (ISO dates). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The price a mark quotes: the implied probability, else the last trade. */
export function markPrice(mark: MarkFigures | undefined): number | null {
  if (!mark) return null;
  return mark.implied_probability ?? mark.yes_last_price;
}

/** Indexes the input once for all detectors. */
export function buildContext(input: SignalInput): SignalContext {
  const today = utcDate(input.now);
  const eventById = new Map(input.events.map((e) => [e.event_id, e]));
  const marketById = new Map(input.markets.map((m) => [m.market_id, m]));
  const grouped = new Map<string, Map<string, MarkFigures>>();
  const dates = new Set<string>();
  for (const mark of input.marks) {
    if (mark.snapshot_date > today) continue;
    dates.add(mark.snapshot_date);
    let byDate = grouped.get(mark.market_id);
    if (!byDate) {
      byDate = new Map();
      grouped.set(mark.market_id, byDate);
    }
    byDate.set(mark.snapshot_date, mark);
  }
  const marksByMarket = new Map<string, MarkFigures[]>();
  for (const [marketId, byDate] of grouped) {
    marksByMarket.set(
      marketId,
      [...byDate.values()].sort((a, b) => a.snapshot_date.localeCompare(b.snapshot_date)),
    );
  }
  const sortedDates = [...dates].sort().reverse();
  return {
    ...input,
    today,
    eventById,
    marketById,
    marksByMarket,
    latestDate: sortedDates[0] ?? null,
    priorDate: sortedDates[1] ?? null,
  };
}

/** The mark of `marketId` on `date`, if any. */
export function markOn(ctx: SignalContext, marketId: string, date: string | null): MarkFigures | undefined {
  if (!date) return undefined;
  return ctx.marksByMarket.get(marketId)?.find((m) => m.snapshot_date === date);
}

/** Events a detector may publish about: published ones (unpublished events are internal, spec §2.1). */
export function publishableEvent(ctx: SignalContext, market: Market): Event | undefined {
  if (!market.event_id) return undefined;
  const event = ctx.eventById.get(market.event_id);
  return event?.published ? event : undefined;
}
