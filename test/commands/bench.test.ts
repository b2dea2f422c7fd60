// `pmref bench` runs end to end on a small store and writes results.json in the documented shape (the figures themselves are the benchmark's business, not this test's); an empty store is refused with what to do.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { seedStore } from '../serve/seed.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pmref-bench-cli-'));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/venues', import.meta.url));
if (!existsSync(FIXTURES)) console.warn(`bench --editorial test skipped: venue fixtures not found at ${FIXTURES}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bench(dbFile: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PMREF_DB_URL: `sqlite:${join(dir, dbFile)}`, PMREF_LOG_LEVEL: 'warn' };
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'bench', ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pmref bench', () => {
  it('measures the four read endpoints against the ceiling and writes results.json', async () => {
    const store = await seedStore(`sqlite:${join(dir, 'seeded.sqlite')}`);
    await store.close();
    const out = join(dir, 'results.json');
    const { code, stderr } = await bench('seeded.sqlite', [
      '--duration',
      '1',
      '--rounds',
      '1',
      '--connections',
      '4',
      '--out',
      out,
    ]);
    expect(code, stderr).toBe(0);
    const results = JSON.parse(readFileSync(out, 'utf8')) as {
      endpoints: Array<Record<string, unknown>>;
      [k: string]: unknown;
    };
    expect(results.endpoints.map((e) => e.name)).toEqual([
      'events_list',
      'events_search',
      'markets_search',
      'event_detail',
      'market_detail',
    ]);
    for (const e of results.endpoints) {
      expect(e).toMatchObject({
        path: expect.stringMatching(/^\/v1\//),
        rps: expect.any(Number),
        p50_ms: expect.any(Number),
        p99_ms: expect.any(Number),
        ceiling_rps: expect.any(Number),
        ratio: expect.any(Number),
        same_headers_ceiling_rps: expect.any(Number),
        bytes: expect.any(Number),
      });
      expect(e.rps as number, String(e.name)).toBeGreaterThan(0);
      expect(e.ceiling_rps as number, String(e.name)).toBeGreaterThan(0);
      expect(e.rounds).toHaveLength(1);
    }
    expect(results.endpoints.find((e) => e.name === 'market_detail')?.path).toMatch(/^\/v1\/markets\/SVC-MKT-/);
    // The event search it timed finds events (a word the search leaves out would time an empty answer).
    expect(results.endpoints.find((e) => e.name === 'events_search')?.matches as number).toBeGreaterThan(0);
    expect(results.rss_mb as number).toBeGreaterThan(0);
    expect(results).toMatchObject({
      machine: { cpus: expect.any(Number), node: process.version },
      dataset: { events: 4, generation: 1 },
      connections: 4,
      duration_s: 1,
      rounds: 1,
    });
    expect(new Date(results.at as string).toISOString()).toBe(results.at);
  }, 60_000);

  it.skipIf(!existsSync(FIXTURES))('--editorial times judgment and claim keying per fixture market', async () => {
    const out = join(dir, 'editorial.json');
    const { code, stdout, stderr } = await bench('unused.sqlite', [
      '--editorial',
      '--fixtures',
      FIXTURES,
      '--out',
      out,
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^\d+ fixture markets: judgeResolution [\d.]+ µs CPU\/market/);
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    const timing = { wall_us: expect.any(Number), cpu_us: expect.any(Number), universe_cpu_s: expect.any(Number) };
    expect(results).toMatchObject({
      fixtures: FIXTURES,
      rounds: 4,
      judge_resolution: timing,
      claim_key: timing,
      goal_us_per_market: 1000,
    });
    expect(results.markets as number).toBeGreaterThan(3000);
  });

  it('--editorial without fixtures says where it looked', async () => {
    const { code, stderr } = await bench('unused.sqlite', ['--editorial', '--fixtures', join(dir, 'nowhere')]);
    expect(code).toBe(1);
    expect(stderr).toContain(`no fixtures at ${join(dir, 'nowhere')}; pass --fixtures DIR`);
  });

  it('refuses an empty store and says how to fill it', async () => {
    const { code, stderr } = await bench('empty.sqlite', ['--duration', '1']);
    expect(code).toBe(1);
    expect(stderr).toContain('is empty (no published run)');
    expect(stderr).toContain('ingest --source simulated');
  });
});
