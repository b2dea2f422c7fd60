// A read-model pack restores the exact bytes and indexes of the model it was written from, and is refused for
// another generation, origin or day (a restart then rebuilds from the store).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReadModel, type ReadModel } from '../../src/serve/index.ts';
import { readPack, writePack } from '../../src/serve/pack.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from './seed.ts';

const ORIGIN = 'http://pack.test';
let store: Store;
let model: ReadModel;
let dir: string;

beforeAll(async () => {
  store = await seedStore();
  model = await buildReadModel(store, { origin: ORIGIN, now: NOW });
  dir = mkdtempSync(join(tmpdir(), 'pmref-pack-'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (b: { bytes: Buffer }) => b.bytes.toString('utf8');

describe('read-model pack', () => {
  it('round-trips every body, etag and index', async () => {
    const path = join(dir, 'a.pack');
    await writePack(model, path);
    const back = await readPack(path, { generation: model.generation, origin: ORIGIN, today: model.today });
    if (!back) throw new Error('pack refused');
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

  it('is refused for another generation, origin or day, and when missing', async () => {
    const path = join(dir, 'b.pack');
    await writePack(model, path);
    const want = { generation: model.generation, origin: ORIGIN, today: model.today };
    expect(await readPack(path, { ...want, generation: model.generation + 1 })).toBeNull();
    expect(await readPack(path, { ...want, origin: 'http://other' })).toBeNull();
    expect(await readPack(path, { ...want, today: '2000-01-01' })).toBeNull();
    expect(await readPack(join(dir, 'missing.pack'), want)).toBeNull();
  });
});
