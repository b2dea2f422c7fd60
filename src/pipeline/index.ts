/**
 * The pipeline room (DESIGN.md §4): one run from venue pull to published generation, the lifecycle
 * log diff, marks with carry-forward, history backfill, ingest by source (live, replay, simulated),
 * progress reporting and the worker schedule.
 */

export { type AbortDeadRunsOptions, abortDeadRuns, currentOwner } from './abort.ts';
export type { AfterWriteContext, AfterWriteResult, AfterWriteWrites } from './after-write.ts';
export { type AfterWriteOptions, afterWriteStage } from './after-write.ts';
export type { BackfillSummary, BackfillTarget } from './backfill.ts';
export { backfillHistory } from './backfill.ts';
export { diffMarkets, finalPriceOf, resolutionOccurrence } from './diff.ts';
export type { EditorialFunctions } from './editorial-stage.ts';
export { backfillWindow, marksFromCandles, marksFromPriceHistory } from './history-marks.ts';
export type { IngestOptions, IngestResult, IngestSource } from './ingest.ts';
export { ingestReport, liveVenueOptions, probeLive, runIngest } from './ingest.ts';
export type { IngestRequest, IngestThreadOptions } from './ingest-thread.ts';
export { runIngestOnThread } from './ingest-thread.ts';
export type { MarkOptions, QuoteInput } from './marks.ts';
export { carryForwardMark, carryForwardMarks, markFromQuote, STALE_AFTER_HOURS, utcDate } from './marks.ts';
export type { ProgressReporter } from './progress.ts';
export { describeProgress, logProgress, ttyProgress } from './progress.ts';
export type { VenuePullOptions } from './pull-stage.ts';
export type { BackfillSettings, RunCheckpoint, RunPipelineOptions } from './run.ts';
export { RUN_CHECKPOINTS, runPipeline } from './run.ts';
export { screensFor } from './screens.ts';
export type { SimManifest, SimulatedIngestOptions, SimulatedIngestResult } from './simulated.ts';
export { ingestSimulated, readManifest, snapshotClock } from './simulated.ts';
export type { ThreadWorkerOptions } from './thread.ts';
export { startThreadWorker } from './thread.ts';
export type { PipelineLogger, PipelineStage, ProgressEvent, ProgressListener, RunSummary } from './types.ts';
export type { Worker, WorkerOptions } from './worker.ts';
export { isStale, startWorker } from './worker.ts';
