// HTTP manners that need an injected clock or a failing dependency: 5xx bodies leak nothing, counters reset at 00:00 UTC, X-Forwarded-For is trusted only when configured, key creation is limited per IP.
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
    const post = () => app.inject({ method: 'POST', url: '/v1/keys', payload: { email: 'a@b.co' } });
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
