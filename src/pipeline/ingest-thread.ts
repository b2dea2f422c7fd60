/**
 * `pmref ingest` on a pipeline thread (issue 18): the runs of a one-shot ingest get what the runs of `pmref start`
 * and `pmref worker` get from thread.ts, a heap bounded by PMREF_PIPELINE_HEAP_MB (a run that needs more ends with
 * an error naming the setting instead of the process being killed for memory) and the pipeline's young generation.
 * The thread opens its own store connection (ingest-thread-entry.ts); the calling thread has migrated the store
 * and marked dead runs aborted, and reports progress and the result.
 */
import { Worker as Thread } from 'node:worker_threads';
import type { Config } from '../config.ts';
import type { IngestOptions, IngestResult } from './ingest.ts';
import { heapBoundExceeded, pipelineThreadLimits, warnIfHeapBoundUncontained } from './thread.ts';
import type { PipelineLogger, ProgressEvent, ProgressListener } from './types.ts';

/** What of IngestOptions crosses to the thread: everything but the store, the logger and the callbacks. */
export type IngestRequest = Pick<IngestOptions, 'source' | 'replayDir' | 'faults' | 'perturb' | 'incremental'>;

export interface IngestThreadData {
  /** The thread's entry module (ingest-thread-entry.ts), loaded by thread-boot.mjs. */
  entry: string;
  config: Config;
  request: IngestRequest;
}

export type FromIngestThread =
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'result'; result: IngestResult }
  | { type: 'failed'; error: string };

export interface IngestThreadOptions {
  config: Config;
  request: IngestRequest;
  logger: PipelineLogger;
  onProgress?: ProgressListener;
  /** The thread's entry module instead of ingest-thread-entry.ts (tests: one that exhausts its heap bound). */
  entry?: URL;
}

/**
 * Runs one ingest on a pipeline thread and returns its result. Rejects with the thread's error when the ingest
 * failed (the store, say), and with an error naming PMREF_PIPELINE_HEAP_MB when the thread ran out of its heap
 * bound: the run in progress is then left `running` and the next run marks it aborted; nothing of it is published.
 * @example const result = await runIngestOnThread({ config, request: { source: 'replay', replayDir }, logger });
 */
export function runIngestOnThread(options: IngestThreadOptions): Promise<IngestResult> {
  const heapMb = options.config.PMREF_PIPELINE_HEAP_MB;
  warnIfHeapBoundUncontained(options.logger, heapMb);
  const data: IngestThreadData = {
    entry: (options.entry ?? new URL('./ingest-thread-entry.ts', import.meta.url)).href,
    config: options.config,
    request: options.request,
  };
  const thread = new Thread(new URL('./thread-boot.mjs', import.meta.url), {
    workerData: data,
    resourceLimits: pipelineThreadLimits(heapMb),
  });
  return new Promise<IngestResult>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: { result: IngestResult } | { error: Error }) => {
      if (settled) return;
      settled = true;
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    thread.on('message', (message: FromIngestThread) => {
      if (message.type === 'progress') options.onProgress?.(message.event);
      else if (message.type === 'result') settle({ result: message.result });
      else if (message.type === 'failed') settle({ error: new Error(message.error) });
    });
    thread.on('error', (err) => {
      const outOfHeap = heapBoundExceeded(err, heapMb);
      if (outOfHeap !== null) options.logger.error({ err: err.message, heap_mb: heapMb }, outOfHeap);
      settle({ error: outOfHeap === null ? err : new Error(outOfHeap) });
    });
    thread.on('exit', (code) =>
      settle({ error: new Error(`the pipeline thread exited (code ${code}) without a result`) }),
    );
  });
}
