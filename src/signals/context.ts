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

/** Puts `mark` in its date's place in `list` (date ascending, one per date), over a mark of the same date. */
function placeByDate(list: MarkFigures[], mark: MarkFigures): void {
  const last = list[list.length - 1] as MarkFigures;
  if (last.snapshot_date < mark.snapshot_date) {
    list.push(mark);
    return;
  }
  const at = list.findIndex((m) => m.snapshot_date >= mark.snapshot_date);
  if ((list[at] as MarkFigures).snapshot_date === mark.snapshot_date) list[at] = mark;
  else list.splice(at, 0, mark);
}

/** Indexes the input once for all detectors. */
export function buildContext(input: SignalInput): SignalContext {
  const today = utcDate(input.now);
  const eventById = new Map(input.events.map((e) => [e.event_id, e]));
  const marketById = new Map(input.markets.map((m) => [m.market_id, m]));
  // Each market's marks in date order, the last of a market and date in input order winning. The input comes in date
  // order (the store lists marks by date, then market), so a mark is nearly always appended: no map per market and no
  // sort (issue 18: 300,000 marks a run on the full universe).
  const marksByMarket = new Map<string, MarkFigures[]>();
  const dates = new Set<string>();
  for (const mark of input.marks) {
    if (mark.snapshot_date > today) continue;
    dates.add(mark.snapshot_date);
    const list = marksByMarket.get(mark.market_id);
    if (list === undefined) marksByMarket.set(mark.market_id, [mark]);
    else placeByDate(list, mark);
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
