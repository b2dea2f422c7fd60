// Loads pmref's TypeScript sources for `bin/pmref.js`. There is no build step (`npm ci && npm start` is all a fresh
// machine needs), but a start does not transform its sources module by module either: the first start after a
// source change compiles them with esbuild (the compiler tsx itself uses) into one ES module, kept in
// node_modules/.cache/pmref under a key of every source file's path, size and modification time, and every later
// start imports that one file. Packages stay outside it, imported from node_modules as usual.
//
// Why: through tsx's loader hooks each of the ~400 modules of a start is resolved and loaded on a hook thread,
// which cost about 0.5 s of a restart's 2.8 s on the full simulated universe (README, "Footprint"). Compiling
// takes about 0.3 s, once per source change.
//
// What differs from running the sources: `import.meta.url` in a source is replaced by that source's own file URL,
// so the files it names relative to itself (data, the pipeline thread's entry, METHODOLOGY.md) are found as
// before. Names are kept (`keepNames`), and error stacks point into the sources (a linked source map, with
// source maps enabled). The pipeline thread loads its entry (src/pipeline/thread-entry.ts) the same way, compiled
// apart (thread-boot.mjs).
//
// PMREF_COMPILE_CACHE names another folder for the cache (inside the project, whose node_modules the compiled
// module imports its packages from), or is `off` to run the sources through tsx. When the cache cannot be written
// or esbuild fails, the sources run through tsx too, and stderr says why.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bumped when what the compiled module must do changes (the options below), so an older one is not reused. */
const FORMAT = 1;
/** Compiled modules of other keys older than this are removed (a process may still be about to import one). */
const REMOVE_AFTER_MS = 10 * 60 * 1000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The key of a source tree: a hash of every file's relative path, size and modification time under `srcDir`,
 * with the Node.js and esbuild versions and FORMAT.
 * @param {string} srcDir
 * @param {string} esbuildVersion
 * @returns {string}
 */
export function sourceKey(srcDir, esbuildVersion) {
  const hash = createHash('sha256');
  hash.update(`${FORMAT}\0${process.version}\0${esbuildVersion}\0`);
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const s = statSync(path);
        hash.update(`${relative(srcDir, path)}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(srcDir);
  return hash.digest('hex').slice(0, 20);
}

/**
 * The URL of the compiled module of `entry` (a path under `root`/src), compiling it first when the cache has none
 * for the current sources.
 * @param {{ root?: string, entry: string, cacheDir?: string }} options
 * @returns {Promise<string>}
 */
export async function compiledModule({ root = ROOT, entry, cacheDir = join(root, 'node_modules', '.cache', 'pmref') }) {
  const esbuildVersion = JSON.parse(
    readFileSync(join(root, 'node_modules', 'esbuild', 'package.json'), 'utf8'),
  ).version;
  const name = entry
    .replace(/^src\//, '')
    .replace(/\.ts$/, '')
    .replaceAll('/', '-');
  const key = sourceKey(join(root, 'src'), esbuildVersion);
  const file = join(cacheDir, `${name}-${key}.mjs`);
  try {
    statSync(file);
    return pathToFileURL(file).href;
  } catch {
    // not compiled yet for these sources
  }
  mkdirSync(cacheDir, { recursive: true });
  const esbuild = await import('esbuild');
  const built = await esbuild.build({
    entryPoints: [join(root, entry)],
    outfile: file,
    write: false,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'silent',
    plugins: [ownUrls()],
  });
  // The map first, then the module that names it. Each under its own name first, so two processes or threads
  // compiling at once never write one file; a rename is atomic.
  const isMap = (path) => Number(path.endsWith('.map'));
  for (const out of [...built.outputFiles].sort((a, b) => isMap(b.path) - isMap(a.path))) {
    const scratch = `${out.path}.${randomUUID()}.tmp`;
    writeFileSync(scratch, out.contents);
    renameSync(scratch, out.path);
  }
  removeStale(cacheDir, name, file);
  return pathToFileURL(file).href;
}

/** Replaces `import.meta.url` in each source by that source's file URL (see the head of this file). */
function ownUrls() {
  return {
    name: 'pmref-own-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        return {
          contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
        };
      });
    },
  };
}

/** Removes compiled modules (and maps) of other keys older than REMOVE_AFTER_MS. */
function removeStale(cacheDir, name, keep) {
  const now = Date.now();
  for (const entry of readdirSync(cacheDir)) {
    const path = join(cacheDir, entry);
    if (!entry.startsWith(`${name}-`) || path === keep || path === `${keep}.map`) continue;
    try {
      if (now - statSync(path).mtimeMs > REMOVE_AFTER_MS) rmSync(path, { force: true });
    } catch {
      // another process removed it
    }
  }
}

/** tsx's loader, registered on first use (see importSources). */
let tsxRegistered = null;

/**
 * Imports `entry`, a path under the repository's root (`src/cli.ts`): the compiled module of a source under src/,
 * or the file through tsx (PMREF_COMPILE_CACHE=off, a compile that failed, a file outside src/: see the head of
 * this file).
 * @param {string} entry
 * @returns {Promise<Record<string, unknown>>}
 */
export async function importSources(entry) {
  if (process.env.PMREF_COMPILE_CACHE !== 'off' && entry.startsWith('src/') && entry.endsWith('.ts')) {
    let url = null;
    const cacheDir = resolve(ROOT, process.env.PMREF_COMPILE_CACHE || join('node_modules', '.cache', 'pmref'));
    try {
      if (relative(ROOT, cacheDir).startsWith('..'))
        throw new Error(`PMREF_COMPILE_CACHE must be a folder inside ${ROOT}, whose node_modules it imports from`);
      url = await compiledModule({ entry, cacheDir });
    } catch (err) {
      process.stderr.write(
        `pmref: could not compile the sources into ${cacheDir} (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); running them through tsx\n`,
      );
    }
    if (url !== null) {
      process.setSourceMapsEnabled(true);
      return import(url);
    }
  }
  // Once per process: a command may import two entries (bin/pmref.js), and each registration adds its own hooks.
  tsxRegistered ??= import('tsx/esm/api').then(({ register }) => {
    register();
  });
  await tsxRegistered;
  return import(pathToFileURL(join(ROOT, entry)).href);
}

/**
 * Imports the module at `url` (a file: URL) as `importSources` does, its path taken relative to the root.
 * @param {string} url
 * @returns {Promise<Record<string, unknown>>}
 */
export function importSourceUrl(url) {
  return importSources(relative(ROOT, fileURLToPath(url)).split(sep).join('/'));
}
