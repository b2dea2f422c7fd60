/**
 * The pipeline thread of `pmref ingest` (ingest-thread.ts): opens its own store connection, runs the one ingest it
 * was asked for, and posts its progress and its result (or what failed) to the calling thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { destination, pino } from 'pino';
import { openStore } from '../store/index.ts';
import { runIngest } from './ingest.ts';
import type { FromIngestThread, IngestThreadData } from './ingest-thread.ts';

const port = parentPort;
if (port === null) throw new Error('ingest-thread-entry.ts runs only as a worker thread (see ingest-thread.ts)');
const { config, request } = workerData as IngestThreadData;
const post = (message: FromIngestThread) => port.postMessage(message);
const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: 'ingest', thread: 'pipeline' } }, destination(2));

const store = await openStore(config.PMREF_DB_URL);
try {
  const result = await runIngest({
    store,
    config,
    ...request,
    logger,
    onProgress: (event) => post({ type: 'progress', event }),
  });
  post({ type: 'result', result });
} catch (err) {
  post({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
} finally {
  await store.close();
}
