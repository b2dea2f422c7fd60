/**
 * The worker in its own thread, for `pmref start` (DESIGN.md §2: one process, serve + worker). A pipeline run
 * is seconds of CPU at a time (parsing pages, the editorial layer, reading and writing the store); on the
 * server's thread it would stall every request for as long. Here it runs on a worker thread with its own
 * store connection (SQLite in WAL mode lets the server read while the thread writes), and the server thread
 * only hears of finished runs, to swap its read model. The interface is the in-process worker's.
 */
import { Worker as Thread } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { trimNativeHeap } from '../native-heap.ts';
import { isPostgresUrl } from '../store/index.ts';
import type { IncrementalState } from './incremental.ts';
import type { IngestResult } from './ingest.ts';
import type { PipelineLogger, ProgressEvent, ProgressListener } from './types.ts';
import type { Worker } from './worker.ts';

export interface ThreadData {
  /** The thread's entry module (thread-entry.ts), loaded after tsx is registered there. */
  entry: string;
  /** The command whose pipeline thread this is (`start`, `worker`): the `cmd` of its log lines. */
  command: string;
  config: Config;
  deferFirstHistory: boolean;
  /** What the thread this one replaces handed over (incremental.ts): the next run may skip unchanged events. */
  memo: IncrementalState | null;
  /**
   * True for a thread that replaces an idle one (REPLACE_AFTER_MS): it starts no run of its own, stale store or
   * not; the schedule, and the server's runNow(), go on as they would have with the thread it replaces.
   */
  replacement: boolean;
}

export type ToThread =
  | { type: 'run-now'; id: number }
  | { type: 'stop' }
  | { type: 'resume'; generation: number }
  | { type: 'hand-over' };

export type FromThread =
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'run'; result: IngestResult }
  | { type: 'published'; generation: number }
  | { type: 'initial'; result: IngestResult | null; next: string | null }
  | { type: 'ran'; id: number; result: IngestResult | null; next: string | null }
  | { type: 'stopped' }
  | { type: 'handed-over'; memo: IncrementalState | null };

export interface ThreadWorkerOptions {
  config: Config;
  logger: PipelineLogger;
  /** Called on the server's thread after every run that published. */
  onRun?: (result: IngestResult) => void | Promise<void>;
  /**
   * Called on the server's thread after each pipeline run that published within an ingest (worker.ts); the
   * thread's next run of that ingest waits until what it returns has settled.
   */
  onPublished?: (generation: number) => void | Promise<void>;
  onProgress?: ProgressListener;
  deferFirstHistory?: boolean;
  /** The thread's entry module instead of thread-entry.ts (tests: a thread that exhausts its heap bound). */
  entry?: URL;
  /** The command whose pipeline thread this is, named in its log lines (default `start`). */
  command?: string;
  /**
   * How long after a run that published, with no run asked for since, the thread is replaced by a fresh one
   * (default 10 s; null: never). SQLite stores only: on PostgreSQL the thread holds the leader lock.
   */
  replaceAfterMs?: number | null;
}

/**
 * The pipeline thread's young generation, in MB (V8 sizes it as three semi-spaces: this is
 * `--max-semi-space-size=64` for this thread alone). A run allocates heavily and a large young generation cuts its
 * garbage-collection time by about a third; the server's thread keeps V8's default (16 MB semi-spaces), which held
 * a restarted `npm start` about 100 MB lower (649 → 547 MB, 10 s after its first 200, full simulated universe).
 */
export const PIPELINE_YOUNG_GENERATION_MB = 192;

/** How long after an unexpected exit a new pipeline thread starts (it brings the hourly schedule back). */
const RESPAWN_AFTER_MS = 30_000;

/**
 * How long after a run that published the pipeline thread is replaced. A thread that has run keeps what its heap
 * grew to: its young generation alone (PIPELINE_YOUNG_GENERATION_MB) stays committed, and V8 never shrinks it
 * for an idle thread. Measured on the full simulated universe: about 190 MB of heap held between hourly runs
 * for 54 MB of live objects. A fresh thread holds what loading its modules takes; the old one hands it the
 * incremental memo (incremental.ts), so the next hourly run still skips unchanged events.
 */
const REPLACE_AFTER_MS = 10_000;

/**
 * Whether a thread that exceeds its heap bound ends alone. On Node 24 (24.21.0 here) V8's out-of-memory handler
 * often aborts the whole process instead of ending the thread with ERR_WORKER_OUT_OF_MEMORY.
 */
export const HEAP_BOUND_CONTAINED = Number(process.versions.node.split('.')[0]) < 24;

/** The resource limits of a pipeline thread: its heap bound (PMREF_PIPELINE_HEAP_MB) and its young generation. */
export function pipelineThreadLimits(heapMb: number): {
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
} {
  return { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: PIPELINE_YOUNG_GENERATION_MB };
}

/** What to say when a pipeline thread's error is that it ran out of its heap bound; null for any other error. */
export function heapBoundExceeded(err: Error, heapMb: number): string | null {
  if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return null;
  return (
    `the pipeline thread ran out of its ${heapMb} MB heap bound (PMREF_PIPELINE_HEAP_MB): the run in progress ` +
    'ended and nothing of it was published (the next run marks it aborted); raise PMREF_PIPELINE_HEAP_MB if this repeats'
  );
}

/** Says so in the log, as a pipeline thread starts, where HEAP_BOUND_CONTAINED does not hold. */
export function warnIfHeapBoundUncontained(logger: PipelineLogger, heapMb: number): void {
  if (HEAP_BOUND_CONTAINED) return;
  logger.warn(
    { node: process.version, heap_mb: heapMb },
    'on this Node.js line a pipeline thread that runs out of PMREF_PIPELINE_HEAP_MB can end the whole process (seen on 24.21); run Node 20 or 22 where that matters (README, Supported Node.js)',
  );
}

/**
 * Starts the worker on a pipeline thread. If the thread dies, the failure is logged, pending calls resolve
 * null, and a new thread starts 30 s later (or at once on runNow()); the schedule lives in the thread, and a
 * new thread's start-up run refreshes a stale store as a first start would.
 * @example const worker = startThreadWorker({ config, logger, onRun: () => holder.refresh() });
 */
export function startThreadWorker(options: ThreadWorkerOptions): Worker {
  const { logger } = options;
  warnIfHeapBoundUncontained(logger, options.config.PMREF_PIPELINE_HEAP_MB);
  let next: Date | null = null;
  let seq = 0;
  const waiting = new Map<number, (result: IngestResult | null) => void>();
  let resolveInitial: (result: IngestResult | null) => void = () => {};
  const initial = new Promise<IngestResult | null>((resolve) => {
    resolveInitial = resolve;
  });
  let stopping: Promise<void> | null = null;
  let thread: Thread | null = null;
  // A replacement under way: runNow() waits for the new thread.
  let replacing: Promise<void> | null = null;
  let replaceTimer: NodeJS.Timeout | null = null;
  const replaceAfterMs = isPostgresUrl(options.config.PMREF_DB_URL)
    ? null
    : options.replaceAfterMs === undefined
      ? REPLACE_AFTER_MS
      : options.replaceAfterMs;

  /** The idle thread hands its memo over and ends; a fresh one takes its place (see REPLACE_AFTER_MS). */
  const replace = (old: Thread): Promise<void> =>
    new Promise<void>((resolve) => {
      let memo: IncrementalState | null = null;
      old.on('message', (message: FromThread) => {
        if (message.type !== 'handed-over') return;
        memo = message.memo;
        void old.terminate();
      });
      old.once('exit', () => {
        // What the old thread's run freed outside its (now released) JavaScript heap goes back too.
        trimNativeHeap();
        if (!stopping) {
          thread = spawn(memo, true);
          logger.info(
            { memo_events: memo?.editorial.size ?? 0 },
            'the idle pipeline thread was replaced by a fresh one (its heap given back; its incremental memo handed over)',
          );
        }
        resolve();
      });
      old.postMessage({ type: 'hand-over' } satisfies ToThread);
    });
  const scheduleReplace = () => {
    if (replaceAfterMs === null) return;
    if (replaceTimer) clearTimeout(replaceTimer);
    replaceTimer = setTimeout(() => {
      replaceTimer = null;
      const old = thread;
      if (stopping || replacing || old === null || waiting.size > 0) return;
      replacing = replace(old).finally(() => {
        replacing = null;
      });
    }, replaceAfterMs);
    replaceTimer.unref();
  };

  const spawn = (memo: IncrementalState | null = null, replacement = false): Thread => {
    const data: ThreadData = {
      entry: (options.entry ?? new URL('./thread-entry.ts', import.meta.url)).href,
      command: options.command ?? 'start',
      config: options.config,
      deferFirstHistory: options.deferFirstHistory ?? false,
      memo,
      replacement,
    };
    const heapMb = options.config.PMREF_PIPELINE_HEAP_MB;
    const t = new Thread(new URL('./thread-boot.mjs', import.meta.url), {
      workerData: data,
      resourceLimits: pipelineThreadLimits(heapMb),
    });
    t.on('message', (message: FromThread) => {
      if (message.type === 'progress') options.onProgress?.(message.event);
      else if (message.type === 'run') {
        void Promise.resolve(options.onRun?.(message.result));
        scheduleReplace();
      } else if (message.type === 'published') {
        const { generation } = message;
        void Promise.resolve()
          .then(() => options.onPublished?.(generation))
          .catch((err: unknown) => logger.error({ err, generation }, 'onPublished failed; the ingest goes on'))
          .finally(() => t.postMessage({ type: 'resume', generation } satisfies ToThread));
      } else if (message.type === 'initial') {
        next = message.next ? new Date(message.next) : null;
        resolveInitial(message.result);
      } else if (message.type === 'stopped') {
        void t.terminate();
      } else if (message.type === 'ran') {
        next = message.next ? new Date(message.next) : null;
        waiting.get(message.id)?.(message.result);
        waiting.delete(message.id);
      }
    });
    t.on('error', (err) => {
      const outOfHeap = heapBoundExceeded(err, heapMb);
      if (outOfHeap !== null) logger.error({ err: err.message, heap_mb: heapMb }, outOfHeap);
      else logger.error({ err: err.message }, 'the pipeline thread failed');
    });
    t.on('exit', (code) => {
      thread = null;
      if (replacing) return; // replace() starts the next thread
      if (!stopping) {
        logger.error({ code }, `the pipeline thread exited; a new one starts in ${RESPAWN_AFTER_MS / 1000} s`);
        setTimeout(() => {
          if (!stopping && thread === null) thread = spawn();
        }, RESPAWN_AFTER_MS).unref();
      }
      resolveInitial(null);
      for (const done of waiting.values()) done(null);
      waiting.clear();
    });
    return t;
  };
  thread = spawn();

  return {
    initial,
    async runNow() {
      if (replaceTimer) clearTimeout(replaceTimer);
      if (replacing) await replacing;
      thread ??= spawn();
      const id = ++seq;
      const answer = new Promise<IngestResult | null>((resolve) => waiting.set(id, resolve));
      thread.postMessage({ type: 'run-now', id } satisfies ToThread);
      return answer;
    },
    nextRun: () => next,
    stop(withinMs?: number) {
      stopping ??= (async () => {
        if (replaceTimer) clearTimeout(replaceTimer);
        if (replacing) await replacing;
        const t = thread;
        if (t === null) return;
        const exited = new Promise<void>((resolve) => t.once('exit', () => resolve()));
        t.postMessage({ type: 'stop' } satisfies ToThread);
        const cut = withinMs === undefined ? null : setTimeout(() => void t.terminate(), withinMs);
        await exited;
        if (cut) clearTimeout(cut);
      })();
      return stopping;
    },
  };
}
