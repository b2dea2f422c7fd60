// The venue fetch helper names pmref in its User-Agent, caps the request rate and the number in flight, and reads Retry-After in both of its forms.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, createVenueHttp, PMREF_USER_AGENT, retryAfterMs, VenueFetchError } from '../../src/venues/index.ts';
import { fakeClock } from './helpers.ts';

let server: Server;
let base: string;
let inFlight = 0;
let maxInFlight = 0;
const agents: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    agents.push(String(req.headers['user-agent']));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Answer on the next macrotask so concurrent requests overlap.
    setImmediate(() => {
      inFlight--;
      if (req.url?.startsWith('/missing')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"nope"}');
      } else if (req.url?.startsWith('/bad-request')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs('0.5', 0)).toBe(500);
    const now = Date.parse('2026-04-20T12:00:00Z');
    expect(retryAfterMs('Mon, 20 Apr 2026 12:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Mon, 20 Apr 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('backoffMs', () => {
  it('is full jitter under an exponential cap', () => {
    expect(backoffMs(0, () => 0.999)).toBeLessThan(250);
    expect(backoffMs(3, () => 0.999)).toBeLessThan(2000);
    expect(backoffMs(3, () => 0)).toBe(0);
    expect(backoffMs(30, () => 0.999)).toBeLessThan(20_000);
  });
});

describe('createVenueHttp', () => {
  it('sends the pmref User-Agent and bounds concurrency', async () => {
    agents.length = 0;
    maxInFlight = 0;
    const http = createVenueHttp('venue_a', { baseUrl: base, concurrency: 2, ratePerSecond: 1e6, clock: fakeClock() });
    const bodies = await Promise.all(Array.from({ length: 8 }, (_, i) => http.getJson(`${base}/x?i=${i}`)));
    expect(bodies).toHaveLength(8);
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(new Set(agents)).toEqual(new Set([PMREF_USER_AGENT]));
    expect(PMREF_USER_AGENT).toBe('pmref/0.2.0 (+https://github.com/pmref/pmref)');
  });

  it('caps the request rate with a token bucket on the injected clock', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const http = createVenueHttp('venue_b', { baseUrl: base, concurrency: 1, ratePerSecond: 2, clock });
    for (let i = 0; i < 6; i++) await http.getJson(`${base}/r?i=${i}`);
    // Bucket of 2 starts full; 4 more tokens at 2/s need 2 s of (fake) time.
    expect(clock.now() - start).toBeGreaterThanOrEqual(2000);
    expect(clock.now() - start).toBeLessThan(2100);
  });

  it('resolves 404 to undefined when allowed and never retries a 4xx', async () => {
    const clock = fakeClock();
    const http = createVenueHttp('venue_b', { baseUrl: base, ratePerSecond: 1e6, clock });
    expect(await http.getJson(`${base}/missing`, { allow404: true })).toBeUndefined();
    const err = await http.getJson(`${base}/bad-request`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueFetchError);
    expect(err).toMatchObject({ venue: 'venue_b', status: 400, retry: false, kind: 'http' });
    expect(http.stats().retries).toBe(0);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries network errors and reports them as VenueFetchError', async () => {
    const clock = fakeClock();
    const http = createVenueHttp('venue_a', {
      baseUrl: 'http://127.0.0.1:1',
      maxRetries: 2,
      ratePerSecond: 1e6,
      clock,
    });
    const err = await http.getJson('http://127.0.0.1:1/x').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'network', retry: true, status: null, url: 'http://127.0.0.1:1/x' });
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('Retry-After pauses the venue', () => {
  it('holds back the next request until the hinted time, even when the first gave up', async () => {
    let calls = 0;
    const limited = createServer((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '5' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => limited.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
    try {
      const clock = fakeClock();
      const http = createVenueHttp('venue_a', { baseUrl: url, maxRetries: 0, ratePerSecond: 1e6, clock });
      await expect(http.getJson(`${url}/first`)).rejects.toMatchObject({ status: 429, retryAfterMs: 5000 });
      expect(clock.sleeps).toEqual([]);
      await http.getJson(`${url}/second`);
      expect(clock.sleeps).toEqual([5000]);
      expect(calls).toBe(2);
    } finally {
      await new Promise<void>((r) => limited.close(() => r()));
    }
  });
});
