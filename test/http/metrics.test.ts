// Prometheus metrics (issue 19): requests are counted and timed by route pattern (the hot path's answers under the same labels as Fastify's, unknown paths as one label), limiter fallbacks and the read model are reported, pipeline run summaries become run, stage and venue metrics, and /metrics is served only on its own port (404 on the API).
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type App, buildApp, defaultLimits, redisMeter } from '../../src/http/index.ts';
import {
  createMetricsRegistry,
  HttpMetrics,
  type MetricsServer,
  PipelineMetrics,
  readModelMetrics,
  startMetricsServer,
} from '../../src/metrics/index.ts';
import type { RunSummary } from '../../src/pipeline/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { fedMarkets, NOW, seedStore } from '../serve/seed.ts';

const ORIGIN = 'http://pmref.test';
const silent = { info: () => {}, error: () => {} };

/** The value of one series in a scrape (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

describe('request metrics', () => {
  let store: Store;
  let app: App;
  let registry: Registry;
  let base: string;

  beforeAll(async () => {
    store = await seedStore();
    const holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW });
    registry = createMetricsRegistry();
    app = await buildApp({
      store,
      readModel: holder,
      config: { origin: ORIGIN, trustProxy: false, refreshMinutes: 60 },
      clock: () => NOW,
      metrics: new HttpMetrics(registry),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('counts and times each request once, labelled by route pattern, method and status', async () => {
    const market = fedMarkets[1]?.market_id ?? '';
    const get = async (path: string, init?: RequestInit) => {
      const res = await fetch(base + path, init);
      await res.arrayBuffer();
      return res;
    };
    // The hot path answers these two (a plain market or event lookup) ...
    expect((await get(`/v1/markets/${market}`)).status).toBe(200);
    const etag = (await get(`/v1/markets/${market}`)).headers.get('etag') ?? '';
    expect((await get(`/v1/markets/${market}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await get('/v1/events/fed-upper-bound-december-2026')).status).toBe(200);
    // ... Fastify these: a list, a miss handed over by the hot path, unknown paths, a probe, a 405.
    expect((await get('/v1/events?limit=1')).status).toBe(200);
    expect((await get('/v1/markets/no-such-market')).status).toBe(404);
    for (const p of ['/nope', '/v1/nope/1', '/v1/nope/2', '/metrics']) expect((await get(p)).status).toBe(404);
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/v1/events', { method: 'DELETE' })).status).toBe(405);

    const text = await registry.metrics();
    const count = (route: string, method: string, status: number) =>
      sample(text, `pmref_http_requests_total{route="${route}",method="${method}",status="${status}"}`);
    expect(count('/v1/markets/:id', 'GET', 200)).toBe(2);
    expect(count('/v1/markets/:id', 'GET', 304)).toBe(1);
    expect(count('/v1/markets/:id', 'GET', 404)).toBe(1);
    expect(count('/v1/events/:slug', 'GET', 200)).toBe(1);
    expect(count('/v1/events', 'GET', 200)).toBe(1);
    expect(count('unmatched', 'GET', 404)).toBe(4);
    expect(count('/readyz', 'GET', 200)).toBe(1);
    expect(count('unmatched', 'DELETE', 405)).toBe(1);
    // No raw URL ever becomes a label.
    expect(text).not.toContain(market);
    expect(text).not.toContain('/v1/nope');
    expect(text).not.toContain('fed-upper-bound');
    // One latency observation per request, in the same route labels.
    const latency = (route: string, method: string) =>
      sample(text, `pmref_http_request_duration_seconds_count{route="${route}",method="${method}"}`);
    expect(latency('/v1/markets/:id', 'GET')).toBe(4);
    expect(latency('unmatched', 'GET')).toBe(4);
    expect(sample(text, 'pmref_http_request_duration_seconds_bucket{le="+Inf",route="/readyz",method="GET"}')).toBe(1);
    // The default process metrics ride along.
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('rate-limiter metrics', () => {
  it('counts every call the Redis meter counts in-process, and reports the shared counters down', async () => {
    const registry = createMetricsRegistry();
    const http = new HttpMetrics(registry);
    // A client that never connected: every call is counted locally.
    const redis = { status: 'end' } as unknown as Redis;
    const meter = redisMeter(redis, {
      prefix: 'pmref-test',
      log: () => {},
      onLocalCount: (reason) => http.limiterFallback(reason),
    });
    http.watchMeter(() => meter.health());
    const tick = { day: '2026-11-21', toMidnight: 3600 };
    for (let i = 0; i < 3; i++) await meter.consume('ip:1.2.3.4', 10, tick);
    const text = await registry.metrics();
    expect(sample(text, 'pmref_rate_limit_fallbacks_total{reason="disconnected"}')).toBe(3);
    expect(sample(text, 'pmref_rate_limit_shared_counters_up')).toBe(0);
  });
});

describe('read-model metrics', () => {
  it('reports the served generation, the data age at scrape time, the build time and failed rebuilds', async () => {
    const registry = createMetricsRegistry();
    const now = Date.parse('2026-11-21T12:30:00.000Z');
    readModelMetrics(
      registry,
      () => ({
        generation: 12,
        builtAt: '2026-11-21T12:00:00.000Z',
        publishedAt: '2026-11-21T11:30:00.000Z',
        buildMs: 1500,
        rebuildFailures: 2,
      }),
      () => now,
    );
    const text = await registry.metrics();
    expect(sample(text, 'pmref_read_model_generation')).toBe(12);
    expect(sample(text, 'pmref_read_model_data_age_seconds')).toBe(3600);
    expect(sample(text, 'pmref_read_model_built_timestamp_seconds')).toBe(Date.parse('2026-11-21T12:00:00Z') / 1000);
    expect(sample(text, 'pmref_read_model_build_duration_seconds')).toBe(1.5);
    expect(sample(text, 'pmref_read_model_rebuild_failures_total')).toBe(2);
  });
});

describe('pipeline metrics', () => {
  const run = (overrides: Partial<RunSummary>): RunSummary => ({
    venues: {
      venue_a: { pulled: 120, stored: 118, out_of_scope: {}, rejected: {}, error: null },
      venue_b: { pulled: 0, stored: 0, out_of_scope: {}, rejected: {}, error: 'HTTP 503 after 4 retries' },
    },
    log_entries: 3,
    marks: 118,
    duration_ms: 42_000,
    generation: 9,
    run_id: 31,
    status: 'partial',
    degraded: ['venue_b'],
    source: 'live',
    as_of: '2026-11-21T12:00:00.000Z',
    events_written: 10,
    markets_written: 118,
    marks_carried_forward: 40,
    editorial_failures: 0,
    backfill: null,
    fallbacks: ['venue_b failed: marks carried forward'],
    timings_ms: { pull: 30_000, editorial: 8_000, write: 4_000 },
    cpu_ms: 9_000,
    cpu_ms_by_stage: { pull: 1_000, editorial: 6_000, 'editorial.derive': 5_000, write: 2_000 },
    ...overrides,
  });

  it('turns each delivered run summary into run, stage and venue metrics', async () => {
    const registry = createMetricsRegistry();
    const at = Date.parse('2026-11-21T12:01:00.000Z');
    const pipeline = new PipelineMetrics(registry, () => at);
    pipeline.observe({ runs: [run({}), run({ status: 'ok', degraded: [], generation: 10, run_id: 32 })] });
    pipeline.observeRun(
      run({
        status: 'failed',
        generation: 0,
        degraded: ['venue_a', 'venue_b'],
        venues: {
          venue_a: { pulled: 0, stored: 0, out_of_scope: {}, rejected: {}, error: 'timeout' },
          venue_b: { pulled: 0, stored: 0, out_of_scope: {}, rejected: {}, error: 'timeout' },
        },
      }),
    );
    const text = await registry.metrics();
    expect(sample(text, 'pmref_pipeline_runs_total{source="live",status="partial"}')).toBe(1);
    expect(sample(text, 'pmref_pipeline_runs_total{source="live",status="ok"}')).toBe(1);
    expect(sample(text, 'pmref_pipeline_runs_total{source="live",status="failed"}')).toBe(1);
    expect(sample(text, 'pmref_pipeline_run_duration_seconds_sum{status="partial"}')).toBe(42);
    expect(sample(text, 'pmref_pipeline_stage_duration_seconds_count{stage="pull"}')).toBe(3);
    expect(sample(text, 'pmref_pipeline_stage_duration_seconds_sum{stage="editorial"}')).toBe(24);
    expect(sample(text, 'pmref_pipeline_stage_cpu_seconds_total{stage="editorial.derive"}')).toBe(15);
    expect(sample(text, 'pmref_pipeline_degraded_total{part="venue_b"}')).toBe(2);
    expect(sample(text, 'pmref_pipeline_degraded_total{part="venue_a"}')).toBe(1);
    expect(sample(text, 'pmref_pipeline_last_published_generation')).toBe(10);
    expect(sample(text, 'pmref_pipeline_last_run_timestamp_seconds{status="failed"}')).toBe(at / 1000);
    expect(sample(text, 'pmref_venue_records_pulled_total{venue="venue_a"}')).toBe(240);
    expect(sample(text, 'pmref_venue_errors_total{venue="venue_b"}')).toBe(3);
    expect(sample(text, 'pmref_venue_errors_total{venue="venue_a"}')).toBe(1);
    // Stage parts are in the CPU counter only; the stage histogram keeps to the stages.
    expect(text).not.toContain('pmref_pipeline_stage_duration_seconds_count{stage="editorial.derive"}');
    // Summaries that do not record request counts leave those series absent (unknown), not zero.
    expect(text).not.toMatch(/^pmref_venue_requests_total\{/m);
    pipeline.observeRun(
      run({
        venues: {
          venue_a: { pulled: 1, stored: 1, out_of_scope: {}, rejected: {}, error: null, requests: 14, retries: 2 },
          venue_b: { pulled: 1, stored: 1, out_of_scope: {}, rejected: {}, error: null },
        },
      }),
    );
    const after = await registry.metrics();
    expect(sample(after, 'pmref_venue_requests_total{venue="venue_a"}')).toBe(14);
    expect(sample(after, 'pmref_venue_retries_total{venue="venue_a"}')).toBe(2);
    expect(after).not.toMatch(/^pmref_venue_requests_total\{venue="venue_b"\}/m);
    expect(sample(after, 'pmref_venue_errors_total{venue="venue_a"}')).toBe(1); // written at 0 by error-free runs
    // Runs of a dead process, aborted by the worker before its run, are counted from its next result.
    expect(after).not.toContain('status="aborted"');
    pipeline.observe({ source: 'live', aborted_runs: [33, 34], runs: [run({ status: 'ok', run_id: 35 })] });
    const aborted = await registry.metrics();
    expect(sample(aborted, 'pmref_pipeline_runs_total{source="live",status="aborted"}')).toBe(2);
    expect(sample(aborted, 'pmref_pipeline_last_run_timestamp_seconds{status="aborted"}')).toBe(at / 1000);
  });
});

describe('the metrics endpoint', () => {
  let server: MetricsServer | null;

  afterAll(async () => {
    await server?.close();
  });

  it('is off without PMREF_METRICS_PORT', async () => {
    const config = loadConfig({});
    expect(config.PMREF_METRICS_PORT).toBeUndefined();
    expect(config.PMREF_METRICS_HOST).toBe('127.0.0.1');
    expect(await startMetricsServer(config, createMetricsRegistry(), silent)).toBeNull();
  });

  it('serves GET /metrics in the Prometheus text format on its own port, and nothing else', async () => {
    const registry = createMetricsRegistry();
    new PipelineMetrics(registry).observeRun({
      venues: {} as RunSummary['venues'],
      log_entries: 0,
      marks: 0,
      duration_ms: 1000,
      generation: 1,
      run_id: 1,
      status: 'ok',
      degraded: [],
      source: 'replay',
      as_of: '2026-11-21T12:00:00.000Z',
      events_written: 0,
      markets_written: 0,
      marks_carried_forward: 0,
      editorial_failures: 0,
      backfill: null,
      fallbacks: [],
    });
    server = await startMetricsServer(loadConfig({ PMREF_METRICS_PORT: '0' }), registry, silent);
    expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const url = server?.url ?? '';
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('pmref_pipeline_runs_total{source="replay",status="ok"} 1');
    const other = await fetch(url.replace(/\/metrics$/, '/v1/events'));
    expect(other.status).toBe(404);
    await other.arrayBuffer();
    const post = await fetch(url, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.arrayBuffer();
  });

  it('names the setting when its port cannot be bound', async () => {
    const taken = Number(new URL(server?.url ?? 'http://x:1').port);
    await expect(
      startMetricsServer(loadConfig({ PMREF_METRICS_PORT: String(taken) }), createMetricsRegistry(), silent),
    ).rejects.toThrow(`PMREF_METRICS_PORT=${taken}`);
  });
});

describe('an app without metrics', () => {
  it('has no request instrumentation and no /metrics', async () => {
    const store = await seedStore();
    const holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW });
    const app = await buildApp({
      store,
      readModel: holder,
      config: { origin: ORIGIN, trustProxy: false, refreshMinutes: 60 },
      clock: () => NOW,
      limits: defaultLimits(),
    });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect(app.hasRoute({ method: 'GET', url: '/metrics' })).toBe(false);
    await app.close();
    await store.close();
  });
});
