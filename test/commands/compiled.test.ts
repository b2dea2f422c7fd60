// bin/compiled.mjs: how `pmref` loads its TypeScript sources (one compiled module per source change, or tsx).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of bin/, typed by its JSDoc only
import { compiledModule, sourceKey } from '../../bin/compiled.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'pmref-compiled-'));
// Compiled modules import their packages from the project's node_modules: their folders must be inside it.
mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
const inside = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'pmref-test-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(inside, { recursive: true, force: true });
});

/** `node bin/pmref.js ARGS` with `env` added. */
function pmref(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/pmref.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('bin/compiled.mjs', () => {
  it('keys a source tree by its files: a changed size or modification time makes a new key, nothing else does', () => {
    const src = join(scratch, 'tree');
    mkdirSync(join(src, 'a'), { recursive: true });
    writeFileSync(join(src, 'a', 'x.ts'), 'export const x = 1;\n');
    writeFileSync(join(src, 'y.ts'), 'export const y = 2;\n');
    const first = sourceKey(src, '0.28.2');
    expect(sourceKey(src, '0.28.2')).toBe(first);
    expect(sourceKey(src, '0.28.3')).not.toBe(first);
    const past = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(src, 'y.ts'), past, past);
    const touched = sourceKey(src, '0.28.2');
    expect(touched).not.toBe(first);
    writeFileSync(join(src, 'y.ts'), 'export const y = 22;\n');
    utimesSync(join(src, 'y.ts'), past, past);
    expect(sourceKey(src, '0.28.2')).not.toBe(touched);
    writeFileSync(join(src, 'a', 'z.ts'), '');
    expect(sourceKey(src, '0.28.2')).not.toBe(touched);
  });

  it('compiles the command once per source key, each source keeping its own import.meta.url', async () => {
    const cacheDir = join(inside, 'cache');
    const url: string = await compiledModule({ entry: 'src/cli.ts', cacheDir });
    const file = fileURLToPath(url);
    const made = statSync(file).mtimeMs;
    // The same sources: the same module, not written again.
    expect(await compiledModule({ entry: 'src/cli.ts', cacheDir })).toBe(url);
    expect(statSync(file).mtimeMs).toBe(made);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('import.meta.url');
    // Files named relative to a source are found where that source is (the pipeline thread's entry, METHODOLOGY.md).
    expect(text).toContain(JSON.stringify(pathToFileURL(join(ROOT, 'src/pipeline/thread.ts')).href));
    expect(text).toContain(JSON.stringify(pathToFileURL(join(ROOT, 'src/site/pages/site-pages.ts')).href));
    expect(statSync(`${file}.map`).size).toBeGreaterThan(0);
    const { main } = (await import(url)) as { main: (argv: string[]) => Promise<number> };
    expect(await main(['nonsense-command'])).toBe(2);
  });

  it('runs the command from its compiled module, through tsx when told to, and through tsx when it cannot compile', () => {
    const cacheDir = join(inside, 'run-cache');
    const compiled = pmref(['--help'], { PMREF_COMPILE_CACHE: cacheDir });
    expect(compiled.status).toBe(0);
    expect(compiled.stdout).toContain('pmref — reference data for prediction markets');
    expect(compiled.stderr).toBe('');
    expect(statSync(cacheDir).isDirectory()).toBe(true);

    const viaTsx = pmref(['--help'], { PMREF_COMPILE_CACHE: 'off' });
    expect(viaTsx.status).toBe(0);
    expect(viaTsx.stdout).toBe(compiled.stdout);
    expect(viaTsx.stderr).toBe('');

    // A cache folder that cannot be made (under a regular file), or one outside the project: the sources run
    // through tsx, and stderr says why.
    const blocker = join(inside, 'a-file');
    writeFileSync(blocker, '');
    const fallback = pmref(['--help'], { PMREF_COMPILE_CACHE: join(blocker, 'cache') });
    expect(fallback.status).toBe(0);
    expect(fallback.stdout).toBe(compiled.stdout);
    expect(fallback.stderr).toMatch(
      /^pmref: could not compile the sources into .*a-file\/cache \(.*ENOTDIR.*\); running them through tsx\n$/,
    );
    const outside = pmref(['--help'], { PMREF_COMPILE_CACHE: join(scratch, 'outside') });
    expect(outside.status).toBe(0);
    expect(outside.stdout).toBe(compiled.stdout);
    expect(outside.stderr).toContain('(PMREF_COMPILE_CACHE must be a folder inside');
  });
});
