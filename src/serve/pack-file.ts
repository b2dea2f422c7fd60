/**
 * A read-model pack's file (pack.ts) as bytes: where a store keeps its pack, reading the file's parts, and reading
 * them ahead of need. This module imports Node's built-ins alone, so `bin/pmref.js` can load it on its own before
 * the rest of pmref (issue 18).
 *
 * Why ahead: a restart's pack header is 14 MB of gzip that inflates on the thread pool in 0.5–0.7 s (the full
 * simulated universe, a 2-core machine; 5.2 MB since format 10 moved the parts a first answer does not need out of it,
 * pack.ts), and the server asks for it only once every module is loaded and the store
 * is open, about 1.5–2 s into the process, then waits for it. `pmref start` and `pmref serve` begin reading it as the
 * process starts (`prefetchPackFile`), so the inflate runs beside the module loading; the server then takes what
 * was read (`takePrefetchedPackFile`) and checks it as it checks any pack (the store, generation, origin and day
 * it was built for). A prefetch nobody takes within PREFETCH_KEPT_MS is dropped, so its bytes are not held by a
 * process that builds its model from the store instead (a first start, a pack of another store).
 */
import { type FileHandle, open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

/** What a pack must match to be used: the store it was built from, its generation, origin and UTC day. */
export interface PackKey {
  store: string;
  generation: number;
  origin: string;
  today: string;
}

/** The plain first part of a pack: what decides whether it is used. */
export interface PackStamp extends PackKey {
  version: number;
  builtAt: string;
  /** The header's length as JSON, so it inflates into one allocation of exactly its size. */
  headerBytes: number;
}

/** A pack file's parts: its stamp, its header inflated (JSON text, not yet parsed) and its body region. */
export interface PackFile {
  stamp: PackStamp;
  header: Buffer;
  bodies: Buffer;
}

/** A key longer than this is not a stamp of this format (a format-4 pack begins with its whole header). */
const MAX_STAMP_BYTES = 64 * 1024;

/** The default store (config.ts `PMREF_DB_URL`), for a prefetch that runs before the configuration is read. */
export const DEFAULT_DB_URL = 'sqlite:./data/pmref.sqlite';

/**
 * Where a store keeps its pack, or null when it keeps none. Embedded SQLite keeps one beside its database file,
 * named after it (`pmref.sqlite` → `pmref.sqlite.pack`), so two stores in one folder keep a pack each; the pack
 * also records the store's identity, so a pack that outlived its database is never served (pack.ts). PostgreSQL
 * replicas and in-memory SQLite build from the store (they share no disk).
 * @example packPathFor('sqlite:./data/pmref.sqlite') // '/abs/path/data/pmref.sqlite.pack'
 */
export function packPathFor(dbUrl: string): string | null {
  if (!dbUrl.startsWith('sqlite:')) return null;
  const file = dbUrl.slice('sqlite:'.length);
  if (file === ':memory:' || file === '') return null;
  return `${resolve(file)}.pack`;
}

const gunzipAsync = promisify(gunzip);

/** `length` bytes of the file from `position`, in their own allocation (an error when the file is shorter). */
async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const out = Buffer.allocUnsafeSlow(length);
  for (let at = 0; at < length; ) {
    const { bytesRead } = await fh.read(out, at, length - at, position + at);
    if (bytesRead === 0) throw new Error('pack truncated');
    at += bytesRead;
  }
  return out;
}

/**
 * The parts of the pack at `path`; null when there is none, it is unreadable or truncated, or it does not begin
 * with a stamp. `fits` decides from the stamp whether the rest is read at all (a pack that does not fit is
 * refused after a few hundred bytes).
 */
export async function readPackFile(
  path: string,
  fits: (stamp: PackStamp) => boolean = () => true,
): Promise<PackFile | null> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch {
    return null; // no pack (or none readable)
  }
  try {
    const stampLength = (await readAt(fh, 0, 4)).readUInt32BE(0);
    if (stampLength > MAX_STAMP_BYTES) return null;
    const stamp = JSON.parse((await readAt(fh, 4, stampLength)).toString('utf8')) as PackStamp;
    if (typeof stamp !== 'object' || stamp === null || !fits(stamp)) return null;
    const headAt = 4 + stampLength;
    const headLength = (await readAt(fh, headAt, 4)).readUInt32BE(0);
    const bodiesAt = headAt + 4 + headLength;
    const size = (await fh.stat()).size;
    // The header inflates on the thread pool while the body region is read.
    const [header, bodies] = await Promise.all([
      // One output chunk of the header's size: zlib's default 16 KB chunks would be thousands of small
      // allocations, leaving the allocator's heap fragmented for the life of the process.
      readAt(fh, headAt + 4, headLength).then((gz) => gunzipAsync(gz, { chunkSize: stamp.headerBytes + 1 })),
      readAt(fh, bodiesAt, size - bodiesAt),
    ]);
    return { stamp, header, bodies };
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/** How long a prefetched pack waits to be taken before it is dropped. */
export const PREFETCH_KEPT_MS = 60_000;

/**
 * The prefetches of this process, by pack path. On `globalThis` under a registered symbol, not in a module variable:
 * `bin/pmref.js` loads this module on its own, and the rest of pmref is compiled into another module that holds a
 * copy of it (bin/compiled.mjs).
 */
const REGISTRY = Symbol.for('pmref.pack-prefetch');
type Registry = Map<string, { reading: Promise<PackFile | null>; drop: NodeJS.Timeout }>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * Starts reading the pack at `path` for a later `takePrefetchedPackFile(path)`; dropped unless taken within
 * `keptMs`. Resolves once the file is read, and never rejects: a pack that cannot be read prefetches as null, and
 * the server reads the file itself.
 */
export function prefetchPackFile(path: string, keptMs: number = PREFETCH_KEPT_MS): Promise<void> {
  const prefetches = registry();
  const earlier = prefetches.get(path);
  if (earlier !== undefined) clearTimeout(earlier.drop);
  const drop = setTimeout(() => prefetches.delete(path), keptMs).unref();
  const reading = readPackFile(path).catch(() => null);
  prefetches.set(path, { reading, drop });
  return reading.then(() => undefined);
}

/**
 * The prefetch of the pack at `path`, once: it is forgotten as it is taken (its timer too, which would otherwise
 * hold the pack's bytes until it fired); undefined when there is none.
 */
export function takePrefetchedPackFile(path: string): Promise<PackFile | null> | undefined {
  const prefetches = registry();
  const entry = prefetches.get(path);
  if (entry === undefined) return undefined;
  prefetches.delete(path);
  clearTimeout(entry.drop);
  return entry.reading;
}

/**
 * What `bin/pmref.js` calls before it loads the rest of pmref: for the commands that serve a read model (`start`,
 * `serve`), starts reading the pack of the store PMREF_DB_URL names. Anything it cannot tell (another command, a
 * request for the usage, no pack path) starts nothing; the configuration is checked later, as always.
 */
export function prefetchForCommand(args: readonly string[], env: NodeJS.ProcessEnv): void {
  if (args[0] !== 'start' && args[0] !== 'serve') return;
  // A command asked for its usage serves nothing (cli.ts answers it before running the command).
  if (args.includes('--help') || args.includes('-h')) return;
  const path = packPathFor(env.PMREF_DB_URL ?? DEFAULT_DB_URL);
  if (path !== null) void prefetchPackFile(path);
}
