// A built read model normalizes its search documents on first use, not during the build (issue 18: the first
// start's first answer does not wait for stemming every title, question and rules text), and the documents it
// then gives the search index and the pack are what an eager build gave. A rebuild takes the normalized text of
// every document whose source text did not change from the model it replaces (issue 18: the read model rebuilds
// only what changed), and gives the documents a normalization from scratch gives.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ normalizations: 0 }));
vi.mock('../../src/serve/search/engine.ts', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/serve/search/engine.ts')>();
  return {
    ...engine,
    normalizedDocs: (...args: Parameters<typeof engine.normalizedDocs>) => {
      calls.normalizations++;
      return engine.normalizedDocs(...args);
    },
  };
});

import { catalogFromPack, packCatalog } from '../../src/serve/market-list.ts';
import { buildReadModel, type ReadModel } from '../../src/serve/read-model.ts';
import { indexedDocs, normalizedDocs, type SearchDocs } from '../../src/serve/search/engine.ts';
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

const countOf = (m: ReadModel) => m.catalog.docs.events.length + m.catalog.docs.markets.length;

describe('the catalog of a built read model', () => {
  it('leaves its search documents un-normalized until the search or the pack reads them', () => {
    expect(calls.normalizations).toBe(0);
    expect(model.catalog.normalization()).toBeNull();
    const docs = model.catalog.docs;
    expect(calls.normalizations).toBe(1);
    // Normalized once: the search index and the pack read the same documents.
    expect(model.catalog.docs).toBe(docs);
    expect(model.catalog.search).toBeDefined();
    expect(calls.normalizations).toBe(1);
    expect(docs.markets).toHaveLength(model.catalog.rows.length);
    expect(docs.marketIds.flat()).toContain(fedMarkets[0]?.platform_market_id);
    // Nothing to take from: every document was normalized.
    expect(model.catalog.normalization()?.reused).toBe(0);
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
    // A pack keeps no fingerprints (its documents may have been normalized by another version): nothing to reuse.
    expect(back.normalization()).toBeNull();
    // The pack keeps the documents only, as before.
    expect(Object.keys(packed.docs).sort()).toEqual(['eventIds', 'eventOf', 'events', 'live', 'marketIds', 'markets']);
  });
});

describe('a rebuilt read model', () => {
  it('takes every unchanged document from the model it replaces and normalizes only the changed ones', async () => {
    const previous = model.catalog.normalization();
    expect(previous).not.toBeNull();
    const same = await buildReadModel(store, { origin: 'http://pmref.test', now: NOW, previousDocs: previous });
    expect(same.catalog.docs).toEqual(model.catalog.docs);
    expect(same.catalog.normalization()?.reused).toBe(countOf(model));

    // One market's question and rules change (a rules clarification): its event's document and its own change.
    const [first] = fedMarkets;
    if (first === undefined) throw new Error('seed has no fed market');
    const changed = {
      ...first,
      question_raw: 'Will the upper bound exceed the lighthouse threshold?',
      resolution_rules_raw: `${first.resolution_rules_raw ?? ''} Clarified: the lighthouse rule applies.`,
    };
    await store.transaction((tx) => tx.upsertMarkets([changed]));
    const next = await buildReadModel(store, {
      origin: 'http://pmref.test',
      now: NOW,
      previousDocs: same.catalog.normalization(),
    });
    const fresh = await buildReadModel(store, { origin: 'http://pmref.test', now: NOW });
    expect(next.catalog.docs).toEqual(fresh.catalog.docs);
    expect(next.catalog.normalization()?.reused).toBe(countOf(next) - 2);
    // The new words are found: the market by its question first, its ladder siblings by their event's rules.
    const { hits } = next.catalog.search.searchMarkets('lighthouse');
    const best = [...hits].sort((x, y) => y.score - x.score)[0];
    expect(best && next.catalog.rows[best.key]?.item.market_id).toBe(first.market_id);
    expect(model.catalog.search.searchMarkets('lighthouse').hits).toEqual([]);
  });
});

describe('normalizedDocs', () => {
  const docs = (tags: string[], rules: string[], question = 'Will it rain in Paris?'): SearchDocs => ({
    events: [{ title: 'Rain in Paris', tags, ids: ['rain'], rules, live: true }],
    markets: [{ event: 0, question, ids: ['m1'] }],
  });

  it('gives what indexedDocs gives, with or without a previous normalization', () => {
    const a = docs(['weather'], ['Resolves Yes if Météo-France reports rain.']);
    const b = docs(['weather', 'france'], ['Resolves Yes if Météo-France reports rain.'], 'Will it snow in Lyon?');
    expect(normalizedDocs(b, normalizedDocs(a, null)).docs).toEqual(indexedDocs(b));
    expect(normalizedDocs(b, normalizedDocs(a, null)).reused).toBe(0);
    expect(normalizedDocs(a, normalizedDocs(a, null)).reused).toBe(2);
  });

  it('does not take a document whose texts are split differently between tags and rules', () => {
    const before = normalizedDocs(docs(['weather', 'snowfall'], []), null);
    const after = normalizedDocs(docs(['weather'], ['snowfall']), before);
    expect(after.reused).toBe(1); // the market's question only
    expect(after.docs).toEqual(indexedDocs(docs(['weather'], ['snowfall'])));
  });

  it('tells apart texts that differ only where UTF-8 could not (a lone surrogate against U+FFFD)', () => {
    const before = normalizedDocs(docs(['weather'], [], 'Rain \uD800 in Paris?'), null);
    const after = normalizedDocs(docs(['weather'], [], 'Rain \uFFFD in Paris?'), before);
    expect(after.reused).toBe(1); // the event only: the question is another text
  });
});
