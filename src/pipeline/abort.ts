/**
 * Runs left `running` by a process that died (kill -9, OOM, power loss) are found at the next start and
 * marked `aborted`, with why; their staged marks are dropped. Nothing of such a run was ever visible (run.ts
 * publishes in one transaction), so aborting only closes its record: /v1/status stops showing it as running.
 *
 * Who may be declared dead:
 * - PostgreSQL: a run whose advisory lock no session holds (the store refuses otherwise, see Store.abortRun).
 *   The lock lives on its process's connection, so a run of a live process on another host is never aborted,
 *   whoever asks; the worker still asks only while it leads.
 * - SQLite: the store belongs to one machine. A run is dead when it was started on another host, or its
 *   process is gone, or its pid now belongs to a process that started after the run did (a reused pid, as
 *   for pid 1 in a restarted container). A run of this very process is never aborted.
 */
import { hostname } from 'node:os';
import type { RunningRun, RunOwner, Store } from '../store/index.ts';
import type { PipelineLogger } from './types.ts';

/** When this process started, to the second (the same in every thread of it). */
function processStartedAt(): string {
  return new Date(Math.round((Date.now() - process.uptime() * 1000) / 1000) * 1000).toISOString();
}

/** This process, as recorded on the runs it starts. */
export function currentOwner(): RunOwner {
  return { host: hostname(), pid: process.pid, process_started_at: processStartedAt() };
}

/** Two start times of the same process, computed at different moments, may differ by rounding. */
function sameProcess(a: RunOwner, b: RunOwner): boolean {
  return (
    a.host === b.host &&
    a.pid === b.pid &&
    Math.abs(Date.parse(a.process_started_at) - Date.parse(b.process_started_at)) <= 2_000
  );
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why a SQLite run is dead, or null while its process may still be running it. */
export function deadBecause(run: RunningRun, me: RunOwner = currentOwner()): string | null {
  const owner = run.owner;
  if (owner === null) return 'recorded before runs named their process';
  if (sameProcess(owner, me)) return null;
  const who = `pid ${owner.pid} on ${owner.host}`;
  if (owner.host !== me.host) return `started by ${who}, another host, on a store only this host uses`;
  if (owner.pid === me.pid) return `${who} was an earlier process with this pid`;
  if (!pidAlive(owner.pid)) return `${who} is no longer running`;
  return null;
}

export interface AbortDeadRunsOptions {
  logger: PipelineLogger;
  /** Wall clock: the abort time recorded on the run. */
  now: () => Date;
  /**
   * A new pipeline thread of this process is starting (thread-entry.ts): a run this process left `running` was
   * its previous pipeline thread's, which ended without finishing it (out of its heap bound, or crashed), since a
   * process has one pipeline thread. Its pid lives on, so only this says it is dead.
   */
  ownPipelineThreadEnded?: boolean;
}

/**
 * Marks every run that `running` records but no live process runs as `aborted`. Returns the run ids aborted.
 * @example await abortDeadRuns(store, { logger, now: () => new Date() });
 */
export async function abortDeadRuns(store: Store, options: AbortDeadRunsOptions): Promise<number[]> {
  const aborted: number[] = [];
  const me = currentOwner();
  for (const run of await store.runningRuns()) {
    const owner = run.owner ? `pid ${run.owner.pid} on ${run.owner.host}` : 'an unrecorded process';
    let why: string | null;
    if (store.engine === 'postgres') {
      why = `no live session holds its lock (${owner})`;
    } else {
      why = deadBecause(run, me);
      if (why === null && options.ownPipelineThreadEnded && run.owner !== null && sameProcess(run.owner, me))
        why = "this process's previous pipeline thread ended before it finished (out of its heap bound or crashed)";
      if (why === null) continue;
    }
    const error = `process ended before publish; found at start by pid ${me.pid} on ${me.host}: ${why}`;
    const at = options.now().toISOString();
    if (await store.abortRun(run.run_id, { error, owner: run.owner }, at)) {
      aborted.push(run.run_id);
      options.logger.warn(
        { run_id: run.run_id, started_at: run.started_at, owner: run.owner },
        `pipeline run ${run.run_id} aborted: ${error}; nothing of it was published`,
      );
    }
  }
  return aborted;
}
