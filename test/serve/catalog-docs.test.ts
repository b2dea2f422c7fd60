// A built read model normalizes its search documents on first use, not during the build (issue 18: the first
// start's first answer does not wait for stemming every title, question and rules text), and the documents it
// then gives the search index and the pack are what an eager build gave.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ indexedDocs: 0 }));
vi.mock('../../src/serve/search/engine.ts', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/serve/search/engine.ts')>();
  return {
    ...engine,
    indexedDocs: (docs: Parameters<typeof engine.indexedDocs>[0]) => {
      calls.indexedDocs++;
      return engine.indexedDocs(docs);
    },
  };
});

import { catalogFromPack, packCatalog } from '../../src/serve/market-list.ts';
import { buildReadModel, type ReadModel } from '../../src/serve/read-model.ts';
import type { Store } from '../../src/store/index.ts';
import { fedMarkets, NOW, seedStore } from './seed.ts';

let store: Store;
let model: ReadModel;
beforeAll(async () => {
  store = await seedStore();
  model = await buildReadModel(store, { origin: 'http://pmref.test', now: NOW });
});
afterAll(async () => {
  await store.close();
});

describe('the catalog of a built read model', () => {
  it('leaves its search documents un-normalized until the search or the pack reads them', () => {
    expect(calls.indexedDocs).toBe(0);
    const docs = model.catalog.docs;
    expect(calls.indexedDocs).toBe(1);
    // Normalized once: the search index and the pack read the same documents.
    expect(model.catalog.docs).toBe(docs);
    expect(model.catalog.search).toBeDefined();
    expect(calls.indexedDocs).toBe(1);
    expect(docs.markets).toHaveLength(model.catalog.rows.length);
    expect(docs.marketIds.flat()).toContain(fedMarkets[0]?.platform_market_id);
  });

  it('finds by normalized terms and survives a pack round trip with the same documents', () => {
    const fedIds = fedMarkets.map((m) => m.market_id);
    const { hits } = model.catalog.search.searchMarkets('federal funds');
    const found = hits.map((h) => model.catalog.rows[h.key]?.item.market_id);
    expect(found.sort()).toEqual([...fedIds].sort());
    const packed = JSON.parse(JSON.stringify(packCatalog(model.catalog)));
    const back = catalogFromPack(
      packed,
      model.events.map((e) => e.event.event_id),
    );
    expect(back.docs).toEqual(model.catalog.docs);
  });
});
