/**
 * A read-model pack: the read model of one generation written to a file as its exact bytes plus a JSON
 * header, so a restart serves at once instead of rebuilding from the store (issue 4: "later starts reuse the
 * store and serve at once"). A pack is used only when it was built from the same store (its identity, written
 * once at the store's creation: two stores in one folder share a pack path, and a database deleted and created
 * again starts over at the same generations), for the store's current generation, the same public origin (it
 * is inside every body) and the same UTC date (liveness depends on it); otherwise the holder builds from the
 * store as usual and writes a fresh pack. A pack of an older format version is never read.
 */
import { existsSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import type { Catalyst, Event, Notice, QuestionSummary, SignalBulletin, Stats } from '../domain/index.ts';
import { Body } from './json-bytes.ts';
import { catalogFromPack, type PackedCatalog, packCatalog } from './market-list.ts';
import type { MoverCandidates } from './movers.ts';
import { questionIndexFrom } from './questions.ts';
import { type EventEntry, indexEvents, type MarketEntry, type ReadModel } from './read-model.ts';

/**
 * 2: the header names the store it was built from (issue 15). 3: cross-venue questions, stats and the search
 * catalog (issue 17). 4: question legs name their subject.
 * Packs of other versions are rebuilt.
 */
export const PACK_VERSION = 4;

type Ref = [offset: number, length: number, etag: string];

interface PackHeader {
  version: number;
  /** The identity of the store the model was built from (`Store.identity()`). */
  store: string;
  generation: number;
  builtAt: string;
  today: string;
  origin: string;
  dataSource: ReadModel['dataSource'];
  notice: Notice;
  moversNotice: Notice;
  counts: ReadModel['counts'];
  movers: MoverCandidates;
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
  /** Issue 17: market rows and normalized search documents; the search index is rebuilt from them at load. */
  catalog: PackedCatalog;
}

/** What a pack must match to be used: the store it was built from, its generation, origin and UTC day. */
export interface PackKey {
  store: string;
  generation: number;
  origin: string;
  today: string;
}

/**
 * Writes `model`, built from the store whose identity is `store`, to `path` (atomically: a temporary file
 * renamed into place).
 */
export async function writePack(model: ReadModel, path: string, store: string): Promise<void> {
  const chunks: Buffer[] = [];
  let offset = 0;
  const ref = (body: Body): Ref => {
    chunks.push(body.bytes);
    const r: Ref = [offset, body.bytes.length, body.etag];
    offset += body.bytes.length;
    return r;
  };
  const header: PackHeader = {
    version: PACK_VERSION,
    store,
    generation: model.generation,
    builtAt: model.builtAt,
    today: model.today,
    origin: model.origin,
    dataSource: model.dataSource,
    notice: model.notice,
    moversNotice: model.moversNotice,
    counts: model.counts,
    movers: model.movers,
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
    catalog: packCatalog(model.catalog),
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(head.length);
  const tmp = `${path}.tmp-${process.pid}`;
  // Written in batches (no one big concatenation: the bodies already take the model's memory once).
  const fh = await open(tmp, 'w');
  try {
    await fh.writev([len, head]);
    for (let i = 0; i < chunks.length; i += 1024) await fh.writev(chunks.slice(i, i + 1024));
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

/**
 * Reads a pack; null when there is none, it is unreadable, of another format version, or built from another
 * store or for another generation, origin or day.
 */
export async function readPack(path: string, want: PackKey): Promise<ReadModel | null> {
  if (!existsSync(path)) return null;
  let file: Buffer;
  let header: PackHeader;
  try {
    file = await readFile(path);
    const headLength = file.readUInt32BE(0);
    header = JSON.parse(file.subarray(4, 4 + headLength).toString('utf8')) as PackHeader;
    if (header.version !== PACK_VERSION) return null;
    if (
      header.store !== want.store ||
      header.generation !== want.generation ||
      header.origin !== want.origin ||
      header.today !== want.today
    )
      return null;
    file = file.subarray(4 + headLength);
  } catch {
    return null;
  }
  const body = ([offset, length, etag]: Ref) => new Body(file.subarray(offset, offset + length), etag, true);
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
  const marketByNative = new Map<string, MarketEntry>();
  for (const [native, id] of header.natives) {
    const entry = marketById.get(id);
    if (entry) marketByNative.set(native, entry);
  }
  return {
    generation: header.generation,
    builtAt: header.builtAt,
    today: header.today,
    origin: header.origin,
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
    movers: header.movers,
    catalysts: header.catalysts,
    signals: header.signals,
    signalBySlug: new Map(header.signalBodies.map(([slug, ref]) => [slug, body(ref)])),
    spot: body(header.spot),
    info: body(header.info),
    counts: header.counts,
    cache: new Map(),
    questions: questionIndexFrom(header.questions.map((q) => ({ summary: q.summary, detail: body(q.detail) }))),
    stats: { data: header.stats.data, body: body(header.stats.body) },
    catalog: catalogFromPack(
      header.catalog,
      events.map((e) => e.event.event_id),
    ),
  };
}
