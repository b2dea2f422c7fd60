// A read-model pack read ahead of need (issue 18: a restart's pack header inflated while the server waited): the
// prefetch `bin/pmref.js` starts for `pmref start` and `pmref serve` is what `readPack` then uses, once, and only
// when it fits the store, generation, origin and day wanted; a prefetch nobody takes is dropped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config.ts';
import { buildReadModel, type ReadModel } from '../../src/serve/index.ts';
import { readPack, writePack } from '../../src/serve/pack.ts';
import {
  DEFAULT_DB_URL,
  type PackKey,
  packPathFor,
  prefetchForCommand,
  prefetchPackFile,
  readPackFile,
  takePrefetchedPackFile,
} from '../../src/serve/pack-file.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from './seed.ts';

const ORIGIN = 'http://pack-file.test';
let store: Store;
let model: ReadModel;
let key: PackKey;
let dir: string;

beforeAll(async () => {
  store = await seedStore();
  model = await buildReadModel(store, { origin: ORIGIN, now: NOW });
  key = { store: await store.identity(), generation: model.generation, origin: ORIGIN, today: model.today };
  dir = mkdtempSync(join(tmpdir(), 'pmref-pack-file-'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const eventIds = (m: ReadModel) => m.events.map((e) => e.event.event_id);

describe('packPathFor', () => {
  it('names the pack beside an SQLite file, and none for PostgreSQL or an in-memory database', () => {
    expect(packPathFor('sqlite:./data/pmref.sqlite')).toBe(`${resolve('data/pmref.sqlite')}.pack`);
    expect(packPathFor('sqlite:/var/lib/pmref/a.sqlite')).toBe('/var/lib/pmref/a.sqlite.pack');
    expect(packPathFor('sqlite::memory:')).toBeNull();
    expect(packPathFor('postgres://postgres@127.0.0.1:5432/test')).toBeNull();
  });

  it("prefetches the configuration's default store when PMREF_DB_URL is unset", () => {
    expect(DEFAULT_DB_URL).toBe(ConfigSchema.parse({}).PMREF_DB_URL);
  });
});

describe('a prefetched pack', () => {
  it('is what readPack serves from, once: the file itself is not read again', async () => {
    const path = join(dir, 'once.sqlite.pack');
    await writePack(model, path, key.store);
    // The prefetch reads the file; then the file is made useless: only the prefetched bytes can give a model now.
    await prefetchPackFile(path);
    writeFileSync(path, 'not a pack');
    const back = await readPack(path, key);
    expect(back).not.toBeNull();
    expect(back?.generation).toBe(model.generation);
    expect(eventIds(back as ReadModel)).toEqual(eventIds(model));
    // Taken: the next read goes to the file, which is no pack any more.
    expect(await readPack(path, key)).toBeNull();
  });

  it('that does not fit what is wanted is set aside, and the file is read as it is now', async () => {
    const path = join(dir, 'other.sqlite.pack');
    await writePack(model, path, 'another-store');
    await prefetchPackFile(path);
    // The pack was rewritten for this store since the prefetch read it (a pack written after the prefetch began).
    await writePack(model, path, key.store);
    const back = await readPack(path, key);
    expect(back?.generation).toBe(model.generation);
    // And a prefetch of a pack that fits nothing gives null, as the file would.
    await writePack(model, path, 'another-store');
    await prefetchPackFile(path);
    expect(await readPack(path, key)).toBeNull();
  });

  it('is taken once, by its own path, and dropped when nobody takes it in time', async () => {
    const path = join(dir, 'kept.sqlite.pack');
    await writePack(model, path, key.store);
    void prefetchPackFile(path);
    expect(takePrefetchedPackFile(join(dir, 'elsewhere.sqlite.pack'))).toBeUndefined();
    const taken = takePrefetchedPackFile(path);
    expect(taken).toBeDefined();
    expect((await taken)?.stamp).toMatchObject({ store: key.store, generation: model.generation, origin: ORIGIN });
    expect(takePrefetchedPackFile(path)).toBeUndefined();

    await prefetchPackFile(path, 20);
    await new Promise((r) => setTimeout(r, 100));
    expect(takePrefetchedPackFile(path)).toBeUndefined();
  });

  it('of a missing or broken file is null, never a rejection', async () => {
    const missing = join(dir, 'missing.sqlite.pack');
    void prefetchPackFile(missing);
    expect(await takePrefetchedPackFile(missing)).toBeNull();
    const broken = join(dir, 'broken.sqlite.pack');
    writeFileSync(broken, Buffer.from([0, 0, 0, 5, 0x7b]));
    expect(await readPackFile(broken)).toBeNull();
    void prefetchPackFile(broken);
    expect(await takePrefetchedPackFile(broken)).toBeNull();
  });
});

describe('prefetchForCommand', () => {
  it('reads ahead for the commands that serve a read model (not for their usage), from the store PMREF_DB_URL names', async () => {
    const db = join(dir, 'cmd.sqlite');
    await writePack(model, `${db}.pack`, key.store);
    for (const command of ['start', 'serve']) {
      prefetchForCommand([command, '--port', '0'], { PMREF_DB_URL: `sqlite:${db}` });
      expect((await takePrefetchedPackFile(`${db}.pack`))?.stamp.store).toBe(key.store);
    }
    for (const args of [['ingest'], ['bench'], [], ['start', '--help'], ['serve', '-h']]) {
      prefetchForCommand(args, { PMREF_DB_URL: `sqlite:${db}` });
      expect(takePrefetchedPackFile(`${db}.pack`)).toBeUndefined();
    }
    // A store without a pack file of its own (PostgreSQL, in memory) prefetches nothing.
    prefetchForCommand(['start'], { PMREF_DB_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    prefetchForCommand(['start'], { PMREF_DB_URL: 'sqlite::memory:' });
    expect(takePrefetchedPackFile(`${resolve(':memory:')}.pack`)).toBeUndefined();
  });
});
