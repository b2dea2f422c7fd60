// On the recorded venue data and on a small simulated universe, /v1/questions lists exactly the cross-venue links the pipeline stored (venue_a × venue_b, both served), once each, under the documented ids, and /v1/stats counts the same pairs; the counts by relation, and how many divergences hold net of fees, are printed for the issues' closing notes.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkRelation, type Market, pairIdFor } from '../../src/domain/index.ts';
import { ingestSimulated } from '../../src/pipeline/simulated.ts';
import { buildReadModel, QueryService, type ReadModel } from '../../src/serve/index.ts';
import { buildContext } from '../../src/signals/context.ts';
import { detectCrossVenueDivergence } from '../../src/signals/detectors/index.ts';
import { FEE_SCHEDULES } from '../../src/signals/net-spread.ts';
import type { Store } from '../../src/store/index.ts';
import { memoryLogger, runOn, tempStore } from '../pipeline/harness.ts';

const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const present = existsSync(REAL);
if (!present) console.warn(`questions-counts.test.ts: recorded-data part skipped: ${REAL} is absent`);

interface Expected {
  relation: string;
  id: string;
}

/** The pairs `/v1/questions` must list, computed straight from the stored markets (not through the read model). */
async function storedPairs(store: Store): Promise<Map<string, Expected>> {
  const published = new Set((await store.listEvents()).filter((e) => e.published).map((e) => e.event_id));
  const served = new Map<string, Market>();
  for (let after: string | undefined, page: Market[] = []; ; after = page.at(-1)?.market_id) {
    page = await store.listMarkets({ limit: 1000, ...(after === undefined ? {} : { after }) });
    if (page.length === 0) break;
    for (const m of page) if (m.event_id === null || published.has(m.event_id)) served.set(m.market_id, m);
  }
  const out = new Map<string, Expected>();
  const perQuestion = new Map<string, number>();
  const raw: Array<{ a: Market; b: Market; relation: string }> = [];
  for (const a of served.values()) {
    if (a.platform !== 'venue_a') continue;
    for (const t of a.also_on ?? []) {
      const b = served.get(t.market_id);
      if (b?.platform !== 'venue_b') continue;
      const relation = t.relation ?? 'same';
      raw.push({ a, b, relation });
      if (relation !== 'related' && a.question_id)
        perQuestion.set(a.question_id, (perQuestion.get(a.question_id) ?? 0) + 1);
    }
  }
  for (const { a, b, relation } of raw) {
    const shared = relation !== 'related' && a.question_id !== null;
    const id =
      shared && perQuestion.get(a.question_id ?? '') === 1
        ? (a.question_id as string)
        : pairIdFor(shared ? 'pair' : 'related', a.market_id, b.market_id);
    out.set(`${a.market_id}|${b.market_id}`, { relation, id });
  }
  return out;
}

function countBy(model: ReadModel): Record<LinkRelation, number> {
  const out: Record<LinkRelation, number> = { same: 0, complement: 0, related: 0 };
  for (const e of model.questions.list) out[e.summary.relation]++;
  return out;
}

async function checkAgainstStore(store: Store, model: ReadModel, label: string): Promise<Record<LinkRelation, number>> {
  const expected = await storedPairs(store);
  const listed = new Map(
    model.questions.list.map((e) => [
      `${e.summary.venue_a.market_id}|${e.summary.venue_b.market_id}`,
      { relation: e.summary.relation, id: e.summary.id },
    ]),
  );
  expect(listed.size).toBe(model.questions.list.length); // each pair once
  expect(listed).toEqual(expected);
  const query = new QueryService({ current: () => model });
  const counts = countBy(model);
  expect(query.statsData().questions.by_relation).toEqual(counts);
  // Sorted by divergence, unpriced pairs last; every listed id opens its side-by-side view.
  const d = model.questions.list.map((e) => e.summary.divergence_points ?? -1);
  expect(d).toEqual([...d].sort((x, y) => y - x));
  for (const e of model.questions.list) expect(query.question(e.summary.id)?.id).toBe(e.summary.id);
  const priced = model.questions.list.filter((e) => e.summary.divergence_points !== null).length;
  console.info(
    `${label}: /v1/questions lists ${model.questions.list.length} pairs: same ${counts.same}, complement ${counts.complement}, related ${counts.related}; ${priced} with a divergence`,
  );
  return counts;
}

const ZERO_FEES = {
  venue_a: { ...FEE_SCHEDULES.venue_a, taker_rate: 0 },
  venue_b: { ...FEE_SCHEDULES.venue_b, taker_rate: 0 },
};

async function allMarkets(store: Store): Promise<Market[]> {
  const out: Market[] = [];
  for (let after: string | undefined, page: Market[] = []; ; after = page.at(-1)?.market_id) {
    page = await store.listMarkets({ limit: 1000, ...(after === undefined ? {} : { after }) });
    if (page.length === 0) break;
    out.push(...page);
  }
  return out;
}

/**
 * Issue 20, item 5: how many divergences hold net of both venues' taker fees, in /v1/questions and in the
 * divergence signal; every row's net is its gross less both fees (never above it), fees never add divergence
 * bulletins, and every bulletin has a positive net spread. Prints the counts.
 */
async function measureNetSpreads(store: Store, now: string, label: string) {
  const model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(now) });
  const rows = model.questions.list.map((e) => e.summary);
  for (const r of rows) {
    if (r.relation === 'related' || r.divergence_points === null) {
      expect(r.spread_gross_points ?? null).toBeNull();
      continue;
    }
    const gross = r.spread_gross_points as number;
    const net = r.spread_net_points as number;
    const fees = r.spread_fees as { venue_a: number; venue_b: number };
    expect(Math.abs(gross - r.divergence_points)).toBeLessThanOrEqual(0.051); // same prices, finer rounding
    expect(net).toBeLessThanOrEqual(gross);
    expect(Math.abs(gross - 100 * (fees.venue_a + fees.venue_b) - net)).toBeLessThanOrEqual(0.011);
    expect(r.spread_size_contracts).toBe(100);
  }
  const priced = rows.filter((r) => r.spread_gross_points !== null && r.spread_gross_points !== undefined);
  const grossPositive = priced.filter((r) => (r.spread_gross_points as number) > 0);
  const netPositive = priced.filter((r) => (r.spread_net_points as number) > 0);
  expect(netPositive.length).toBeLessThanOrEqual(grossPositive.length);
  const ctx = buildContext({
    events: await store.listEvents(),
    markets: await allMarkets(store),
    marks: await store.latestMarks(),
    spot: [],
    catalysts: [],
    now,
  });
  const net = detectCrossVenueDivergence(ctx);
  const gross = detectCrossVenueDivergence(ctx, { schedules: ZERO_FEES });
  expect(net.length).toBeLessThanOrEqual(gross.length);
  for (const b of net) {
    expect(b.numbers.find((n) => n.name === 'spread_net')?.value ?? 0).toBeGreaterThan(0);
  }
  const depth = (v: boolean | null | undefined) => priced.filter((r) => (r.depth_ok ?? null) === v).length;
  console.info(
    `${label}: /v1/questions same/complement pairs with a spread ${priced.length}; gross > 0: ${grossPositive.length}, net of fees > 0: ${netPositive.length}; depth_ok true ${depth(true)}, false ${depth(false)}, unknown ${depth(null)}. Divergence signals (gap > 5 pts): ${gross.length} gross, ${net.length} net of fees.`,
  );
  if (priced.length <= 5) {
    for (const r of priced) {
      console.info(
        `  ${r.id} (${r.relation}): venue_a ${r.venue_a.price} vs venue_b ${r.venue_b.price}; gross ${r.spread_gross_points} pts, fees ${JSON.stringify(r.spread_fees)} per contract, net ${r.spread_net_points} pts`,
      );
    }
  }
  return { priced: priced.length, grossPositive: grossPositive.length, netPositive: netPositive.length };
}

describe.skipIf(!present)('on the recorded venue data', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    await runOn(store, REAL, '2026-09-01T12:00:00.000Z', { timeoutMs: 30_000 });
  }, 120_000);
  afterAll(async () => {
    await dispose();
  });

  it('lists every stored link once, with the documented ids', async () => {
    const model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date('2026-09-01T12:00:00Z') });
    const counts = await checkAgainstStore(store, model, 'recorded venue data');
    expect(counts.same + counts.complement + counts.related).toBeGreaterThan(0);
  });

  it('counts the divergences that hold net of fees', async () => {
    await measureNetSpreads(store, '2026-09-01T12:00:00.000Z', 'recorded venue data');
  });
});

describe('on a simulated universe (5%, two snapshots)', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let simDir: string;
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    simDir = mkdtempSync(join(tmpdir(), 'pmref-questions-sim-'));
    const { generateUniverse } = await import('../../src/venues/simulate/index.ts');
    await generateUniverse({ outDir: simDir, seed: 42, days: 2, asOf: '2026-11-22', scale: 0.05 });
    await ingestSimulated({ store, simDir, seed: 42, logger: memoryLogger(), deferHistory: true });
  }, 300_000);
  afterAll(async () => {
    await dispose();
    rmSync(simDir, { recursive: true, force: true });
  });

  it('lists every stored link once, same and complement pairs among them', async () => {
    const model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date('2026-11-22T00:00:00Z') });
    const counts = await checkAgainstStore(store, model, 'simulated universe (5%)');
    expect(counts.same).toBeGreaterThan(0);
    expect(counts.complement).toBeGreaterThan(0);
  });

  it('counts the divergences that hold net of fees', async () => {
    const c = await measureNetSpreads(store, '2026-11-22T12:00:00.000Z', 'simulated universe (5%)');
    expect(c.priced).toBeGreaterThan(0);
  });
});
