// A simulated ingest runs the real pipeline once per snapshot day, oldest first, at that day's clock, so day-over-day marks and log entries are real outputs.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ingestSimulated, readManifest, snapshotClock } from '../../src/pipeline/simulated.ts';
import type { Store } from '../../src/store/index.ts';
import { generateUniverse } from '../../src/venues/simulate/index.ts';
import { memoryLogger, tempStore, twoDayUniverse } from './harness.ts';

let store: Store;
let dispose: () => Promise<void>;
let simDir: string;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
  // A two-day universe in the generator's layout, made of the pipeline fixtures.
  simDir = twoDayUniverse(mkdtempSync(join(tmpdir(), 'pmref-simdir-')), ['2026-03-02', '2026-03-01']);
});
afterEach(async () => {
  await dispose();
  rmSync(simDir, { recursive: true, force: true });
});

describe('snapshotClock', () => {
  it('runs a bare-date snapshot at midnight UTC and keeps a given time of day', () => {
    expect(snapshotClock({ as_of: '2026-03-02' }, '2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
    expect(snapshotClock({ as_of: '2026-03-02T14:30:00Z' }, '2026-03-01')).toBe('2026-03-01T14:30:00.000Z');
  });
});

describe('ingestSimulated', () => {
  it('ingests each snapshot oldest first and lets the second day produce the lifecycle entries', async () => {
    const result = await ingestSimulated({ store, simDir, seed: 7, logger: memoryLogger() });
    expect(result.generated).toBe(false);
    expect(result.runs.map((r) => [r.as_of, r.source, r.status, r.generation])).toEqual([
      ['2026-03-01T00:00:00.000Z', 'simulated', 'ok', 1],
      ['2026-03-02T00:00:00.000Z', 'simulated', 'ok', 2],
    ]);
    // Day 2's seven venue moves, plus PMCPI-26FEB-T2 closed by derivation (still "active" past its close).
    expect(result.runs[1]?.log_entries).toBe(8);
    expect(await store.markDates()).toEqual(['2026-03-02', '2026-03-01', '2026-02-28', '2026-02-27', '2026-02-26']);
    // Only new snapshots on a later call (the worker's hourly refresh on a static universe).
    const again = await ingestSimulated({ store, simDir, seed: 7, logger: memoryLogger(), onlyNew: true });
    expect(again.runs).toEqual([]);
  });

  it('starts the next snapshot only once what onPublished returned has settled (a first start holds it)', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const published: number[] = [];
    const ingest = ingestSimulated({
      store,
      simDir,
      seed: 7,
      logger: memoryLogger(),
      onPublished: (summary) => {
        published.push(summary.generation);
        return summary.generation === 1 ? held : undefined;
      },
    });
    await vi.waitFor(() => expect(published).toEqual([1]));
    // Held: the second snapshot's run has not begun (its run would be recorded at once, even before it publishes).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await store.lastRun())?.started_at).toBe('2026-03-01T00:00:00.000Z');
    expect(published).toEqual([1]);
    release();
    const result = await ingest;
    expect(published).toEqual([1, 2]);
    expect(result.runs.map((r) => r.generation)).toEqual([1, 2]);
  });

  it('a deferred first start generates no history; the catch-up writes it, then fetches it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmref-simdir-deferred-'));
    try {
      await generateUniverse({ outDir: dir, seed: 5, days: 3, asOf: '2026-03-02', scale: 0.02, history: false });
      const first = await ingestSimulated({ store, simDir: dir, seed: 5, logger: memoryLogger(), deferHistory: true });
      expect(first.runs.map((r) => r.status)).toEqual(['ok', 'ok']);
      expect(first.runs[1]?.backfill?.pending).toBeGreaterThan(0);
      expect(readManifest(dir)?.history_deferred).toEqual({ scale: 0.02 });
      expect(existsSync(join(dir, 'history'))).toBe(false);

      const logger = memoryLogger();
      const catchUp = await ingestSimulated({ store, simDir: dir, seed: 5, logger, onlyNew: true });
      expect(logger.lines.map((l) => l.msg)).toContain('writing the simulated price history the first start deferred');
      expect(readManifest(dir)?.history_deferred).toBeUndefined();
      expect(catchUp.runs).toHaveLength(1);
      expect(catchUp.runs[0]?.backfill).toMatchObject({ pending: 0 });
      expect(catchUp.runs[0]?.backfill?.marks).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a catch-up whose price-history thread fails rejects with its error and leaves the history deferred', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmref-simdir-deferred-'));
    try {
      await generateUniverse({ outDir: dir, seed: 5, days: 3, asOf: '2026-03-02', scale: 0.02, history: false });
      await ingestSimulated({ store, simDir: dir, seed: 5, logger: memoryLogger(), deferHistory: true });
      // The thread writes the new manifest beside the old one first: a folder in its way makes that write fail.
      mkdirSync(join(dir, 'manifest.json.partial'));
      await expect(
        ingestSimulated({ store, simDir: dir, seed: 5, logger: memoryLogger(), onlyNew: true }),
      ).rejects.toThrow(/EISDIR/);
      expect(readManifest(dir)?.history_deferred).toEqual({ scale: 0.02 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what to fix when the manifest is unreadable', () => {
    writeFileSync(join(simDir, 'manifest.json'), '{"seed": 1');
    expect(() => readManifest(simDir)).toThrow(/manifest\.json is not readable JSON .*delete the folder to regenerate/);
  });
});
