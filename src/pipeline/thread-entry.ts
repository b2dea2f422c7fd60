/**
 * The pipeline worker thread of `pmref start` and `pmref worker` (see thread.ts): opens its own store connection,
 * runs the worker schedule, and reports runs, progress and answers to the main thread (which serves HTTP, or, in
 * `pmref worker`, announces generations and serves metrics).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { destination, pino } from 'pino';
import { withCompaction } from '../compacting-gc.ts';
import type { Config } from '../config.ts';
import { trimNativeHeap } from '../native-heap.ts';
import { openStore } from '../store/index.ts';
import { abortDeadRuns } from './abort.ts';
import { startHeapGuard } from './heap-guard.ts';
import { recordedState, recordState } from './incremental.ts';
import type { FromThread, ThreadData, ToThread } from './thread.ts';
import { startWorker } from './worker.ts';

const port = parentPort;
if (port === null) throw new Error('thread-entry.ts runs only as a worker thread (see thread.ts)');
const data = workerData as ThreadData;
const config = data.config as Config;
const post = (message: FromThread) => port.postMessage(message);
const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: data.command, thread: 'pipeline' } }, destination(2));

/**
 * A run's working set (the pulled catalog, stored records, editorial results: about a GB on the full universe) is
 * garbage once it has published, but V8 keeps the pages it grew into until it needs a full collection, which an
 * idle thread never does: the process sat at 3 GB between hourly runs. A full collection as each run ends (below)
 * gives them back to the system (measured: 1.2 GB to 0.13 GB for a thread that held 1 GB), and one a second after
 * the first ingest.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
// What a collection frees outside the JavaScript heap (buffers, zlib and SQLite memory) goes back too (native-heap.ts).
const collect = () => {
  gc();
  trimNativeHeap();
};
/**
 * `collect` as a run ends, compacting (compacting-gc.ts): what the run left alive (the memo, about 50 MB) is moved
 * together so that the pages the run grew into go back, not only those left empty. Measured on a first start: after
 * its first run the thread held 40 MB of old space instead of 263 MB, beside the server's first model build.
 */
const collectAfterRun = () => {
  withCompaction(gc);
  trimNativeHeap();
};
const releaseAfterRun = () => setTimeout(collect, 1_000).unref();
// During a run, too: a full collection whenever the heap has grown well past what the last one left (heap-guard.ts).
const guard = startHeapGuard({ collect });

const store = await openStore(config.PMREF_DB_URL);
// Handed over by the thread this one replaces (thread.ts): runs use it only while its run is the last published.
if (data.memo !== null) recordState(store, data.memo);
// A run this process left `running` belongs to a pipeline thread that ended (see thread.ts: one at a time).
await abortDeadRuns(store, { logger, now: () => new Date(), ownPipelineThreadEnded: true });
// Ingest runs waiting, after publishing, for the server's thread to take up their generation ('resume').
const resumes = new Map<number, () => void>();
const worker = startWorker({
  store,
  config,
  logger,
  deferFirstHistory: data.deferFirstHistory,
  // A replacement starts no run of its own: on a first start the server asks for the history catch-up only once
  // it has swapped in the last generation (start.ts); starting it at once would build both at the same time.
  runIfStale: !data.replacement,
  onProgress: (event) => {
    // A run's progress events mark where it moves on: the guard looks there too (heap-guard.ts `checkAtBoundary`).
    guard.checkAtBoundary();
    post({ type: 'progress', event });
  },
  // The run's working set is garbage once it has published: it is collected (and the C heap trimmed) before the
  // server's thread hears of it and builds its model, not beside that build. Collected a second later instead, the
  // first start's newest snapshot peaked at 1.7–1.8 GB the moment its run ended (its uncollected heap beside the
  // served model and the start of the next model's build); the collection holds the news back about half a second.
  onPublished: (generation) =>
    new Promise<void>((resolve) => {
      resumes.set(generation, resolve);
      collectAfterRun();
      post({ type: 'published', generation });
    }),
  onRun: (result) => {
    collectAfterRun();
    post({ type: 'run', result });
  },
});
void worker.initial.then((result) => {
  post({ type: 'initial', result, next: worker.nextRun()?.toISOString() ?? null });
  releaseAfterRun();
});

port.on('message', async (message: ToThread) => {
  if (message.type === 'run-now') {
    const result = await worker.runNow();
    collect();
    post({ type: 'ran', id: message.id, result, next: worker.nextRun()?.toISOString() ?? null });
  } else if (message.type === 'resume') {
    resumes.get(message.generation)?.();
    resumes.delete(message.generation);
  } else if (message.type === 'hand-over') {
    // Replaced while idle (thread.ts): the schedule stops, a run in progress finishes, and the memo goes along.
    await worker.stop();
    guard.stop();
    post({ type: 'handed-over', memo: recordedState(store) });
    await store.close();
    port.close();
  } else if (message.type === 'stop') {
    // A run waiting to resume would hold the stop until the thread is terminated: let it go on and finish.
    for (const resume of resumes.values()) resume();
    resumes.clear();
    await worker.stop();
    guard.stop();
    await store.close();
    post({ type: 'stopped' });
    port.close();
  }
});
