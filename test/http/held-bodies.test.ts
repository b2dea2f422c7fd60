// A read-model body held gzip is the same document for every client: gzip-accepting clients get the held bytes
// as they are (gzip preferred even when brotli is accepted too), brotli-only and identity clients get the bytes
// made from them, and the identity forms kept meanwhile stay within the model's cache bound.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/index.ts';
import { answerBody } from '../../src/http/send.ts';
import { type ReadModel, ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from '../serve/seed.ts';

const ORIGIN = 'http://pmref.test';
/** Small enough that the seed's bodies do not all fit. */
const CACHE_BYTES = 16 * 1024;

let store: Store;
let model: ReadModel;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  store = await seedStore();
  const holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW, bodyCacheBytes: CACHE_BYTES });
  model = holder.current();
  app = await buildApp({
    store,
    readModel: holder,
    config: { origin: ORIGIN, trustProxy: false, refreshMinutes: 60 },
    clock: () => NOW,
  });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

/** Every event (both views) and market detail path with the body the model holds for it. */
function detailPaths() {
  return [
    ...model.events.flatMap((e) => [
      { path: `/v1/events/${e.event.slug}`, body: e.full },
      { path: `/v1/events/${e.event.slug}?detail=concise`, body: e.concise },
    ]),
    ...[...model.marketById.values()].map((m) => ({ path: `/v1/markets/${m.marketId}`, body: m.detail })),
  ];
}

async function get(url: string, acceptEncoding?: string) {
  const res = await app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
  expect(res.statusCode, url).toBe(200);
  return { encoding: res.headers['content-encoding'], raw: res.rawPayload, etag: res.headers.etag };
}

describe('bodies held gzip', () => {
  it('holds the large detail bodies gzip', () => {
    const held = detailPaths().filter(({ body }) => body.heldEncoding === 'gzip');
    expect(held.length).toBeGreaterThan(detailPaths().length / 2);
  });

  it('answer gzip, brotli and identity requests with the same document and ETag', async () => {
    for (const { path, body } of detailPaths()) {
      const plain = await get(path);
      expect(plain.encoding, path).toBeUndefined();
      expect(plain.raw.equals(body.bytes), path).toBe(true);
      const gz = await get(path, 'gzip');
      const both = await get(path, 'br, gzip');
      const br = await get(path, 'br');
      if (body.length < 1024) {
        for (const r of [gz, both, br]) expect(r.raw.equals(plain.raw), path).toBe(true);
        continue;
      }
      expect([gz.encoding, br.encoding], path).toEqual(['gzip', 'br']);
      expect(gunzipSync(gz.raw).equals(plain.raw), path).toBe(true);
      expect(brotliDecompressSync(br.raw).equals(plain.raw), path).toBe(true);
      if (body.heldEncoding === 'gzip') {
        // Sent as held: no second compressed form, and gzip wins over brotli when both are accepted.
        expect(gz.raw.equals(body.held), path).toBe(true);
        expect(both.encoding, path).toBe('gzip');
        expect(both.raw.equals(body.held), path).toBe(true);
      }
      expect(new Set([plain.etag, gz.etag, both.etag, br.etag]), path).toEqual(new Set([body.etag]));
    }
  });

  it('keep brotli first for a body held as identity (a page assembled per request)', async () => {
    const page = await get('/v1/events?limit=5', 'br, gzip');
    const plain = await get('/v1/events?limit=5');
    expect(plain.raw.length).toBeGreaterThan(1024);
    expect(page.encoding).toBe('br');
    expect(brotliDecompressSync(page.raw).equals(plain.raw)).toBe(true);
  });

  it('keep the identity forms they make within the cache bound, and the hot path answers as the routes do', async () => {
    for (const { body } of detailPaths()) {
      // The hot path (fast-path.ts) sends what answerBody says: the same bytes the route sent.
      const a = answerBody(body, undefined, undefined, 60);
      expect(a.payload?.equals(body.bytes)).toBe(true);
      expect(answerBody(body, undefined, 'gzip', 60).payload?.equals(body.encoded('gzip'))).toBe(true);
      expect(model.bodyCache.bytes).toBeLessThanOrEqual(CACHE_BYTES);
    }
    expect(model.bodyCache.maxBytes).toBe(CACHE_BYTES);
    expect(model.bodyCache.bytes).toBeGreaterThan(CACHE_BYTES / 4); // it was used, and filled
  });
});
