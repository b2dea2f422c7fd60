/**
 * Pipeline metrics, from the run summaries a worker delivers (`onRun`), never from inside a run: in `pmref start`
 * the pipeline runs on its own thread, and a registry there would be one Prometheus never scrapes. Everything
 * here is in the summary (pipeline/types.ts `RunSummary`): the run's status and wall time, wall and CPU time per
 * stage, what fell back, and per venue what was pulled and whether the pull failed.
 *
 * A run whose process died has no summary: the worker that later marks it `aborted` lists it in its next result
 * (`aborted_runs`), counted here as status `aborted`. A run that threw is logged by the worker.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { IngestResult, RunSummary } from '../pipeline/index.ts';

/** Run wall times: a replay run takes seconds, a live hourly run a minute or two, a first backfill many. */
const RUN_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600];
/** Stage wall times: from milliseconds (loading a few stored rows) to the long pull or history stages. */
const STAGE_BUCKETS = [0.05, 0.25, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

export class PipelineMetrics {
  private readonly runs: Counter<'source' | 'status'>;
  private readonly runSeconds: Histogram<'status'>;
  private readonly stageSeconds: Histogram<'stage'>;
  private readonly stageCpu: Counter<'stage'>;
  private readonly degraded: Counter<'part'>;
  private readonly lastRunAt: Gauge<'status'>;
  private readonly lastGeneration: Gauge;
  private readonly pulled: Counter<'venue'>;
  private readonly venueErrors: Counter<'venue'>;
  private readonly venueRequests: Counter<'venue'>;
  private readonly venueRetries: Counter<'venue'>;
  private readonly venueDrift: Gauge<'venue' | 'kind'>;

  constructor(
    registry: Registry,
    private readonly now: () => number = Date.now,
  ) {
    const registers = [registry];
    this.runs = new Counter({
      name: 'pmref_pipeline_runs_total',
      help: 'Pipeline runs finished, by source and status (ok; partial: something fell back; failed: nothing published; aborted: its process died before it published, counted by the worker that found it).',
      labelNames: ['source', 'status'] as const,
      registers,
    });
    this.runSeconds = new Histogram({
      name: 'pmref_pipeline_run_duration_seconds',
      help: 'Wall time of a pipeline run, by status.',
      labelNames: ['status'] as const,
      buckets: RUN_BUCKETS,
      registers,
    });
    this.stageSeconds = new Histogram({
      name: 'pmref_pipeline_stage_duration_seconds',
      help: 'Wall time of each stage of a run (pull, load_stored, normalize, editorial, diff_and_marks, backfill, publish, after_write).',
      labelNames: ['stage'] as const,
      buckets: STAGE_BUCKETS,
      registers,
    });
    this.stageCpu = new Counter({
      name: 'pmref_pipeline_stage_cpu_seconds_total',
      help: 'CPU time (user + system) spent per stage; a dotted stage is a part inside one (editorial.derive).',
      labelNames: ['stage'] as const,
      registers,
    });
    this.degraded = new Counter({
      name: 'pmref_pipeline_degraded_total',
      help: "Runs in which a part fell back, by part (a venue, venue_b.order_books, spot, history.<venue>, editorial): the summary's degraded list.",
      labelNames: ['part'] as const,
      registers,
    });
    this.lastRunAt = new Gauge({
      name: 'pmref_pipeline_last_run_timestamp_seconds',
      help: 'When this process last heard of a finished run, by status, seconds since the epoch.',
      labelNames: ['status'] as const,
      registers,
    });
    this.lastGeneration = new Gauge({
      name: 'pmref_pipeline_last_published_generation',
      help: 'The generation published by the latest run that published one.',
      registers,
    });
    this.pulled = new Counter({
      name: 'pmref_venue_records_pulled_total',
      help: 'Records pulled from each venue (market records, plus events that came without markets).',
      labelNames: ['venue'] as const,
      registers,
    });
    this.venueErrors = new Counter({
      name: 'pmref_venue_errors_total',
      help: 'Runs whose pull of a venue failed (its marks were carried forward).',
      labelNames: ['venue'] as const,
      registers,
    });
    this.venueRequests = new Counter({
      name: 'pmref_venue_requests_total',
      help: 'HTTP requests made to each venue, when the run summary records them.',
      labelNames: ['venue'] as const,
      registers,
    });
    this.venueRetries = new Counter({
      name: 'pmref_venue_retries_total',
      help: 'Retries taken against each venue (429, 5xx, network errors), when the run summary records them.',
      labelNames: ['venue'] as const,
      registers,
    });
    this.venueDrift = new Gauge({
      name: 'pmref_venue_drift_fields',
      help: "Distinct fields (record, field) of the latest watched pull of each venue that departed from the venue's published OpenAPI document, by kind (unknown_field, missing_required, type_mismatch, pagination).",
      labelNames: ['venue', 'kind'] as const,
      registers,
    });
  }

  /** Records every run of an ingest (the simulated source runs one per snapshot). */
  observe(result: Pick<IngestResult, 'runs' | 'aborted_runs'> & { source?: string }): void {
    // Runs of a dead process, found and aborted before this result's runs: they have no summary of their own.
    const aborted = result.aborted_runs?.length ?? 0;
    if (aborted > 0) {
      const status = 'aborted';
      this.runs.inc({ source: result.source ?? 'unknown', status }, aborted);
      this.lastRunAt.set({ status }, this.now() / 1000);
    }
    for (const run of result.runs) this.observeRun(run);
  }

  /** Records one run summary. */
  observeRun(run: RunSummary): void {
    this.runs.inc({ source: run.source, status: run.status });
    this.runSeconds.observe({ status: run.status }, run.duration_ms / 1000);
    // Stages only in the histogram (a dozen series of buckets); their dotted parts (`publish.marks`) are in the CPU
    // counter, which costs one series each.
    for (const [stage, ms] of Object.entries(run.timings_ms ?? {})) {
      if (!stage.includes('.')) this.stageSeconds.observe({ stage }, ms / 1000);
    }
    for (const [stage, ms] of Object.entries(run.cpu_ms_by_stage ?? {})) this.stageCpu.inc({ stage }, ms / 1000);
    for (const part of run.degraded) this.degraded.inc({ part });
    this.lastRunAt.set({ status: run.status }, this.now() / 1000);
    if (run.generation > 0) this.lastGeneration.set(run.generation);
    for (const [venue, v] of Object.entries(run.venues)) {
      this.pulled.inc({ venue }, v.pulled);
      // A run without an error still writes the series (at 0), so rate() and alerts see it from the first run.
      this.venueErrors.inc({ venue }, v.error === null ? 0 : 1);
      // Not in every summary: only a series for what a summary reported, so an absent series means unknown.
      if (v.requests !== undefined) this.venueRequests.inc({ venue }, v.requests);
      if (v.retries !== undefined) this.venueRetries.inc({ venue }, v.retries);
      for (const [kind, n] of Object.entries(v.drift?.kinds ?? {})) this.venueDrift.set({ venue, kind }, n.fields);
    }
  }
}

/**
 * The pipeline metrics of a process, on `registry`: call `observe(result)` from the worker's `onRun`.
 *
 * @example const pipeline = pipelineMetrics(registry); startWorker({ ..., onRun: (r) => pipeline.observe(r) });
 */
export function pipelineMetrics(registry: Registry): PipelineMetrics {
  return new PipelineMetrics(registry);
}
