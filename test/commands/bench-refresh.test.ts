// `pmref bench --refresh` takes refreshes from runs 2…R of refresh processes, full runs from every run of full processes and unchanged refreshes (no market changed) from runs 2…R of unchanged processes, reports medians and their ratios with every value, and runs end to end on a small simulated universe, leaving no copy behind.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  median,
  type ProcessRuns,
  processRunsOf,
  refreshFigures,
  shellWord,
} from '../../src/commands/bench-refresh.ts';
import type { FootprintFile } from '../../src/commands/footprint-file.ts';
import { DAY1, twoDayUniverse } from '../pipeline/harness.ts';

const exec = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pmref-bench-refresh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** As the command rounds its figures (to hundredths). */
const round2 = (x: number) => Math.round(x * 100) / 100;

const STAMP = { command: 'pmref bench --refresh', at: '2026-11-28T00:00:00.000Z', load_average: [0.1], settings: {} };

const proc = (kind: ProcessRuns['kind'], cpuMs: number[], stages: Record<string, number>[] = []): ProcessRuns => ({
  kind,
  runs: cpuMs.map((cpu_ms, i) => ({ cpu_ms, cpu_ms_by_stage: stages[i] ?? {} })),
  changedShare: cpuMs.map(() => 0.05),
});

describe('refreshFigures', () => {
  it('leaves out the first run of a refresh process and keeps every run of a full one', () => {
    const figures = refreshFigures(
      [
        proc('refresh', [20_000, 9_000, 8_000]),
        proc('full', [20_000, 18_000, 16_000]),
        proc('refresh', [21_000, 10_000, 12_000]),
        proc('full', [19_000, 17_000, 15_000]),
      ],
      STAMP,
    );
    // Refreshes 9, 8, 10, 12 → median 9.5; full runs 15…20 → median 17.5.
    expect(figures.refresh_cpu_s).toMatchObject({ value: 9.5, unit: 's', values: [9, 8, 10, 12] });
    expect(figures.refresh_cpu_s?.per_process).toEqual([
      [20, 9, 8],
      [21, 10, 12],
    ]);
    expect(figures.full_run_cpu_s).toMatchObject({ value: 17.5, values: [20, 18, 16, 19, 17, 15] });
    expect(figures.refresh_ratio).toMatchObject({ value: 0.54, goal: '≤ 0.20', ingest_processes: 4 });
    expect(figures.refresh_cpu_s?.markets_changed_share).toBe(0.05);
    // No unchanged process measured: no unchanged figures.
    expect(Object.keys(figures).filter((k) => k.startsWith('unchanged'))).toEqual([]);
  });

  it('takes the unchanged refreshes from runs 2…R of the unchanged processes, against the same full runs', () => {
    const figures = refreshFigures(
      [
        proc('refresh', [20_000, 9_000, 8_000]),
        proc('unchanged', [20_000, 6_000, 7_000], [{}, { pull: 1_000, publish: 500 }, { pull: 1_200 }]),
        proc('full', [20_000, 18_000, 16_000]),
        proc('unchanged', [21_000, 6_500, 8_000]),
      ],
      STAMP,
    );
    // Unchanged 6, 7, 6.5, 8 → median 6.75; full runs 16, 18, 20 → median 18.
    expect(figures.unchanged_refresh_cpu_s).toMatchObject({ value: 6.75, values: [6, 7, 6.5, 8] });
    expect(figures.unchanged_refresh_cpu_s?.per_process).toEqual([
      [20, 6, 7],
      [21, 6.5, 8],
    ]);
    expect(figures.unchanged_ratio).toMatchObject({ value: 0.38, unit: 'ratio', ingest_processes: 4 });
    // Pull 1,000, 1,200, and none in the runs that metered no stage: median 500.
    expect(figures.unchanged_cpu_ms_by_stage?.value).toEqual({ pull: 500, publish: 0 });
    // The refreshes and full runs are what they were without the unchanged processes.
    expect(figures.refresh_cpu_s).toMatchObject({ value: 8.5, values: [9, 8] });
    expect(figures.full_run_cpu_s).toMatchObject({ value: 18 });
  });

  it('gives the median of each stage, a stage a run did not meter counting as none', () => {
    const figures = refreshFigures(
      [
        proc('refresh', [1, 3_000, 4_000, 5_000], [{}, { pull: 100, backfill: 60 }, { pull: 300 }, { pull: 200 }]),
        proc('full', [10_000], [{ pull: 500 }]),
      ],
      STAMP,
    );
    expect(figures.refresh_cpu_ms_by_stage?.value).toEqual({ backfill: 0, pull: 200 });
    expect(figures.full_run_cpu_ms_by_stage?.value).toEqual({ pull: 500 });
  });

  it('refuses a measurement with nothing to compare', () => {
    expect(() => refreshFigures([proc('refresh', [9_000]), proc('full', [18_000])], STAMP)).toThrow(
      'needs at least one refresh',
    );
    expect(() => refreshFigures([proc('refresh', [20_000, 9_000])], STAMP)).toThrow('one full run');
  });

  it('writes its command as a shell reads it back', () => {
    expect(shellWord('--label')).toBe('--label');
    expect(shellWord('sqlite:/tmp/a b.sqlite')).toBe("'sqlite:/tmp/a b.sqlite'");
    expect(shellWord("fs0's store; figures")).toBe("'fs0'\\''s store; figures'");
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe('processRunsOf', () => {
  it("reads each run's CPU, stages and events, and the share each hour changed", () => {
    const stdout = JSON.stringify({
      runs: [
        { cpu_ms: 20_000, cpu_ms_by_stage: { pull: 1 }, events: { pulled: 4, reused: 0 }, status: 'ok' },
        { cpu_ms: 9_000, cpu_ms_by_stage: { pull: 2 }, events: { pulled: 4, reused: 3 }, status: 'ok' },
      ],
      perturbations: [
        { markets: 200, changed_last_hour: 10 },
        { markets: 200, changed_last_hour: 12 },
      ],
    });
    expect(processRunsOf('refresh', stdout)).toEqual({
      kind: 'refresh',
      runs: [
        { cpu_ms: 20_000, cpu_ms_by_stage: { pull: 1 }, events: { pulled: 4, reused: 0 } },
        { cpu_ms: 9_000, cpu_ms_by_stage: { pull: 2 }, events: { pulled: 4, reused: 3 } },
      ],
      changedShare: [0.05, 0.06],
    });
  });

  it('says what is wrong with an output it cannot measure', () => {
    expect(() => processRunsOf('full', JSON.stringify({ runs: [] }))).toThrow('printed no runs');
    expect(() => processRunsOf('full', JSON.stringify({ runs: [{ status: 'ok' }] }))).toThrow(
      'run 1 of the ingest has no cpu_ms',
    );
    expect(() => processRunsOf('full', JSON.stringify({ runs: [{ cpu_ms: 1, status: 'failed' }] }))).toThrow(
      'run 1 of the ingest failed',
    );
  });
});

async function pmref(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], {
      env: { ...process.env, PMREF_LOG_LEVEL: 'warn', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pmref bench --refresh', () => {
  it('measures refresh and full processes on copies of the store and merges the figures into the file', async () => {
    // A two-day universe in the generator's layout, made of the pipeline fixtures.
    const simDir = twoDayUniverse(join(dir, 'sim'));
    const db = join(dir, 'universe.sqlite');
    const env = { PMREF_DB_URL: `sqlite:${db}`, PMREF_SIM_DIR: simDir };
    const ingest = await pmref(['ingest', '--source', 'simulated', '--json'], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    const storeBytes = readFileSync(db).length;

    const out = join(dir, 'footprint.json');
    writeFileSync(out, JSON.stringify({ about: 'x', runs: { kept: { updated_at: 'then', figures: {} } } }));
    const scratch = join(dir, 'scratch');
    cpSync(DAY1, join(scratch, 'unrelated'), { recursive: true });
    const bench = await pmref(
      [
        'bench',
        '--refresh',
        '--processes',
        '1',
        '--runs',
        '2',
        '--perturb',
        '0.5',
        '--label',
        't',
        '--scratch',
        scratch,
        '--out',
        out,
      ],
      env,
    );
    expect(bench.code, bench.stderr).toBe(0);
    expect(bench.stdout).toMatch(/^refresh [\d.]+ s, full run [\d.]+ s \(medians\): ratio [\d.]+ \(goal ≤ 0\.20\)/);
    expect(bench.stderr).toMatch(/refresh process 1\/1: runs [\d.]+, [\d.]+ s of CPU/);
    expect(bench.stderr).toMatch(/full process 1\/1: runs [\d.]+, [\d.]+ s of CPU/);
    expect(bench.stderr).toMatch(/unchanged process 1\/1: runs [\d.]+, [\d.]+ s of CPU/);
    expect(bench.stdout).toMatch(/; with no market changed [\d.]+ s, ratio [\d.]+; wrote /);

    const file = JSON.parse(readFileSync(out, 'utf8')) as FootprintFile;
    expect(Object.keys(file.runs).sort()).toEqual(['kept', 't']);
    const f = file.runs.t?.figures ?? {};
    const refresh = f.refresh_cpu_s as unknown as {
      value: number;
      values: number[];
      per_process: number[][];
      events: Record<string, number>;
    };
    const full = f.full_run_cpu_s as unknown as { value: number; values: number[] };
    expect(f.refresh_ratio?.command).toMatch(/pmref bench --refresh --processes 1 --runs 2 /);
    // One refresh (run 2 of the refresh process) against both runs of the full process.
    expect(refresh.values).toHaveLength(1);
    expect(refresh.per_process[0]).toHaveLength(2);
    expect(refresh.value).toBe(refresh.values[0]);
    expect(full.values).toHaveLength(2);
    expect(full.value).toBe(round2(median(full.values)));
    expect(refresh.value).toBeGreaterThan(0);
    expect(f.refresh_ratio?.value).toBe(round2(refresh.value / full.value));
    // The refresh reused what did not change; the full run's processes re-derived everything.
    expect(refresh.events.reused).toBeGreaterThan(0);
    expect(Object.keys(f.refresh_cpu_ms_by_stage?.value as object)).toEqual(
      expect.arrayContaining(['pull', 'publish']),
    );
    expect(f.refresh_ratio).toMatchObject({ settings: { processes: 1, unchanged: 1, runs: 2, perturb: 0.5, seed: 1 } });
    // The unchanged process refreshed an hour in which no market changed: it normalized or requoted (its quotes alone
    // changed, pipeline/requote.ts) fewer events than the refresh.
    const unchanged = f.unchanged_refresh_cpu_s as unknown as {
      value: number;
      values: number[];
      events: Record<string, number>;
    };
    const redone = (events: Record<string, number>) => (events.normalized ?? 0) + (events.requoted ?? 0);
    expect(unchanged.values).toHaveLength(1);
    expect(redone(unchanged.events)).toBeLessThan(redone(refresh.events));
    expect(unchanged.events.derived).toBe(0);
    expect(f.unchanged_ratio?.value).toBe(round2(unchanged.value / full.value));

    // The store measured is untouched, and the copies are gone (what else the scratch folder held stays).
    expect(readFileSync(db).length).toBe(storeBytes);
    expect(readdirSync(scratch)).toEqual(['unrelated']);
  }, 120_000);

  it('refuses a store it cannot copy, and a refresh count it cannot measure, saying what to change', async () => {
    const memory = await pmref(['bench', '--refresh'], { PMREF_DB_URL: 'sqlite::memory:' });
    expect(memory.code).not.toBe(0);
    expect(memory.stderr).toContain('PMREF_DB_URL must name a SQLite file');
    const runs = await pmref(['bench', '--refresh', '--runs', '1'], {
      PMREF_DB_URL: `sqlite:${join(dir, 'x.sqlite')}`,
    });
    expect(runs.code).not.toBe(0);
    expect(runs.stderr).toContain("--runs must be an integer ≥ 2, got '1'");
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });
});
