/**
 * The simulated source (issue 4): generate the universe once (deterministic from its seed), then
 * ingest it through the real path — for each snapshot date, oldest first, serve that snapshot plus
 * the shared history through the replay server and run the pipeline with the clock at the
 * snapshot's as-of time. Day-over-day marks, movers and lifecycle entries are then real outputs.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker as Thread } from 'node:worker_threads';
import type { Store } from '../store/index.ts';
import { startReplayServer } from '../venues/index.ts';
import { afterWriteStage } from './after-write.ts';
import { runPipeline } from './run.ts';
import type { PipelineLogger, ProgressListener, RunSummary } from './types.ts';

type PerturbSnapshot = (
  snapshotDir: string,
  outDir: string,
  options: { fraction: number; hours: number },
) => { markets: number; changed: number; changed_last_hour: number };

export interface SimManifest {
  seed: number;
  days: number;
  as_of: string;
  snapshots: string[];
  counts?: Record<string, unknown>;
  /** Present while the universe's price history is not written yet (a first start defers it). */
  history_deferred?: { scale: number };
}

export interface SimulatedIngestOptions {
  store: Store;
  simDir: string;
  seed: number;
  /** Days of history to generate when the universe is missing (default 14). */
  days?: number;
  /** As-of date of a newly generated universe (default: today, UTC). */
  asOf?: string;
  logger: PipelineLogger;
  onProgress?: ProgressListener;
  /** Only the snapshots after the newest already-ingested one are run when true (default false). */
  onlyNew?: boolean;
  /**
   * Defer the price-history backfill (default false): the snapshot runs fetch no history and leave every
   * market pending, so a first start serves sooner; a later `onlyNew` ingest with nothing new re-runs the
   * newest snapshot to fetch the pending history (see below).
   */
  deferHistory?: boolean;
  /** Real clock, for the as-of default only. */
  now?: () => Date;
  /** False: every run re-derives every event (runPipeline `incremental`); default true. */
  incremental?: boolean;
  /** Days of hourly history detail kept (runPipeline `hourlyRetentionDays`, PMREF_HOURLY_RETENTION_DAYS). */
  hourlyRetentionDays?: number;
  /**
   * Called after each snapshot's run that published (ok or partial); the next snapshot's run starts once what it
   * returns has settled. A first start serves the oldest snapshot while the newer ones are ingested, and holds the
   * next run until that snapshot's read model serves (start.ts), so the model and the run are not in memory at once.
   */
  onPublished?: (summary: RunSummary) => void | Promise<void>;
}

export interface SimulatedIngestResult {
  manifest: SimManifest;
  generated: boolean;
  runs: RunSummary[];
}

/** Reads `DIR/manifest.json`, or null when there is none yet. Throws with the path when it is unreadable. */
export function readManifest(simDir: string): SimManifest | null {
  const path = join(simDir, 'manifest.json');
  if (!existsSync(path)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path} is not readable JSON (${(err as Error).message}); delete the folder to regenerate it`);
  }
  const m = parsed as Partial<SimManifest>;
  if (!Array.isArray(m.snapshots) || m.snapshots.length === 0 || typeof m.as_of !== 'string') {
    throw new Error(`${path} lacks snapshots or as_of; delete the folder to regenerate it`);
  }
  return m as SimManifest;
}

/**
 * The run clock of one snapshot: the snapshot date at the manifest's as-of time of day (midnight
 * UTC when the manifest gives a bare date).
 * @example snapshotClock({ as_of: '2026-03-02T14:00:00Z', … }, '2026-03-01') // '2026-03-01T14:00:00.000Z'
 */
export function snapshotClock(manifest: Pick<SimManifest, 'as_of'>, date: string): string {
  const t = manifest.as_of.indexOf('T');
  const timeOfDay = t >= 0 ? new Date(manifest.as_of).toISOString().slice(10) : 'T00:00:00.000Z';
  return new Date(`${date}${timeOfDay}`).toISOString();
}

interface Generator {
  generateUniverse(opts: {
    outDir: string;
    seed: number;
    days: number;
    asOf: string;
    history: boolean;
  }): Promise<unknown> | unknown;
}

// Loaded on demand: the generator is large and only this source needs it.
const generator = async () => (await import('../venues/simulate/index.ts')) as Generator;

/**
 * Generates the universe; without its price history when the run defers the history (a first start: the
 * history is written before the run that first fetches it, `ensureHistory`).
 */
async function generate(options: SimulatedIngestOptions): Promise<void> {
  const asOf = options.asOf ?? (options.now ?? (() => new Date()))().toISOString().slice(0, 10);
  await (await generator()).generateUniverse({
    outDir: options.simDir,
    seed: options.seed,
    days: options.days ?? 14,
    asOf,
    history: options.deferHistory !== true,
  });
}

/**
 * Runs the generator's `generateHistory` on a thread of its own (history-thread.ts says why) and waits for it to
 * end; rejects with the thread's error, or when it ends without having written the history.
 */
function generateHistoryApart(simDir: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const entry = new URL('./history-thread.ts', import.meta.url).href;
    const thread = new Thread(new URL('./thread-boot.mjs', import.meta.url), { workerData: { entry, simDir } });
    let written = false;
    thread.on('message', (message: { type?: string }) => {
      if (message.type === 'written') written = true;
    });
    thread.once('error', reject);
    thread.once('exit', (code) => {
      if (written) resolve();
      else reject(new Error(`the price-history thread ended (code ${code}) without writing ${simDir}`));
    });
  });
}

/** Writes the price history a first start deferred, before a run that fetches it; returns the manifest. */
async function ensureHistory(simDir: string, manifest: SimManifest, logger: PipelineLogger): Promise<SimManifest> {
  if (manifest.history_deferred === undefined) return manifest;
  logger.info({ sim_dir: simDir }, 'writing the simulated price history the first start deferred');
  await generateHistoryApart(simDir);
  const complete = readManifest(simDir);
  if (complete === null || complete.history_deferred !== undefined)
    throw new Error(`the generator left the price history of ${simDir} unwritten`);
  return complete;
}

/** The replay-server venue options of a simulated run (no rate limit: the server is in-process). */
function simVenues(server: { venueAUrl: string; venueBUrl: string; clobUrl: string }, logger: PipelineLogger) {
  return {
    venue_a: { baseUrl: server.venueAUrl, ratePerSecond: Number.POSITIVE_INFINITY, concurrency: 8, logger },
    venue_b: {
      baseUrl: server.venueBUrl,
      clobBaseUrl: server.clobUrl,
      ratePerSecond: Number.POSITIVE_INFINITY,
      concurrency: 8,
      logger,
    },
  };
}

export interface SimulatedRefreshOptions extends Omit<SimulatedIngestOptions, 'onlyNew' | 'deferHistory'> {
  /** Share of the markets that change per hour (perturb.ts). */
  fraction: number;
  /** The first refresh: this many hours after the newest snapshot (≥ 1). */
  hour: number;
  /** Refreshes to run, an hour apart (default 1). */
  runs?: number;
}

export interface SimulatedRefreshResult extends SimulatedIngestResult {
  /** Per refresh: the perturbation report (markets changed since the snapshot and in the last hour). */
  perturbations: { hour: number; as_of: string; markets: number; changed: number; changed_last_hour: number }[];
}

/**
 * Hourly refreshes over the simulated universe with a share of its markets changed each hour (issue 18): the
 * universe is static otherwise, so this is how a refresh that finds little changed is measured. Ingests the
 * universe first when the store lacks its newest snapshot. Refresh k runs at the newest snapshot's clock plus
 * `hour + k` hours over the newest snapshot with the changes of hours 1…hour+k (perturb.ts): each refresh sees
 * about `fraction` of the markets changed since the one before. Deterministic for a given store.
 * @example await refreshSimulated({ store, simDir, seed: 42, logger, fraction: 0.05, hour: 1, runs: 2 })
 */
export async function refreshSimulated(options: SimulatedRefreshOptions): Promise<SimulatedRefreshResult> {
  const { store, logger } = options;
  const runs: RunSummary[] = [];
  const first = await ingestSimulated({ ...options, onlyNew: true });
  runs.push(...first.runs);
  const simDir = resolve(options.simDir);
  // A universe a first start generated may still lack its history: the refreshes serve it.
  const manifest = await ensureHistory(simDir, first.manifest, logger);
  const newest = [...manifest.snapshots].sort().at(-1);
  if (newest === undefined) throw new Error(`${simDir}/manifest.json lists no snapshot`);
  const mod = (await import('../venues/simulate/index.ts')) as { perturbSnapshot: PerturbSnapshot };
  const perturbations: SimulatedRefreshResult['perturbations'] = [];
  const count = options.runs ?? 1;
  for (let k = 0; k < count; k++) {
    const hour = options.hour + k;
    const at = new Date(Date.parse(snapshotClock(manifest, newest)) + hour * 3_600_000).toISOString();
    const stage = mkdtempSync(join(tmpdir(), 'pmref-sim-'));
    try {
      const report = mod.perturbSnapshot(join(simDir, 'snapshots', newest), join(stage, 'snapshot'), {
        fraction: options.fraction,
        hours: hour,
      });
      perturbations.push({ hour, as_of: at, ...report });
      if (existsSync(join(simDir, 'history'))) symlinkSync(join(simDir, 'history'), join(stage, 'history'), 'dir');
      const server = await startReplayServer({ dir: stage, port: 0, logger });
      try {
        logger.info(
          {
            snapshot: newest,
            as_of: at,
            hour,
            fraction: options.fraction,
            changed_last_hour: report.changed_last_hour,
          },
          `simulated refresh: ${newest} + ${hour} h, ${report.changed_last_hour} of ${report.markets} markets changed in the last hour`,
        );
        const run = { index: k + 1, count, label: `${newest}+${hour}h` };
        const onProgress = options.onProgress;
        runs.push(
          await runPipeline({
            store,
            source: 'simulated',
            clock: () => new Date(at),
            logger,
            venues: simVenues(server, logger),
            backfill: { maxCalls: null, days: manifest.days, concurrency: 8 },
            afterPull: () => server.releaseCatalog(),
            afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
            ...(options.incremental === false ? { incremental: false } : {}),
            ...(options.hourlyRetentionDays === undefined ? {} : { hourlyRetentionDays: options.hourlyRetentionDays }),
            ...(onProgress ? { onProgress: (e) => onProgress({ ...e, run }) } : {}),
          }),
        );
      } finally {
        await server.close();
      }
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
  return { manifest, generated: first.generated, runs, perturbations };
}

/** Generates the universe if missing, then ingests every snapshot, oldest first. */
export async function ingestSimulated(options: SimulatedIngestOptions): Promise<SimulatedIngestResult> {
  const { store, logger } = options;
  const simDir = resolve(options.simDir);
  let manifest = readManifest(simDir);
  let generated = false;
  if (manifest === null) {
    logger.warn({ sim_dir: simDir, seed: options.seed }, 'generating the SIMULATED universe (no real venue data)');
    await generate({ ...options, simDir });
    manifest = readManifest(simDir);
    if (manifest === null) throw new Error(`the generator wrote no manifest.json into ${simDir}`);
    generated = true;
  }
  const dates = [...manifest.snapshots].sort();
  let todo = dates;
  if (options.onlyNew) {
    const newest = (await store.markDates(1))[0];
    todo = newest === undefined ? dates : dates.filter((d) => d > newest);
    // Nothing new, but history left pending by a deferred first start: re-run the newest snapshot (an
    // idempotent run: no new log entries) so its backfill fetches what is pending.
    const pending =
      ((await store.lastRun({ published: true }))?.summary.backfill as { pending?: number } | null | undefined)
        ?.pending ?? 0;
    const last = dates[dates.length - 1];
    if (todo.length === 0 && pending > 0 && last !== undefined) {
      logger.info({ pending, snapshot: last }, 'catching up the deferred price history');
      todo = [last];
    }
  }
  if (!options.deferHistory && todo.length > 0) manifest = await ensureHistory(simDir, manifest, logger);
  const runs: RunSummary[] = [];
  for (const [index, date] of todo.entries()) {
    const at = snapshotClock(manifest, date);
    const stage = mkdtempSync(join(tmpdir(), 'pmref-sim-'));
    try {
      // One folder the replay server can read: this snapshot plus the shared history (230 MB on the full
      // universe, seconds to load: left out when the history is deferred, since no call would read it).
      symlinkSync(join(simDir, 'snapshots', date), join(stage, 'snapshot'), 'dir');
      if (!options.deferHistory && existsSync(join(simDir, 'history')))
        symlinkSync(join(simDir, 'history'), join(stage, 'history'), 'dir');
      const server = await startReplayServer({ dir: stage, port: 0, logger });
      try {
        logger.info({ snapshot: date, as_of: at, index: index + 1, of: todo.length }, `simulated snapshot ${date}`);
        const run = { index: index + 1, count: todo.length, label: date };
        const onProgress = options.onProgress;
        const summary = await runPipeline({
          store,
          source: 'simulated',
          clock: () => new Date(at),
          logger,
          venues: simVenues(server, logger),
          backfill: { maxCalls: options.deferHistory ? 0 : null, days: manifest.days, concurrency: 8 },
          // The run reads the catalog once; the histories and spot prices it fetches later stay served.
          afterPull: () => server.releaseCatalog(),
          ...(options.incremental === false ? { incremental: false } : {}),
          ...(options.hourlyRetentionDays === undefined ? {} : { hourlyRetentionDays: options.hourlyRetentionDays }),
          // Spot, catalysts, screens and signals once, after the newest snapshot is written.
          ...(index === todo.length - 1 ? { afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }) } : {}),
          ...(onProgress ? { onProgress: (e) => onProgress({ ...e, run }) } : {}),
        });
        runs.push(summary);
        if (summary.status === 'ok' || summary.status === 'partial') await options.onPublished?.(summary);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
  return { manifest, generated, runs };
}
