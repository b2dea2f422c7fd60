/**
 * A read-model pack: the read model of one generation written to a file as its exact bytes plus a JSON
 * header, so a restart serves at once instead of rebuilding from the store (issue 4: "later starts reuse the
 * store and serve at once"). A pack is used only when it was built from the same store (its identity, written
 * once at the store's creation: two stores in one folder share a pack path, and a database deleted and created
 * again starts over at the same generations), for the store's current generation, the same public origin (it
 * is inside every body) and the same UTC date (liveness depends on it); otherwise the holder builds from the
 * store as usual and writes a fresh pack. A pack of an older format version is never read.
 *
 * Layout (format 5, issue 18): the key (`PackKey`, the version and `builtAt`) as plain JSON, so a pack that
 * does not fit is refused after reading a few hundred bytes; then the rest of the header as gzip'd ASCII JSON; then
 * every body as the model holds it (gzip for all but the small ones, see `heldBody`), so loading takes the bodies as
 * they are, with no work per body. Each part is preceded by its length (UInt32BE).
 *
 * Sections (format 10, issue 18): the parts of the model a first answer does not need (the market catalog, the movers'
 * candidates, the venue identifiers: 63 of the header's 87 MB of JSON on the full simulated universe) are not in the
 * header but in the body region, each its own gzip'd ASCII JSON (`Section`), inflated and parsed on first use. A
 * restart parsed them all before its first answer: 0.8 s of parsing and about as much garbage collection on a slow
 * 2-core machine (bench/README.md, sixteenth pass). The holder uses them right after it (read-model-holder.ts
 * `warmIndexes`).
 */
import { open, rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type {
  Catalyst,
  Event,
  MarketVenueRefs,
  Notice,
  QuestionSummary,
  SignalBulletin,
  Stats,
} from '../domain/index.ts';
import { Body, BodyCache, DEFAULT_BODY_CACHE_BYTES, GzipBody, HELD_GZIP_LEVEL } from './json-bytes.ts';
import { catalogFromPack, type PackedCatalog, packCatalog } from './market-list.ts';
import type { MoverCandidates } from './movers.ts';
import { type PackKey, type PackStamp, readPackFile, takePrefetchedPackFile } from './pack-file.ts';
import { questionIndexFrom } from './questions.ts';
import { type EventEntry, indexEvents, type MarketEntry, type ReadModel, withLazyRefs } from './read-model.ts';

/**
 * 2: the header names the store it was built from (issue 15). 3: cross-venue questions, stats and the search
 * catalog (issue 17). 4: question legs name their subject. 5: bodies held gzip, the header compressed behind a
 * plain key (issue 18). 6: the markets' venue identifiers, for the reference index (issue 20). 7: question
 * spreads gross and net of fees (issue 20). 8: markets' own fee terms price the spreads, with a note where they
 * cannot (issue 20). 9: the movers' candidates and the markets' venue identifiers as JSON texts in the header,
 * parsed on first use (issue 18: a restart parsed 22 MB of them before its first answer). 10: those two and the
 * market catalog as sections of the body region, out of the header (issue 18: see Sections above).
 * Packs of other versions are rebuilt.
 */
export const PACK_VERSION = 10;

/** Where a body's held bytes are in the body region; a gzip-held body also gives its identity length. */
type Ref =
  | [offset: number, length: number, etag: string]
  | [offset: number, length: number, etag: string, plain: number];

/** Where a section is in the body region: gzip'd ASCII JSON, `length` bytes at `offset`. */
type Section = [offset: number, length: number];

interface PackHeader {
  dataSource: ReadModel['dataSource'];
  notice: Notice;
  moversNotice: Notice;
  counts: ReadModel['counts'];
  catalysts: Catalyst[];
  signals: SignalBulletin[];
  events: Array<{
    event: Event;
    live: boolean;
    grade: string | null;
    searchText: string;
    item: string;
    full: Ref;
    concise: Ref;
  }>;
  markets: Array<{ id: string; detail: Ref }>;
  natives: Array<[native: string, marketId: string]>;
  signalBodies: Array<[slug: string, body: Ref]>;
  spot: Ref;
  info: Ref;
  /** Issue 17: the question rows with their side-by-side bodies, and the stats (stored: the pack has no markets to rebuild them from). */
  questions: Array<{ summary: QuestionSummary; detail: Ref }>;
  stats: { data: Stats; body: Ref };
  /** The parts parsed on first use (`lazily`). */
  sections: {
    /** Issue 17: market rows and normalized search documents (`PackedCatalog`); the search index is rebuilt from them. */
    catalog: Section;
    /** `MoverCandidates`. */
    movers: Section;
    /** Issue 20: the markets' venue identifiers, `[marketId, MarketVenueRefs][]`; the reference index is rebuilt from them. */
    venueRefs: Section;
  };
}

/**
 * Writes `model`, built from the store whose identity is `store`, to `path` (atomically: a temporary file
 * renamed into place). When `wanted` turns false (a newer model replaced this one), the write stops at its next
 * step, removes its temporary file and resolves false, so the old model is not held for a pack nobody will load.
 */
export async function writePack(
  model: ReadModel,
  path: string,
  store: string,
  wanted: () => boolean = () => true,
): Promise<boolean> {
  const chunks: Buffer[] = [];
  let offset = 0;
  const ref = (body: Body): Ref => {
    chunks.push(body.held);
    const r: Ref =
      body.heldEncoding === 'gzip'
        ? [offset, body.held.length, body.etag, body.length]
        : [offset, body.held.length, body.etag];
    offset += body.held.length;
    return r;
  };
  const served: Omit<PackHeader, 'sections'> = {
    dataSource: model.dataSource,
    notice: model.notice,
    moversNotice: model.moversNotice,
    counts: model.counts,
    catalysts: model.catalysts,
    signals: model.signals,
    events: model.events.map((e) => ({
      event: e.event,
      live: e.live,
      grade: e.grade,
      searchText: e.searchText,
      item: e.item,
      full: ref(e.full),
      concise: ref(e.concise),
    })),
    markets: [...model.marketById.values()].map((m) => ({ id: m.marketId, detail: ref(m.detail) })),
    natives: [...model.marketByNative.entries()].map(([native, m]) => [native, m.marketId]),
    signalBodies: [...model.signalBySlug.entries()].map(([slug, b]) => [slug, ref(b)]),
    spot: ref(model.spot),
    info: ref(model.info),
    questions: model.questions.list.map((q) => ({ summary: q.summary, detail: ref(q.detail) })),
    stats: { data: model.stats.data, body: ref(model.stats.body) },
  };
  // After every body, so a file cut short loses a section and is refused at load (`sectionsFit`). Compressed on the
  // thread pool.
  const sectionOf = async (value: unknown): Promise<Section> => {
    const gz = await gzipAsync(Buffer.from(asciiJson(value), 'latin1'), { level: HELD_GZIP_LEVEL });
    chunks.push(gz);
    const at: Section = [offset, gz.length];
    offset += gz.length;
    return at;
  };
  const header: PackHeader = {
    ...served,
    sections: {
      catalog: await sectionOf(packCatalog(model.catalog)),
      movers: await sectionOf(model.movers),
      venueRefs: await sectionOf(model.refs ? [...model.refs.venueRefs] : []),
    },
  };
  if (!wanted()) return false;
  const headJson = Buffer.from(asciiJson(header), 'latin1');
  const stamp: PackStamp = {
    version: PACK_VERSION,
    store,
    generation: model.generation,
    builtAt: model.builtAt,
    today: model.today,
    origin: model.origin,
    headerBytes: headJson.length,
  };
  const stampBytes = Buffer.from(JSON.stringify(stamp), 'utf8');
  // Compressed on the thread pool: the event loop keeps serving meanwhile.
  const head = await gzipAsync(headJson, { level: HELD_GZIP_LEVEL });
  if (!wanted()) return false;
  const tmp = `${path}.tmp-${process.pid}`;
  // Written in batches (no one big concatenation: the bodies already take the model's memory once).
  const fh = await open(tmp, 'w');
  let complete = true;
  try {
    await fh.writev([lengthOf(stampBytes), stampBytes, lengthOf(head), head]);
    for (let i = 0; i < chunks.length && complete; i += 1024) {
      await fh.writev(chunks.slice(i, i + 1024));
      complete = wanted();
    }
  } finally {
    await fh.close();
  }
  if (!complete) {
    await rm(tmp, { force: true });
    return false;
  }
  await rename(tmp, path);
  return true;
}

/**
 * JSON of `value` in ASCII only (every other character as a `\u` escape), so a load decodes the header as
 * latin1, a copy, instead of as UTF-8 (measured on the full simulated universe, 76 MB with 16,000 non-ASCII
 * bytes: 0.08 s instead of 0.7 s, and the one-byte string parses faster too).
 */
function asciiJson(value: unknown): string {
  const ascii = JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  forgetLastMatch();
  return ascii;
}

/**
 * V8 keeps the subject of a realm's last successful regular-expression match (for the legacy `RegExp.lastMatch`,
 * `RegExp.$1`, …) until the next match. After `asciiJson` that subject is the whole JSON it escaped, 170 MB on the
 * full simulated universe: a server that wrote a pack and then ran no other match (an idle one, after its first
 * start) held it for good. A heap snapshot 60 s after a first start's catch-up found it retained by the native
 * context's `regexp_last_match_info` (issue 18). A match on an empty string lets it go.
 */
function forgetLastMatch(): void {
  EMPTY_MATCH.exec('');
}
const EMPTY_MATCH = /^/;

const gzipAsync = promisify(gzip);

function lengthOf(part: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(part.length);
  return len;
}

/** The parts of a pack that fits `want` (read ahead by a prefetch when there is one: pack-file.ts), or null. */
async function readParts(
  path: string,
  want: PackKey,
): Promise<{ header: PackHeader; stamp: PackStamp; bodies: Buffer } | null> {
  const fits = (stamp: PackStamp) =>
    stamp.version === PACK_VERSION &&
    stamp.store === want.store &&
    stamp.generation === want.generation &&
    stamp.origin === want.origin &&
    stamp.today === want.today;
  const prefetched = await takePrefetchedPackFile(path);
  // A prefetch read the whole pack before the key was known: one that does not fit is the file's other version
  // (or one written since), and the file is read again as if there had been no prefetch.
  const file = prefetched && fits(prefetched.stamp) ? prefetched : await readPackFile(path, fits);
  if (file === null) return null;
  try {
    const header = JSON.parse(file.header.toString('latin1')) as PackHeader;
    return sectionsFit(header, file.bodies) ? { header, stamp: file.stamp, bodies: file.bodies } : null;
  } catch {
    return null;
  }
}

/** Whether every section of `header` lies within `bodies` (a file cut short does not). */
function sectionsFit(header: PackHeader, bodies: Buffer): boolean {
  return Object.values(header.sections).every(
    ([offset, length]) => Number.isInteger(offset) && Number.isInteger(length) && offset + length <= bodies.length,
  );
}

/**
 * Reads a pack; null when there is none, it is unreadable, of another format version, or built from another
 * store or for another generation, origin or day. The model's gzip-held bodies share a `BodyCache` bounded by
 * `bodyCacheBytes`.
 */
export async function readPack(
  path: string,
  want: PackKey,
  opts: { bodyCacheBytes?: number } = {},
): Promise<ReadModel | null> {
  const parts = await readParts(path, want);
  if (!parts) return null;
  const { header, stamp, bodies: file } = parts;
  const bodyCache = new BodyCache(opts.bodyCacheBytes ?? DEFAULT_BODY_CACHE_BYTES);
  const body = ([offset, length, etag, plain]: Ref) =>
    plain === undefined
      ? new Body(file.subarray(offset, offset + length), etag, true)
      : new GzipBody(file.subarray(offset, offset + length), plain, etag, bodyCache);
  const events: EventEntry[] = header.events.map((e) => ({
    event: e.event,
    live: e.live,
    grade: e.grade,
    searchText: e.searchText,
    item: e.item,
    full: body(e.full),
    concise: body(e.concise),
  }));
  const { eventByKey, byCategory, byVenue, byGrade } = indexEvents(events);
  const marketById = new Map<string, MarketEntry>(
    header.markets.map((m) => [m.id, { marketId: m.id, detail: body(m.detail) }]),
  );
  const eventIds = events.map((e) => e.event.event_id);
  const catalog = lazily(file, 'catalog', header.sections.catalog, (packed: PackedCatalog) =>
    catalogFromPack(packed, eventIds),
  );
  const marketByNative = new Map<string, MarketEntry>();
  for (const [native, id] of header.natives) {
    const entry = marketById.get(id);
    if (entry) marketByNative.set(native, entry);
  }
  const model = withLazyRefs(
    {
      generation: stamp.generation,
      builtAt: stamp.builtAt,
      today: stamp.today,
      origin: stamp.origin,
      dataSource: header.dataSource,
      notice: header.notice,
      moversNotice: header.moversNotice,
      events,
      eventByKey,
      byCategory,
      byVenue,
      byGrade,
      marketById,
      marketByNative,
      catalysts: header.catalysts,
      signals: header.signals,
      signalBySlug: new Map(header.signalBodies.map(([slug, ref]) => [slug, body(ref)])),
      spot: body(header.spot),
      info: body(header.info),
      counts: header.counts,
      cache: new Map(),
      questions: questionIndexFrom(header.questions.map((q) => ({ summary: q.summary, detail: body(q.detail) }))),
      stats: { data: header.stats.data, body: body(header.stats.body) },
      bodyCache,
    },
    catalog,
    events,
    lazily(file, 'venueRefs', header.sections.venueRefs, (refs: VenueRefList) => new Map(refs)),
  );
  return withLazy(
    withLazy(model, 'catalog', catalog),
    'movers',
    lazily(file, 'movers', header.sections.movers, (movers: MoverCandidates) => movers),
  );
}

type VenueRefList = Array<[marketId: string, refs: MarketVenueRefs]>;

/**
 * A section of a pack (see Sections above) kept compressed until it is first asked for, then inflated and parsed
 * (and made into what `from` makes of it) once. The holder asks right after the first answer (read-model-holder.ts
 * `warmIndexes`). A section that does not inflate or parse (a file damaged since it was written) throws, each time
 * it is asked for, an error that names it. A function of its own, so the closure holds the pack's bytes (which the
 * model's bodies hold anyway) and nothing of the load that made it (see `withLazyRefs`).
 */
function lazily<J, T>(
  bodies: Buffer,
  name: keyof PackHeader['sections'],
  [offset, length]: Section,
  from: (parsed: J) => T,
): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      let parsed: J;
      try {
        parsed = JSON.parse(gunzipSync(bodies.subarray(offset, offset + length)).toString('latin1')) as J;
      } catch (err) {
        throw new Error(
          `the read-model pack's ${name} section (${length} bytes at ${offset}) is unreadable: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      value = from(parsed);
      done = true;
    }
    return value as T;
  };
}

/** `model` with its `key` read through `get` on first use (see `lazily`). */
function withLazy<M extends object, K extends string, T>(model: M, key: K, get: () => T): M & { readonly [k in K]: T } {
  Object.defineProperty(model, key, { get, enumerable: true });
  return model as M & { readonly [k in K]: T };
}
