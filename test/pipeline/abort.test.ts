// A run left `running` is aborted at the next start only when its process is gone (SQLite: host, pid and process start; PostgreSQL: no live session holds its lock), its staged marks go with it, and an aborted run can never publish.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { abortDeadRuns, currentOwner, deadBecause } from '../../src/pipeline/abort.ts';
import { isStale } from '../../src/pipeline/worker.ts';
import { openStore, type RunningRun, type RunOwner, type Store } from '../../src/store/index.ts';
import { makeMark } from '../store/records.ts';
import { makeMarket } from '../support/records.ts';
import { memoryLogger, tempStore } from './harness.ts';

const NOW = () => new Date('2026-03-02T12:00:00.000Z');
const pgUrl = process.env.PMREF_TEST_POSTGRES_URL;
if (!pgUrl) {
  console.warn('[pipeline/abort] PostgreSQL cases skipped: PMREF_TEST_POSTGRES_URL is not set');
}

/** The pid of a process that has already exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid ?? 0));
  });
}

const running = (owner: RunOwner | null): RunningRun => ({
  run_id: 1,
  started_at: '2026-03-02T11:00:00.000Z',
  finished_at: null,
  source: 'live',
  status: 'running',
  generation: 0,
  summary: {},
  owner,
});

describe('deadBecause (SQLite)', () => {
  const me = currentOwner();
  it('never declares this process dead, and spares a live process on this host', () => {
    expect(deadBecause(running(me), me)).toBeNull();
    expect(
      deadBecause(running({ ...me, pid: process.ppid, process_started_at: '2026-01-01T00:00:00.000Z' }), me),
    ).toBeNull();
  });

  it('declares dead: another host, a gone pid, this pid in an earlier process, a run without an owner', async () => {
    expect(deadBecause(running({ ...me, host: 'elsewhere' }), me)).toMatch(/another host/);
    const pid = await deadPid();
    expect(deadBecause(running({ ...me, pid, process_started_at: '2026-01-01T00:00:00.000Z' }), me)).toBe(
      `pid ${pid} on ${me.host} is no longer running`,
    );
    expect(deadBecause(running({ ...me, process_started_at: '2020-01-01T00:00:00.000Z' }), me)).toMatch(
      /an earlier process with this pid/,
    );
    expect(deadBecause(running(null), me)).toMatch(/recorded before/);
  });
});

describe('abortDeadRuns on SQLite', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  afterEach(async () => {
    await dispose();
  });

  it('aborts the dead run with why, drops its staged marks, spares the live one, and the dead run cannot publish', async () => {
    ({ store, dispose } = await tempStore());
    const published = makeMarket({ platform: 'venue_b', native: '0xpublished' });
    const first = await store.beginRun('replay', '2026-03-02T09:00:00.000Z', currentOwner());
    await store.publishRun(
      first.run_id,
      async (tx) => tx.upsertMarkets([published]),
      () => ({ status: 'ok', summary: {}, finishedAt: '2026-03-02T09:01:00.000Z' }),
    );
    const mine = await store.beginRun('replay', '2026-03-02T11:00:00.000Z', currentOwner());
    const dead = await store.beginRun('replay', '2026-03-02T10:00:00.000Z', { ...currentOwner(), host: 'elsewhere' });
    const market = makeMarket({ platform: 'venue_b', native: '0xdead' });
    await store.stageMarks(dead.run_id, [makeMark(0, '2026-03-01')]);
    expect(await store.listStagedMarks(dead.run_id)).toHaveLength(1);

    const logger = memoryLogger();
    expect(await abortDeadRuns(store, { logger, now: NOW })).toEqual([dead.run_id]);
    expect((await store.runningRuns()).map((r) => r.run_id)).toEqual([mine.run_id]);
    expect(await store.listStagedMarks(dead.run_id)).toEqual([]);
    expect(
      logger.lines.some((l) => l.level === 'warn' && /aborted: process ended before publish/.test(l.msg ?? '')),
    ).toBe(true);

    await expect(
      store.publishRun(
        dead.run_id,
        async (tx) => tx.upsertMarkets([market]),
        () => ({ status: 'ok', summary: {}, finishedAt: NOW().toISOString() }),
      ),
    ).rejects.toThrow(/no longer running/);
    expect(await store.listMarkets()).toEqual([published]);
    expect(await store.generation()).toBe(1);
    expect(await store.lastRun()).toMatchObject({ run_id: dead.run_id, status: 'aborted' });
    expect(await isStale(store, 60, NOW())).toEqual({ stale: true, why: `the last run (${dead.run_id}) was aborted` });
  });

  it("aborts this process's own run only when a new pipeline thread says the previous one ended", async () => {
    ({ store, dispose } = await tempStore());
    const orphan = await store.beginRun('simulated', '2026-03-02T11:00:00.000Z', currentOwner());
    const logger = memoryLogger();
    expect(await abortDeadRuns(store, { logger, now: NOW })).toEqual([]);
    expect(await abortDeadRuns(store, { logger, now: NOW, ownPipelineThreadEnded: true })).toEqual([orphan.run_id]);
    expect(await store.lastRun()).toMatchObject({ run_id: orphan.run_id, status: 'aborted' });
    expect(logger.lines.find((l) => l.level === 'warn')?.msg).toMatch(/previous pipeline thread ended/);
  });
});

describe.skipIf(!pgUrl)('abortDeadRuns on PostgreSQL', () => {
  const schema = `pmref_abort_${randomBytes(5).toString('hex')}`;
  let owner: Store;
  let starter: Store;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    owner = await openStore(pgUrl ?? '', { pgSchema: schema, poolSize: 2 });
    await owner.migrate();
    starter = await openStore(pgUrl ?? '', { pgSchema: schema, poolSize: 2 });
  });
  afterAll(async () => {
    await owner?.close();
    await starter?.close();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('never aborts a run whose process holds its lock, even one recorded on another host; aborts it once the lock is free', async () => {
    const handle = await owner.beginRun('live', '2026-03-02T11:00:00.000Z', { ...currentOwner(), host: 'other-host' });
    expect(await abortDeadRuns(starter, { logger: memoryLogger(), now: NOW })).toEqual([]);
    expect((await starter.runningRuns()).map((r) => r.run_id)).toEqual([handle.run_id]);
    // The lock goes with its session: releasing it is what a dead process's closed connection does.
    await handle.release();
    expect(await abortDeadRuns(starter, { logger: memoryLogger(), now: NOW })).toEqual([handle.run_id]);
    expect(await starter.lastRun()).toMatchObject({ run_id: handle.run_id, status: 'aborted', generation: 0 });
  });
});
