/**
 * One ingest from a configured source — live venues, a replay folder, or the simulated universe —
 * shared by `pmref ingest`, `pmref worker` and `pmref start`. `auto` tries the live venues with a
 * short timeout and falls back to the simulated universe with a loud log line (DESIGN.md §3).
 */
import type { Config } from '../config.ts';
import type { Store } from '../store/index.ts';
import { startReplayServer } from '../venues/index.ts';
import { afterWriteStage } from './after-write.ts';
import type { VenuePullOptions } from './pull-stage.ts';
import { runPipeline } from './run.ts';
import { ingestSimulated, refreshSimulated } from './simulated.ts';
import type { PipelineLogger, ProgressListener, RunSummary } from './types.ts';

export type IngestSource = 'live' | 'replay' | 'simulated';

export interface IngestOptions {
  store: Store;
  config: Config;
  /** `auto` picks live or simulated (see probeLive). */
  source: IngestSource | 'auto';
  /** replay: the folder to serve (default PMREF_REPLAY_DIR). */
  replayDir?: string;
  /** replay: a fault spec for the replay server (e.g. `venue_a:5xx`). */
  faults?: string;
  logger: PipelineLogger;
  onProgress?: ProgressListener;
  clock?: () => Date;
  /** simulated: run only snapshots newer than the store's newest mark date. */
  onlyNewSnapshots?: boolean;
  /** Simulated source: defer the price-history backfill to a later catch-up run (first start). */
  deferHistory?: boolean;
  /** Simulated source: called after each snapshot's run that published (simulated.ts `onPublished`). */
  onPublished?: (summary: RunSummary) => void | Promise<void>;
  /**
   * Simulated source: hourly refreshes with a share of the markets changed each hour instead of the snapshot
   * runs (simulated.ts `refreshSimulated`): `fraction` per hour, from `hour` hours after the newest snapshot,
   * `runs` refreshes an hour apart.
   */
  perturb?: { fraction: number; hour: number; runs?: number };
  /** False: every run re-normalizes and re-derives every event (runPipeline `incremental`); default true. */
  incremental?: boolean;
}

export interface IngestResult {
  source: IngestSource;
  /** One summary per pipeline run (the simulated source runs one per snapshot). */
  runs: RunSummary[];
  /** Why `auto` chose what it chose, when it chose. */
  fallback: string | null;
  /**
   * Runs of dead processes the worker marked `aborted` since its previous result (abort.ts): they never publish,
   * so this is where a worker's listeners (metrics) hear of them.
   */
  aborted_runs?: number[];
  /** Simulated refreshes (`perturb`): per refresh, how many markets changed. */
  perturbations?: { hour: number; as_of: string; markets: number; changed: number; changed_last_hour: number }[];
}

/** Live venue options from the configuration (bounded history backfill, default book calls). */
export function liveVenueOptions(config: Config, logger: PipelineLogger): VenuePullOptions {
  return {
    venue_a: { baseUrl: config.PMREF_VENUE_A_URL, logger },
    venue_b: { baseUrl: config.PMREF_VENUE_B_URL, clobBaseUrl: config.PMREF_VENUE_B_CLOB_URL, logger },
  };
}

/**
 * True when at least one live venue answers within `timeoutMs`. Any HTTP answer counts as
 * reachable (a 4xx still proves the network path); only network errors and timeouts do not.
 */
export async function probeLive(config: Config, timeoutMs = 4_000): Promise<boolean> {
  const urls = [`${config.PMREF_VENUE_A_URL}/events?limit=1`, `${config.PMREF_VENUE_B_URL}/events?limit=1`];
  const answers = await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel();
        return true;
      } catch {
        return false;
      }
    }),
  );
  return answers.some(Boolean);
}

/** Runs one ingest from the chosen source; see IngestOptions. */
export async function runIngest(options: IngestOptions): Promise<IngestResult> {
  const { store, config, logger } = options;
  const clock = options.clock ?? (() => new Date());
  let source: IngestSource;
  let fallback: string | null = null;
  if (options.source === 'auto') {
    if (await probeLive(config)) {
      source = 'live';
    } else {
      source = 'simulated';
      fallback = 'live venues unreachable: using the SIMULATED universe';
      logger.warn(
        { venue_a: config.PMREF_VENUE_A_URL, venue_b: config.PMREF_VENUE_B_URL },
        '!!! live venues unreachable: serving the SIMULATED universe (data_source: simulated) !!!',
      );
    }
  } else {
    source = options.source;
  }
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};

  const full = {
    ...(options.incremental === false ? { incremental: false } : {}),
    hourlyRetentionDays: config.PMREF_HOURLY_RETENTION_DAYS,
  };
  if (source === 'simulated' && options.perturb) {
    const result = await refreshSimulated({
      store,
      simDir: config.PMREF_SIM_DIR,
      seed: config.PMREF_SIM_SEED,
      logger,
      now: clock,
      ...options.perturb,
      ...full,
      ...progress,
    });
    return { source, runs: result.runs, fallback, perturbations: result.perturbations };
  }
  if (source === 'simulated') {
    const result = await ingestSimulated({
      store,
      simDir: config.PMREF_SIM_DIR,
      seed: config.PMREF_SIM_SEED,
      logger,
      now: clock,
      ...(options.onlyNewSnapshots ? { onlyNew: true } : {}),
      ...(options.deferHistory ? { deferHistory: true } : {}),
      ...(options.onPublished ? { onPublished: options.onPublished } : {}),
      ...full,
      ...progress,
    });
    return { source, runs: result.runs, fallback };
  }

  if (source === 'replay') {
    const dir = options.replayDir ?? config.PMREF_REPLAY_DIR;
    if (dir === undefined) throw new Error('replay needs a folder: pass --replay-dir DIR or set PMREF_REPLAY_DIR');
    const server = await startReplayServer({
      dir,
      port: 0,
      logger,
      ...(options.faults ? { faults: options.faults } : {}),
    });
    try {
      const fast = { ratePerSecond: Number.POSITIVE_INFINITY, concurrency: 8, logger };
      const summary = await runPipeline({
        store,
        source: 'replay',
        clock,
        logger,
        venues: {
          venue_a: { ...fast, baseUrl: server.venueAUrl },
          venue_b: { ...fast, baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl },
        },
        backfill: { maxCalls: null, concurrency: 8 },
        afterPull: () => server.releaseCatalog(),
        afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
        ...full,
        ...progress,
      });
      return { source, runs: [summary], fallback };
    } finally {
      await server.close();
    }
  }

  const summary = await runPipeline({
    store,
    source: 'live',
    clock,
    logger,
    venues: liveVenueOptions(config, logger),
    backfill: { maxCalls: 2_000 },
    afterWrite: afterWriteStage({ spotBaseUrl: config.PMREF_SPOT_URL }),
    ...full,
    ...progress,
  });
  return { source, runs: [summary], fallback };
}

/**
 * The one JSON object `pmref ingest --json` prints: the last run's summary, with counts summed over
 * every run of the ingest (the simulated source runs once per snapshot) and each run listed.
 */
export function ingestReport(result: IngestResult): Record<string, unknown> {
  const last = result.runs[result.runs.length - 1];
  if (last === undefined) return { source: result.source, runs: [], fallback: result.fallback };
  const sum = (f: (r: RunSummary) => number) => result.runs.reduce((n, r) => n + f(r), 0);
  return {
    venues: last.venues,
    log_entries: sum((r) => r.log_entries),
    marks: sum((r) => r.marks),
    history_marks: sum((r) => r.backfill?.marks ?? 0),
    duration_ms: sum((r) => r.duration_ms),
    generation: last.generation,
    source: result.source,
    status: last.status,
    degraded: last.degraded,
    fallback: result.fallback,
    fallbacks: last.fallbacks,
    cpu_ms: sum((r) => r.cpu_ms ?? 0),
    ...(result.perturbations ? { perturbations: result.perturbations } : {}),
    runs: result.runs.map((r) => ({
      run_id: r.run_id,
      as_of: r.as_of,
      status: r.status,
      degraded: r.degraded,
      generation: r.generation,
      log_entries: r.log_entries,
      marks: r.marks,
      marks_carried_forward: r.marks_carried_forward,
      events_written: r.events_written,
      markets_written: r.markets_written,
      events: r.events ?? null,
      stored_markets: r.stored_markets ?? null,
      backfill: r.backfill,
      duration_ms: r.duration_ms,
      timings_ms: r.timings_ms ?? null,
      cpu_ms: r.cpu_ms ?? null,
      cpu_ms_by_stage: r.cpu_ms_by_stage ?? null,
    })),
  };
}
