// GET /v1/markets over HTTP answers a page with ETag/304 and rate-limit headers, a 400 in the one error shape for a malformed number or date, a 200 empty page with a notice for an unknown value, and leaves /v1/markets/{id} and /v1/markets/movers working; /v1/events takes sort and grade_any.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { btcMarketA, NOW, seedStore, treaty } from '../serve/seed.ts';

let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  store = await seedStore();
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

describe('GET /v1/markets', () => {
  it('serves a page with ETag, 304 on If-None-Match and rate-limit headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/markets?q=bitcoin&has_twin=true&sort=rcg_score' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeDefined();
    const body = res.json() as {
      total: number;
      markets: Array<{ market_id: string; score: number }>;
      _notice: unknown;
    };
    expect(body.total).toBe(2);
    expect(body.markets[0]?.market_id).toBe(btcMarketA.market_id);
    expect(body._notice).toBeDefined();
    const etag = String(res.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: '/v1/markets?q=bitcoin&has_twin=true&sort=rcg_score',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers a malformed date or number with 400 in the one error shape', async () => {
    for (const url of ['/v1/markets?closes_before=soon', '/v1/markets?limit=-3', '/v1/markets?offset=x']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json() as object).sort()).toEqual(['code', 'error', 'hint', 'request_id']);
      expect((res.json() as { code: string }).code).toBe('invalid_request');
    }
  });

  it('answers an unknown filter value with an empty page and a notice naming the valid set', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/markets?source_commitment_subtype=vibes' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { total: number; notice: { reason: string; try: string[] } };
    expect(body.total).toBe(0);
    expect(body.notice.reason).toMatch(/valid: named, committed_secondhand/);
  });

  it('keeps /v1/markets/{id} and /v1/markets/movers', async () => {
    expect((await app.inject({ method: 'GET', url: `/v1/markets/${btcMarketA.market_id}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1/markets/movers' })).statusCode).toBe(200);
  });
});

describe('GET /v1/events with sort and grade_any', () => {
  it('filters on any market grade and names an unknown sort', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/events?grade_any=C&sort=nope' });
    const body = res.json() as { events: Array<{ event_id: string }>; sort_notice: string };
    expect(body.events.map((e) => e.event_id)).toEqual([treaty.event_id]);
    expect(body.sort_notice).toMatch(/not known/);
  });
});
