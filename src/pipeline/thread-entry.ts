/**
 * The pipeline worker thread of `pmref start` (see thread.ts): opens its own store connection, runs the
 * worker schedule, and reports runs, progress and answers to the main thread, which serves HTTP.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { destination, pino } from 'pino';
import type { Config } from '../config.ts';
import { openStore } from '../store/index.ts';
import type { FromThread, ThreadData, ToThread } from './thread.ts';
import { startWorker } from './worker.ts';

const port = parentPort;
if (port === null) throw new Error('thread-entry.ts runs only as a worker thread (see thread.ts)');
const data = workerData as ThreadData;
const config = data.config as Config;
const post = (message: FromThread) => port.postMessage(message);
const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: 'start', thread: 'pipeline' } }, destination(2));

const store = await openStore(config.PMREF_DB_URL);
const worker = startWorker({
  store,
  config,
  logger,
  deferFirstHistory: data.deferFirstHistory,
  onProgress: (event) => post({ type: 'progress', event }),
  onRun: (result) => post({ type: 'run', result }),
});
void worker.initial.then((result) => post({ type: 'initial', result, next: worker.nextRun()?.toISOString() ?? null }));

port.on('message', async (message: ToThread) => {
  if (message.type === 'run-now') {
    const result = await worker.runNow();
    post({ type: 'ran', id: message.id, result, next: worker.nextRun()?.toISOString() ?? null });
  } else if (message.type === 'stop') {
    await worker.stop();
    await store.close();
    post({ type: 'stopped' });
    port.close();
  }
});
