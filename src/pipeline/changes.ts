/**
 * The change feed's entries for one publish (issue 20): what the run makes visible that a client keeping its own
 * copy would want to hear of, computed from what the run already holds at publish time. Pure: no clock, no store.
 *
 * What counts as a change, and what does not:
 * - `market_added`: a market written that was not stored before the run. A first run over an empty store reports
 *   every market (39,200 on the simulated universe): that is the truth, and a client replaying the feed from 0
 *   gets the whole catalog's ids in order. Each entry is about 250 bytes stored.
 * - `lifecycle`: every resolution-log entry the run appends (the log decides what a lifecycle change is:
 *   diff.ts), with its log_id.
 * - `grade_changed`: the RCG letter moved (null → graded included). A score that moves within its letter is not
 *   reported: the letter is what clients filter and alert on, and the score wobbles with editorial tuning.
 * - `link_added` / `link_changed`: a cross-venue link is a twin on the other venue (also_on: market ids and
 *   relations, not their prices). `link_added`: the market had none and has one now; `link_changed`: its twins or,
 *   while it has any, its question_id changed, or its last twin went. A question_id alone is no link: every
 *   keyed market has one, twinned or not (on the real fixtures 1,582 of the 1,641 markets with a question_id had
 *   no twin, and reporting them flooded the feed with links that do not exist). A new market that arrives
 *   linked reports both market_added and link_added, so a client following links needs only the link kinds.
 * - `signal`: a bulletin whose slug was new to the store (bulletins are immutable: a slug is reported once).
 * - Not a change: prices and volumes (the marks feed, `/v1/marks?since=`, carries them), other record fields.
 *   No market is ever removed (a market the venue stops listing keeps its record), so there is no removal kind.
 *
 * A rerun of the same input writes no market that differs, appends no log entry and inserts no new bulletin, so
 * it yields no change.
 */
import type { ChangeLink, Market, NewChange, ResolutionLogEntry, SignalBulletin } from '../domain/index.ts';

/**
 * What `changesOf` reads of a market as stored before the run: a whole stored record fits, and so does the slim copy
 * a run keeps of a market it replaced (`marketBefore`), so the stored record need not stay in memory to the publish.
 */
export type MarketBefore = Pick<Market, 'market_id' | 'event_id' | 'question_id' | 'also_on'> & {
  rcg: Pick<NonNullable<Market['rcg']>, 'grade' | 'score'> | null;
};

/** The slim copy of a stored market that `changesOf` reads. */
export function marketBefore(m: Market): MarketBefore {
  return {
    market_id: m.market_id,
    event_id: m.event_id,
    question_id: m.question_id,
    also_on: m.also_on,
    rcg: m.rcg ? { grade: m.rcg.grade, score: m.rcg.score } : null,
  };
}

export interface ChangeInput {
  /** The stored markets before the run (or their slim copies: `marketBefore`), by id. */
  before: ReadonlyMap<string, MarketBefore>;
  /** The markets the publish writes (changed or new; unchanged ones may be included). */
  written: readonly Market[];
  /** The log entries the publish appended, with their log_id, in append order. */
  log: readonly ResolutionLogEntry[];
  /** The bulletins whose slug was new. */
  newSignals: readonly SignalBulletin[];
  /** The generation the publish makes. */
  generation: number;
  /** When it publishes (ISO). */
  publishedAt: string;
}

function linkOf(market: MarketBefore): ChangeLink {
  const also = (market.also_on ?? [])
    .map((t) => ({ market_id: t.market_id, relation: t.relation ?? null }))
    .sort((a, b) => (a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0));
  return { question_id: market.question_id, also_on: also };
}

const isLinked = (link: ChangeLink): boolean => link.also_on.length > 0;
const sameLink = (a: ChangeLink, b: ChangeLink): boolean => JSON.stringify(a) === JSON.stringify(b);
const gradeOf = (m: MarketBefore) => ({ grade: m.rcg?.grade ?? null, score: m.rcg?.score ?? null });

/**
 * The changes of one publish, in feed order: new markets, then log entries (append order), grade moves and link
 * moves, each by market id, then new bulletins by slug. The store numbers them in this order.
 * @example changesOf({ before: new Map(), written: [market], log: [], newSignals: [], generation: 1, publishedAt })
 *   // [{ kind: 'market_added', market_id: market.market_id, … }] (+ link_added when it arrives linked)
 */
export function changesOf(input: ChangeInput): NewChange[] {
  const stamp = { generation: input.generation, published_at: input.publishedAt };
  // One per id (the last given, as the upsert keeps it).
  const written = [...new Map(input.written.map((m) => [m.market_id, m])).values()].sort((a, b) =>
    a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0,
  );
  const about = (m: Market) => ({ market_id: m.market_id, event_id: m.event_id, signal_slug: null });
  const added: NewChange[] = [];
  const grades: NewChange[] = [];
  const links: NewChange[] = [];
  for (const next of written) {
    const prev = input.before.get(next.market_id);
    const to = linkOf(next);
    if (prev === undefined) {
      added.push({
        kind: 'market_added',
        ...about(next),
        ...stamp,
        detail: { platform: next.platform, status: next.status, to: gradeOf(next) },
      });
      if (isLinked(to)) links.push({ kind: 'link_added', ...about(next), ...stamp, detail: { from: null, to } });
      continue;
    }
    const [g0, g1] = [gradeOf(prev), gradeOf(next)];
    if (g0.grade !== g1.grade)
      grades.push({ kind: 'grade_changed', ...about(next), ...stamp, detail: { from: g0, to: g1 } });
    const from = linkOf(prev);
    if ((isLinked(from) || isLinked(to)) && !sameLink(from, to)) {
      const kind = isLinked(from) ? 'link_changed' : 'link_added';
      links.push({ kind, ...about(next), ...stamp, detail: { from, to } });
    }
  }
  const writtenById = new Map(written.map((m) => [m.market_id, m]));
  const eventOf = (marketId: string): string | null =>
    (writtenById.get(marketId) ?? input.before.get(marketId))?.event_id ?? null;
  const lifecycle: NewChange[] = input.log.map((entry) => ({
    kind: 'lifecycle',
    market_id: entry.market_id,
    event_id: eventOf(entry.market_id),
    signal_slug: null,
    ...stamp,
    detail: {
      event_type: entry.event_type,
      log_id: entry.log_id,
      occurred_at: entry.occurred_at,
      from: entry.from_value,
      to: entry.to_value,
    },
  }));
  const signals: NewChange[] = [...input.newSignals]
    .sort((a, b) => (a.record_slug < b.record_slug ? -1 : a.record_slug > b.record_slug ? 1 : 0))
    .map((s) => ({
      kind: 'signal',
      market_id: null,
      event_id: s.target_event_id,
      signal_slug: s.record_slug,
      ...stamp,
      detail: { headline: s.headline },
    }));
  return [...added, ...lifecycle, ...grades, ...links, ...signals];
}
