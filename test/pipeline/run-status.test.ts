// A run owns up to what fell back: failing order books, spot or history make it `partial` with `degraded` naming each part (in the run record, /v1/status and `pmref ingest --json`), and every venue failing makes it `failed`, publishing nothing, with `pmref ingest` exiting 1.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { afterWriteStage, runPipeline } from '../../src/pipeline/index.ts';
import { readStoreView, serviceStatus } from '../../src/serve/index.ts';
import { Body } from '../../src/serve/json-bytes.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { startReplayServer } from '../../src/venues/index.ts';
import { DAY1, DAY1_AT, DAY2_AT, memoryLogger, venueOptions } from './harness.ts';

const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));
const exec = promisify(execFile);

let dir: string;
let replayDir: string;
let dbPath: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-run-status-'));
  replayDir = join(dir, 'replay');
  cpSync(DAY1, replayDir, { recursive: true });
  writeFileSync(
    join(replayDir, 'simple_price.json'),
    JSON.stringify({ bitcoin: { usd: 97000, last_updated_at: 1772366400 } }),
  );
  dbPath = join(dir, 'store.sqlite');
  store = await openStore(`sqlite:${dbPath}`);
  await store.migrate();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One run over the replay folder, with order books asked for and the after-write stage (spot) on. */
async function run(at: string, faults?: string) {
  const logger = memoryLogger();
  const server = await startReplayServer({ dir: replayDir, port: 0, ...(faults ? { faults } : {}) });
  try {
    const venues = venueOptions(server, logger);
    return await runPipeline({
      store,
      source: 'replay',
      clock: () => new Date(at),
      logger,
      venues: { ...venues, venue_b: { ...venues.venue_b, maxBookCalls: 10 } },
      backfill: { maxCalls: null },
      afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
    });
  } finally {
    await server.close();
  }
}

async function status() {
  const model = {
    generation: await store.generation(),
    builtAt: DAY2_AT,
    dataSource: 'live' as const,
    counts: { events: 0, markets: 0, published_events: 0, live_events: 0 },
    signals: [],
    spot: new Body(JSON.stringify({ spot: [] }), 'e'),
  };
  return serviceStatus({
    now: new Date(DAY2_AT),
    refreshMinutes: 60,
    serviceName: 'pmref',
    origin: 'http://pmref.test',
    model,
    store: await readStoreView(store),
  });
}

describe('honest run status', () => {
  it('a clean run is ok with nothing degraded', async () => {
    const summary = await run(DAY1_AT);
    expect(summary).toMatchObject({ status: 'ok', degraded: [], generation: 1 });
    expect((await status()).runs.last).toMatchObject({ status: 'ok', degraded: [] });
  });

  it('order books (and history, on the same CLOB) failing: partial, naming both, in the record and /v1/status', async () => {
    const summary = await run(DAY1_AT, 'clob:5xx');
    expect(summary.status).toBe('partial');
    expect(summary.degraded).toEqual(['history.venue_b', 'venue_b.order_books']);
    expect(summary.venues.venue_b.error).toBeNull();
    expect(summary.fallbacks.join('\n')).toMatch(/venue_b order_books: \d+ of \d+ order books could not be fetched/);
    expect(summary.generation).toBe(1);
    const record = await store.lastRun();
    expect(record).toMatchObject({ status: 'partial', generation: 1 });
    expect(record?.summary.degraded).toEqual(['history.venue_b', 'venue_b.order_books']);
    const s = await status();
    expect(s.state).toBe('degraded');
    expect(s.runs.last).toMatchObject({ status: 'partial', degraded: ['history.venue_b', 'venue_b.order_books'] });
    expect(s.checks.find((c) => c.name === 'pipeline')?.detail).toMatch(
      /fell back: history\.venue_b, venue_b\.order_books$/,
    );
  });

  it('spot failing: partial with degraded [spot], the stored prices kept', async () => {
    await run(DAY1_AT);
    const spot = await store.latestSpot();
    expect(spot.length).toBeGreaterThan(0);
    const summary = await run(DAY2_AT, 'spot:5xx');
    expect(summary).toMatchObject({ status: 'partial', degraded: ['spot'], generation: 2 });
    expect(summary.fallbacks.join('\n')).toMatch(/spot prices could not be read/);
    expect(await store.latestSpot()).toEqual(spot);
  });

  it('every venue failing: failed, nothing published (generation and counts unchanged), pmref ingest exits 1', async () => {
    await run(DAY1_AT);
    const counts = await store.counts();
    const env = { ...process.env, PMREF_DB_URL: `sqlite:${dbPath}`, PMREF_LOG_LEVEL: 'silent' };
    const args = [BIN, 'ingest', '--source', 'replay', '--replay-dir', replayDir, '--faults', 'all:5xx', '--json'];
    const result = await exec(process.execPath, args, { env }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ status: 'failed', degraded: ['venue_a', 'venue_b'], generation: 1 });
    expect(await store.generation()).toBe(1);
    expect(await store.counts()).toEqual(counts);
    expect(await store.lastRun()).toMatchObject({ status: 'failed', generation: 0 });
  });
});
