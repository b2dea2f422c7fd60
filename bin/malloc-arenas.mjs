// Caps the malloc arenas glibc creates in a pmref process (issue 18). glibc gives each thread that first allocates
// beside another an arena of its own, up to 8 per core, and the pages freed in an arena stay resident until that
// arena reuses them. A first start runs the server's thread, the pipeline thread, the body compressor and libuv's
// threads, each allocating hundreds of MB of zlib state, SQLite rows and buffers outside the JavaScript heap.
// Capped at 2, a first start of the full simulated universe peaked lower and served in less memory a minute after
// its history catch-up (bench/README.md, fourteenth pass, has the figures).
//
// Arenas made before the cap stay, and threads started after it share the existing ones: so `bin/pmref.js` calls
// this first, before it loads anything else (3–4 arenas exist then; 6 once pmref's sources are loaded). Plain
// JavaScript for that reason, like compiled.mjs. PMREF_MALLOC_ARENA_MAX sets the cap (0: glibc's default); a value
// that is not an integer from 0 to 64 is left alone here and reported by the command's configuration check
// (src/config.ts). Where there is no glibc or no koffi, nothing is capped and the result says why; the commands
// that run threads log it (src/native-heap.ts `logMallocArenaCap`).
import { createRequire } from 'node:module';

/** The cap when PMREF_MALLOC_ARENA_MAX is not set. */
export const DEFAULT_MALLOC_ARENA_MAX = 2;

/** glibc's `mallopt` parameter for the most arenas malloc creates (`M_ARENA_MAX` in malloc.h). */
const M_ARENA_MAX = -8;

/** Where the result is kept for the commands to log: the sources are compiled into another module (compiled.mjs). */
export const ARENA_CAP = Symbol.for('pmref.malloc-arena-cap');

/**
 * @typedef {{ limit: number | null, reason: string | null }} ArenaCap
 * `limit`: the arenas glibc may create from now on (null: not capped); `reason`: why not (null when capped, or when
 * the setting asked for glibc's default).
 */

/**
 * The cap PMREF_MALLOC_ARENA_MAX asks for: its default when unset, null when it is not an integer from 0 to 64.
 * @param {Record<string, string | undefined>} env
 * @returns {number | null}
 */
export function arenaMaxFrom(env) {
  const raw = env.PMREF_MALLOC_ARENA_MAX;
  if (raw === undefined || raw === '') return DEFAULT_MALLOC_ARENA_MAX;
  // As the configuration check reads it (zod's coerce.number().int().min(0).max(64)).
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 64 ? n : null;
}

/**
 * Caps glibc's malloc arenas as `env` says and records the result on `globalThis[ARENA_CAP]`.
 * @param {Record<string, string | undefined>} env
 * @param {NodeJS.Platform} [platform]
 * @param {(id: string) => unknown} [load]
 * @returns {ArenaCap}
 * @example capMallocArenas({}).limit // 2 on glibc Linux
 */
export function capMallocArenas(env, platform = process.platform, load = createRequire(import.meta.url)) {
  const result = capped(arenaMaxFrom(env), platform, load);
  /** @type {Record<symbol, unknown>} */ (globalThis)[ARENA_CAP] = result;
  return result;
}

/**
 * @param {number | null} max
 * @param {NodeJS.Platform} platform
 * @param {(id: string) => unknown} load
 * @returns {ArenaCap}
 */
function capped(max, platform, load) {
  if (max === null) return { limit: null, reason: 'PMREF_MALLOC_ARENA_MAX is not an integer from 0 to 64' };
  if (max === 0) return { limit: null, reason: null };
  if (platform !== 'linux') return { limit: null, reason: `no glibc mallopt on ${platform}` };
  try {
    const koffi = /** @type {typeof import('koffi')} */ (load('koffi'));
    const mallopt = /** @type {(param: number, value: number) => number} */ (
      koffi.load('libc.so.6').func('int mallopt(int param, int value)')
    );
    if (mallopt(M_ARENA_MAX, max) !== 1) return { limit: null, reason: `mallopt(M_ARENA_MAX, ${max}) refused it` };
    return { limit: max, reason: null };
  } catch (err) {
    return { limit: null, reason: `glibc mallopt could not be loaded: ${err instanceof Error ? err.message : err}` };
  }
}
