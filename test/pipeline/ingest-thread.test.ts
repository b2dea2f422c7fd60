// `pmref ingest`'s runs on a pipeline thread (ingest-thread.ts): the thread opens its own store connection, runs
// the ingest, reports progress and the result to the calling thread; a failed ingest and a thread out of its heap
// bound reject with what went wrong, and the latter names PMREF_PIPELINE_HEAP_MB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type ProgressEvent, runIngestOnThread } from '../../src/pipeline/index.ts';
import { HEAP_BOUND_CONTAINED } from '../../src/pipeline/thread.ts';
import { openStore } from '../../src/store/index.ts';
import { DAY1, memoryLogger } from './harness.ts';

if (!HEAP_BOUND_CONTAINED) {
  console.warn(
    `[pipeline/ingest-thread] heap-bound test skipped on Node ${process.version}: a thread out of its heap bound can abort the whole process on this line (README, Supported Node.js)`,
  );
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-ingest-thread-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function configFor(extra: Record<string, string> = {}) {
  return loadConfig({ PMREF_DB_URL: `sqlite:${join(dir, 'pmref.sqlite')}`, PMREF_LOG_LEVEL: 'silent', ...extra });
}

describe('runIngestOnThread', () => {
  it('runs the ingest on its own thread and store connection, reporting progress and the result', async () => {
    const config = configFor();
    const store = await openStore(config.PMREF_DB_URL);
    await store.migrate();
    try {
      const progress: ProgressEvent[] = [];
      const result = await runIngestOnThread({
        config,
        request: { source: 'replay', replayDir: DAY1 },
        logger: memoryLogger(),
        onProgress: (e) => progress.push(e),
      });
      expect(result.source).toBe('replay');
      expect(result.runs).toHaveLength(1);
      expect(result.runs[0]).toMatchObject({ status: 'ok', generation: 1 });
      expect(progress.map((e) => e.stage)).toContain('write');
      // The thread's write is visible through this thread's own connection.
      expect((await store.lastRun({ published: true }))?.run_id).toBe(result.runs[0]?.run_id);
      const venues = result.runs[0]?.venues;
      expect((await store.listMarkets()).length).toBe((venues?.venue_a.stored ?? 0) + (venues?.venue_b.stored ?? 0));
      expect((await store.listMarkets()).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('rejects with the thread’s error when the ingest fails', async () => {
    // No migration: the thread's run finds no tables.
    const config = configFor();
    await expect(
      runIngestOnThread({ config, request: { source: 'replay', replayDir: DAY1 }, logger: memoryLogger() }),
    ).rejects.toThrow('no such table: pipeline_runs');
  });

  it.skipIf(!HEAP_BOUND_CONTAINED)(
    'bounds the thread heap (PMREF_PIPELINE_HEAP_MB): a thread that exceeds it rejects with an error naming it',
    async () => {
      const logger = memoryLogger();
      const run = runIngestOnThread({
        config: configFor({ PMREF_PIPELINE_HEAP_MB: '128' }),
        request: { source: 'replay', replayDir: DAY1 },
        logger,
        entry: new URL('./oom-thread-entry.ts', import.meta.url),
      });
      await expect(run).rejects.toThrow(/ran out of its 128 MB heap bound \(PMREF_PIPELINE_HEAP_MB\)/);
      expect(logger.lines.find((l) => l.msg?.includes('heap bound'))?.level).toBe('error');
    },
    60_000,
  );
});
