// GET /v1/signals.rss serves the stored wire as RSS 2.0 that a feed parser reads: one item per bulletin, newest first, with an ETag and the signals cache lifetime.
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import { detectSignals } from '../../src/signals/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from '../serve/seed.ts';

let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  store = await seedStore();
  const [events, markets, marks, spot, catalysts] = await Promise.all([
    store.listEvents(),
    store.listMarkets(),
    store.listMarks(),
    store.latestSpot(),
    store.listCatalysts(),
  ]);
  const detected = detectSignals({ events, markets, marks, spot, catalysts, now: NOW.toISOString() });
  await store.transaction((tx) => tx.insertSignals(detected));
  const holder = await ReadModelHolder.create(store, { origin: 'http://pmref.test', clock: () => NOW });
  app = await buildApp({
    store,
    readModel: holder,
    config: { origin: 'http://pmref.test', trustProxy: false, refreshMinutes: 60 },
    clock: () => NOW,
  });
});

afterAll(async () => {
  await app.close();
  await store.close();
});

describe('GET /v1/signals.rss', () => {
  it('parses as RSS 2.0 with one item per stored bulletin, newest first', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/signals.rss' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const stored = await store.listSignals();
    expect(stored.length).toBeGreaterThanOrEqual(1);
    const feed = await new Parser({
      customFields: { item: [['category', 'categories', { keepArray: true }]] },
    }).parseString(res.body);
    expect(feed.items.map((i) => i.guid)).toEqual(stored.map((s) => s.record_id));
    for (const [i, item] of feed.items.entries()) {
      const b = stored[i];
      expect(item.title).toBe(b?.headline);
      expect(item.link).toBe(`http://pmref.test/v1/signals/${b?.record_slug}`);
      expect(item.pubDate).toBe(new Date(b?.published_at ?? '').toUTCString());
      expect(item.categories).toEqual([b?.category_tag, b?.detection_path]);
      expect(item.content?.length).toBeGreaterThan(0);
    }
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await app.inject({ method: 'GET', url: '/v1/signals.rss' });
    const etag = String(first.headers.etag);
    const again = await app.inject({ method: 'GET', url: '/v1/signals.rss', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });

  it('leaves /v1/signals/{slug} routing alone', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/signals/no-such-slug' });
    expect(res.statusCode).toBe(404);
  });
});
