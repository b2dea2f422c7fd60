/**
 * Which of a run's marks become hourly detail (issue 20; README "History and retention"). Every refresh upserts
 * today's daily mark, so the store's daily series keeps only the last refresh of each day. The hourly table keeps
 * the rest, but only where something happened: a mark the run observed from the venue whose quote differs from the
 * market's previous mark (`latest`, read at the start of the run: the previous refresh's observation, or the
 * previous day's mark on a day's first run). An unchanged quote writes nothing: the history serves the hour from
 * the row or daily mark before it.
 *
 * Not hourly detail: marks carried forward (the venue was not read), editorial overrides, and history-backfill
 * marks (the venue's price history of past days, which are daily marks already).
 *
 * Pure: the run's publish writes what this returns (src/pipeline/run.ts).
 */
import {
  HISTORY_QUOTE_FIELDS,
  type HistoryQuoteField,
  historyQuoteOf,
  type NewMark,
  VENUE_HISTORY_NOTE,
} from '../domain/index.ts';
import { type HourKey, type HourlyMark, hourKeyOf, hourlyRetentionStart } from '../store/index.ts';

/** The quote compared to decide whether it changed, and kept in an hourly row (a history point's quote). */
type QuoteFacts = Pick<NewMark, HistoryQuoteField>;

/** Whether two marks carry the same quote (prices, sizes, volumes, open interest, staleness). */
export function sameQuote(a: QuoteFacts, b: QuoteFacts): boolean {
  return HISTORY_QUOTE_FIELDS.every((field) => a[field] === b[field]);
}

/** Whether the run read this mark from the venue now (not carried forward, not an override, not history). */
export function observedNow(mark: Pick<NewMark, 'mark_method' | 'field_provenance'>): boolean {
  return mark.mark_method === 'venue_snapshot' && mark.field_provenance?.snapshot_at?.note !== VENUE_HISTORY_NOTE;
}

/**
 * The venue's own time of the quote, null when the venue gave none. The same rule as `venueQuoteTime` in
 * src/serve/serialize.ts (which the pipeline may not import): an imputed time is not the venue's.
 */
export function quoteTimeOf(mark: Pick<NewMark, 'source_updated_at' | 'field_provenance'>): string | null {
  const source = mark.field_provenance?.source_updated_at?.source;
  return source === 'imputed' || source === 'null_by_venue_limitation' ? null : (mark.source_updated_at ?? null);
}

/**
 * The hourly marks a run writes: one per market whose observed quote differs from its previous mark (or that has
 * none), stamped with the hour of the run clock `now`.
 *
 * @example hourlyMarksOf(allMarks, latest, '2026-11-25T14:00:05.000Z') // rows for hour '2026-11-25T14'
 */
export function hourlyMarksOf(
  marks: readonly NewMark[],
  previous: ReadonlyMap<string, QuoteFacts>,
  now: string,
): HourlyMark[] {
  const hour = hourKeyOf(now);
  const out: HourlyMark[] = [];
  for (const mark of marks) {
    if (!observedNow(mark)) continue;
    const before = previous.get(mark.market_id);
    if (before !== undefined && sameQuote(before, mark)) continue;
    out.push({
      market_id: mark.market_id,
      snapshot_hour: hour,
      // The run clock: every mark of the run carries it (a re-timed mark too), and it names the hour.
      snapshot_at: now,
      price_as_of: quoteTimeOf(mark),
      ...historyQuoteOf(mark),
    });
  }
  return out;
}

/** Hour keys sort as text; this sorts after every one, so pruning before it empties the table. */
const AFTER_EVERY_HOUR = '9999-12-31T99';

/** The hour before which a run prunes: the retention start, or (0 days: no hourly detail kept) every hour. */
export function hourlyPruneBefore(now: string, retentionDays: number): HourKey {
  return retentionDays > 0 ? hourlyRetentionStart(now, retentionDays) : AFTER_EVERY_HOUR;
}
