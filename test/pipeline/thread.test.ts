// The worker on its pipeline thread (what `pmref start` uses): the thread opens its own store connection, runs
// the start-up pipeline, reports progress and published runs to the calling thread, answers runNow(), and
// stops cleanly; a thread that cannot start is reported, never hangs its caller.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type IngestResult, type ProgressEvent, startThreadWorker } from '../../src/pipeline/index.ts';
import { HEAP_BOUND_CONTAINED } from '../../src/pipeline/thread.ts';
import { openStore } from '../../src/store/index.ts';
import { DAY1, memoryLogger } from './harness.ts';

if (!HEAP_BOUND_CONTAINED) {
  console.warn(
    `[pipeline/thread] heap-bound test skipped on Node ${process.version}: a thread out of its heap bound can abort the whole process on this line (README, Supported Node.js)`,
  );
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-thread-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated store in the test's folder and a config that ingests the DAY1 replay folder into it. */
async function replayStore() {
  const dbUrl = `sqlite:${join(dir, 'pmref.sqlite')}`;
  const store = await openStore(dbUrl);
  await store.migrate();
  const config = loadConfig({
    PMREF_DB_URL: dbUrl,
    PMREF_SOURCE: 'replay',
    PMREF_REPLAY_DIR: DAY1,
    PMREF_LOG_LEVEL: 'silent',
  });
  return { store, config };
}

describe('startThreadWorker', () => {
  it('runs the start-up pipeline on its own thread and store connection, then answers runNow and stops', async () => {
    const { store, config } = await replayStore();
    const runs: IngestResult[] = [];
    const progress: ProgressEvent[] = [];
    const worker = startThreadWorker({
      config,
      logger: memoryLogger(),
      onRun: (r) => {
        runs.push(r);
      },
      onProgress: (e) => progress.push(e),
    });
    const first = await worker.initial;
    expect(first?.source).toBe('replay');
    expect(first?.runs).toHaveLength(1);
    expect(first?.runs[0]).toMatchObject({ status: 'ok', generation: 1 });
    expect(progress.map((e) => e.stage)).toContain('write');
    // The thread's write is visible through this thread's own connection.
    expect(await store.generation()).toBe(1);
    expect((await store.counts()).markets).toBeGreaterThan(0);
    expect(worker.nextRun()?.getUTCMinutes()).toBe(0);

    const again = await worker.runNow();
    expect(again?.runs[0]).toMatchObject({ status: 'ok', generation: 2, log_entries: 0 });
    expect(await store.generation()).toBe(2);
    expect(runs.map((r) => r.runs[0]?.generation)).toEqual([1, 2]);
    await worker.stop();
    await store.close();
  }, 60_000);

  it('replaces an idle thread after a run by a fresh one, which gets the incremental memo: the next run still skips unchanged events', async () => {
    const { store, config } = await replayStore();
    const logger = memoryLogger();
    const worker = startThreadWorker({ config, logger, replaceAfterMs: 50 });
    try {
      const first = await worker.initial;
      expect(first?.runs[0]).toMatchObject({ status: 'ok', generation: 1 });
      const replaced = () =>
        logger.lines.filter((l) => l.msg?.startsWith('the idle pipeline thread was replaced by a fresh one'));
      await vi.waitFor(() => expect(replaced()).toHaveLength(1), { timeout: 20_000, interval: 50 });
      expect(replaced()[0]?.o).toEqual({ memo_events: first?.runs[0]?.events?.pulled });
      // Not an unexpected exit: nothing about a thread that ended.
      expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);

      const again = await worker.runNow();
      expect(again?.runs[0]).toMatchObject({ status: 'ok', generation: 2, log_entries: 0 });
      const events = again?.runs[0]?.events;
      expect(events?.pulled).toBeGreaterThan(0);
      // Every event skipped: the fresh thread ran with the memo the replaced one recorded.
      expect(events?.reused_unnormalized).toBe(events?.pulled);
    } finally {
      // Also when an expectation fails: a thread left running would keep the test folder's store open.
      await worker.stop();
      await store.close();
    }
  }, 60_000);

  it('reports a thread that cannot open its store, and resolves its start-up run as null', async () => {
    const logger = memoryLogger();
    // The database's folder would sit where a plain file is: the thread's openStore throws.
    writeFileSync(join(dir, 'a-file'), '');
    const config = loadConfig({ PMREF_DB_URL: `sqlite:${join(dir, 'a-file', 'x.sqlite')}`, PMREF_LOG_LEVEL: 'silent' });
    const worker = startThreadWorker({ config, logger });
    expect(await worker.initial).toBeNull();
    expect(logger.lines.map((l) => l.msg)).toContain('the pipeline thread failed');
    expect(logger.lines.find((l) => l.msg?.startsWith('the pipeline thread exited'))?.level).toBe('error');
    await worker.stop();
  }, 30_000);

  it.skipIf(!HEAP_BOUND_CONTAINED)(
    'bounds the thread heap (PMREF_PIPELINE_HEAP_MB): a thread that exceeds it ends with a clear error, not the process',
    async () => {
      const logger = memoryLogger();
      const config = loadConfig({
        PMREF_DB_URL: `sqlite:${join(dir, 'pmref.sqlite')}`,
        PMREF_PIPELINE_HEAP_MB: '128',
        PMREF_LOG_LEVEL: 'silent',
      });
      const worker = startThreadWorker({ config, logger, entry: new URL('./oom-thread-entry.ts', import.meta.url) });
      expect(await worker.initial).toBeNull();
      const oom = logger.lines.find((l) => l.msg?.includes('ran out of its 128 MB heap bound'));
      expect(oom?.level).toBe('error');
      expect(oom?.msg).toContain('PMREF_PIPELINE_HEAP_MB');
      expect(logger.lines.find((l) => l.msg?.startsWith('the pipeline thread exited'))?.level).toBe('error');
      await worker.stop();
    },
    60_000,
  );
});
