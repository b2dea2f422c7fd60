/**
 * The two stores the search query set runs on: the recorded venue data (../shared/fixtures/venues, absent on
 * some machines) and a 10% simulated universe (seed 42), each ingested through the real pipeline.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReadModel, type ReadModel } from '../../src/serve/index.ts';
import { generateUniverse } from '../../src/venues/simulate/index.ts';
import { runOn, tempStore } from '../pipeline/harness.ts';

export const REAL_FIXTURES = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
export const REAL_AT = '2026-09-01T12:00:00.000Z';
export const SIM_AS_OF = '2026-11-22';
export const SIM_AT = `${SIM_AS_OF}T12:00:00.000Z`;

/** A read model over the recorded venue data, or null when the folder is absent. */
export async function realModel(): Promise<ReadModel | null> {
  if (!existsSync(REAL_FIXTURES)) return null;
  const { store, dispose } = await tempStore();
  try {
    await runOn(store, REAL_FIXTURES, REAL_AT, { timeoutMs: 30_000 });
    return await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(REAL_AT) });
  } finally {
    await dispose();
  }
}

/** A read model over a 10% simulated universe (its latest snapshot), generated in a temporary folder. */
export async function simModel(): Promise<ReadModel> {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-search-sim-'));
  const { store, dispose } = await tempStore();
  try {
    await generateUniverse({ outDir: dir, seed: 42, days: 2, asOf: SIM_AS_OF, scale: 0.1 });
    const snap = readdirSync(join(dir, 'snapshots')).sort().at(-1) ?? '';
    await runOn(store, join(dir, 'snapshots', snap), SIM_AT, { timeoutMs: 30_000 });
    return await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(SIM_AT) });
  } finally {
    await dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
