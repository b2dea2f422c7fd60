// /v1/questions lists every served cross-venue pair once (same, complement, related) with both legs and a complement-adjusted divergence, sorted by it; filters, notices, ids, the side-by-side view and the stats agree with the store, and survive a pack round trip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  pairIdFor,
  QuestionComparisonSchema,
  QuestionPageSchema,
  StatsSchema,
} from '../../src/domain/index.ts';
import {
  buildReadModel,
  divergenceOf,
  QueryService,
  QuestionQueryError,
  type ReadModel,
  readPack,
  writePack,
} from '../../src/serve/index.ts';
import { buildQuestionIndex, QuestionLegs, spreadOf } from '../../src/serve/questions.ts';
import { NO_PRICE, servedMarket } from '../../src/serve/serialize.ts';
import type { Store } from '../../src/store/index.ts';
import { makeMarket } from '../support/records.ts';
import {
  CPI_RULES_A,
  CPI_RULES_B,
  mBtcA,
  mBtcB,
  mCpiA,
  mCpiB,
  mElectA,
  mElectB,
  Q_COMP,
  Q_NOW,
  Q_SAME,
  RELATED_DIFFERENCES,
  seedQuestionStore,
} from './questions-seed.ts';

const ORIGIN = 'http://pmref.test';
let store: Store;
let model: ReadModel;
let query: QueryService;
const RELATED_ID = pairIdFor('related', mElectA.market_id, mElectB.market_id);

beforeAll(async () => {
  store = await seedQuestionStore();
  model = await buildReadModel(store, { origin: ORIGIN, now: Q_NOW });
  query = new QueryService({ current: () => model }, () => Q_NOW);
});
afterAll(async () => {
  await store.close();
});

describe('divergenceOf', () => {
  const open = (price: number | null) => ({ price, status: 'open' as const });
  it('compares p_a with p_b, or with 1 − p_b for a complement, in points to one decimal', () => {
    expect(divergenceOf('same', open(0.4), open(0.46))).toEqual({ points: 6, note: null });
    expect(divergenceOf('complement', open(0.3), open(0.6)).points).toBe(10);
    expect(divergenceOf('complement', open(0.3), open(0.7)).points).toBe(0);
    expect(divergenceOf('related', open(0.123), open(0.1)).points).toBe(2.3);
    expect(divergenceOf('related', open(0.5), open(0.5)).note).toMatch(/not the same bet/);
  });

  it('is null when either price is missing, and says which', () => {
    expect(divergenceOf('same', open(null), open(0.5))).toEqual({
      points: null,
      note: expect.stringMatching(/venue_a leg/),
    });
    expect(divergenceOf('same', open(0.5), open(null)).note).toMatch(/venue_b leg/);
    expect(divergenceOf('complement', open(null), open(null)).note).toMatch(/either leg/);
  });

  it('is null when a leg no longer trades, and says which', () => {
    const d = divergenceOf('same', open(0.01), { price: 1, status: 'resolved' });
    expect(d).toEqual({ points: null, note: expect.stringMatching(/the venue_b leg is resolved/) });
    expect(divergenceOf('same', { price: 0.2, status: 'closed' }, open(0.3)).note).toMatch(/venue_a leg is closed/);
  });
});

describe('spreadOf', () => {
  it('reports the spread gross and net of both taker fees at 100 contracts, none for related or unpriced pairs', () => {
    // 0.40 vs 0.46: venue_a's fee is ceil(0.07 × 100 × 0.4 × 0.6) = $1.68, i.e. 1.68 points; venue_b charges none.
    expect(spreadOf('same', 6, { price: 0.4 }, { price: 0.46 })).toEqual({
      spread_gross_points: 6,
      spread_net_points: 4.32,
      spread_fees: { venue_a: 0.0168, venue_b: 0 },
      spread_size_contracts: 100,
      depth_ok: null,
      spread_note: null,
    });
    // A leg whose market charges a fee pmref cannot price (venue_b feesEnabled true): gross only, and why.
    const enabled = { taker_multiplier: null, basis: 'venue_market' as const, venue_fields: { feesEnabled: true } };
    const unpriced = spreadOf('same', 6, { price: 0.4 }, { price: 0.46, fees: enabled });
    expect(unpriced).toMatchObject({
      spread_gross_points: 6,
      spread_net_points: null,
      spread_fees: { venue_a: 0.0168, venue_b: null },
    });
    expect(unpriced.spread_note).toMatch(/venue_b market says it charges a taker fee pmref cannot price/);
    // A series at half rate: ceil(0.07 × 0.5 × 100 × 0.24) = $0.84.
    const half = { taker_multiplier: 0.5, basis: 'venue_series' as const, venue_fields: { fee_multiplier: 0.5 } };
    expect(spreadOf('same', 6, { price: 0.4, fees: half }, { price: 0.46 }).spread_net_points).toBe(5.16);
    // A 1-point gap at 0.50 does not survive venue_a's 1.75-point fee.
    expect(spreadOf('same', 1, { price: 0.5 }, { price: 0.51 }).spread_net_points).toBe(-0.75);
    expect(spreadOf('complement', 10, { price: 0.3 }, { price: 0.6 }).spread_gross_points).toBe(10);
    expect(spreadOf('related', 2.3, { price: 0.123 }, { price: 0.1 }).spread_gross_points).toBeNull();
    expect(spreadOf('same', null, { price: null }, { price: 0.5 }).spread_net_points).toBeNull();
  });
});

describe('QueryService.findQuestions', () => {
  it('lists each served pair once, largest divergence first and the unpriced pair last', () => {
    const page = query.findQuestions({});
    expect(QuestionPageSchema.parse(page)).toEqual(page);
    expect(page).toMatchObject({ total: 3, count: 3, limit: 50, offset: 0, notice: null });
    expect(page.questions.map((q) => [q.id, q.relation, q.divergence_points])).toEqual([
      [Q_COMP, 'complement', 10],
      [Q_SAME, 'same', 6],
      [RELATED_ID, 'related', null],
    ]);
    // The unpublished venue_b market sharing Q_SAME is never a leg.
    expect(page.questions.flatMap((q) => [q.venue_a.market_id, q.venue_b.market_id]).sort()).toEqual(
      [mBtcA, mBtcB, mCpiA, mCpiB, mElectA, mElectB].map((m) => m.market_id).sort(),
    );
  });

  it('says whether the stated size fits at the top of both books the legs take, null where a size is unknown', () => {
    const rows = query.findQuestions({}).questions;
    // CPI: YES on venue_a needs $40 of its $500 ask; NO on venue_b needs $54 of its $20 ask.
    expect(rows.find((q) => q.id === Q_SAME)?.depth_ok).toBe(false);
    expect(rows.find((q) => q.id === Q_COMP)?.depth_ok).toBeNull();
  });

  it('gives both legs their price with its time, grade, score, arbiter and source of record', () => {
    const same = query.findQuestions({ relation: 'same' }).questions[0];
    expect(same?.venue_a).toMatchObject({
      venue: 'venue_a',
      market_id: mCpiA.market_id,
      event_slug: 'kxcpi-26dec',
      price: 0.4,
      price_as_of: '2026-11-21T11:59:00.000Z',
      grade: 'A',
      score: 92,
      arbiter: 'venue_a_staff',
      source_of_record: 'Bureau of Labor Statistics',
      url: `/v1/markets/${mCpiA.market_id}`,
    });
    expect(same?.venue_b).toMatchObject({ price: 0.46, grade: 'B', score: 70, arbiter: 'optimistic_oracle' });
    expect(same?.venue_b.source_of_record).toBeNull();
    const related = query.findQuestions({ relation: 'related' }).questions[0];
    expect(related).toMatchObject({ question_id: null, differences: RELATED_DIFFERENCES });
    expect(related?.venue_b).toMatchObject({ price: null, price_as_of: null, grade: 'pending', score: null });
    expect(related?.divergence_note).toMatch(/No price on the venue_b leg/);
  });

  it('filters by category (either leg), relation and min_divergence, which leaves unpriced pairs out', () => {
    expect(query.findQuestions({ category: 'CRYPTO' }).questions.map((q) => q.id)).toEqual([Q_COMP]);
    expect(query.findQuestions({ relation: 'complement' }).questions.map((q) => q.id)).toEqual([Q_COMP]);
    expect(query.findQuestions({ min_divergence: '6' }).questions.map((q) => q.id)).toEqual([Q_COMP, Q_SAME]);
    expect(query.findQuestions({ min_divergence: 6.5 }).questions.map((q) => q.id)).toEqual([Q_COMP]);
    expect(query.findQuestions({ min_divergence: '0' }).total).toBe(2);
    expect(query.findQuestions({ limit: 1, offset: 1 })).toMatchObject({ total: 3, count: 1, limit: 1, offset: 1 });
    expect(query.findQuestions({ limit: 1, offset: 1 }).questions[0]?.id).toBe(Q_SAME);
  });

  it('answers an unknown category or relation with an empty page and a notice naming the valid set', () => {
    const badCategory = query.findQuestions({ category: 'weather' });
    expect(badCategory).toMatchObject({ total: 0, count: 0, questions: [] });
    expect(badCategory.notice?.reason).toContain(CATEGORIES.join(', '));
    expect(badCategory.notice?.try).toContain('category=crypto');
    const badRelation = query.findQuestions({ relation: 'twin' });
    expect(badRelation.notice?.reason).toContain('same, complement, related');
    expect(badRelation.notice?.try).toEqual(['relation=same', 'relation=complement', 'relation=related']);
  });

  it('says why a valid query is empty', () => {
    expect(query.findQuestions({ category: 'climate' }).notice).toEqual({
      reason: 'No cross-venue pair matches these filters (3 pairs in all).',
      try: ['another category, or none'],
    });
    expect(query.findQuestions({ min_divergence: 50 }).notice?.try).toEqual(['a lower min_divergence, or none']);
    expect(query.findQuestions({ offset: 3 }).notice).toMatchObject({ try: ['offset=0'] });
  });

  it('refuses malformed or negative numbers, and caps a limit over 100 with a notice', () => {
    for (const bad of [
      { min_divergence: '-1' },
      { min_divergence: 'abc' },
      { min_divergence: 'Infinity' },
      { min_divergence: '0x10' },
      { limit: '0' },
      { limit: '2.5' },
      { limit: 'ten' },
      { offset: '-1' },
      { offset: '1.5' },
    ]) {
      expect(() => query.findQuestions(bad), JSON.stringify(bad)).toThrow(QuestionQueryError);
      expect(() => query.listQuestions(bad), JSON.stringify(bad)).toThrow(QuestionQueryError);
    }
    const capped = query.findQuestions({ limit: '500' });
    expect(capped).toMatchObject({ limit: 100, limit_notice: expect.stringMatching(/capped at 100/) });
  });
});

describe('QueryService.listQuestions (REST body)', () => {
  it('is the plain page plus _notice, assembled from the precomputed rows, cached per query', () => {
    const body = query.listQuestions({ relation: 'same' });
    const { _notice, ...page } = body.value<Record<string, unknown>>();
    expect(page).toEqual(query.findQuestions({ relation: 'same' }));
    expect(_notice).toEqual(model.notice);
    expect(query.listQuestions({ relation: 'SAME' })).toBe(body);
    expect(body.etag).toMatch(/^"g1-/);
    expect(query.listQuestions({})).not.toBe(body);
  });
});

describe('QueryService.question', () => {
  it('puts a pair side by side with both rule texts and their word diff', () => {
    const c = query.question(Q_SAME);
    if (!c) throw new Error('missing');
    expect(QuestionComparisonSchema.parse(c)).toEqual(c);
    expect(c.rules).toEqual({ venue_a: CPI_RULES_A, venue_b: CPI_RULES_B });
    expect(c.rules_diff?.exact).toBe(true);
    const a = c.rules_diff?.segments
      .filter((s) => s.op !== 'b')
      .map((s) => s.text)
      .join(' ');
    const b = c.rules_diff?.segments
      .filter((s) => s.op !== 'a')
      .map((s) => s.text)
      .join(' ');
    expect(a).toBe(CPI_RULES_A);
    expect(b).toBe(CPI_RULES_B);
    expect(c.rules_diff?.segments).toContainEqual({ op: 'a', text: 'Bureau of Labor Statistics,' });
    expect(c.rules_diff?.segments).toContainEqual({ op: 'b', text: 'BLS,' });
    expect(c.other_pairs).toEqual([]);
  });

  it('finds related pairs by their derived id, ids case-insensitively, and nothing else', () => {
    expect(query.question(RELATED_ID)?.relation).toBe('related');
    expect(query.question(RELATED_ID.toLowerCase())?.id).toBe(RELATED_ID);
    expect(query.question(Q_COMP)?.rules_diff).toBeNull(); // the venue_b leg has no rules text
    expect(query.question('SVCX-FFFFFFFFFF')).toBeNull();
    expect(query.getQuestion('nope')).toBeNull();
    expect(query.getQuestion(Q_SAME)?.value()).toMatchObject({ id: Q_SAME, _notice: model.notice });
  });
});

describe('QueryService.statsData', () => {
  it('counts venue × grade × subtype × category, pairs by relation, and UMA dispute rates by grade', () => {
    const stats = query.statsData();
    expect(StatsSchema.parse(stats)).toEqual(stats);
    expect(stats.markets).toBe(7); // the unpublished market is not served
    expect(stats.by_venue).toEqual({ venue_a: 4, venue_b: 3 });
    expect(stats.by_grade).toEqual({ A: 2, B: 2, C: 2, pending: 1 });
    expect(stats.cells.reduce((n, c) => n + c.markets, 0)).toBe(7);
    expect(stats.cells).toContainEqual({
      venue: 'venue_b',
      grade: 'B',
      source_commitment_subtype: 'uncommitted_illustrative',
      category: 'economics',
      markets: 1,
    });
    expect(stats.questions).toEqual({
      pairs: 3,
      by_relation: { same: 1, complement: 1, related: 1 },
      question_ids: 2,
    });
    expect(stats.disputes.all).toEqual({ markets: 2, disputed: 1, rate: 0.5 });
    expect(stats.disputes.by_grade.B).toEqual({ markets: 1, disputed: 1, rate: 1 });
    expect(stats.disputes.by_grade.C).toEqual({ markets: 1, disputed: 0, rate: 0 });
    expect(stats.disputes.by_grade.A).toEqual({ markets: 0, disputed: 0, rate: null });
    expect(query.getStats().value()).toEqual({ ...stats, _notice: model.notice });
  });
});

describe('buildQuestionIndex', () => {
  it('gives each pair of a question_id shared by several pairs its own id, and opens the same pair by the question_id', () => {
    const q = 'SVCX-00000000E5';
    const a = makeMarket({ native: 'KXMULTI-T1', question_id: q, direction: 'above' });
    const above = makeMarket({ native: '0xabove', platform: 'venue_b', question_id: q, direction: 'above' });
    const below = makeMarket({ native: '0xbelow', platform: 'venue_b', question_id: q, direction: 'below' });
    const item = (m: typeof a, relation: 'same' | 'complement') => ({
      venue: m.platform,
      market_id: m.market_id,
      price: null,
      relation,
    });
    a.also_on = [item(below, 'complement'), item(above, 'same')];
    above.also_on = [item(a, 'same')];
    below.also_on = [item(a, 'complement')];
    const legs = new QuestionLegs();
    for (const m of [a, above, below]) {
      legs.add(
        m,
        servedMarket(m, NO_PRICE, () => null, { now: Q_NOW.toISOString(), log: undefined }),
        undefined,
      );
    }
    const index = buildQuestionIndex(legs, { generation: 1, notice: model.notice });
    const sameId = pairIdFor('pair', a.market_id, above.market_id);
    const compId = pairIdFor('pair', a.market_id, below.market_id);
    expect(index.list.map((e) => [e.summary.id, e.summary.question_id, e.summary.relation]).sort()).toEqual(
      [
        [sameId, q, 'same'],
        [compId, q, 'complement'],
      ].sort(),
    );
    expect(index.byId.get(q)?.summary.id).toBe(sameId);
    expect(index.byId.get(sameId)?.detail.value()).toMatchObject({ other_pairs: [compId] });
    expect(index.byId.get(compId)?.detail.value()).toMatchObject({ other_pairs: [sameId] });
  });
});

describe('pack', () => {
  it('keeps the question rows, their side-by-side bodies and the stats', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmref-questions-pack-'));
    try {
      const path = join(dir, 'q.pack');
      const storeId = await store.identity();
      await writePack(model, path, storeId);
      const back = await readPack(path, { store: storeId, generation: 1, origin: ORIGIN, today: model.today });
      if (!back) throw new Error('pack refused');
      const again = new QueryService({ current: () => back }, () => Q_NOW);
      expect(again.listQuestions({}).bytes.toString()).toBe(query.listQuestions({}).bytes.toString());
      for (const id of [Q_SAME, Q_COMP, RELATED_ID]) {
        expect(again.getQuestion(id)?.bytes.toString()).toBe(query.getQuestion(id)?.bytes.toString());
        expect(again.getQuestion(id)?.etag).toBe(query.getQuestion(id)?.etag);
      }
      expect(again.getStats().bytes.toString()).toBe(query.getStats().bytes.toString());
      expect(again.statsData()).toEqual(query.statsData());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
