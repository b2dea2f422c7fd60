// Hourly change on the simulated universe is deterministic, changes about the share asked per hour, and a reusing refresh over it stores what a full one does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshSimulated } from '../../src/pipeline/simulated.ts';
import type { Store } from '../../src/store/index.ts';
import { perturbSnapshot } from '../../src/venues/simulate/index.ts';
import { memoryLogger, tempStore, twoDayUniverse } from './harness.ts';

type Rec = Record<string, unknown>;

let simDir: string;
let scratch: string;
beforeEach(() => {
  // A two-day universe in the generator's layout, made of the pipeline fixtures (as simulated.test.ts does).
  simDir = twoDayUniverse(mkdtempSync(join(tmpdir(), 'pmref-simdir-')));
  scratch = mkdtempSync(join(tmpdir(), 'pmref-perturbed-'));
});
afterEach(() => {
  rmSync(simDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** The markets of a perturbed copy of the day-2 snapshot, by native id. */
function perturbed(
  fraction: number,
  hours: number,
): { report: ReturnType<typeof perturbSnapshot>; markets: Map<string, string> } {
  const out = mkdtempSync(join(scratch, `${fraction}-${hours}-`));
  const report = perturbSnapshot(join(simDir, 'snapshots', '2026-03-02'), out, { fraction, hours });
  const markets = new Map<string, string>();
  for (const file of ['venue_a_events.json', 'venue_b_events.json']) {
    const json = JSON.parse(readFileSync(join(out, file), 'utf8')) as Rec | Rec[];
    for (const e of (Array.isArray(json) ? json : json.events) as Rec[])
      for (const m of e.markets as Rec[]) markets.set(String(m.ticker ?? m.conditionId), JSON.stringify(m));
  }
  return { report, markets };
}

describe('perturbSnapshot', () => {
  it('changes every market at share 1, none at share 0, and the same ones for the same hour', () => {
    const none = perturbed(0, 1);
    const all = perturbed(1, 1);
    const again = perturbed(1, 1);
    expect(none.report).toEqual({ markets: 8, changed: 0, changed_last_hour: 0 });
    expect(all.report).toEqual({ markets: 8, changed: 8, changed_last_hour: 8 });
    for (const [id, m] of all.markets) expect(m).not.toBe(none.markets.get(id));
    expect(again.markets).toEqual(all.markets);
  });

  it('makes hour h differ from hour h-1 only in the markets chosen for hour h', () => {
    const h2 = perturbed(0.5, 2);
    const h3 = perturbed(0.5, 3);
    const differ = [...h3.markets.keys()].filter((id) => h3.markets.get(id) !== h2.markets.get(id));
    expect(differ.length).toBe(h3.report.changed_last_hour);
  });
});

describe('refreshSimulated', () => {
  let stores: { store: Store; dispose(): Promise<void> }[] = [];
  beforeEach(() => {
    stores = [];
  });
  afterEach(async () => {
    for (const s of stores) await s.dispose();
  });

  it('ingests the universe, then refreshes hourly; reusing refreshes store what full ones store', async () => {
    const run = async (incremental: boolean) => {
      const s = await tempStore();
      stores.push(s);
      const result = await refreshSimulated({
        store: s.store,
        simDir,
        seed: 7,
        logger: memoryLogger(),
        fraction: 0.5,
        hour: 1,
        runs: 3,
        incremental,
      });
      return { result, store: s.store };
    };
    const inc = await run(true);
    const full = await run(false);
    expect(inc.result.runs.map((r) => r.as_of)).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-03-02T00:00:00.000Z',
      '2026-03-02T01:00:00.000Z',
      '2026-03-02T02:00:00.000Z',
      '2026-03-02T03:00:00.000Z',
    ]);
    expect(inc.result.perturbations.map((p) => p.hour)).toEqual([1, 2, 3]);
    // Later refreshes reuse the events none of whose markets changed in that hour.
    const reused = inc.result.runs.slice(3).map((r) => r.events?.reused ?? 0);
    expect(Math.min(...reused)).toBeGreaterThan(0);
    expect(full.result.runs.every((r) => r.events?.reused === 0)).toBe(true);
    for (const list of ['listEvents', 'listMarkets', 'listMarks', 'listLog', 'listSignals', 'listCatalysts'] as const) {
      expect(await inc.store[list](), list).toEqual(await full.store[list]());
    }
  });
});
