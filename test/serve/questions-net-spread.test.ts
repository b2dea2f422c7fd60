// Issue 20, item 5: on the recorded venue data and on a small simulated universe, how many cross-venue divergences
// hold net of both venues' taker fees, in /v1/questions and in the divergence signal. Prints the counts for the
// issue's closing note; every row's net is its gross less both fees, never above it, and every divergence counted
// as holding (and every divergence bulletin) has a positive net spread.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../src/domain/index.ts';
import { ingestSimulated } from '../../src/pipeline/simulated.ts';
import { buildReadModel } from '../../src/serve/index.ts';
import { buildContext } from '../../src/signals/context.ts';
import { detectCrossVenueDivergence } from '../../src/signals/detectors/index.ts';
import { FEE_SCHEDULES } from '../../src/signals/net-spread.ts';
import type { Store } from '../../src/store/index.ts';
import { memoryLogger, runOn, tempStore } from '../pipeline/harness.ts';

const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const present = existsSync(REAL);
if (!present) console.warn(`questions-net-spread.test.ts: recorded-data part skipped: ${REAL} is absent`);

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

async function measure(store: Store, now: string, label: string) {
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
  for (const r of netPositive) expect(r.spread_net_points as number).toBeGreaterThan(0);
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

  it('counts the divergences that hold net of fees', async () => {
    await measure(store, '2026-09-01T12:00:00.000Z', 'recorded venue data');
  });
});

describe('on a simulated universe (5%, two snapshots)', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let simDir: string;
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    simDir = mkdtempSync(join(tmpdir(), 'pmref-net-spread-sim-'));
    const { generateUniverse } = await import('../../src/venues/simulate/index.ts');
    await generateUniverse({ outDir: simDir, seed: 42, days: 2, asOf: '2026-11-22', scale: 0.05 });
    await ingestSimulated({ store, simDir, seed: 42, logger: memoryLogger(), deferHistory: true });
  }, 300_000);
  afterAll(async () => {
    await dispose();
    rmSync(simDir, { recursive: true, force: true });
  });

  it('counts the divergences that hold net of fees', async () => {
    const c = await measure(store, '2026-11-22T12:00:00.000Z', 'simulated universe (5%)');
    expect(c.priced).toBeGreaterThan(0);
  });
});
