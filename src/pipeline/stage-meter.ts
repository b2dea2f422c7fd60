/**
 * Wall time and CPU time per pipeline stage (issue 18): where an hourly refresh spends its CPU, in the run
 * summary (`timings_ms`, `cpu_ms_by_stage`) and in the run's log line, for operators as for the benchmark.
 *
 * CPU is `process.cpuUsage()`: user + system time of the whole process, every thread included. Node 20 has no
 * per-thread CPU clock, so on `pmref start` a stage's figure also holds what the server thread did meanwhile;
 * on `pmref ingest` (and the simulated source) it also holds the in-process replay server's answers, which is
 * what the pull of a simulated run costs. Wall time is `performance.now()`.
 */
import { performance } from 'node:perf_hooks';

export interface StageMeter {
  /** Closes the stage that ran since the previous lap (or since the meter started) under `name`. */
  lap(name: string): void;
  /**
   * Adds the wall and CPU time of `work` to `name` without closing the current stage: a part inside a
   * stage (e.g. `editorial.derive`), reported beside the stage that contains it.
   */
  part<T>(name: string, work: () => T): T;
  /** `part` for asynchronous work (run one at a time: overlapping parts would count their CPU twice). */
  partAsync<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Wall ms per stage and part, rounded. */
  wallMs(): Record<string, number>;
  /** CPU ms (user + system) per stage and part, rounded. */
  cpuMs(): Record<string, number>;
  /** Wall and CPU ms since the meter started. */
  total(): { wall_ms: number; cpu_ms: number };
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Starts a meter; the first stage begins now. */
export function startStageMeter(): StageMeter {
  const wall: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  const wall0 = performance.now();
  const cpu0 = cpuNow();
  let wallMark = wall0;
  let cpuMark = cpu0;
  const add = (into: Record<string, number>, name: string, ms: number) => {
    into[name] = (into[name] ?? 0) + ms;
  };
  const rounded = (from: Record<string, number>) =>
    Object.fromEntries(Object.entries(from).map(([k, v]) => [k, Math.round(v)]));
  return {
    lap(name) {
      const w = performance.now();
      const c = cpuNow();
      add(wall, name, w - wallMark);
      add(cpu, name, c - cpuMark);
      wallMark = w;
      cpuMark = c;
    },
    part(name, work) {
      const w = performance.now();
      const c = cpuNow();
      try {
        return work();
      } finally {
        add(wall, name, performance.now() - w);
        add(cpu, name, cpuNow() - c);
      }
    },
    async partAsync(name, work) {
      const w = performance.now();
      const c = cpuNow();
      try {
        return await work();
      } finally {
        add(wall, name, performance.now() - w);
        add(cpu, name, cpuNow() - c);
      }
    },
    wallMs: () => rounded(wall),
    cpuMs: () => rounded(cpu),
    total: () => ({ wall_ms: Math.round(performance.now() - wall0), cpu_ms: Math.round(cpuNow() - cpu0) }),
  };
}
