/**
 * Event selection for `GET /v1/events` and `findEvents` (issue 17): the list filters, `q` through the search
 * index (search/engine.ts), `grade_any` (any market of the event has the grade, where `grade` is the headline
 * market's) and `sort`. Events number at most a few thousand, so the matches are ordered whole.
 */
import type { ListNotice, ListSort } from '../domain/index.ts';
import { GRADE_BITS, searchNotice } from './market-list.ts';
import type { ReadModel } from './read-model.ts';
import type { SearchOutcome } from './search/engine.ts';

export interface EventFilters {
  category?: string | undefined;
  platform?: string | undefined;
  grade?: string | undefined;
  gradeAny?: string | undefined;
  q?: string | undefined;
  status?: string | undefined;
  sort: ListSort;
}

export interface EventSelection {
  /** Indexes into `model.events`, in order. */
  indices: number[];
  /** Relevance per index (when `q` was given). */
  scores: Map<number, number> | null;
  /** Why the selection is empty or partial, and what to try; null when nothing needs saying. */
  notice: ListNotice | null;
}

/** Events matching the filters, ordered by `sort` (ties: relevance, then the model's order). */
export function selectEvents(model: ReadModel, f: EventFilters): EventSelection {
  // Read only when a filter or sort needs it: a model from a pack parses its catalog on first use (pack.ts), and a
  // plain list (a restart's first answer) needs none of it.
  const catalog = () => model.catalog;
  const outcome: SearchOutcome | null = f.q ? catalog().search.searchEvents(f.q) : null;
  const scores = outcome ? new Map(outcome.hits.map((h) => [h.key, h.score])) : null;
  const wantLive = f.status === 'active' ? true : f.status === 'resolved' ? false : undefined;
  const gradeBit = f.gradeAny === undefined ? 0 : (GRADE_BITS[f.gradeAny] ?? 0);
  // An unknown grade_any value matches nothing (the caller's notice names the valid set).
  const gradeUnknown = f.gradeAny !== undefined && gradeBit === 0;
  const keep = (i: number): boolean => {
    const e = model.events[i];
    if (!e || gradeUnknown) return false;
    if (f.category !== undefined && e.event.category !== f.category) return false;
    if (f.platform !== undefined && e.event.venue !== f.platform) return false;
    if (f.grade !== undefined && e.grade !== f.grade) return false;
    if (wantLive !== undefined && e.live !== wantLive) return false;
    if (gradeBit !== 0 && ((catalog().events[i]?.grades ?? 0) & gradeBit) === 0) return false;
    return true;
  };
  const candidates = outcome ? outcome.hits.map((h) => h.key) : model.events.map((_, i) => i);
  const indices = candidates.filter(keep);
  const relevance = (i: number) => scores?.get(i) ?? 0;
  const key = (i: number): number => {
    const facts = catalog().events[i];
    switch (f.sort) {
      case 'rcg_score':
        return facts?.score ?? Number.NEGATIVE_INFINITY;
      case 'volume':
        return facts?.volume ?? Number.NEGATIVE_INFINITY;
      case 'close_at':
        return facts?.closeAt ? -Date.parse(facts.closeAt) : Number.NEGATIVE_INFINITY;
      default:
        return relevance(i);
    }
  };
  if (outcome || f.sort !== 'relevance') {
    indices.sort((a, b) => key(b) - key(a) || relevance(b) - relevance(a) || a - b);
  }
  let notice = searchNotice(outcome, 'events');
  if (indices.length === 0 && notice === null) {
    const before = candidates.length;
    notice =
      before > 0
        ? {
            reason: `${before} events match${f.q ? ` q="${f.q}"` : ''}, none with the other filters.`,
            try: [
              'fewer filters',
              'grade_any instead of grade (any market of the event, not only its headline market)',
            ],
          }
        : { reason: 'No events match the filters.', try: ['fewer filters'] };
  }
  return { indices, scores, notice };
}
