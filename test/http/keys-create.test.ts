// POST /v1/keys issues one key per email address (asking again is a 409 that shows no key), refuses addresses that are not real, counts creations per IP per day against the configured limit, and every hint names the configured limits.
import { describe, expect, it } from 'vitest';
import { runServer } from '../../src/commands/serve.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { buildApp, defaultLimits, hashKey, type Limits, memoryMeter } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { call } from '../e2e/rest-helpers.ts';
import { NOW, seedStore } from '../serve/seed.ts';

async function appWith(store: Store, limits: Limits) {
  const holder = await ReadModelHolder.create(store, { origin: 'http://pmref.test', clock: () => NOW });
  return buildApp({
    store,
    readModel: holder,
    config: { origin: 'http://pmref.test', trustProxy: true, refreshMinutes: 60 },
    clock: () => NOW,
    limits,
  });
}

type App = Awaited<ReturnType<typeof appWith>>;
const post = (app: App, email: unknown, ip = '203.0.113.1') =>
  app.inject({ method: 'POST', url: '/v1/keys', payload: { email }, headers: { 'x-forwarded-for': ip } });

describe('POST /v1/keys', () => {
  it('issues one key per address: asking again (any case, any spacing) is 409 and shows no key', async () => {
    const store = await seedStore();
    const app = await appWith(store, defaultLimits({ meter: memoryMeter(), anonDaily: 250, keyCreationDaily: 10 }));
    try {
      const first = await post(app, 'Dev@Example.com');
      expect(first.statusCode).toBe(201);
      const issued = first.json() as { key: string; email: string };
      expect(issued.email).toBe('dev@example.com');
      for (const again of ['dev@example.com', ' DEV@EXAMPLE.COM ']) {
        const res = await post(app, again, '198.51.100.2');
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({
          error: 'A key was already issued to this email address',
          code: 'key_already_issued',
          hint:
            'Keys are stored only as hashes, so it cannot be shown again: keep using it (Authorization: Bearer <key>). ' +
            'Anonymous access needs no key (250 requests/day per IP).',
          request_id: res.headers['x-request-id'],
        });
        expect(res.body).not.toMatch(/pmref_[0-9a-f]{32}/);
      }
      // The first key still works; another address gets its own.
      const keyed = await app.inject({ url: '/v1/spot', headers: { authorization: `Bearer ${issued.key}` } });
      expect(keyed.statusCode).toBe(200);
      expect((await store.findApiKey(hashKey(issued.key)))?.email).toBe('dev@example.com');
      expect((await post(app, 'ops@example.com')).statusCode).toBe(201);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('refuses addresses that are not real with invalid_email, without spending the creation allowance', async () => {
    const store = await seedStore();
    const app = await appWith(store, defaultLimits({ meter: memoryMeter(), keyCreationDaily: 1 }));
    try {
      const bad: unknown[] = ['<script>@x.io', 'de v@example.com', 'dev@example', 'dev@example.c', '', 42, null];
      for (const email of bad) {
        const res = await post(app, email);
        expect(res.statusCode, String(email)).toBe(400);
        expect(res.json()).toEqual({
          error: 'A valid email is required, e.g. { "email": "you@example.com" }',
          code: 'invalid_email',
          request_id: res.headers['x-request-id'],
        });
      }
      expect((await post(app, 'dev@example.com')).statusCode).toBe(201);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('counts every well-formed request, a refused duplicate included, against the per-IP daily allowance', async () => {
    const store = await seedStore();
    const app = await appWith(store, defaultLimits({ meter: memoryMeter() }));
    try {
      const statuses = [];
      for (const email of ['a@example.com', 'a@example.com', 'b@example.com', 'c@example.com']) {
        statuses.push((await post(app, email)).statusCode);
      }
      expect(statuses).toEqual([201, 409, 201, 429]);
      // Another IP has its own allowance.
      expect((await post(app, 'c@example.com', '198.51.100.7')).statusCode).toBe(201);
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('PMREF_KEY_CREATION_DAILY_LIMIT', () => {
  it('defaults to 3, accepts a positive integer and refuses anything else naming the variable', () => {
    expect(loadConfig({}).PMREF_KEY_CREATION_DAILY_LIMIT).toBe(3);
    expect(defaultLimits().keyCreationDaily).toBe(3);
    expect(loadConfig({ PMREF_KEY_CREATION_DAILY_LIMIT: '7' }).PMREF_KEY_CREATION_DAILY_LIMIT).toBe(7);
    expect(() => loadConfig({ PMREF_KEY_CREATION_DAILY_LIMIT: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ PMREF_KEY_CREATION_DAILY_LIMIT: 'many' })).toThrow(/PMREF_KEY_CREATION_DAILY_LIMIT/);
  });

  it('is the limit a served replica enforces, and the 429 names it', async () => {
    const store = await seedStore();
    const config = loadConfig({
      PMREF_DB_URL: 'sqlite::memory:',
      PMREF_KEY_CREATION_DAILY_LIMIT: '2',
      PMREF_LOG_LEVEL: 'silent',
    });
    const server = await runServer(config, { port: 0, host: '127.0.0.1' }, store);
    try {
      const create = (email: string) =>
        call(server.url, '/v1/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
      expect((await create('one@example.com')).status).toBe(201);
      expect((await create('two@example.com')).status).toBe(201);
      const third = await create('three@example.com');
      expect(third.status).toBe(429);
      expect(third.body).toEqual({
        error: 'Key creation limit reached: 2 keys per IP per day',
        code: 'rate_limited',
        hint: 'Use a key you already have; the count resets at 00:00 UTC.',
        request_id: expect.any(String),
      });
    } finally {
      await server.close();
      await store.close();
    }
  });
});

describe('hints name the configured limits', () => {
  it('in the invalid-key 401, the anonymous 429 and the keyed 429', async () => {
    const store = await seedStore();
    const app = await appWith(store, defaultLimits({ meter: memoryMeter(), anonDaily: 2, keyDaily: 3 }));
    try {
      const bad = await app.inject({ url: '/v1/spot', headers: { authorization: `Bearer pmref_${'0'.repeat(32)}` } });
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toMatchObject({
        code: 'invalid_api_key',
        hint: 'Omit the key for anonymous access (2 requests/day per IP), or get one with POST /v1/keys {"email": …} for 3/day.',
      });
      const anon = [];
      for (let i = 0; i < 3; i++) anon.push(await app.inject({ url: '/v1/spot' }));
      expect(anon.map((r) => r.statusCode)).toEqual([200, 200, 429]);
      expect(anon[2]?.json()).toMatchObject({
        error: 'Daily rate limit exceeded: anonymous access allows 2 requests/day per IP',
        hint: 'Get a free key for 3/day: POST /v1/keys {"email": …}. The count resets at 00:00 UTC.',
      });
      const { key } = (await post(app, 'dev@example.com')).json() as { key: string };
      const keyed = [];
      for (let i = 0; i < 4; i++) {
        keyed.push(await app.inject({ url: '/v1/spot', headers: { authorization: `Bearer ${key}` } }));
      }
      expect(keyed.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
      expect(keyed[3]?.json()).toMatchObject({
        error: 'Daily rate limit exceeded',
        hint: 'This key allows 3 calls/day; the count resets at 00:00 UTC.',
      });
    } finally {
      await app.close();
      await store.close();
    }
  });
});
