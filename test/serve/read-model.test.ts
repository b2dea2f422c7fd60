// The read model swaps atomically when the store's generation moves: readers keep the old model until the new one is complete, and concurrent refreshes share one rebuild.
import { describe, expect, it } from 'vitest';
import {
  clampInt,
  clampMinMult,
  clampOffset,
  QueryService,
  ReadModelHolder,
  refCandidates,
} from '../../src/serve/index.ts';
import { fed, NOW, seedStore } from '../serve/seed.ts';

describe('ReadModelHolder', () => {
  it('keeps serving the old generation during a rebuild and swaps to the new one when done', async () => {
    const store = await seedStore();
    try {
      const swaps: number[] = [];
      const holder = await ReadModelHolder.create(store, {
        origin: 'http://pmref.test',
        clock: () => NOW,
        onSwap: (m) => swaps.push(m.generation),
      });
      const query = new QueryService(holder, () => NOW);
      const before = holder.current();
      expect(before.generation).toBe(1);
      expect(before.catalog.search.searchEvents('fed').hits.length).toBeGreaterThan(0);
      expect(await holder.refresh()).toBe(false); // nothing changed

      const run = await store.startRun('simulated', '2026-11-21T13:00:00.000Z');
      await store.upsertEvents([{ ...fed, question: 'Renamed question?' }]);
      await store.finishRun(run, 'ok', {}, '2026-11-21T13:01:00.000Z', true);

      const a = holder.refresh();
      const b = holder.refresh();
      // Until the rebuild resolves, readers see the complete old model.
      expect(holder.current()).toBe(before);
      expect(query.getEvent(fed.slug)?.value()).toMatchObject({ question: fed.question });
      expect(await a).toBe(true);
      expect(await b).toBe(true); // the same rebuild
      expect(swaps).toEqual([2]);
      expect(holder.current().generation).toBe(2);
      expect(query.getEvent(fed.slug)?.value()).toMatchObject({ question: 'Renamed question?' });
      expect(query.getEvent(fed.slug)?.etag).toMatch(/^"g2-/);
      // The rebuild normalized only the search document whose text changed (the renamed event's) and took the rest
      // from the model it replaced, whose documents the search above normalized (in service, the holder's warm-up).
      const after = holder.current().catalog;
      expect(after.normalization()?.reused).toBe(after.docs.events.length + after.docs.markets.length - 1);
      expect(after.search.searchEvents('renamed').hits).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('builds again when a run publishes during a build, so no model holds two generations', async () => {
    const store = await seedStore();
    try {
      // A run publishes while the first build reads the store (after it read the generation, before it read the
      // events): that build's generation is stale once it ends.
      let published = false;
      const listEvents = store.listEvents.bind(store);
      const racing = Object.assign(Object.create(store) as typeof store, {
        listEvents: async (...args: Parameters<typeof store.listEvents>) => {
          if (!published) {
            published = true;
            const run = await store.startRun('simulated', '2026-11-21T13:00:00.000Z');
            await store.upsertEvents([{ ...fed, question: 'Published during the build?' }]);
            await store.finishRun(run, 'ok', {}, '2026-11-21T13:01:00.000Z', true);
          }
          return listEvents(...args);
        },
      });
      const holder = await ReadModelHolder.create(racing, { origin: 'http://pmref.test', clock: () => NOW });
      const model = holder.current();
      expect(published).toBe(true);
      expect(model.generation).toBe(2);
      expect(model.eventByKey.get(fed.slug)?.full.value()).toMatchObject({ question: 'Published during the build?' });
    } finally {
      await store.close();
    }
  });

  it('keeps the old model when a rebuild fails, and reports the error', async () => {
    const store = await seedStore();
    const errors: unknown[] = [];
    const holder = await ReadModelHolder.create(store, {
      origin: 'o',
      clock: () => NOW,
      onError: (e) => errors.push(e),
    });
    const model = holder.current();
    await store.close();
    expect(await holder.refresh(true)).toBe(false);
    expect(holder.current()).toBe(model);
    expect(errors).toHaveLength(1);
  });
});

describe('parameter rules', () => {
  it('clamps integers, offsets and min_mult as served-shapes says', () => {
    expect(clampInt('limit', undefined, 50, 1, 100)).toEqual({ value: 50 });
    expect(clampInt('limit', '0', 50, 1, 100)).toEqual({ value: 50 });
    expect(clampInt('limit', '7.9', 50, 1, 100)).toEqual({ value: 7 });
    expect(clampInt('limit', 101, 50, 1, 100).value).toBe(100);
    expect(clampInt('limit', '-4', 50, 1, 100).value).toBe(1);
    expect(clampInt('limit', 'x', 50, 1, 100)).toEqual({
      value: 50,
      notice: 'limit "x" is not a number; used the default 50.',
    });
    expect(clampOffset('12.5')).toEqual({ value: 12 });
    expect(clampOffset(-1).value).toBe(0);
    expect(clampMinMult('0')).toEqual({ value: 2 });
    expect(clampMinMult('0.3').value).toBe(1);
    expect(clampMinMult('4.5')).toEqual({ value: 4.5 });
  });

  it('parses market URLs into candidate ids without fetching anything', () => {
    expect(refCandidates('https://venue-a.example/markets/kxfed/kxfed-26dec-t4.00?x=1#y')).toEqual([
      'kxfed-26dec-t4.00',
      'KXFED-26DEC-T4.00',
      'kxfed',
      'KXFED',
    ]);
    expect(refCandidates('kxfed-26dec')).toEqual(['KXFED-26DEC']);
  });
});
