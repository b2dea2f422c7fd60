// HTTP manners that need an injected clock, a failing dependency or a bare app: 5xx bodies leak nothing, requests no route takes are 405 with Allow or 404 before any body is read, URL and body limits answer 414 and 413 naming the real limit, counters reset at 00:00 UTC, X-Forwarded-For is trusted only when configured, key creation is limited per IP.
import { describe, expect, it } from 'vitest';
import {
  buildApp,
  defaultLimits,
  ERROR_CODES,
  type Limits,
  memoryMeter,
  pickEncoding,
  secondsToNextRefresh,
  secondsToUtcMidnight,
  statusOf,
} from '../../src/http/index.ts';
import { moverCandidates, ReadModelHolder, type ReadModelSource } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from '../serve/seed.ts';

async function appWith(opts: {
  store: Store;
  clock?: () => Date;
  limits?: Limits;
  trustProxy?: boolean;
  source?: ReadModelSource;
}) {
  const holder =
    opts.source ?? (await ReadModelHolder.create(opts.store, { origin: 'http://pmref.test', clock: () => NOW }));
  return buildApp({
    store: opts.store,
    readModel: holder,
    config: { origin: 'http://pmref.test', trustProxy: opts.trustProxy ?? false, refreshMinutes: 60 },
    clock: opts.clock ?? (() => NOW),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
}

describe('errors', () => {
  it('maps every error code to a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) expect(statusOf(code)).toBeGreaterThanOrEqual(400);
  });

  it('answers an unexpected failure with 500, a request id and nothing else', async () => {
    const store = await seedStore();
    const app = await appWith({
      store,
      source: {
        current: () => {
          throw new Error('SQLITE_CORRUPT at /var/lib/secret.sqlite');
        },
      },
    });
    const res = await app.inject({ method: 'GET', url: '/v1/spot' });
    expect(res.statusCode).toBe(500);
    const body = res.json() as { request_id: string };
    expect(body).toEqual({
      error: 'Internal error',
      code: 'internal',
      hint: `Retry; if it persists, contact the operator quoting request_id ${body.request_id}.`,
      request_id: res.headers['x-request-id'],
    });
    expect(res.body).not.toContain('secret');
    await app.close();
    await store.close();
  });
});

describe('requests no route takes, and limits checked before routing', () => {
  it('answers a known path with a wrong method 405 with Allow before reading the body, and unknown paths 404', async () => {
    const store = await seedStore();
    const app = await appWith({ store });
    const emptyJson = { 'content-type': 'application/json' };
    const cases = [
      { method: 'DELETE', url: '/v1/events', headers: emptyJson, payload: '', allow: 'GET, HEAD, OPTIONS' },
      { method: 'POST', url: '/v1/markets/anything', headers: emptyJson, payload: '{', allow: 'GET, HEAD, OPTIONS' },
      { method: 'PUT', url: '/v1/keys', headers: emptyJson, payload: '', allow: 'POST, OPTIONS' },
      { method: 'GET', url: '/v1/keys/', headers: {}, payload: undefined, allow: 'POST, OPTIONS' },
    ] as const;
    for (const c of cases) {
      const res = await app.inject({
        method: c.method,
        url: c.url,
        headers: c.headers,
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(405);
      expect(res.headers.allow).toBe(c.allow);
      expect(res.json()).toEqual({
        error: 'Method not allowed',
        code: 'method_not_allowed',
        hint: `This path answers ${c.allow}.`,
        request_id: res.headers['x-request-id'],
      });
    }
    for (const method of ['GET', 'POST', 'PATCH'] as const) {
      const res = await app.inject({ method, url: '/v1/nothing-here', headers: emptyJson, payload: '' });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', request_id: res.headers['x-request-id'] });
    }
    await app.close();
    await store.close();
  });

  it('answers a URL over 8192 characters 414 and looks up a long id', async () => {
    const store = await seedStore();
    const app = await appWith({ store });
    const long = await app.inject(`/v1/events?q=${'z'.repeat(8200)}`);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({
      error: 'Request URL is too long',
      code: 'uri_too_long',
      hint: 'Keep the path and query under 8192 characters; page through lists with limit and offset.',
      request_id: long.headers['x-request-id'],
    });
    // Fastify's own 100-character limit on a path parameter would have answered 414 and quoted the path.
    const id = await app.inject(`/v1/markets/${'k'.repeat(500)}`);
    expect(id.statusCode).toBe(404);
    expect(id.json()).toMatchObject({ code: 'market_not_found' });
    await app.close();
    await store.close();
  });

  it('answers a path that is not valid percent-encoding 400 without quoting it', async () => {
    const store = await seedStore();
    const app = await appWith({ store });
    const res = await app.inject('/v1/events/%E0%A4%A<b>pmref</b>');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Malformed URL: the path is not valid percent-encoded UTF-8',
      code: 'invalid_request',
      hint: 'Percent-encode the path (RFC 3986), e.g. a space as %20 and a slash inside an id as %2F.',
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    await app.close();
    await store.close();
  });

  it('names the body limit of the route that refused the body', async () => {
    const store = await seedStore();
    const app = await appWith({ store });
    for (const [url, limit] of [
      ['/v1/keys', 4096],
      ['/mcp', 65536],
      ['/a2a', 65536],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ pad: 'p'.repeat(limit) }),
      });
      expect(res.statusCode, url).toBe(413);
      expect(res.json()).toMatchObject({ error: `Request body is over ${limit} bytes`, code: 'payload_too_large' });
    }
    await app.close();
    await store.close();
  });
});

describe('limits', () => {
  it('resets the anonymous count at 00:00 UTC', async () => {
    const store = await seedStore();
    let now = new Date('2026-11-21T23:59:58.000Z');
    const app = await appWith({
      store,
      clock: () => now,
      limits: defaultLimits({ meter: memoryMeter(), anonDaily: 2 }),
    });
    expect((await app.inject('/v1/spot')).statusCode).toBe(200);
    const second = await app.inject('/v1/spot');
    expect(second.headers['ratelimit-remaining']).toBe('0');
    expect(second.headers['ratelimit-reset']).toBe('2');
    const third = await app.inject('/v1/spot');
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('2');
    now = new Date('2026-11-22T00:00:01.000Z');
    const next = await app.inject('/v1/spot');
    expect(next.statusCode).toBe(200);
    expect(next.headers['ratelimit-remaining']).toBe('1');
    await app.close();
    await store.close();
  });

  it('counts per X-Forwarded-For client only when the proxy is trusted', async () => {
    const store = await seedStore();
    for (const trustProxy of [true, false]) {
      const app = await appWith({ store, trustProxy, limits: defaultLimits({ meter: memoryMeter(), anonDaily: 1 }) });
      const a = await app.inject({ url: '/v1/spot', headers: { 'x-forwarded-for': '203.0.113.1' } });
      const b = await app.inject({ url: '/v1/spot', headers: { 'x-forwarded-for': '203.0.113.2' } });
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(trustProxy ? 200 : 429);
      await app.close();
    }
    await store.close();
  });

  it('limits key creation per IP per day', async () => {
    const store = await seedStore();
    const app = await appWith({ store, limits: defaultLimits({ meter: memoryMeter(), keyCreationDaily: 2 }) });
    let n = 0;
    const post = () => app.inject({ method: 'POST', url: '/v1/keys', payload: { email: `dev${++n}@b.co` } });
    expect((await post()).statusCode).toBe(201);
    expect((await post()).statusCode).toBe(201);
    const third = await post();
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe(String(11.5 * 3600));
    expect(third.json()).toEqual({
      error: 'Key creation limit reached: 2 keys per IP per day',
      code: 'rate_limited',
      hint: 'Use a key you already have; the count resets at 00:00 UTC.',
      request_id: third.headers['x-request-id'],
    });
    await app.close();
    await store.close();
  });
});

describe('clock and negotiation helpers', () => {
  it('expires at the next refresh boundary and resets at UTC midnight', () => {
    expect(secondsToNextRefresh(new Date('2026-11-21T12:30:00Z'), 60)).toBe(1800);
    expect(secondsToNextRefresh(new Date('2026-11-21T12:59:59.500Z'), 60)).toBe(1);
    expect(secondsToNextRefresh(new Date('2026-11-21T12:00:00Z'), 15)).toBe(900);
    expect(secondsToUtcMidnight(new Date('2026-11-21T23:00:00Z'))).toBe(3600);
  });

  it('prefers brotli, honours q=0, and falls back to identity', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('movers without adjacent snapshots', () => {
  it('degrades with a notice naming why', () => {
    expect(moverCandidates(['2026-11-21'], new Map(), new Map(), new Map(), new Map())).toEqual({
      status: 'degraded',
      notice: 'Movers need two daily snapshots and 1 exist; the series accrues nightly.',
    });
    expect(moverCandidates(['2026-11-21', '2026-11-10'], new Map(), new Map(), new Map(), new Map())).toEqual({
      status: 'degraded',
      notice: 'The prior snapshot is 11 days old; a day-over-day move needs near-adjacent snapshots.',
    });
  });
});
