/**
 * How a stored daily mark was obtained (issue 20, item 1), shared by the daily and the hourly history
 * (market-history.ts, hourly-history.ts).
 */
import { type HistoryObtained, type Mark, VENUE_HISTORY_NOTE } from '../domain/index.ts';

/** How a stored mark was obtained (see `HistoryObtainedSchema`). */
export function obtainedOf(mark: Pick<Mark, 'mark_method' | 'field_provenance'>): HistoryObtained {
  if (mark.mark_method === 'imputed_carry_forward') return 'carried_forward';
  if (mark.mark_method === 'editorial_override') return 'editorial_override';
  return mark.field_provenance.snapshot_at?.note === VENUE_HISTORY_NOTE ? 'venue_history' : 'venue_snapshot';
}
