/**
 * The worker (DESIGN.md §2): runs a pipeline at start when the store is empty or older than the
 * refresh interval, then hourly at minute 0 (UTC). Runs never overlap. On PostgreSQL only the process
 * holding the leader advisory lock runs pipelines; the others stand by and try to take the lead every
 * PMREF_LEADER_POLL_SECONDS. At start, before each run and whenever it takes the lead, the leader marks runs left
 * `running` by a dead process `aborted` (abort.ts); a worker that takes over from a dead leader then finds the
 * store stale (its last run was aborted) and redoes the run at once. A run still held by a live process (its
 * run lock taken, e.g. by a leader whose lock connection dropped mid-run) is never doubled: the new leader
 * waits for it.
 */
import { Cron } from 'croner';
import type { Config } from '../config.ts';
import type { Store } from '../store/index.ts';
import { abortDeadRuns } from './abort.ts';
import { type IngestResult, type IngestSource, runIngest } from './ingest.ts';
import { type LeaderLock, postgresLeaderLock } from './leader.ts';
import type { PipelineLogger, ProgressListener } from './types.ts';

const LEADER_LOCK = 'pmref-worker';
const HOURLY = '0 * * * *';

export interface WorkerOptions {
  store: Store;
  config: Config;
  logger: PipelineLogger;
  /** Called after every run that published (e.g. to rebuild the read model in-process). */
  onRun?: (result: IngestResult) => void | Promise<void>;
  /**
   * Called after each pipeline run that published within an ingest, before the ingest ends (the simulated
   * source runs one per snapshot): a first start serves the first published generation while the rest runs. The
   * ingest's next run waits until what it returns has settled.
   */
  onPublished?: (generation: number) => void | Promise<void>;
  onProgress?: ProgressListener;
  /** Wall clock (tests inject one). */
  clock?: () => Date;
  /** Cron pattern of the refresh (default hourly at minute 0). */
  schedule?: string;
  /**
   * When the store is empty, defer the simulated source's price-history backfill to a catch-up run
   * (`pmref start` sets it so a first start serves sooner, then calls runNow() to fetch the history).
   */
  deferFirstHistory?: boolean;
  /**
   * False: the start-up judges (and logs) how stale the store is but runs nothing; the schedule and runNow() go
   * on. For a pipeline thread that replaces one that has just run (thread.ts). Default true.
   */
  runIfStale?: boolean;
  /**
   * Who leads. Default: on PostgreSQL an advisory lock on a dedicated connection; on SQLite (one
   * process by design) this worker always leads.
   */
  leaderLock?: LeaderLock;
  /** How often a worker that does not lead tries to take the lead, in ms (default PMREF_LEADER_POLL_SECONDS). */
  leaderPollMs?: number;
}

export interface Worker {
  /** Runs a pipeline now (or joins the one running). Null when another process leads. */
  runNow(): Promise<IngestResult | null>;
  /** The start-up run (null when the store was fresh enough or another process leads). */
  initial: Promise<IngestResult | null>;
  /** When the next scheduled refresh fires. */
  nextRun(): Date | null;
  /**
   * Stops the schedule and waits for a run in progress. With `withinMs`, a worker on its own thread is ended after
   * that long whatever it is doing (a run it cuts short publishes nothing; the next start marks it aborted); an
   * in-process worker always waits.
   */
  stop(withinMs?: number): Promise<void>;
}

/** True when the store has no catalog yet or its last run finished longer ago than the refresh interval. */
export async function isStale(
  store: Store,
  refreshMinutes: number,
  now: Date,
): Promise<{ stale: boolean; why: string }> {
  const counts = await store.counts();
  if (counts.markets === 0) return { stale: true, why: 'the store is empty' };
  const last = await store.lastRun();
  // An aborted run's finish time is when a start found it dead, not when data was last refreshed.
  if (last?.status === 'aborted') return { stale: true, why: `the last run (${last.run_id}) was aborted` };
  const finished = last?.finished_at ?? null;
  if (finished === null) return { stale: true, why: 'no finished pipeline run on record' };
  const ageMin = (now.getTime() - Date.parse(finished)) / 60_000;
  return ageMin > refreshMinutes
    ? { stale: true, why: `the last run finished ${Math.round(ageMin)} min ago (refresh every ${refreshMinutes} min)` }
    : { stale: false, why: `the last run finished ${Math.round(ageMin)} min ago` };
}

/**
 * Starts the worker. The source is PMREF_SOURCE; with `auto`, a store that already holds simulated
 * data stays simulated (live data is never mixed into a simulated catalog), and an empty store
 * probes the live venues once. A simulated store's hourly refresh ingests only snapshots it lacks.
 * @example const worker = startWorker({ store, config, logger }); await worker.initial; … await worker.stop();
 */
export function startWorker(options: WorkerOptions): Worker {
  const { store, config, logger } = options;
  const clock = options.clock ?? (() => new Date());
  let running: Promise<IngestResult | null> | null = null;
  let source: IngestSource | 'auto' | null = config.PMREF_SOURCE === 'auto' ? null : config.PMREF_SOURCE;

  const lock: LeaderLock | null =
    options.leaderLock ??
    (store.engine === 'postgres' ? postgresLeaderLock(config.PMREF_DB_URL, LEADER_LOCK, logger) : null);
  let leading = false;
  const lead = async (): Promise<boolean> => {
    const now = lock ? await lock.acquire() : true;
    if (now !== leading && lock) {
      if (now) logger.info({ lock: LEADER_LOCK, pid: process.pid }, 'this worker now leads the pipeline');
      else logger.warn({ lock: LEADER_LOCK, pid: process.pid }, 'this worker no longer leads the pipeline');
    }
    leading = now;
    return now;
  };

  const chooseSource = async (): Promise<IngestSource | 'auto'> => {
    if (source !== null) return source;
    const last = await store.lastRun();
    if (last && ['live', 'simulated'].includes(last.source) && (await store.counts()).markets > 0) {
      source = last.source as IngestSource;
      logger.info({ source }, `PMREF_SOURCE=auto: the store holds ${source} data; keeping that source`);
      return source;
    }
    return 'auto';
  };

  /** Runs left `running` by a dead process are aborted by whoever leads (abort.ts says who counts as dead). */
  let abortedSinceLastResult: number[] = [];
  const abortDead = async (): Promise<void> => {
    abortedSinceLastResult.push(...(await abortDeadRuns(store, { logger, now: clock })));
  };

  const once = async (): Promise<IngestResult | null> => {
    if (!(await lead())) {
      logger.info({ lock: LEADER_LOCK }, 'another worker leads; skipping this refresh');
      return null;
    }
    await abortDead();
    const live = await store.runningRuns();
    if (live.length > 0) {
      logger.warn(
        { run_ids: live.map((r) => r.run_id) },
        'a pipeline run of another live process is still in progress; not starting a second one',
      );
      return null;
    }
    const chosen = await chooseSource();
    const result = await runIngest({
      store,
      config,
      source: chosen,
      logger,
      clock,
      onlyNewSnapshots: chosen === 'simulated',
      ...(options.deferFirstHistory && (await store.counts()).markets === 0 ? { deferHistory: true } : {}),
      ...(options.onPublished
        ? { onPublished: (s: { generation: number }) => options.onPublished?.(s.generation) }
        : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    source = result.source;
    if (abortedSinceLastResult.length > 0) {
      result.aborted_runs = abortedSinceLastResult;
      abortedSinceLastResult = [];
    }
    if (result.runs.length === 0) {
      logger.info({ source: result.source }, 'simulated universe is static: no new snapshot to ingest');
    }
    if (result.runs.length > 0) await options.onRun?.(result);
    return result;
  };

  const runNow = (): Promise<IngestResult | null> => {
    if (running) return running;
    running = once()
      .catch((err: unknown) => {
        logger.error({ err: err instanceof Error ? err.message : String(err) }, 'pipeline run failed');
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  const job = new Cron(options.schedule ?? HOURLY, { timezone: 'UTC', protect: true }, async () => {
    await runNow();
  });

  /**
   * A standby's turn: when the lead is free (its holder died or stopped), take it, abort the dead holder's run
   * and run at once if the store is stale, so an interrupted run is redone without waiting for the schedule.
   */
  let stopped = false;
  const standbyTick = async (): Promise<void> => {
    if (stopped) return;
    if (running || leading) {
      if (leading && !running) await lead(); // a leader checks its lock session still answers
      return;
    }
    if (!(await lead())) return;
    await abortDead();
    const { stale, why } = await isStale(store, config.PMREF_REFRESH_MINUTES, clock());
    logger.info({ stale }, `took the lead: ${why}`);
    if (stale) await runNow();
  };
  let standbyBusy = false;
  const standby = lock
    ? setInterval(
        () => {
          if (standbyBusy) return;
          standbyBusy = true;
          standbyTick()
            .catch((err: unknown) =>
              logger.error({ err: err instanceof Error ? err.message : String(err) }, 'taking the lead failed'),
            )
            .finally(() => {
              standbyBusy = false;
            });
        },
        options.leaderPollMs ?? config.PMREF_LEADER_POLL_SECONDS * 1000,
      )
    : null;
  standby?.unref();

  const initial = (async () => {
    // Before judging staleness: a run aborted now makes the store stale (its refresh never landed).
    if (await lead()) await abortDead();
    const { stale, why } = await isStale(store, config.PMREF_REFRESH_MINUTES, clock());
    const runs = stale && options.runIfStale !== false;
    logger.info(
      { stale, next_refresh: job.nextRun()?.toISOString() ?? null },
      `worker start: ${why}${stale && !runs ? ' (a replaced thread: no run until the schedule or a caller asks)' : ''}`,
    );
    return runs ? runNow() : null;
  })();

  return {
    runNow,
    initial,
    nextRun: () => job.nextRun(),
    async stop() {
      stopped = true;
      job.stop();
      if (standby) clearInterval(standby);
      await initial.catch(() => null);
      if (running) await running;
      await lock?.release();
    },
  };
}
