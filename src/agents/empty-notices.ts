/**
 * Why an agent's list came back empty, and what to try (issue 17: "every empty result says why"). The REST
 * bodies of events, signals and catalysts predate the `notice: {reason, try}` of the issue-17 lists; the agent
 * face adds it to them when they are empty, working the reason out through the query service alone: the same
 * query without its filters, the movers' snapshot notice, the window of days.
 */
import type { QueryService } from '../serve/index.ts';

export interface EmptyNotice {
  reason: string;
  try: string[];
}

export interface EventListArgs {
  q?: string | undefined;
  category?: string | undefined;
  platform?: string | undefined;
  grade?: string | undefined;
  status?: string | undefined;
}

const totalOf = (body: { value(): unknown }): number => (body.value() as { total?: number }).total ?? 0;

/** Why `list_events` found nothing: an empty catalog, words no event has, or filters that exclude the matches. */
export function eventsEmptyNotice(qs: QueryService, a: EventListArgs): EmptyNotice {
  const all = totalOf(qs.listEvents({ limit: 1 }, false));
  if (all === 0) {
    return {
      reason: 'The catalog holds no published event yet: the first ingest has not published.',
      try: ['Ask again after the first pipeline run (GET /v1/status shows its progress).'],
    };
  }
  const filters = (['category', 'platform', 'grade', 'status'] as const).filter((k) => a[k] !== undefined);
  const filterText = filters.map((k) => `${k}=${a[k]}`).join(', ');
  if (a.q !== undefined && a.q.trim() !== '') {
    const qOnly = totalOf(qs.listEvents({ q: a.q, limit: 1 }, false));
    if (qOnly === 0) {
      return {
        reason: `No event question or tag contains every word of "${a.q}" (list_events matches event questions and tags only).`,
        try: [
          'search_markets with the same words: it also searches market questions, rules text, tickers and synonyms',
          'fewer or shorter words (one topic word, e.g. "fed" or "bitcoin")',
        ],
      };
    }
    return {
      reason: `${qOnly} event(s) match "${a.q}", but none with ${filterText}.`,
      try: filters.map((k) => `drop ${k}`),
    };
  }
  return {
    reason: `No event has ${filterText}${a.grade !== undefined ? ' (grade filters the headline market of each event)' : ''}.`,
    try: [
      ...filters.map((k) => `drop ${k}`),
      ...(a.grade !== undefined ? ["search_markets with grade: it filters each market's own grade"] : []),
    ],
  };
}

/** Why `list_signals` found nothing: no bulletin this generation (and why that is), or filters that exclude them. */
export function signalsEmptyNotice(qs: QueryService, filtered: boolean): EmptyNotice {
  const all = (qs.listSignals({ limit: 1 }).value() as { count?: number }).count ?? 0;
  if (all > 0 && filtered) {
    return {
      reason: `${all} bulletin(s) are on the wire, but none match these filters.`,
      try: [
        'list_signals with no filters',
        'a different kind: cross_venue_divergence, benchmark_drift, news_cycle, volume_spike',
      ],
    };
  }
  const movers = qs.movers({}).value() as { notice?: string };
  const snapshots =
    movers.notice !== undefined
      ? ` Volume-spike and news-cycle bulletins compare today's daily snapshot with the prior day's, and this store cannot yet: ${movers.notice}`
      : '';
  return {
    reason: `No bulletin is on the wire this generation.${snapshots} Cross-venue divergence needs twins priced far apart, benchmark drift needs spot prices.`,
    try: [
      'compare_question with no arguments: cross-venue questions sorted by price divergence, from one snapshot',
      'list_signals again after the next daily snapshot',
    ],
  };
}

/** Why `list_upcoming_catalysts` found nothing in the window. */
export function catalystsEmptyNotice(days: number): EmptyNotice {
  return {
    reason: `No scheduled catalyst is dated in the next ${days} day(s).`,
    try:
      days < 365
        ? [`days=${Math.min(365, Math.max(90, days * 3))}`]
        : ['get_event for a dated event: its catalyst_dates'],
  };
}
