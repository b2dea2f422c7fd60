/** Shapes the pipeline room shares with its callers (ingest, worker, start). */
import type { Venue } from '../domain/index.ts';
import type { PipelineRun, VenueRunSummary } from '../store/index.ts';

/** The logger the pipeline needs; pino satisfies it. */
export interface PipelineLogger {
  info(o: object, msg?: string): void;
  warn(o: object, msg?: string): void;
  error(o: object, msg?: string): void;
  debug?(o: object, msg?: string): void;
}

export type PipelineStage =
  | 'generate'
  | 'pull'
  | 'normalize'
  | 'editorial'
  | 'diff'
  | 'write'
  | 'backfill'
  | 'after_write'
  | 'publish';

/** One progress report: `done` of `total` units of `stage` (units differ per stage). */
export interface ProgressEvent {
  stage: PipelineStage;
  done: number;
  total: number;
  /** Set when a multi-run ingest (the simulated source) reports which run this is. */
  run?: { index: number; count: number; label: string };
}
export type ProgressListener = (event: ProgressEvent) => void;

/** What one run reports (also stored as the `pipeline_runs` summary). `--json` prints this. */
export interface RunSummary {
  venues: Record<Venue, VenueRunSummary>;
  /** Log entries appended by this run. */
  log_entries: number;
  /** Marks written for today (fresh + carried forward). */
  marks: number;
  duration_ms: number;
  /** The generation this run published. */
  generation: number;
  run_id: number;
  status: PipelineRun['status'];
  /**
   * What fell back, machine-readable and sorted: a failed venue (`venue_b`), a part of a venue's pull
   * (`venue_b.order_books`, `venue_a.series`), `spot`, `history.<venue>` (history stopped on an error),
   * `editorial`. Empty for an `ok` run; `fallbacks` says the same in words.
   */
  degraded: string[];
  source: string;
  /** The run clock: every record written carries this time. */
  as_of: string;
  events_written: number;
  markets_written: number;
  /**
   * How the run treated the pulled events (issue 18, incremental.ts): `normalized` of `pulled` were normalized
   * (the rest, `reused_unnormalized`, had the raw input the last run read), `derived` went through deriveEvent,
   * `reused` took their stored records (raw input or editorial inputs unchanged), `repriced` had only their
   * quotes change and got their stored records repriced (editorial `repriceEvent`), `requoted` of those without
   * being normalized (their raw markets changed in their quote parts alone: requote.ts). Absent on a failed run.
   */
  events?: {
    pulled: number;
    normalized: number;
    derived: number;
    reused: number;
    repriced: number;
    reused_unnormalized: number;
    requoted: number;
  };
  /**
   * The stored markets the run read (`read`) and how many of them it read whole (`read_whole`: their bodies
   * inflated and parsed). A run with the last run's memo reads every stored market by its catalog entry and the
   * whole record only where it uses more (lazy-market.ts); a full run reads every one whole. Absent on a failed run.
   */
  stored_markets?: { read: number; read_whole: number };
  marks_carried_forward: number;
  /** Events the editorial layer threw on (see `fallbacks`). */
  editorial_failures: number;
  backfill: {
    targets: number;
    calls: number;
    marks: number;
    markets_with_history: number;
    skipped: Partial<Record<Venue, string>>;
    pending: number;
  } | null;
  /** Everything the run fell back to, in words (a failed venue, carried marks, skipped history). */
  fallbacks: string[];
  /** Wall time per stage (pull, load_stored, normalize, editorial, diff_and_marks, write, backfill…). */
  timings_ms?: Record<string, number>;
  /** CPU time of the run (user + system, whole process: see stage-meter.ts). */
  cpu_ms?: number;
  /**
   * CPU time per stage, keyed like `timings_ms`; keys with a dot are parts inside a stage
   * (`editorial.derive` is the deriveEvent calls inside `editorial`).
   */
  cpu_ms_by_stage?: Record<string, number>;
  /** Extra keys from the after-write stage (signals, catalysts…), when one ran. */
  after_write?: Record<string, unknown>;
}
