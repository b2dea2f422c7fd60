import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of bin/, typed by its JSDoc only
import { ARENA_CAP, arenaMaxFrom, capMallocArenas, DEFAULT_MALLOC_ARENA_MAX } from '../../bin/malloc-arenas.mjs';
import { loadConfig } from '../../src/config.ts';
import { logMallocArenaCap } from '../../src/native-heap.ts';
import { glibc } from '../support/glibc.ts';

const child = fileURLToPath(new URL('./malloc-arena-child.mjs', import.meta.url));

/** The child's arena counts with PMREF_MALLOC_ARENA_MAX set to `value`. */
function arenasWith(value: string): { cap: { limit: number | null }; before: number; after: number } {
  const run = spawnSync(process.execPath, [child], {
    env: { ...process.env, PMREF_MALLOC_ARENA_MAX: value, NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('malloc arena cap', () => {
  it('reads PMREF_MALLOC_ARENA_MAX as the configuration check does', () => {
    expect(arenaMaxFrom({})).toBe(DEFAULT_MALLOC_ARENA_MAX);
    expect(arenaMaxFrom({ PMREF_MALLOC_ARENA_MAX: '' })).toBe(2);
    expect(arenaMaxFrom({ PMREF_MALLOC_ARENA_MAX: '0' })).toBe(0);
    expect(arenaMaxFrom({ PMREF_MALLOC_ARENA_MAX: '4' })).toBe(4);
    for (const bad of ['two', '2.5', '-1', '65']) {
      expect(arenaMaxFrom({ PMREF_MALLOC_ARENA_MAX: bad })).toBeNull();
      // The command's configuration check names the same values.
      expect(() => loadConfig({ PMREF_MALLOC_ARENA_MAX: bad })).toThrow(/PMREF_MALLOC_ARENA_MAX/);
    }
    for (const good of ['0', '4', '64'])
      expect(loadConfig({ PMREF_MALLOC_ARENA_MAX: good }).PMREF_MALLOC_ARENA_MAX).toBe(Number(good));
  });

  it('says why it caps nothing, records what it did, and the commands log it', () => {
    const lines: [string, object, string][] = [];
    const log = {
      info: (fields: object, msg: string) => lines.push(['info', fields, msg]),
      warn: (fields: object, msg: string) => lines.push(['warn', fields, msg]),
    };
    const logged = () => lines.splice(0);
    expect(capMallocArenas({}, 'darwin')).toEqual({ limit: null, reason: 'no glibc mallopt on darwin' });
    const missing = capMallocArenas({}, 'linux', () => {
      throw new Error("Cannot find module 'koffi'");
    });
    expect(missing).toEqual({ limit: null, reason: "glibc mallopt could not be loaded: Cannot find module 'koffi'" });
    expect((globalThis as Record<symbol, unknown>)[ARENA_CAP]).toEqual(missing);
    logMallocArenaCap(log);
    expect(logged()).toEqual([['warn', { reason: missing.reason }, expect.stringMatching(/C library's default/)]]);
    expect(capMallocArenas({ PMREF_MALLOC_ARENA_MAX: 'x' }, 'linux').reason).toMatch(/not an integer from 0 to 64/);
    expect(capMallocArenas({ PMREF_MALLOC_ARENA_MAX: '0' }, 'linux')).toEqual({ limit: null, reason: null });
    logMallocArenaCap(log);
    expect(logged()).toEqual([]);
    logMallocArenaCap(log, { limit: 2, reason: null });
    expect(logged()).toEqual([['info', { malloc_arena_max: 2 }, 'malloc arenas capped (PMREF_MALLOC_ARENA_MAX)']]);
    // A command run in process, not through bin/pmref.js: nothing was recorded, and nothing is logged.
    delete (globalThis as Record<symbol, unknown>)[ARENA_CAP];
    logMallocArenaCap(log);
    expect(logged()).toEqual([]);
  });

  it.runIf(glibc)('keeps threads started after the cap in the arenas that exist; without it each gets its own', () => {
    const capped = arenasWith('2');
    expect(capped.cap).toEqual({ limit: 2, reason: null });
    // Arenas made before the cap stay; threads started after it make none beyond it.
    expect(capped.after).toBeLessThanOrEqual(Math.max(capped.before, 2));
    const uncapped = arenasWith('0');
    expect(uncapped.cap).toEqual({ limit: null, reason: null });
    expect(uncapped.after).toBeGreaterThan(uncapped.before);
  });
});
