// The probes (issue 19): /healthz is 200 whenever the process answers; /readyz is 200 only for a published generation whose data is within PMREF_READY_MAX_AGE_MINUTES (simulated data not judged by age) and 503 with the reason otherwise (nothing published, too old — saying when a rebuild failed — or shutting down); neither is ever metered; both are documented in /openapi.json with the bodies they send.
import { describe, expect, it } from 'vitest';
import { buildApp, defaultLimits, type Limits } from '../../src/http/index.ts';
import { isMetered } from '../../src/http/metering.ts';
import { judgeReadiness } from '../../src/http/routes/readyz.get.ts';
import { ReadModelHolder, type ReadModelSource } from '../../src/serve/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { ResponseValidator } from '../e2e/rest-helpers.ts';
import { NOW, seedStore } from '../serve/seed.ts';

const ORIGIN = 'http://pmref.test';

/** A migrated in-memory store whose one published run (`source`) finished at `finishedAt`. */
async function storeWithRun(source: string, finishedAt: string): Promise<Store> {
  const store = await openStore('sqlite::memory:', { now: () => NOW });
  await store.migrate();
  const runId = await store.startRun(source, finishedAt);
  await store.finishRun(runId, 'ok', {}, finishedAt, true);
  return store;
}

async function emptyStore(): Promise<Store> {
  const store = await openStore('sqlite::memory:', { now: () => NOW });
  await store.migrate();
  return store;
}

async function appOn(
  store: Store,
  opts: { maxAgeMinutes?: number; draining?: () => boolean; limits?: Limits; source?: ReadModelSource } = {},
) {
  const readModel = opts.source ?? (await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW }));
  return buildApp({
    store,
    readModel,
    config: { origin: ORIGIN, trustProxy: false, refreshMinutes: 60 },
    clock: () => NOW,
    readiness: {
      ...(opts.maxAgeMinutes === undefined ? {} : { maxAgeMinutes: opts.maxAgeMinutes }),
      ...(opts.draining ? { draining: opts.draining } : {}),
    },
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
}

type Json = Record<string, unknown>;

describe('judgeReadiness', () => {
  const model = { generation: 7, builtAt: '2026-11-21T12:29:00.000Z', dataSource: 'live' as const };
  const fresh = { publishedAt: '2026-11-21T12:00:00.000Z', rebuildFailedAt: null };
  const base = { now: NOW, maxAgeMinutes: 180, draining: false, model, served: fresh };

  it('is ready for published data within the bound, with its age', () => {
    expect(judgeReadiness(base)).toEqual({
      ready: true,
      reason: null,
      generation: 7,
      data_source: 'live',
      published_at: '2026-11-21T12:00:00.000Z',
      age_s: 1800,
      max_age_s: 10800,
      built_at: '2026-11-21T12:29:00.000Z',
      rebuild_failed_at: null,
    });
  });

  it('says shutting down first, whatever else holds', () => {
    const r = judgeReadiness({ ...base, draining: true, model: { ...model, generation: 0 } });
    expect(r.ready).toBe(false);
    expect(r.reason).toMatch(/^shutting down/);
  });

  it('is not ready before any generation is published', () => {
    const r = judgeReadiness({ ...base, model: { ...model, generation: 0, dataSource: null }, served: null });
    expect(r).toMatchObject({ ready: false, generation: 0, published_at: null, age_s: null });
    expect(r.reason).toMatch(/^no generation published yet/);
  });

  it('is not ready past the bound, and says a failed rebuild is why when one failed', () => {
    const old = { publishedAt: '2026-11-21T08:00:00.000Z', rebuildFailedAt: null };
    const stale = judgeReadiness({ ...base, served: old });
    expect(stale).toMatchObject({ ready: false, age_s: 4.5 * 3600, max_age_s: 10800 });
    expect(stale.reason).toBe(
      'the served data was published 270 min ago, over the 180 min bound (PMREF_READY_MAX_AGE_MINUTES): no newer generation has reached this server',
    );
    const failed = judgeReadiness({ ...base, served: { ...old, rebuildFailedAt: '2026-11-21T12:10:00.000Z' } });
    expect(failed.reason).toMatch(/the last read-model rebuild failed at 2026-11-21T12:10:00.000Z \(see the log\)$/);
    expect(failed.rebuild_failed_at).toBe('2026-11-21T12:10:00.000Z');
  });

  it('stays ready within the bound when a rebuild failed, and reports the failure', () => {
    const r = judgeReadiness({ ...base, served: { ...fresh, rebuildFailedAt: '2026-11-21T12:10:00.000Z' } });
    expect(r).toMatchObject({ ready: true, reason: null, rebuild_failed_at: '2026-11-21T12:10:00.000Z' });
  });

  it('does not judge the age of simulated data, and never calls an unknown age fresh', () => {
    const old = { publishedAt: '2026-01-01T00:00:00.000Z', rebuildFailedAt: null };
    const sim = judgeReadiness({ ...base, model: { ...model, dataSource: 'simulated' }, served: old });
    expect(sim).toMatchObject({ ready: true, max_age_s: null });
    const unknown = judgeReadiness({ ...base, served: null });
    expect(unknown).toMatchObject({ ready: false, reason: 'the age of the served data is unknown' });
  });
});

describe('GET /healthz and GET /readyz', () => {
  it('healthz is 200 {"status":"ok"}, not cached, also on an empty store and while draining', async () => {
    const store = await emptyStore();
    const app = await appOn(store, { draining: () => true });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    await app.close();
    await store.close();
  });

  it('readyz is 200 on the seeded store (simulated: age not judged)', async () => {
    const store = await seedStore();
    const app = await appOn(store, { maxAgeMinutes: 1 });
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ready: true,
      reason: null,
      generation: 1,
      data_source: 'simulated',
      published_at: '2026-11-21T12:05:00.000Z',
      age_s: 1500,
      max_age_s: null,
      built_at: NOW.toISOString(),
      rebuild_failed_at: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    await app.close();
    await store.close();
  });

  it('readyz is 503 on an empty store (generation 0)', async () => {
    const store = await emptyStore();
    const app = await appOn(store);
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ready: false, generation: 0, data_source: null, published_at: null });
    expect((res.json() as Json).reason).toMatch(/^no generation published yet/);
    await app.close();
    await store.close();
  });

  it('readyz turns 503 when live data is older than the bound, and names a failed rebuild', async () => {
    const store = await storeWithRun('live', '2026-11-21T11:00:00.000Z'); // 90 min before NOW
    const holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW, onError: () => {} });
    const fresh = await appOn(store, { source: holder, maxAgeMinutes: 120 });
    const ok = await fresh.inject({ method: 'GET', url: '/readyz' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ ready: true, data_source: 'live', age_s: 5400, max_age_s: 7200 });
    await fresh.close();

    const stale = await appOn(store, { source: holder, maxAgeMinutes: 60 });
    const res = await stale.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect((res.json() as Json).reason).toMatch(/published 90 min ago, over the 60 min bound.*no newer generation/);

    // The store goes away: the rebuild fails, the old generation stays served, and readyz says what it knows.
    await store.close();
    expect(await holder.refresh(true)).toBe(false);
    expect(holder.served()).toMatchObject({ rebuildFailedAt: NOW.toISOString(), rebuildFailures: 1 });
    const after = await stale.inject({ method: 'GET', url: '/readyz' });
    expect(after.statusCode).toBe(503);
    expect((after.json() as Json).reason).toMatch(/the last read-model rebuild failed at 2026-11-21T12:30:00.000Z/);
    await stale.close();
  });

  it('readyz is 503 "shutting down" while the server drains', async () => {
    const store = await seedStore();
    let draining = false;
    const app = await appOn(store, { draining: () => draining });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    draining = true;
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      ready: false,
      reason: 'shutting down: in-flight requests are finishing; send new ones elsewhere',
      generation: 1,
    });
    await app.close();
    await store.close();
  });

  it('are never metered: no RateLimit headers and never 429, even with a daily limit of 1', async () => {
    const store = await seedStore();
    const app = await appOn(store, { limits: defaultLimits({ anonDaily: 1 }) });
    for (let i = 0; i < 5; i++) {
      for (const url of ['/healthz', '/readyz']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['ratelimit-limit'], url).toBeUndefined();
        expect(res.headers['ratelimit-remaining'], url).toBeUndefined();
      }
      expect((await app.inject({ method: 'HEAD', url: '/readyz' })).statusCode).toBe(200);
    }
    // The same caller's metered budget is untouched by the probes: one call left, then 429.
    const first = await app.inject({ method: 'GET', url: '/v1/stats' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('0');
    expect((await app.inject({ method: 'GET', url: '/v1/stats' })).statusCode).toBe(429);
    expect(isMetered('GET', '/healthz')).toBe(false);
    expect(isMetered('GET', '/readyz')).toBe(false);
    await app.close();
    await store.close();
  });

  it('are documented in /openapi.json, and every body they send matches its schema', async () => {
    const seeded = await seedStore();
    const empty = await emptyStore();
    const app = await appOn(seeded);
    const emptyApp = await appOn(empty);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    const paths = doc.paths as Record<string, Record<string, Json>>;
    expect(paths['/healthz']?.get?.operationId).toBe('getHealthz');
    expect(paths['/readyz']?.get?.operationId).toBe('getReadyz');
    expect(Object.keys(paths['/readyz']?.get?.responses as Json).sort()).toEqual(['200', '500', '503']);
    const validator = new ResponseValidator(doc);
    const healthz = await app.inject({ method: 'GET', url: '/healthz' });
    validator.check('GET', '/healthz', 200, healthz.json());
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    validator.check('GET', '/readyz', 200, ready.json());
    const notReady = await emptyApp.inject({ method: 'GET', url: '/readyz' });
    validator.check('GET', '/readyz', 503, notReady.json());
    await app.close();
    await emptyApp.close();
    await seeded.close();
    await empty.close();
  });
});

describe('ReadModelHolder.served', () => {
  it('knows when the served data was published, and follows a newer run', async () => {
    const store = await storeWithRun('live', '2026-11-21T10:00:00.000Z');
    const holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW });
    expect(holder.served()).toMatchObject({
      publishedAt: '2026-11-21T10:00:00.000Z',
      rebuildFailedAt: null,
      rebuildFailures: 0,
    });
    expect(holder.served().buildMs).toBeGreaterThanOrEqual(0);
    const runId = await store.startRun('live', '2026-11-21T12:00:00.000Z');
    await store.finishRun(runId, 'ok', {}, '2026-11-21T12:01:00.000Z', true);
    expect(await holder.refresh()).toBe(true);
    expect(holder.current().generation).toBe(2);
    expect(holder.served().publishedAt).toBe('2026-11-21T12:01:00.000Z');
    await store.close();
  });
});
