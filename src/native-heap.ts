/**
 * Gives the C heap's free pages back to the operating system (issue 18). A read-model build or a pipeline run
 * allocates and frees hundreds of MB outside the JavaScript heap (compressed bodies, zlib state, SQLite rows,
 * the buffers of the venues' pages). glibc's allocator keeps what is freed in the middle of its arenas resident
 * for reuse: it only returns the top of an arena on its own. Measured on the full simulated universe, after a
 * read model built from the store and a full collection: 544 MB RSS, of which 125 MB were such free pages;
 * `malloc_trim(0)` returned them (419 MB). That is most of what kept a first start's serving process above a
 * restarted one's (RSS about 780 MB against 550 MB).
 *
 * glibc exports `malloc_trim`, but Node.js does not call it, so it is called through koffi (a prebuilt FFI for
 * Node-API). Where there is no glibc (musl, macOS, Windows) or the module cannot load, `trimNativeHeap` does
 * nothing and `nativeHeapTrim().available` says why; the caller logs it once.
 */
import { createRequire } from 'node:module';

export interface NativeHeapTrim {
  available: boolean;
  /** Why trimming is unavailable (null when it is available). */
  reason: string | null;
}

type Require = (id: string) => unknown;

/**
 * Loads glibc's `malloc_trim` through koffi: the trim function, or why there is none. `platform` and `load` are
 * the process's own outside tests.
 */
export function loadTrim(
  platform: NodeJS.Platform = process.platform,
  load: Require = createRequire(import.meta.url),
): { trim: (() => number) | null; state: NativeHeapTrim } {
  if (platform !== 'linux')
    return { trim: null, state: { available: false, reason: `no glibc malloc_trim on ${platform}` } };
  try {
    const koffi = load('koffi') as typeof import('koffi');
    const fn = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return { trim: () => fn(0), state: { available: true, reason: null } };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { trim: null, state: { available: false, reason: `glibc malloc_trim could not be loaded: ${why}` } };
  }
}

/** What `bin/malloc-arenas.mjs` did (the same shape): the arenas glibc may create, or why they were not capped. */
export interface ArenaCap {
  limit: number | null;
  reason: string | null;
}

/** Where bin/malloc-arenas.mjs records its result (the sources are compiled into another module). */
const ARENA_CAP = Symbol.for('pmref.malloc-arena-cap');

/** What `logMallocArenaCap` writes to: a pino logger, Fastify's included. */
export interface ArenaLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/**
 * Logs the malloc arena cap `bin/pmref.js` set first thing (bin/malloc-arenas.mjs says why), for a command that runs
 * threads: info when capped, warn with the reason when it could not be, nothing when PMREF_MALLOC_ARENA_MAX=0 asked
 * for glibc's default or the process did not start through bin/pmref.js (a test that runs a command in process).
 */
export function logMallocArenaCap(
  log: ArenaLog,
  recorded: unknown = (globalThis as Record<symbol, unknown>)[ARENA_CAP],
): void {
  const cap = recorded as ArenaCap | undefined;
  if (cap?.limit != null) log.info({ malloc_arena_max: cap.limit }, 'malloc arenas capped (PMREF_MALLOC_ARENA_MAX)');
  else if (cap?.reason != null)
    log.warn(
      { reason: cap.reason },
      "malloc arenas left at the C library's default: threads may keep more memory resident",
    );
}

let loaded: ReturnType<typeof loadTrim> | null = null;

function load(): ReturnType<typeof loadTrim> {
  loaded ??= loadTrim();
  return loaded;
}

/** Whether this process can trim its C heap, and why not (loads the binding on first call). */
export function nativeHeapTrim(): NativeHeapTrim {
  return load().state;
}

/**
 * Returns the C heap's free pages to the system; true when any were returned. It walks every arena's free
 * chunks (a few milliseconds on a heap of a few hundred MB, during which other threads' allocations wait), so it
 * belongs after work that freed a lot: a model swap, a pipeline thread's end. Does nothing where unavailable.
 */
export function trimNativeHeap(): boolean {
  const { trim } = load();
  return trim !== null && trim() === 1;
}
