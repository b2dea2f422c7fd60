import { existsSync, statSync } from 'node:fs';
import { destination, pino } from 'pino';
import { loadConfig } from '../config.ts';
import { logMallocArenaCap } from '../native-heap.ts';
import {
  abortDeadRuns,
  type IngestRequest,
  type IngestResult,
  ingestReport,
  logProgress,
  type RunSummary,
  runIngest,
  runIngestOnThread,
  ttyProgress,
} from '../pipeline/index.ts';
import { openStore, sqlitePathOf } from '../store/index.ts';
import { parseFaultSpec } from '../venues/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

const SOURCES = ['live', 'replay', 'simulated', 'auto'] as const;
type Source = (typeof SOURCES)[number];

function venueLine(name: string, v: RunSummary['venues']['venue_a']): string {
  const counts = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  return `  ${name}: pulled ${v.pulled}, stored ${v.stored}; out of scope: ${counts(v.out_of_scope)}; rejected: ${counts(v.rejected)}${v.error ? `\n    FAILED: ${v.error}` : ''}`;
}

/** The closing summary for a person: per run, per venue, and everything the run fell back to. */
function humanSummary(result: IngestResult): string {
  const lines: string[] = [];
  if (result.fallback) lines.push(`!!! ${result.fallback}`);
  for (const r of result.runs) {
    lines.push(
      `run ${r.run_id} (${r.source}, as of ${r.as_of}): ${r.status}${r.degraded.length > 0 ? ` (degraded: ${r.degraded.join(', ')})` : ''}, generation ${r.generation}, ${r.duration_ms} ms`,
      venueLine('venue_a', r.venues.venue_a),
      venueLine('venue_b', r.venues.venue_b),
      `  written: ${r.events_written} events, ${r.markets_written} markets changed; ${r.log_entries} log entries; ${r.marks} marks (${r.marks_carried_forward} carried forward)`,
    );
    if (r.events) {
      lines.push(
        `  events: ${r.events.pulled} pulled, ${r.events.normalized} normalized, ${r.events.derived} derived, ${r.events.reused} reused`,
      );
    }
    if (r.cpu_ms !== undefined) {
      const stages = Object.entries(r.cpu_ms_by_stage ?? {})
        .filter(([k]) => !k.includes('.'))
        .map(([k, ms]) => `${k} ${ms}`)
        .join(', ');
      lines.push(`  cpu: ${r.cpu_ms} ms (${stages})`);
    }
    if (r.backfill) {
      lines.push(
        `  history: ${r.backfill.marks} marks for ${r.backfill.markets_with_history} of ${r.backfill.targets} markets in ${r.backfill.calls} calls${r.backfill.pending ? `; ${r.backfill.pending} pending` : ''}`,
      );
    }
    for (const f of r.fallbacks) lines.push(`  fell back: ${f}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The `--perturb F --seed N --runs R` option of a simulated ingest, checked; null without --perturb. */
function perturbOption(
  source: Source,
  values: { perturb?: string | undefined; seed?: string | undefined; runs?: string | undefined },
): { fraction: number; hour: number; runs: number } | null {
  if (values.perturb === undefined) {
    if (values.seed !== undefined || values.runs !== undefined)
      throw new UsageError('--seed and --runs go with --perturb');
    return null;
  }
  if (source !== 'simulated') throw new UsageError('--perturb applies to --source simulated only');
  const fraction = Number(values.perturb);
  if (values.perturb.trim() === '' || !(fraction >= 0 && fraction <= 1))
    throw new UsageError(`--perturb must be a share from 0 to 1, got '${values.perturb}'`);
  const whole = (flag: string, raw: string | undefined, fallback: number): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1) throw new UsageError(`--${flag} must be a whole number ≥ 1, got '${raw}'`);
    return n;
  };
  return { fraction, hour: whole('seed', values.seed, 1), runs: whole('runs', values.runs, 1) };
}

/** `pmref ingest`: one pipeline run (or one per simulated snapshot) into the store named by PMREF_DB_URL. */
export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'pull both venues, normalize, diff and write one pipeline run into the store',
  usage: `
Usage: pmref ingest [--source live|replay|simulated|auto] [--replay-dir DIR] [--faults SPEC] [--full] [--json]
       pmref ingest --source simulated --perturb F --seed N [--runs R] [--full] [--json]

Runs the pipeline once: pull both venues in parallel, normalize, editorial, diff against the
store, write in one transaction, marks (a failed venue's marks are carried forward), history
backfill, publish a new generation. Opens and migrates the store named by PMREF_DB_URL.

Options:
  --source S        live (the venues' public APIs), replay (serve --replay-dir through the replay
                    server), simulated (generate into PMREF_SIM_DIR with PMREF_SIM_SEED if missing,
                    then ingest each snapshot day, oldest first), auto (live if reachable, else
                    simulated). Default: PMREF_SOURCE.
  --replay-dir DIR  folder of recorded venue responses (replay; default PMREF_REPLAY_DIR)
  --faults SPEC     replay only: inject faults, e.g. venue_a:5xx or venue_b:429:retry-after=1
  --perturb F       simulated only: instead of the snapshot runs, an hourly refresh over the newest
                    snapshot with a share F (0–1) of the markets changed per hour (quotes, some rules,
                    some closes; deterministic). Ingests the universe first if the store lacks it.
  --seed N          with --perturb: the refresh N hours after the newest snapshot, with the changes of
                    hours 1..N, so refreshes N-1 and N differ in about F of the markets (default 1)
  --runs R          with --perturb: R refreshes an hour apart, N..N+R-1 (default 1). In one process
                    the first is a full run and the later ones reuse what did not change.
  --full            re-normalize and re-derive every event (no reuse of the last run's work); for
                    measuring a full run against an incremental one
  --json            print exactly one JSON object on stdout:
                    {"venues": {"venue_a": {"pulled","stored","out_of_scope","rejected","error"}, "venue_b": …},
                     "log_entries", "marks", "duration_ms", "generation", …}

Each run reports its CPU per stage (cpu_ms_by_stage; process CPU: user + system) and how many events it
normalized, derived and reused (events).
Progress goes to stderr: a bar on a terminal, structured log lines otherwise.
Exit status: 0 when every run published (also a partial one: see "status" and "degraded"), 1 when a run
failed (every venue failed: nothing was published) or the store failed.
Before it runs, runs left "running" by a process that died are marked "aborted". The runs go on a
pipeline thread whose heap is bounded by PMREF_PIPELINE_HEAP_MB: a run that needs more ends with an
error naming it (exit status 1), and nothing of it is published.
`,
  async run(args) {
    const { values } = parseFlags(args, {
      source: { type: 'string' },
      'replay-dir': { type: 'string' },
      faults: { type: 'string' },
      perturb: { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      full: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const config = loadConfig();
    const source = (values.source ?? config.PMREF_SOURCE) as Source;
    if (!SOURCES.includes(source))
      throw new UsageError(`--source must be one of ${SOURCES.join(', ')}, got '${source}'`);
    const replayDir = values['replay-dir'] ?? config.PMREF_REPLAY_DIR;
    if (source === 'replay') {
      if (replayDir === undefined) throw new UsageError('--source replay needs --replay-dir DIR (or PMREF_REPLAY_DIR)');
      if (!existsSync(replayDir) || !statSync(replayDir).isDirectory()) {
        throw new UsageError(`--replay-dir ${replayDir}: not a folder`);
      }
    }
    if (values.faults !== undefined) {
      if (source !== 'replay') throw new UsageError('--faults applies to --source replay only');
      try {
        parseFaultSpec(values.faults);
      } catch (err) {
        throw new UsageError(`--faults: ${(err as Error).message}`);
      }
    }

    const perturb = perturbOption(source, values);

    const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: 'ingest' } }, destination(2));
    logMallocArenaCap(logger);
    const reporter = process.stderr.isTTY ? ttyProgress(process.stderr) : logProgress(logger);
    const store = await openStore(config.PMREF_DB_URL);
    try {
      await store.migrate();
      await abortDeadRuns(store, { logger, now: () => new Date() });
      const request: IngestRequest = {
        source,
        ...(replayDir !== undefined ? { replayDir } : {}),
        ...(values.faults !== undefined ? { faults: values.faults } : {}),
        ...(perturb ? { perturb } : {}),
        ...(values.full ? { incremental: false } : {}),
      };
      // The runs go on a pipeline thread, as in `pmref start` and `pmref worker`: its heap is bounded by
      // PMREF_PIPELINE_HEAP_MB. An in-memory SQLite database is not shared between connections: there they stay here.
      const result =
        sqlitePathOf(config.PMREF_DB_URL) === ':memory:'
          ? await runIngest({ store, config, ...request, logger, onProgress: reporter.listener })
          : await runIngestOnThread({ config, request, logger, onProgress: reporter.listener });
      reporter.finish();
      process.stdout.write(values.json ? `${JSON.stringify(ingestReport(result))}\n` : humanSummary(result));
      return result.runs.some((r) => r.status === 'failed') ? 1 : 0;
    } finally {
      reporter.finish();
      await store.close();
    }
  },
};
