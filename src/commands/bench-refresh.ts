/**
 * `pmref bench --refresh` (issue 18): what an hourly refresh costs against a full run, measured the way the issue
 * states its goal (a refresh where about 5% of markets changed ≤ 20% of a full run) and written to
 * bench/footprint.json with every value it came from.
 *
 * It copies the store named by PMREF_DB_URL (SQLite: a published simulated universe, such as a first start's store)
 * once per process and runs, in turns, refresh processes and full processes on the copies:
 *
 *   pmref ingest --source simulated --perturb P --seed S --runs R [--full] --json
 *
 * Each is a process of its own, as an hourly run is in `pmref start` (a fresh pipeline thread per run: nothing of
 * an earlier process's JIT or caches helps it). A refresh process's first run has no memo of an earlier run in that
 * process, so it is a full run in all but name: its refreshes are runs 2…R. Every run of a `--full` process
 * re-normalizes and re-derives every event. The CPU of a run is the run's own `cpu_ms` (process.cpuUsage over the
 * run, every thread of the process: stage-meter.ts), so the copying, the perturbing and the replay data's load
 * before each run are not counted; the in-process replay server that plays the venues during the pull is (both
 * kinds of run pay it alike).
 *
 * Figures: `refresh_cpu_s` and `full_run_cpu_s` (medians, with every value), `refresh_ratio` (their quotient; the
 * goal is ≤ 0.20), and the median CPU of each stage of either kind of run (`cpu_ms_by_stage`), which says where a
 * refresh's time goes. Medians over processes, because a 2-core machine's speed moves by a tenth between identical
 * runs.
 *
 * Beside them, in the same turns, `--unchanged N` processes (default: as many as `--processes`; 0 runs none) run the
 * same refreshes with `--perturb 0`: hours in which no market changed. Their runs 2…R give `unchanged_refresh_cpu_s`
 * and `unchanged_ratio`, the part of every refresh that does not depend on what changed (the pull, reading the
 * stored catalog, keying every raw event, linking, the signals, re-timing every market's mark). A refresh where
 * 5% changed can cost no less, so the unchanged ratio says how far trimming the work on changed markets alone can go.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { loadConfig } from '../config.ts';
import { openStore, sqlitePathOf } from '../store/index.ts';
import { machine } from './bench-footprint.ts';
import { type Figure, footprintJson, mergeFootprint, parseFootprint } from './footprint-file.ts';
import { parseFlags, UsageError } from './types.ts';

export const REFRESH_USAGE = `
--refresh measures an hourly refresh against a full run and merges the figures into bench/footprint.json
under --label L: on copies of the store (SQLite; a published simulated universe, PMREF_SIM_DIR its
universe), --processes N refresh processes and N full processes in turns (default 3), each
'pmref ingest --source simulated --perturb P --seed S --runs R [--full] --json' (defaults 0.05, 1, 3).
Refreshes are runs 2…R of the refresh processes; full runs are every run of the full processes.
Writes refresh_cpu_s, full_run_cpu_s (medians, every value kept), refresh_ratio (goal ≤ 0.20) and the
median CPU of each stage. In the same turns, --unchanged N processes (default: --processes; 0 for none) run
the refreshes with --perturb 0 (no market changed): unchanged_refresh_cpu_s and unchanged_ratio, the part of
every refresh that does not depend on what changed. --scratch DIR holds the copies (default the system's
temporary folder).
`;

const FLAGS = {
  refresh: { type: 'boolean', default: false },
  processes: { type: 'string' },
  unchanged: { type: 'string' },
  runs: { type: 'string' },
  perturb: { type: 'string' },
  seed: { type: 'string' },
  label: { type: 'string' },
  note: { type: 'string' },
  out: { type: 'string' },
  scratch: { type: 'string' },
} as const;

/** Whether `pmref bench` was asked for this mode (bench.ts hands such runs over whole). */
export function isRefreshRun(args: readonly string[]): boolean {
  return args.includes('--refresh');
}

/** What one ingest process reported of each of its runs. */
export interface ProcessRuns {
  /** refresh: `--perturb P`; unchanged: `--perturb 0` (no market changed in any hour); full: `--perturb P --full`. */
  kind: 'refresh' | 'unchanged' | 'full';
  runs: {
    cpu_ms: number;
    cpu_ms_by_stage: Record<string, number>;
    /** The run's event counts (pulled, normalized, derived, reused…), as the run summary gives them. */
    events?: Record<string, number>;
  }[];
  /** The share of markets the perturbation changed in the hour before each run (perturbations[].changed_last_hour). */
  changedShare: number[];
}

/** The median (the mean of the two middle values for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The median of each stage over runs (a stage a run did not meter counts as 0 ms in it). */
function stageMedians(runs: readonly { cpu_ms_by_stage: Record<string, number> }[]): Record<string, number> {
  const names = new Set(runs.flatMap((r) => Object.keys(r.cpu_ms_by_stage)));
  const out: Record<string, number> = {};
  for (const name of [...names].sort()) out[name] = Math.round(median(runs.map((r) => r.cpu_ms_by_stage[name] ?? 0)));
  return out;
}

/**
 * The figures of a measurement: refreshes are runs 2…R of the refresh processes, full runs every run of the full
 * processes, unchanged refreshes runs 2…R of the unchanged processes (figures only when there are any). Pure.
 * Throws when the refresh or the full kind has no run (nothing to compare).
 */
export function refreshFigures(
  processes: readonly ProcessRuns[],
  stamp: { command: string; at: string; load_average: number[]; settings: Record<string, number> },
): Record<string, Figure> {
  const laterRuns = (kind: ProcessRuns['kind']) =>
    processes.filter((p) => p.kind === kind).flatMap((p) => p.runs.slice(1));
  const refreshes = laterRuns('refresh');
  const unchanged = laterRuns('unchanged');
  const fulls = processes.filter((p) => p.kind === 'full').flatMap((p) => p.runs);
  if (refreshes.length === 0 || fulls.length === 0)
    throw new Error('a refresh measurement needs at least one refresh (run 2 of a refresh process) and one full run');
  const seconds = (runs: typeof fulls) => runs.map((r) => round2(r.cpu_ms / 1000));
  const refreshS = seconds(refreshes);
  const fullS = seconds(fulls);
  const refresh = round2(median(refreshS));
  const full = round2(median(fullS));
  const perProcess = (kind: ProcessRuns['kind']) =>
    processes.filter((p) => p.kind === kind).map((p) => p.runs.map((r) => round2(r.cpu_ms / 1000)));
  const changed = processes.filter((p) => p.kind === 'refresh').flatMap((p) => p.changedShare.slice(1));
  const eventsOf = (runs: typeof refreshes) => {
    const keys = new Set(runs.flatMap((r) => Object.keys(r.events ?? {})));
    return Object.fromEntries([...keys].sort().map((k) => [k, median(runs.map((r) => r.events?.[k] ?? 0))]));
  };
  const common = { ...stamp, ingest_processes: processes.length };
  const figures: Record<string, Figure> = {
    refresh_cpu_s: {
      value: refresh,
      unit: 's',
      how: 'median CPU seconds (user + system, every thread: the run summary cpu_ms) of the hourly refreshes: runs 2…R of the refresh processes, each on its own copy of the store',
      values: refreshS,
      per_process: perProcess('refresh'),
      markets_changed_share: changed.length === 0 ? null : Math.round(median(changed) * 10_000) / 10_000,
      events: eventsOf(refreshes),
      ...common,
    },
    full_run_cpu_s: {
      value: full,
      unit: 's',
      how: 'median CPU seconds of the full runs (re-normalize and re-derive every event: ingest --full): every run of the full processes, each on its own copy of the store',
      values: fullS,
      per_process: perProcess('full'),
      ...common,
    },
    refresh_ratio: {
      value: round2(refresh / full),
      unit: 'ratio',
      how: 'refresh_cpu_s ÷ full_run_cpu_s (medians)',
      goal: '≤ 0.20',
      ...common,
    },
    refresh_cpu_ms_by_stage: {
      value: stageMedians(refreshes),
      unit: 'ms',
      how: 'median CPU of each stage of the refreshes (cpu_ms_by_stage of the run summary; a.b is a part of stage a)',
      ...common,
    },
    full_run_cpu_ms_by_stage: {
      value: stageMedians(fulls),
      unit: 'ms',
      how: 'median CPU of each stage of the full runs (cpu_ms_by_stage of the run summary)',
      ...common,
    },
  };
  if (unchanged.length === 0) return figures;
  const unchangedS = seconds(unchanged);
  const floor = round2(median(unchangedS));
  figures.unchanged_refresh_cpu_s = {
    value: floor,
    unit: 's',
    how: 'median CPU seconds of the refreshes in which no market changed (runs 2…R of the unchanged processes: ingest --perturb 0): what every refresh costs whatever changed',
    values: unchangedS,
    per_process: perProcess('unchanged'),
    events: eventsOf(unchanged),
    ...common,
  };
  figures.unchanged_ratio = {
    value: round2(floor / full),
    unit: 'ratio',
    how: 'unchanged_refresh_cpu_s ÷ full_run_cpu_s (medians): the least refresh_ratio can be while every refresh does the work that does not depend on what changed',
    ...common,
  };
  figures.unchanged_cpu_ms_by_stage = {
    value: stageMedians(unchanged),
    unit: 'ms',
    how: 'median CPU of each stage of the unchanged refreshes (cpu_ms_by_stage of the run summary)',
    ...common,
  };
  return figures;
}

/** The runs an `ingest --json` process printed, checked enough to say what is wrong with them. */
export function processRunsOf(kind: ProcessRuns['kind'], stdout: string): ProcessRuns {
  const parsed = JSON.parse(stdout) as {
    runs?: { cpu_ms?: unknown; cpu_ms_by_stage?: unknown; events?: unknown; status?: unknown }[];
    perturbations?: { markets?: unknown; changed_last_hour?: unknown }[];
  };
  if (!Array.isArray(parsed.runs) || parsed.runs.length === 0) throw new Error('the ingest printed no runs');
  const runs = parsed.runs.map((r, i) => {
    if (typeof r.cpu_ms !== 'number') throw new Error(`run ${i + 1} of the ingest has no cpu_ms`);
    if (r.status === 'failed') throw new Error(`run ${i + 1} of the ingest failed`);
    return {
      cpu_ms: r.cpu_ms,
      cpu_ms_by_stage: (r.cpu_ms_by_stage ?? {}) as Record<string, number>,
      ...(r.events && typeof r.events === 'object' ? { events: r.events as Record<string, number> } : {}),
    };
  });
  const changedShare = (parsed.perturbations ?? []).map((p) =>
    typeof p.markets === 'number' && p.markets > 0 && typeof p.changed_last_hour === 'number'
      ? p.changed_last_hour / p.markets
      : 0,
  );
  return { kind, runs, changedShare };
}

function positive(flag: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(`--${flag} must be an integer ≥ ${min}, got '${raw}'`);
  return Number(raw);
}

/** `word` as a shell reads it back: as it is when it holds only safe characters, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));

/** Runs `pmref ingest ARGS` in a process of its own with `env`: its stdout, or an error with the tail of its log. */
function ingestProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [BIN, 'ingest', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      if (code === 0) ok(Buffer.concat(out).toString('utf8'));
      else
        fail(
          new Error(`pmref ingest ${args.join(' ')} exited ${code}:\n${err.trim().split('\n').slice(-5).join('\n')}`),
        );
    });
  });
}

/** `pmref bench --refresh`. Returns the exit code. */
export async function runRefreshBench(args: string[]): Promise<number> {
  const { values } = parseFlags(args, FLAGS);
  const processes = positive('processes', values.processes, 3);
  const unchangedProcesses = positive('unchanged', values.unchanged, processes, 0);
  const runs = positive('runs', values.runs, 3, 2);
  const seed = positive('seed', values.seed, 1);
  const perturb = values.perturb ?? '0.05';
  const share = Number(perturb);
  if (perturb.trim() === '' || !(share > 0 && share <= 1))
    throw new UsageError(`--perturb must be a share above 0 and at most 1, got '${perturb}'`);
  const label = values.label ?? 'current';
  const out = values.out ?? join('bench', 'footprint.json');
  const config = loadConfig();
  const dbUrl = config.PMREF_DB_URL;
  const dbPath = sqlitePathOf(dbUrl);
  if (dbPath === null || dbPath === ':memory:')
    throw new UsageError(`--refresh copies the store, so PMREF_DB_URL must name a SQLite file (got ${dbUrl})`);
  const simDir = resolve(config.PMREF_SIM_DIR);
  if (!existsSync(join(simDir, 'manifest.json')))
    throw new UsageError(
      `--refresh needs the simulated universe the store was built from: no manifest.json in ${simDir} (PMREF_SIM_DIR)`,
    );
  const store = await openStore(dbUrl);
  try {
    await store.migrate();
    if ((await store.lastRun({ published: true })) === null) {
      process.stderr.write(
        `pmref bench: the store ${dbUrl} holds no published run.\n` +
          'Fill it first: PMREF_DB_URL=… node bin/pmref.js ingest --source simulated\n',
      );
      return 1;
    }
  } finally {
    await store.close();
  }

  const scratch = mkdtempSync(join(values.scratch ?? tmpdir(), 'pmref-bench-refresh-'));
  const measured: ProcessRuns[] = [];
  const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);
  try {
    // One consistent copy of the store (SQLite's backup: the WAL included, the pages as they are), copied per process.
    const base = join(scratch, 'base.sqlite');
    const source = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      await source.backup(base);
    } finally {
      source.close();
    }
    // In turns (refresh, unchanged, full), so a machine whose speed moves during the measurement moves all three.
    const plan: ProcessRuns['kind'][] = [];
    for (let i = 0; i < processes; i++) {
      plan.push('refresh');
      if (i < unchangedProcesses) plan.push('unchanged');
      plan.push('full');
    }
    for (let i = processes; i < unchangedProcesses; i++) plan.push('unchanged');
    const turn = { refresh: 0, unchanged: 0, full: 0 };
    for (const [i, kind] of plan.entries()) {
      const copy = join(scratch, `${i}.sqlite`);
      copyFileSync(base, copy);
      const ingestArgs = [
        '--source',
        'simulated',
        '--perturb',
        kind === 'unchanged' ? '0' : perturb,
        '--seed',
        String(seed),
        '--runs',
        String(runs),
      ];
      if (kind === 'full') ingestArgs.push('--full');
      ingestArgs.push('--json');
      const env = { ...process.env, PMREF_DB_URL: `sqlite:${copy}`, PMREF_SIM_DIR: simDir };
      const result = processRunsOf(kind, await ingestProcess(ingestArgs, env));
      for (const suffix of ['', '-wal', '-shm', '.pack', '.staging', '.staging-journal'])
        rmSync(`${copy}${suffix}`, { force: true });
      measured.push(result);
      const secs = result.runs.map((r) => (r.cpu_ms / 1000).toFixed(2)).join(', ');
      const of = kind === 'unchanged' ? unchangedProcesses : processes;
      process.stderr.write(`${kind} process ${++turn[kind]}/${of}: runs ${secs} s of CPU\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const figures = refreshFigures(measured, {
    command: `PMREF_DB_URL=${shellWord(dbUrl)} PMREF_SIM_DIR=${shellWord(config.PMREF_SIM_DIR)} pmref bench ${args.map(shellWord).join(' ')}`,
    at: new Date().toISOString(),
    load_average: loadAtStart,
    settings: { processes, unchanged: unchangedProcesses, runs, perturb: share, seed },
  });
  const existing = parseFootprint(existsSync(out) ? readFileSync(out, 'utf8') : null);
  const merged = mergeFootprint(
    existing,
    label,
    { store: dbUrl, ...(values.note === undefined ? {} : { note: values.note }), machine: machine(), figures },
    {},
    new Date().toISOString(),
  );
  mkdirSync(resolve(out, '..'), { recursive: true });
  writeFileSync(out, footprintJson(merged));
  const f = (key: string) => figures[key]?.value;
  const floor =
    unchangedProcesses === 0
      ? ''
      : `; with no market changed ${f('unchanged_refresh_cpu_s')} s, ratio ${f('unchanged_ratio')}`;
  process.stdout.write(
    `refresh ${f('refresh_cpu_s')} s, full run ${f('full_run_cpu_s')} s (medians): ratio ${f('refresh_ratio')} (goal ≤ 0.20)${floor}; wrote ${out} (label ${label})\n`,
  );
  return 0;
}
