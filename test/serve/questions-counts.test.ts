// On the recorded venue data and on a small simulated universe, /v1/questions lists exactly the cross-venue links the pipeline stored (venue_a × venue_b, both served), once each, under the documented ids, and /v1/stats counts the same pairs; the counts by relation are printed for the closing note.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkRelation, type Market, pairIdFor } from '../../src/domain/index.ts';
import { ingestSimulated } from '../../src/pipeline/simulated.ts';
import { buildReadModel, QueryService, type ReadModel } from '../../src/serve/index.ts';
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
});
