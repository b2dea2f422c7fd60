// The hot read path (src/http/fast-path.ts) answers plain event and market lookups ahead of Fastify with the very response Fastify gives, meters them exactly once, and hands everything else (and every refusal) to Fastify.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, hashKey, memoryMeter } from '../../src/http/index.ts';
import { btcMarketA, NOW, treaty } from '../serve/seed.ts';
import { call, type Got, type Started, startServer } from './rest-helpers.ts';

interface Counted extends Started {
  /** Responses Fastify itself sent (its onResponse hook ran; it runs just after the response is written). */
  fastify: () => number;
}

/** A started app on the seeded store that counts the requests reaching Fastify. */
async function startCounted(anonDaily = 1000, logRequests = false, trustProxy = false): Promise<Counted> {
  let reached = 0;
  const started = await startServer({
    limits: defaultLimits({ meter: memoryMeter(), anonDaily }),
    logRequests,
    trustProxy,
    beforeListen: (app) =>
      app.addHook('onResponse', (_req, _reply, done) => {
        reached++;
        done();
      }),
  });
  return { ...started, fastify: () => reached };
}

/** The response headers as an object, minus the ones that differ per request by design. */
function headersOf(got: Got): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of got.headers) {
    if (k === 'x-request-id' || k === 'ratelimit-remaining' || k === 'date') continue;
    out[k] = v;
  }
  return out;
}

describe('hot read path', () => {
  let s: Counted;
  beforeAll(async () => {
    s = await startCounted();
  });
  afterAll(async () => {
    await s.close();
  });

  /** GETs `hot` (must bypass Fastify) and `viaFastify` (must reach it); returns both. */
  async function pair(hot: string, viaFastify: string, init: RequestInit = {}): Promise<[Got, Got]> {
    const before = s.fastify();
    const a = await call(s.base, hot, init);
    expect(s.fastify(), `${hot} should not reach Fastify`).toBe(before);
    const b = await call(s.base, viaFastify, init);
    await expect.poll(s.fastify, { message: `${viaFastify} should reach Fastify` }).toBe(before + 1);
    return [a, b];
  }

  it('answers a market and an event with the same status, headers and bytes as the Fastify route', async () => {
    const market = `/v1/markets/${btcMarketA.market_id}`;
    const event = `/v1/events/${treaty.slug}`;
    // A trailing slash (stripped by Fastify's rewrite) and an explicit default query send the same lookup
    // through Fastify.
    for (const [hot, slow] of [
      [market, `${market}/`],
      [event, `${event}?detail=full`],
    ] as const) {
      const [a, b] = await pair(hot, slow);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.text).toBe(b.text);
      expect(headersOf(a)).toEqual(headersOf(b));
      expect(headersOf(a)).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'x-schema-version': 'v0.2.0',
        'access-control-allow-origin': '*',
        etag: expect.stringMatching(/^"/),
        'cache-control': 'public, max-age=1800',
        'ratelimit-limit': '1000',
      });
      expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    }
  });

  it('answers If-None-Match with 304 and Accept-Encoding with the same precompressed bytes as Fastify', async () => {
    const path = `/v1/events/${treaty.slug}`;
    const etag = (await call(s.base, path)).headers.get('etag') as string;
    const [a, b] = await pair(path, `${path}/`, { headers: { 'if-none-match': etag } });
    expect([a.status, b.status]).toEqual([304, 304]);
    expect(a.text).toBe('');
    expect(headersOf(a)).toEqual(headersOf(b));

    const raw = async (p: string) => {
      const res = await fetch(s.base + p, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
      return { encoding: res.headers.get('content-encoding'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const hot = await raw(path);
    const slow = await raw(`${path}/`);
    expect(hot.encoding).toBe('gzip');
    expect(hot.bytes.equals(slow.bytes)).toBe(true);
  });

  it('leaves misses, HEAD, movers, escaped and queried references, and other paths to Fastify', async () => {
    for (const [path, init, status] of [
      ['/v1/markets/SVC-MKT-ZZZZZZZZZZ', {}, 404],
      ['/v1/events/no-such-event', {}, 404],
      [`/v1/markets/${btcMarketA.market_id}`, { method: 'HEAD' }, 200],
      ['/v1/markets/movers', {}, 200],
      [`/v1/markets/${encodeURIComponent('https://venue-a.example/markets/kxbtc/kxbtc-26dec31-t150000')}`, {}, 200],
      [`/v1/events/${treaty.slug}?detail=concise`, {}, 200],
      ['/v1/events?limit=1', {}, 200],
    ] as const) {
      const before = s.fastify();
      const got = await call(s.base, path, init as RequestInit);
      expect(got.status, path).toBe(status);
      await expect.poll(s.fastify, { message: path }).toBe(before + 1);
    }
  });
});

describe('hot read path metering', () => {
  it('spends one call per request and hands the refusal to Fastify: exactly the limit succeeds, then 429', async () => {
    const s = await startCounted(5);
    try {
      const path = `/v1/markets/${btcMarketA.market_id}`;
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const got = await call(s.base, path);
        expect(got.status).toBe(200);
        remaining.push(got.headers.get('ratelimit-remaining') as string);
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      expect(s.fastify()).toBe(0);
      const over = await call(s.base, path);
      expect(over.status).toBe(429);
      await expect.poll(s.fastify).toBe(1); // answered by Fastify, in the one error shape
      expect(over.headers.get('retry-after')).toBe(String(11.5 * 3600));
      expect(over.headers.get('ratelimit-limit')).toBe('5');
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
      expect(over.headers.get('x-schema-version')).toBe('v0.2.0');
      expect(over.body).toEqual({
        error: 'Daily rate limit exceeded: anonymous access allows 5 requests/day per IP',
        code: 'rate_limited',
        hint: 'Get a free key for 10,000/day: POST /v1/keys {"email": …}. The count resets at 00:00 UTC.',
        request_id: expect.any(String),
      });
      // The Fastify side shares the same budget, spent once per request.
      expect((await call(s.base, '/v1/spot')).status).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('serves a Bearer key from its own budget and refuses an unknown key with 401', async () => {
    const s = await startCounted(1);
    try {
      const key = 'pmref_0123456789abcdef0123456789abcdef';
      await s.store.insertApiKey({
        key_hash: hashKey(key),
        email: 'dev@example.com',
        daily_limit: 10000,
        created_at: NOW.toISOString(),
      });
      const path = `/v1/markets/${btcMarketA.market_id}`;
      for (let i = 0; i < 3; i++) {
        const got = await call(s.base, path, { headers: { authorization: `Bearer ${key}` } });
        expect(got.status).toBe(200);
        expect(got.headers.get('ratelimit-limit')).toBe('10000');
        expect(got.headers.get('ratelimit-remaining')).toBe(String(9999 - i));
      }
      expect(s.fastify()).toBe(0);
      const bad = await call(s.base, path, {
        headers: { authorization: 'Bearer pmref_00000000000000000000000000000000' },
      });
      expect(bad.status).toBe(401);
      expect(bad.body).toMatchObject({ code: 'invalid_api_key', error: 'Invalid API key' });
      await expect.poll(s.fastify).toBe(1);
      // The anonymous budget (1) is untouched by keyed calls.
      expect((await call(s.base, path)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('counts per X-Forwarded-For client (the entry the proxy appended) when the proxy is trusted', async () => {
    const s = await startCounted(1, false, true);
    try {
      const path = `/v1/markets/${btcMarketA.market_id}`;
      const as = (xff: string) => call(s.base, path, { headers: { 'x-forwarded-for': xff } });
      expect((await as('203.0.113.1')).status).toBe(200);
      // A forged leading entry does not make a new client.
      expect((await as('198.51.100.7, 203.0.113.1')).status).toBe(429);
      expect((await as('203.0.113.1, 203.0.113.2')).status).toBe(200);
      // The Fastify side counts the same client.
      const spot = await call(s.base, '/v1/spot', { headers: { 'x-forwarded-for': '203.0.113.2' } });
      expect(spot.status).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('hands a failure while answering to Fastify: a 500 in the one error shape, and the server goes on', async () => {
    const s = await startCounted();
    try {
      const body = s.holder.current().marketById.get(btcMarketA.market_id)?.detail;
      if (!body) throw new Error('seeded market missing from the read model');
      body.encoded = () => {
        throw new Error('compression failed');
      };
      const path = `/v1/markets/${btcMarketA.market_id}`;
      const failed = await call(s.base, path, { headers: { 'accept-encoding': 'gzip' } });
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({
        error: 'Internal error',
        code: 'internal',
        hint: expect.stringMatching(/^Retry; if it persists, contact the operator quoting request_id /),
        request_id: expect.any(String),
      });
      expect(failed.text).not.toContain('compression failed');
      expect(failed.headers.get('ratelimit-remaining')).toBe('999');
      const next = await call(s.base, path, { headers: { 'accept-encoding': 'identity' } });
      expect(next.status).toBe(200);
      expect(next.headers.get('ratelimit-remaining')).toBe('998');
    } finally {
      await s.close();
    }
  });

  it('is off when every request is logged: Fastify answers and logs each one', async () => {
    const s = await startCounted(1000, true);
    try {
      expect((await call(s.base, `/v1/markets/${btcMarketA.market_id}`)).status).toBe(200);
      await expect.poll(s.fastify).toBe(1);
    } finally {
      await s.close();
    }
  });
});
