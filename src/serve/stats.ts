/**
 * Catalog statistics (issue 17, item 4), tallied once per generation while the read model reads its markets:
 * the venue × grade × commitment subtype × category cube, linked-question counts (from the question index, so
 * they equal what `/v1/questions` lists) and dispute rates by grade from venue_b's UMA history.
 *
 * Disputes count what `pmref report disputes` counts (METHODOLOGY.md, Grade versus disputes): venue_b markets
 * whose `resolution_history` shows at least one UMA proposal or dispute, and among them those with a dispute.
 * venue_a is left out: a Kalshi snapshot shows one settlement state, never a history.
 */
import {
  CATEGORIES,
  COMMITMENT_SUBTYPES,
  type Event,
  GRADES,
  type Market,
  type Notice,
  type ServedMarket,
  type Stats,
  type StatsCell,
  VENUES,
} from '../domain/index.ts';
import { Body, etagFor } from './json-bytes.ts';
import { type QuestionIndex, RELATIONS } from './questions.ts';

const SERVED_GRADES = [...GRADES, 'pending'] as const;
type ServedGrade = (typeof SERVED_GRADES)[number];

/** `none` stands for a null subtype or category in the marginal counts (cells keep the null). */
const NONE = 'none';

interface Tally {
  markets: number;
  disputed: number;
}

/** Counts markets as the read model serves them. */
export class StatsTally {
  private total = 0;
  private readonly cells = new Map<string, StatsCell>();
  private readonly disputes = new Map<ServedGrade, Tally>(SERVED_GRADES.map((g) => [g, { markets: 0, disputed: 0 }]));

  add(market: Market, served: ServedMarket, event: Event | undefined): void {
    this.total++;
    const grade = served.rcg.grade;
    const subtype = market.source_commitment_subtype;
    const category = (event?.category as StatsCell['category'] | undefined) ?? null;
    const key = `${market.platform}|${grade}|${subtype ?? ''}|${category ?? ''}`;
    const cell = this.cells.get(key);
    if (cell) cell.markets++;
    else
      this.cells.set(key, {
        venue: market.platform,
        grade,
        source_commitment_subtype: subtype,
        category,
        markets: 1,
      });
    const h = market.resolution_history;
    if (market.platform === 'venue_b' && h && (h.proposals >= 1 || h.disputes >= 1)) {
      const t = this.disputes.get(grade);
      if (t) {
        t.markets++;
        if (h.disputes >= 1) t.disputed++;
      }
    }
  }

  /** The statistics, with the question counts taken from `questions`. */
  result(generation: number, questions: QuestionIndex): Stats {
    const order = <T extends string>(list: readonly T[], v: T | null) => (v === null ? list.length : list.indexOf(v));
    const cells = [...this.cells.values()].sort(
      (a, b) =>
        order(VENUES, a.venue) - order(VENUES, b.venue) ||
        order(SERVED_GRADES, a.grade) - order(SERVED_GRADES, b.grade) ||
        order(COMMITMENT_SUBTYPES, a.source_commitment_subtype) -
          order(COMMITMENT_SUBTYPES, b.source_commitment_subtype) ||
        order(CATEGORIES, a.category) - order(CATEGORIES, b.category),
    );
    const marginal = (keys: readonly string[], of: (c: StatsCell) => string | null) => {
      const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
      for (const c of cells) {
        const k = of(c) ?? NONE;
        out[k] = (out[k] ?? 0) + c.markets;
      }
      return out;
    };
    const rate = (t: Tally) => ({
      markets: t.markets,
      disputed: t.disputed,
      // Four decimals: more would pretend a precision these counts do not have (as in `pmref report disputes`).
      rate: t.markets === 0 ? null : Math.round((10_000 * t.disputed) / t.markets) / 10_000,
    });
    const all = { markets: 0, disputed: 0 };
    for (const t of this.disputes.values()) {
      all.markets += t.markets;
      all.disputed += t.disputed;
    }
    const byRelation = Object.fromEntries(RELATIONS.map((r) => [r, 0])) as Record<(typeof RELATIONS)[number], number>;
    const questionIds = new Set<string>();
    for (const e of questions.list) {
      byRelation[e.summary.relation]++;
      if (e.summary.question_id) questionIds.add(e.summary.question_id);
    }
    return {
      generation,
      markets: this.total,
      by_venue: marginal(VENUES, (c) => c.venue),
      by_grade: marginal(SERVED_GRADES, (c) => c.grade),
      by_commitment_subtype: marginal([...COMMITMENT_SUBTYPES, NONE], (c) => c.source_commitment_subtype),
      by_category: marginal([...CATEGORIES, NONE], (c) => c.category),
      cells,
      questions: { pairs: questions.list.length, by_relation: byRelation, question_ids: questionIds.size },
      disputes: {
        venue: 'venue_b',
        basis:
          'venue_b markets whose UMA resolution history (resolution_history) shows at least one proposal or dispute; disputed: at least one dispute. venue_a is not counted: its snapshots show one settlement state, never a history. Small counts: read the rate beside its count.',
        all: rate(all),
        by_grade: Object.fromEntries(
          SERVED_GRADES.map((g) => [g, rate(this.disputes.get(g) ?? { markets: 0, disputed: 0 })]),
        ) as Stats['disputes']['by_grade'],
      },
    };
  }
}

/** Stats as served: the plain value and the `/v1/stats` body. */
export interface StatsEntry {
  data: Stats;
  body: Body;
}

export function statsEntry(data: Stats, ctx: { generation: number; notice: Notice }): StatsEntry {
  return {
    data,
    body: new Body(JSON.stringify({ ...data, _notice: ctx.notice }, null, 2), etagFor(ctx.generation, 'stats')),
  };
}
