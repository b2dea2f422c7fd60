// The worker runs at start only when the store is empty or stale, never runs two pipelines at once, and runs nothing when another process leads.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { currentOwner } from '../../src/pipeline/abort.ts';
import { isStale, startWorker } from '../../src/pipeline/worker.ts';
import type { Store } from '../../src/store/index.ts';
import { DAY1, memoryLogger, tempStore } from './harness.ts';

let store: Store;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
});
afterEach(async () => {
  await dispose();
});

const config = loadConfig({ PMREF_SOURCE: 'replay', PMREF_REPLAY_DIR: DAY1, PMREF_REFRESH_MINUTES: '60' });
const NEVER = '0 0 1 1 *'; // keep the schedule out of the test's way
const at = (iso: string) => () => new Date(iso);

describe('startWorker', () => {
  it('runs at start on an empty store, not on a fresh one, and again once the store is stale', async () => {
    const first = startWorker({
      store,
      config,
      logger: memoryLogger(),
      schedule: NEVER,
      clock: at('2026-03-01T12:00:00Z'),
    });
    const result = await first.initial;
    expect(result?.runs).toHaveLength(1);
    expect(result?.runs[0]?.status).toBe('ok');
    await first.stop();

    expect((await isStale(store, 60, new Date('2026-03-01T12:30:00Z'))).stale).toBe(false);
    const fresh = startWorker({
      store,
      config,
      logger: memoryLogger(),
      schedule: NEVER,
      clock: at('2026-03-01T12:30:00Z'),
    });
    expect(await fresh.initial).toBeNull();
    await fresh.stop();

    const stale = await isStale(store, 60, new Date('2026-03-01T14:00:00Z'));
    expect(stale).toEqual({ stale: true, why: expect.stringContaining('(refresh every 60 min)') });
  });

  it('with runIfStale false (a replacement thread), judges a stale store but runs only when asked', async () => {
    const logger = memoryLogger();
    const worker = startWorker({
      store,
      config,
      logger,
      schedule: NEVER,
      clock: at('2026-03-01T12:00:00Z'),
      runIfStale: false,
    });
    try {
      expect(await worker.initial).toBeNull();
      expect(await store.lastRun()).toBeNull();
      expect(logger.lines.find((l) => l.msg?.startsWith('worker start:'))).toMatchObject({
        o: { stale: true },
        msg: expect.stringContaining('a replaced thread: no run until the schedule or a caller asks'),
      });
      expect((await worker.runNow())?.runs[0]?.status).toBe('ok');
    } finally {
      await worker.stop();
    }
  });

  it('joins a run in progress instead of starting a second one', async () => {
    const worker = startWorker({
      store,
      config,
      logger: memoryLogger(),
      schedule: NEVER,
      clock: at('2026-03-01T12:00:00Z'),
    });
    await worker.initial;
    const a = worker.runNow();
    const b = worker.runNow();
    expect(b).toBe(a);
    await a;
    expect((await store.lastRun())?.run_id).toBe(2);
    await worker.stop();
  });

  it('runs nothing while another process holds the leader lock', async () => {
    const logger = memoryLogger();
    const lock = { acquire: async () => false, release: async () => {} };
    const worker = startWorker({ store, config, logger, schedule: NEVER, leaderLock: lock });
    expect(await worker.initial).toBeNull();
    expect(await worker.runNow()).toBeNull();
    expect(await store.lastRun()).toBeNull();
    expect(logger.lines.some((l) => l.msg === 'another worker leads; skipping this refresh')).toBe(true);
    await worker.stop();
  });

  it('a standby takes the lead once it is free and runs at once when the store is stale', async () => {
    const logger = memoryLogger();
    let free = false;
    const lock = { acquire: async () => free, release: async () => {} };
    const worker = startWorker({ store, config, logger, schedule: NEVER, leaderLock: lock, leaderPollMs: 20 });
    expect(await worker.initial).toBeNull();
    await new Promise((r) => setTimeout(r, 100));
    expect(await store.lastRun()).toBeNull();
    free = true; // the leader died: its lock is free
    await vi.waitFor(async () => expect((await store.lastRun())?.status).toBe('ok'), { timeout: 10_000, interval: 20 });
    expect(logger.lines.some((l) => l.msg === 'this worker now leads the pipeline')).toBe(true);
    expect(logger.lines.some((l) => l.msg?.startsWith('took the lead: the store is empty'))).toBe(true);
    await worker.stop();
    // Taking the lead again over a fresh store runs nothing more.
    expect((await store.lastRun())?.run_id).toBe(1);
  });

  it('never starts a second run while a live process still runs one', async () => {
    const logger = memoryLogger();
    const handle = await store.beginRun('replay', '2026-03-01T11:59:00Z', currentOwner());
    const worker = startWorker({ store, config, logger, schedule: NEVER, clock: at('2026-03-01T12:00:00Z') });
    expect(await worker.initial).toBeNull();
    expect(await worker.runNow()).toBeNull();
    expect(logger.lines.some((l) => l.msg?.includes('still in progress; not starting a second one'))).toBe(true);
    expect((await store.runningRuns()).map((r) => r.run_id)).toEqual([handle.run_id]);
    await handle.release();
    await worker.stop();
  });

  it('lists the runs of dead processes it aborted in its next result', async () => {
    const dead = await store.beginRun('replay', '2026-03-01T11:00:00Z', {
      host: 'another-host',
      pid: 1,
      process_started_at: '2026-03-01T10:00:00Z',
    });
    const worker = startWorker({
      store,
      config,
      logger: memoryLogger(),
      schedule: NEVER,
      clock: at('2026-03-01T12:00:00Z'),
    });
    const result = await worker.initial;
    expect(result?.aborted_runs).toEqual([dead.run_id]);
    expect(result?.runs[0]?.status).toBe('ok');
    expect((await worker.runNow())?.aborted_runs).toBeUndefined();
    await worker.stop();
  });
});
