/**
 * Keeps the pipeline thread's heap near what it holds alive during a run (issue 18). V8 lets a long run's garbage
 * pile up in the old generation well before it collects: on the full simulated universe the history catch-up of a
 * first start held about 465 MB alive through its backfill while its heap grew to 1.3 GB, and that growth was the
 * first start's peak RSS (the served model sits beside it). Measured with a full collection every 3 s instead: the
 * heap stayed at 465–700 MB and the run's RSS at about 900 MB instead of 1.95 GB.
 *
 * The guard looks at the heap every `everyMs` and runs a full collection when it has grown past what the last
 * collection left by half that, and by at least `minGrowthBytes`; what the collection leaves becomes the new
 * baseline, so a run whose live data grows does not collect again and again.
 */
import { getHeapStatistics } from 'node:v8';

export interface HeapGuardOptions {
  /** A full collection (the thread's `gc`, exposed by thread-entry.ts). */
  collect: () => void;
  /** Bytes in use on the heap now (default: V8's used heap size of this thread). */
  usedBytes?: () => number;
  /** How often to look (default 2 s). */
  everyMs?: number;
  /** Growth below this never collects (default 192 MB). */
  minGrowthBytes?: number;
  /** Growth below this never collects at a boundary (`checkAtBoundary`; default 96 MB). */
  boundaryGrowthBytes?: number;
}

export interface HeapGuard {
  /** Looks once: collects when the heap has grown enough (what the timer does). True when it collected. */
  check(): boolean;
  /**
   * Looks once at a point where a run moves on (its progress events): collects at a quarter of growth over what
   * the last collection left, and at least `boundaryGrowthBytes`. The timer cannot fire inside the long synchronous
   * stretches of a run (the end of the editorial stage, the diff, today's marks, the signals), where the heap
   * grew by about 300 MB of garbage over 600 MB alive before V8 collected: V8 kept the pages it grew into.
   */
  checkAtBoundary(): boolean;
  stop(): void;
}

const MB = 1024 * 1024;

/**
 * True when `used` bytes are past the threshold over `baseline` (what the last collection left): grown by `share` of
 * the baseline (default a half: the timer's) and by at least `minGrowthBytes`.
 */
export function grownEnough(used: number, baseline: number, minGrowthBytes = 192 * MB, share = 1 / 2): boolean {
  return used > baseline + Math.max(baseline * share, minGrowthBytes);
}

/**
 * Starts the guard; its timer does not keep the thread alive.
 * @example const guard = startHeapGuard({ collect: gc }); … guard.stop();
 */
export function startHeapGuard(options: HeapGuardOptions): HeapGuard {
  const used = options.usedBytes ?? (() => getHeapStatistics().used_heap_size);
  let baseline = used();
  const lookWith = (enough: (now: number, baseline: number) => boolean): boolean => {
    const now = used();
    if (!enough(now, baseline)) {
      // A heap that shrank on its own lowers the baseline: growth is measured from what is held now.
      baseline = Math.min(baseline, now);
      return false;
    }
    options.collect();
    baseline = used();
    return true;
  };
  const check = () => lookWith((now, base) => grownEnough(now, base, options.minGrowthBytes));
  const boundaryGrowth = options.boundaryGrowthBytes ?? 96 * MB;
  const checkAtBoundary = () => lookWith((now, base) => grownEnough(now, base, boundaryGrowth, 1 / 4));
  const timer = setInterval(check, options.everyMs ?? 2_000);
  timer.unref();
  return { check, checkAtBoundary, stop: () => clearInterval(timer) };
}
