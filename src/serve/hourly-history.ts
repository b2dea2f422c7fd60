/**
 * The hourly series of `GET /v1/markets/{id}/history?interval=hour` (issue 20), from what the store keeps: the
 * hours in which a published refresh ran (Store.runHours), the market's hourly marks (a row only where its quote
 * changed, src/pipeline/hourly-marks.ts) and its daily marks (the last refresh of each date).
 *
 * A regular grid: one point per hour in which a published run ran, none for an hour without one (the service was
 * down or the refresh interval is longer than an hour). The point of hour H is the market's newest observation the
 * run of H could have seen: the newest of its hourly marks and daily marks whose `snapshot_at` is at or before that
 * run's clock. An hour in which the quote did not change has no row, so it takes the row (or an earlier date's daily
 * mark) before it; that is why unchanged quotes cost nothing to keep.
 *
 * `obtained` is judged per venue and run: `carried_forward` when the market's venue failed in that run (the value
 * is the last one read), else `venue_snapshot` (read, unchanged since its own `snapshot_at`), or `venue_history` /
 * `editorial_override` when the value is a daily mark of that kind (a market the refreshes never quoted).
 *
 * Pure: no I/O.
 */
import {
  type HistoryObtained,
  type HistoryPoint,
  historyQuoteOf,
  type MarkFacts,
  type Venue,
} from '../domain/index.ts';
import type { HourlyMark, RunHour } from '../store/index.ts';
import { obtainedOf } from './history-obtained.ts';
import { venueQuoteTime } from './serialize.ts';

/** A candidate value for an hour: an hourly row or a daily mark, whichever was observed last. */
type Source = { kind: 'hourly'; mark: HourlyMark } | { kind: 'daily'; mark: MarkFacts };

/** The ISO start of an hour key ('2026-11-25T14' → '2026-11-25T14:00:00.000Z'). */
export function hourIso(hour: string): string {
  return `${hour}:00:00.000Z`;
}

/**
 * One point per run hour that has a value for the market, oldest first. `runs` and `hourly` are oldest first,
 * `daily` in date order; `hourly` may begin with the row before the range and `daily` with earlier dates.
 */
export function hourlyPoints(
  runs: readonly RunHour[],
  hourly: readonly HourlyMark[],
  daily: readonly MarkFacts[],
  venue: Venue | null,
): HistoryPoint[] {
  const out: HistoryPoint[] = [];
  let h = -1;
  let d = -1;
  for (const run of runs) {
    const at = Date.parse(run.as_of);
    while (h + 1 < hourly.length && Date.parse(hourly[h + 1]?.snapshot_at ?? '') <= at) h++;
    while (d + 1 < daily.length && Date.parse(daily[d + 1]?.snapshot_at ?? '') <= at) d++;
    const row = hourly[h];
    const mark = daily[d];
    let source: Source | null = null;
    if (row && (!mark || Date.parse(row.snapshot_at) >= Date.parse(mark.snapshot_at)))
      source = { kind: 'hourly', mark: row };
    else if (mark) source = { kind: 'daily', mark };
    if (source === null) continue;
    const answered = venue !== null && run.venues[venue] === 'ok';
    out.push(pointOf(run, source, answered));
  }
  return out;
}

function pointOf(run: RunHour, source: Source, answered: boolean): HistoryPoint {
  let obtained: HistoryObtained;
  if (!answered) obtained = 'carried_forward';
  else if (source.kind === 'daily') {
    const kind = obtainedOf(source.mark);
    obtained = kind === 'venue_history' || kind === 'editorial_override' ? kind : 'venue_snapshot';
  } else obtained = 'venue_snapshot';
  const v = source.mark;
  const priceAsOf = source.kind === 'daily' ? venueQuoteTime(source.mark) : source.mark.price_as_of;
  return {
    date: run.hour.slice(0, 10),
    hour: hourIso(run.hour),
    // Read by this run (unchanged since): its clock. Otherwise when the value was read.
    snapshot_at: obtained === 'venue_snapshot' ? run.as_of : v.snapshot_at,
    ...historyQuoteOf(v),
    stale_flag: v.stale_flag ?? false,
    price_as_of: priceAsOf,
    obtained,
  };
}
