// A read-model pack restores the exact bytes and indexes of the model it was written from, holding its bodies
// compressed as the model does, and is used only for the store that wrote it (its identity) at the same
// generation, origin and day: any other store, even in the same folder and at the same generation, or a pack of
// an older format, rebuilds from the store.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Body, buildReadModel, collectGarbage, type ReadModel, ReadModelHolder } from '../../src/serve/index.ts';
import { PACK_VERSION, readPack, writePack } from '../../src/serve/pack.ts';
import { readPackFile } from '../../src/serve/pack-file.ts';
import { QueryService } from '../../src/serve/query-service.ts';
import { resolveIn } from '../../src/serve/resolve.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';
import { NOW, seedStore } from './seed.ts';

const ORIGIN = 'http://pack.test';
/** Later the same UTC day: a model rebuilt at this time says so in its builtAt; one read from a pack does not. */
const LATER = new Date(NOW.getTime() + 60 * 60 * 1000);
let store: Store;
let storeId: string;
let model: ReadModel;
let dir: string;

beforeAll(async () => {
  store = await seedStore();
  storeId = await store.identity();
  model = await buildReadModel(store, { origin: ORIGIN, now: NOW });
  dir = mkdtempSync(join(tmpdir(), 'pmref-pack-'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (b: { bytes: Buffer }) => b.bytes.toString('utf8');

/** Every body a model holds, in a fixed order. */
function allBodies(m: ReadModel): Body[] {
  return [
    m.info,
    m.spot,
    m.stats.body,
    ...m.events.flatMap((e) => [e.full, e.concise]),
    ...[...m.marketById.values()].map((e) => e.detail),
    ...m.signalBySlug.values(),
    ...m.questions.list.map((q) => q.detail),
  ];
}

/** Every served body of a model with its ETag, keyed by what it is (events, markets, service info). */
function served(m: ReadModel): Record<string, [etag: string, body: string]> {
  const out: Record<string, [string, string]> = { info: [m.info.etag, text(m.info)] };
  for (const e of m.events) out[`e:${e.event.event_id}`] = [e.full.etag, text(e.full)];
  for (const [id, entry] of m.marketById) out[`m:${id}`] = [entry.detail.etag, text(entry.detail)];
  return out;
}

/** The plain JSON first part of a pack file (its stamp: version, store, generation, …). */
function packHeader(path: string): Record<string, unknown> {
  const file = readFileSync(path);
  return JSON.parse(file.subarray(4, 4 + file.readUInt32BE(0)).toString('utf8')) as Record<string, unknown>;
}

/**
 * A pack file's header, as the reader a restart uses inflates it (pack-file.ts), parsed; its sections (format 10) by
 * name, [offset, length] from the body region's start; and where that region starts in the file.
 */
async function packParts(path: string): Promise<{
  header: Record<string, unknown>;
  sections: Record<string, [number, number]>;
  bodiesAt: number;
}> {
  const parts = await readPackFile(path);
  if (!parts) throw new Error(`no readable pack at ${path}`);
  const header = JSON.parse(parts.header.toString('latin1')) as Record<string, unknown>;
  const sections = header.sections as Record<string, [number, number]>;
  return { header, sections, bodiesAt: readFileSync(path).length - parts.bodies.length };
}

/** Writes to `to` the pack at `from` with bytes in the middle of its catalog section overwritten. */
async function damageCatalog(from: string, to: string): Promise<void> {
  const { sections, bodiesAt } = await packParts(from);
  const [offset, length] = sections.catalog ?? [0, 0];
  const file = readFileSync(from);
  file.fill(0x41, bodiesAt + offset + 12, bodiesAt + offset + Math.min(length - 1, 60));
  writeFileSync(to, file);
}

/** Writes to `to` the pack at `from` with its stamp as `header` made it (the rest unchanged). */
function rewriteHeader(from: string, to: string, header: (h: Record<string, unknown>) => Record<string, unknown>) {
  const file = readFileSync(from);
  const head = Buffer.from(JSON.stringify(header(packHeader(from))), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(head.length);
  writeFileSync(to, Buffer.concat([len, head, file.subarray(4 + file.readUInt32BE(0))]));
}

/**
 * A second, different dataset for one published run: one venue_a event with one market, written at the same
 * generation (1) and day as the seed, so only the store's identity tells the two apart.
 */
async function seedOtherStore(dbUrl: string, native: string): Promise<Store> {
  const other = await openStore(dbUrl, { now: () => NOW });
  await other.migrate();
  const event = makeEvent({ native, slug: native.toLowerCase(), question: `Will ${native} happen?` });
  const market = makeMarket({ native: `${native}-T1`, event_id: event.event_id, question_raw: event.question });
  event.primary_market_id = market.market_id;
  const run = await other.startRun('simulated', '2026-11-21T12:00:00.000Z');
  await other.transaction(async (tx) => {
    await tx.upsertEvents([event]);
    await tx.upsertMarkets([market]);
  });
  await other.finishRun(run, 'ok', {}, '2026-11-21T12:05:00.000Z', true);
  return other;
}

/** Writes `written` (the seed's model) to a pack at `path` and reads it back for its store, generation, origin and day. */
async function roundTrip(path: string, written: ReadModel = model): Promise<ReadModel> {
  await writePack(written, path, storeId);
  const back = await readPack(path, {
    store: storeId,
    generation: model.generation,
    origin: ORIGIN,
    today: model.today,
  });
  if (!back) throw new Error('pack refused');
  return back;
}

/** A holder over `s` with the pack at `packPath`, its first pack write finished. */
async function serveWithPack(s: Store, packPath: string, clock: Date): Promise<ReadModelHolder> {
  const errors: unknown[] = [];
  const holder = await ReadModelHolder.create(s, {
    origin: ORIGIN,
    clock: () => clock,
    packPath,
    onError: (err) => errors.push(err),
  });
  await holder.packWritten();
  expect(errors).toEqual([]);
  return holder;
}

describe('read-model pack', () => {
  it('round-trips every body, etag and index', async () => {
    const path = join(dir, 'a.pack');
    const back = await roundTrip(path);
    expect(
      back.events.map((e) => [e.event.event_id, text(e.full), text(e.concise), e.full.etag, e.item, e.live, e.grade]),
    ).toEqual(
      model.events.map((e) => [e.event.event_id, text(e.full), text(e.concise), e.full.etag, e.item, e.live, e.grade]),
    );
    expect([...back.marketById.entries()].map(([k, v]) => [k, text(v.detail), v.detail.etag])).toEqual(
      [...model.marketById.entries()].map(([k, v]) => [k, text(v.detail), v.detail.etag]),
    );
    expect([...back.marketByNative.keys()].sort()).toEqual([...model.marketByNative.keys()].sort());
    expect([...back.eventByKey.keys()].sort()).toEqual([...model.eventByKey.keys()].sort());
    for (const index of ['byCategory', 'byVenue', 'byGrade'] as const) {
      expect([...back[index].entries()].map(([k, v]) => [k, v.map((e) => e.event.event_id)])).toEqual(
        [...model[index].entries()].map(([k, v]) => [k, v.map((e) => e.event.event_id)]),
      );
    }
    expect(back.movers).toEqual(model.movers);
    expect(back.catalysts).toEqual(model.catalysts);
    expect(text(back.info)).toBe(text(model.info));
    expect(text(back.spot)).toBe(text(model.spot));
    expect([...back.signalBySlug.keys()]).toEqual([...model.signalBySlug.keys()]);
  });

  it('builds the search and identifier indexes and parses the movers on first use, answering as the model it was written from', async () => {
    const path = join(dir, 'lazy.pack');
    const back = await roundTrip(path);
    const words = model.events.slice(0, 3).map((e) => e.event.question.split(' ').slice(-2).join(' '));
    for (const q of words) {
      expect(back.catalog.search.searchEvents(q)).toEqual(model.catalog.search.searchEvents(q));
      expect(back.catalog.search.searchMarkets(q)).toEqual(model.catalog.search.searchMarkets(q));
    }
    // The same object on every read: built once.
    expect(back.catalog.search).toBe(back.catalog.search);
    const refs = [...model.marketById.keys()].slice(0, 3).concat(model.events.slice(0, 2).map((e) => e.event.slug));
    for (const ref of refs) {
      expect(resolveIn(back.refs, ref)).toEqual(resolveIn(model.refs, ref));
      expect(resolveIn(back.refs, ref)).not.toBeNull();
    }
    expect(back.refs).toBe(back.refs);
    // The movers' candidates are parsed from the header's text on first use, once (issue 18).
    expect(typeof Object.getOwnPropertyDescriptor(back, 'movers')?.get).toBe('function');
    expect(back.movers).toEqual(model.movers);
    expect(back.movers).toBe(back.movers);
  });

  it('keeps the market catalog, the movers and the venue identifiers out of its header, parsed on first use', async () => {
    const path = join(dir, 'sections.pack');
    const back = await roundTrip(path);
    const { header, sections } = await packParts(path);
    // What a first answer does not need is not in the header a restart parses before it (issue 18).
    for (const key of ['catalog', 'movers', 'venueRefs']) expect(header).not.toHaveProperty(key);
    expect(Object.keys(sections).sort()).toEqual(['catalog', 'movers', 'venueRefs']);
    for (const key of ['catalog', 'movers'] as const)
      expect(typeof Object.getOwnPropertyDescriptor(back, key)?.get).toBe('function');
    expect(back.catalog.rows).toEqual(model.catalog.rows);
    expect(back.catalog.events).toEqual(model.catalog.events);
    expect(back.catalog.docs).toEqual(model.catalog.docs);
    expect(back.catalog).toBe(back.catalog);
    expect(back.refs.venueRefs).toEqual(model.refs.venueRefs);
  });

  it("answers a plain event list without parsing the catalog (a restart's first answer), and parses it for a search", async () => {
    const back = await roundTrip(join(dir, 'first-answer.pack'));
    expect(typeof Object.getOwnPropertyDescriptor(back, 'catalog')?.get).toBe('function');
    // The model as served, counting the reads of its catalog.
    let reads = 0;
    const counted = Object.create(back, {
      catalog: {
        get: () => {
          reads++;
          return back.catalog;
        },
      },
    }) as ReadModel;
    const query = new QueryService({ current: () => counted });
    const served = new QueryService({ current: () => model });
    const list = (q: QueryService, params: Record<string, string>) =>
      JSON.parse(q.listEvents(params, false).bytes.toString('utf8')) as { total: number };
    expect(list(query, {})).toEqual(list(served, {}));
    expect(list(query, { category: 'crypto', status: 'active', limit: '5' })).toEqual(
      list(served, { category: 'crypto', status: 'active', limit: '5' }),
    );
    expect(reads).toBe(0);
    const q = model.events[0]?.event.question.split(' ').slice(-2).join(' ') ?? '';
    expect(list(query, { q })).toEqual(list(served, { q }));
    expect(list(query, { sort: 'volume' })).toEqual(list(served, { sort: 'volume' }));
    expect(reads).toBeGreaterThan(0);
  });

  it('is refused when cut short, and names a damaged section when it is first asked for', async () => {
    const path = join(dir, 'damaged.pack');
    await writePack(model, path, storeId);
    const want = { store: storeId, generation: model.generation, origin: ORIGIN, today: model.today };
    // Cut short: the last section no longer fits the file.
    const cut = join(dir, 'cut.pack');
    writeFileSync(cut, readFileSync(path).subarray(0, -10));
    expect(await readPack(cut, want)).toBeNull();
    // Damaged in the middle of the catalog's section: the pack loads, the catalog says what is wrong.
    const broken = join(dir, 'broken.pack');
    await damageCatalog(path, broken);
    const back = await readPack(broken, want);
    expect(back).not.toBeNull();
    expect(() => back?.catalog).toThrow(/read-model pack's catalog section \(\d+ bytes at \d+\) is unreadable/);
    expect(text(back?.info ?? model.info)).toBe(text(model.info));
  });

  it('rebuilds from the store when a section of the pack it served from cannot be read', async () => {
    const path = join(dir, 'rebuild.pack');
    await writePack(model, path, storeId);
    await damageCatalog(path, path);
    const errors: string[] = [];
    const holder = await ReadModelHolder.create(store, {
      origin: ORIGIN,
      clock: () => NOW,
      packPath: path,
      onError: (err) => errors.push(err instanceof Error ? err.message : String(err)),
    });
    const served = holder.current();
    await holder.packWritten();
    // The model read from the damaged pack is replaced by one built from the store (compared by identity: formatting
    // the served model for a failure message would read its damaged catalog).
    await vi.waitFor(
      () => {
        if (holder.current() === served)
          throw new Error(`still serving the pack's model; errors: ${errors.join('; ')}`);
      },
      { timeout: 10_000 },
    );
    expect(errors).toEqual([
      expect.stringMatching(/catalog section .* is unreadable.*; rebuilding it from the store$/),
      expect.stringMatching(/catalog cannot be read .*: the rebuild normalizes every search document$/),
    ]);
    const q = model.events[0]?.event.question.split(' ').slice(-2).join(' ') ?? '';
    expect(holder.current().catalog.search.searchEvents(q)).toEqual(model.catalog.search.searchEvents(q));
    await holder.packWritten();
    // The rebuilt model's pack replaced the damaged one.
    const want = { store: storeId, generation: model.generation, origin: ORIGIN, today: model.today };
    expect((await readPack(path, want))?.catalog.rows).toEqual(model.catalog.rows);
  });

  it('keeps every body as the model holds it (gzip or identity), so a restart serves the very same bytes', async () => {
    const path = join(dir, 'held.pack');
    const back = await roundTrip(path);
    const held = (m: ReadModel) =>
      allBodies(m).map((b) => [b.etag, b.heldEncoding, b.length, b.held.toString('base64'), b.encoded('gzip').length]);
    expect(held(back)).toEqual(held(model));
    expect(allBodies(back).map((b) => text(b))).toEqual(allBodies(model).map((b) => text(b)));
    expect(held(model).filter(([, encoding]) => encoding === 'gzip').length).toBeGreaterThan(10);
  });

  it('keeps text outside ASCII in its header exactly (it is stored escaped)', async () => {
    const path = join(dir, 'unicode.pack');
    const question = 'Präsidentschaft — “wer” gewinnt? 😀 ’';
    const [first, ...rest] = model.events;
    if (!first) throw new Error('no events');
    const edited = { ...model, events: [{ ...first, event: { ...first.event, question } }, ...rest] };
    const back = await roundTrip(path, edited);
    expect(back?.events[0]?.event).toEqual({ ...first.event, question });
    expect(back?.events.map((e) => e.event)).toEqual(edited.events.map((e) => e.event));
  });

  it("leaves no regular-expression match pinning its header's JSON (V8 keeps a realm's last match subject)", async () => {
    const path = join(dir, 'last-match.pack');
    const [first, ...rest] = model.events;
    if (!first) throw new Error('no events');
    // Text outside ASCII, so the header's escaping matches.
    const edited = { ...model, events: [{ ...first, event: { ...first.event, question: 'Präsident?' } }, ...rest] };
    expect(await writePack(edited, path, storeId)).toBe(true);
    // `RegExp.input` is the subject of the last successful match: the escaping's would be the whole header.
    expect((RegExp as unknown as { input: string }).input).toBe('');
  });

  it('is compressed: its bodies take a fraction of their identity size', async () => {
    const path = join(dir, 'size.pack');
    await writePack(model, path, storeId);
    const file = readFileSync(path);
    const parts = await packParts(path);
    const identity = allBodies(model).reduce((n, b) => n + b.length, 0);
    // The body region: every body as held, then the sections (each gzip: its magic number first).
    const sections = Object.values(parts.sections);
    const held = allBodies(model).reduce((n, b) => n + b.held.length, 0);
    expect(file.length - parts.bodiesAt).toBe(held + sections.reduce((n, [, length]) => n + length, 0));
    for (const [offset] of sections) expect(file[parts.bodiesAt + offset]).toBe(0x1f);
    expect(held).toBeLessThan(identity / 2); // 2.4× on this small seed, 4.6× on the full universe
    // The header is compressed too (the stored bytes after the stamp): its JSON is several times the bytes it takes.
    const stampLength = file.readUInt32BE(0);
    const headLength = file.readUInt32BE(4 + stampLength);
    expect(file[8 + stampLength]).toBe(0x1f); // gzip's magic number
    expect(packHeader(path).headerBytes).toBeGreaterThan(3 * headLength);
  });

  it('is not written, and leaves no file behind, for a model replaced before or while it is written', async () => {
    const before = join(dir, 'replaced-before.pack');
    expect(await writePack(model, before, storeId, () => false)).toBe(false);
    // Replaced after the first batch of bodies: the write stops there.
    const during = join(dir, 'replaced-during.pack');
    let asked = 0;
    expect(await writePack(model, during, storeId, () => ++asked < 2)).toBe(false);
    expect(asked).toBe(2);
    expect(readdirSync(dir).filter((f) => f.startsWith('replaced-'))).toEqual([]);
    expect(await writePack(model, during, storeId, () => true)).toBe(true);
    expect(
      await readPack(during, { store: storeId, generation: model.generation, origin: ORIGIN, today: model.today }),
    ).not.toBeNull();
  });

  it('lets a replaced model go: neither its settling, its pack write nor its index getters keep it', async () => {
    const holder = await serveWithPack(store, join(dir, 'replaced.pack'), NOW);
    const first = new WeakRef(holder.current());
    // Its indexes built, as once a server is up: their getters must hold only what they index.
    void first.deref()?.catalog.search;
    void first.deref()?.refs;
    expect(await holder.refresh(true)).toBe(true);
    await holder.packWritten();
    // A WeakRef's target is kept to the end of the job that made or read it: collect in a later one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(first.deref()).toBeUndefined();
  });

  it('is refused for another store, generation, origin or day, an older format, and when missing', async () => {
    const path = join(dir, 'b.pack');
    await writePack(model, path, storeId);
    const want = { store: storeId, generation: model.generation, origin: ORIGIN, today: model.today };
    expect(await readPack(path, want)).not.toBeNull();
    expect(await readPack(path, { ...want, store: 'another-store' })).toBeNull();
    expect(await readPack(path, { ...want, generation: model.generation + 1 })).toBeNull();
    expect(await readPack(path, { ...want, origin: 'http://other' })).toBeNull();
    expect(await readPack(path, { ...want, today: '2000-01-01' })).toBeNull();
    expect(await readPack(join(dir, 'missing.pack'), want)).toBeNull();

    // The same pack in the format before store identities (version 1, no `store`) is never read.
    const oldPath = join(dir, 'v1.pack');
    rewriteHeader(path, oldPath, ({ store: _store, ...h }) => ({ ...h, version: PACK_VERSION - 1 }));
    expect(await readPack(oldPath, want)).toBeNull();
    // …while the same bytes under the current header are read (the refusal is the version's, not the copy's).
    rewriteHeader(path, oldPath, (h) => h);
    expect(await readPack(oldPath, want)).not.toBeNull();
  });
});

describe('ReadModelHolder with a pack', () => {
  it('serves two SQLite stores of one folder, sharing one pack path, each with its own data', async () => {
    const folder = mkdtempSync(join(dir, 'two-stores-'));
    const packPath = join(folder, 'read-model.pack');
    const a = await seedStore(`sqlite:${join(folder, 'a.sqlite')}`);
    const b = await seedOtherStore(`sqlite:${join(folder, 'b.sqlite')}`, 'KXOTHER-26');
    try {
      expect(await a.identity()).not.toBe(await b.identity());
      expect([await a.generation(), await b.generation()]).toEqual([1, 1]);
      const ownA = served(await buildReadModel(a, { origin: ORIGIN, now: NOW }));
      const ownB = served(await buildReadModel(b, { origin: ORIGIN, now: NOW }));
      expect(ownA).not.toEqual(ownB);

      // A, then B, then A again, then B again: each start sees the pack the other store just wrote.
      expect(served((await serveWithPack(a, packPath, NOW)).current())).toEqual(ownA);
      expect(packHeader(packPath)).toMatchObject({ store: await a.identity(), generation: 1 });
      const servedB = (await serveWithPack(b, packPath, LATER)).current();
      expect(served(servedB)).toEqual(served(await buildReadModel(b, { origin: ORIGIN, now: LATER })));
      expect(servedB.builtAt).toBe(LATER.toISOString()); // rebuilt, not read from A's pack
      expect(packHeader(packPath)).toMatchObject({ store: await b.identity(), generation: 1 });
      const againA = (await serveWithPack(a, packPath, LATER)).current();
      expect(served(againA)).toEqual(served(await buildReadModel(a, { origin: ORIGIN, now: LATER })));
      expect(againA.builtAt).toBe(LATER.toISOString());

      // A restart of the store that wrote the pack does use it (the same model, built earlier).
      const reused = (await serveWithPack(a, packPath, new Date(LATER.getTime() + 60_000))).current();
      expect(reused.builtAt).toBe(LATER.toISOString());
      expect(served(reused)).toEqual(served(againA));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('does not use the pack of a deleted database when a new one is ingested the same day', async () => {
    const folder = mkdtempSync(join(dir, 'deleted-db-'));
    const packPath = join(folder, 'read-model.pack');
    const file = join(folder, 'pmref.sqlite');
    const first = await seedStore(`sqlite:${file}`);
    const firstServed = served((await serveWithPack(first, packPath, NOW)).current());
    await first.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });

    const second = await seedOtherStore(`sqlite:${file}`, 'KXNEWDB-26');
    try {
      expect(await second.generation()).toBe(1);
      const model2 = (await serveWithPack(second, packPath, LATER)).current();
      expect(served(model2)).toEqual(served(await buildReadModel(second, { origin: ORIGIN, now: LATER })));
      expect(served(model2)).not.toEqual(firstServed);
      expect(model2.events.map((e) => e.event.slug)).toEqual(['kxnewdb-26']);
      expect(packHeader(packPath)).toMatchObject({ store: await second.identity(), version: PACK_VERSION });
    } finally {
      await second.close();
    }
  });

  it('rebuilds over a pack of an older format version and rewrites it', async () => {
    const folder = mkdtempSync(join(dir, 'old-format-'));
    const packPath = join(folder, 'read-model.pack');
    await writePack(model, packPath, storeId);
    rewriteHeader(packPath, packPath, (h) => ({ ...h, version: PACK_VERSION - 1 }));

    const rebuilt = (await serveWithPack(store, packPath, LATER)).current();
    expect(rebuilt.builtAt).toBe(LATER.toISOString());
    expect(packHeader(packPath)).toMatchObject({ version: PACK_VERSION, store: storeId, builtAt: LATER.toISOString() });
  });

  it('rebuilds when the store behind it changes identity at the same generation and day', async () => {
    let identity = storeId;
    const swapped = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'identity') return () => Promise.resolve(identity);
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const holder = await ReadModelHolder.create(swapped, { origin: ORIGIN, clock: () => NOW });
    expect(await holder.refresh()).toBe(false);
    identity = 'a-database-created-again';
    expect(await holder.refresh()).toBe(true);
    expect(await holder.refresh()).toBe(false);
  });
});
