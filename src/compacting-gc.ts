/**
 * A full collection that compacts (issue 18). V8's full collections compact only the pages it picks as most
 * fragmented, so a heap that held a large working set keeps most of the pages it grew into when little stays
 * alive: measured on a first start, a pipeline thread after its first run held 263 MB of old space for 50 MB alive.
 * V8 offers no per-call option; its flag `--compact-on-every-full-gc` is set for the one collection and cleared
 * after, whatever happens. The flag is the process's: a collection another thread runs in that window compacts too,
 * so this belongs where little is alive (after a run, after a model swap), not in the middle of a run.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * Runs `collect` (a full collection) with compaction of every page; `setFlags` is V8's outside tests.
 * @example withCompaction(gc)
 */
export function withCompaction(collect: () => void, setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags('--compact-on-every-full-gc');
  try {
    collect();
  } finally {
    setFlags('--no-compact-on-every-full-gc');
  }
}
