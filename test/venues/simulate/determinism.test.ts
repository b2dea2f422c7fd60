// Pins determinism: the same seed, days and as-of date give byte-identical files; another seed does not.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateHistory, generateUniverse } from '../../../src/venues/simulate/index.ts';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

async function run(seed: number, history = true): Promise<{ dir: string; files: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-sim-det-'));
  roots.push(dir);
  await generateUniverse({ outDir: dir, seed, days: 7, asOf: '2026-11-22', scale: 0.04, history });
  return { dir, files: hashTree(dir) };
}

describe('generateUniverse determinism', () => {
  it('writes byte-identical files for the same seed, and different ones for another seed', async () => {
    const first = (await run(11)).files;
    const second = (await run(11)).files;
    expect(Object.keys(first).length).toBeGreaterThanOrEqual(12);
    expect(second).toEqual(first);
    const other = (await run(12)).files;
    expect(Object.keys(other).sort()).toEqual(Object.keys(first).sort());
    expect(other['truth.json']).not.toBe(first['truth.json']);
    expect(other['snapshots/2026-11-22/venue_b/events-0001.json']).not.toBe(
      first['snapshots/2026-11-22/venue_b/events-0001.json'],
    );
  });

  it('defers the price history on demand and writes it later byte-identical to a whole generation', async () => {
    const whole = (await run(11)).files;
    const deferred = await run(11, false);
    const historyFiles = Object.keys(whole).filter((f) => f.startsWith('history/'));
    expect(historyFiles.length).toBe(2);
    expect(Object.keys(deferred.files).filter((f) => f.startsWith('history/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(deferred.dir, 'manifest.json'), 'utf8'));
    expect(manifest.history_deferred).toEqual({ scale: 0.04 });
    expect(generateHistory(deferred.dir).history_deferred).toBeUndefined();
    expect(hashTree(deferred.dir)).toEqual(whole);
    // A second call finds the history written and leaves the folder as it is.
    generateHistory(deferred.dir);
    expect(hashTree(deferred.dir)).toEqual(whole);
  });

  it('rejects a malformed as-of date and a non-integer seed', async () => {
    await expect(
      generateUniverse({ outDir: join(tmpdir(), 'never'), seed: 1, asOf: '2026-02-30', scale: 0.01 }),
    ).rejects.toThrow(/calendar date/);
    await expect(
      generateUniverse({ outDir: join(tmpdir(), 'never'), seed: 1.5, asOf: '2026-02-01', scale: 0.01 }),
    ).rejects.toThrow(/seed/);
  });
});
