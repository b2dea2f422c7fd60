// GET /v1/status judges its state by the documented rules: degraded when the store cannot be read or the last run failed, fell back (partial, naming what) or was aborted, stale when the data is old or the server is behind the store, ok otherwise; a store error never leaks its message.
import { describe, expect, it } from 'vitest';
import { readStoreView, type StatusInputs, type StoreView, serviceStatus } from '../../src/serve/index.ts';
import { Body } from '../../src/serve/json-bytes.ts';
import type { PipelineRun, Store } from '../../src/store/index.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');

function run(over: Partial<PipelineRun> = {}): PipelineRun {
  return {
    run_id: 7,
    started_at: '2026-11-22T09:00:00.000Z',
    finished_at: '2026-11-22T09:01:00.000Z',
    source: 'live',
    status: 'ok',
    generation: 3,
    summary: {
      venues: {
        venue_a: { pulled: 10, stored: 9, out_of_scope: {}, rejected: {}, error: null },
        venue_b: { pulled: 5, stored: 5, out_of_scope: {}, rejected: {}, error: null },
      },
    },
    ...over,
  };
}

function storeView(over: Partial<Extract<StoreView, { ok: true }>> = {}): StoreView {
  const last = run();
  return {
    ok: true,
    generation: 3,
    counts: { events: 4, markets: 9, marks: 40, log: 2, signals: 1 },
    last,
    lastPublished: last,
    ...over,
  };
}

function inputs(store: StoreView, over: Partial<StatusInputs['model']> = {}): StatusInputs {
  return {
    now: NOW,
    refreshMinutes: 60,
    serviceName: 'pmref',
    origin: 'http://pmref.test',
    store,
    model: {
      generation: 3,
      builtAt: '2026-11-22T09:01:30.000Z',
      dataSource: 'live',
      counts: { events: 4, markets: 9, published_events: 3, live_events: 2 },
      signals: [],
      spot: new Body(
        JSON.stringify({
          source: 'coingecko',
          vs_currency: 'usd',
          spot: [
            { coin: 'bitcoin', price_usd: 1, as_of: '2026-11-22T08:00:00.000Z' },
            { coin: 'ethereum', price_usd: 1, as_of: '2026-11-22T09:00:00.000Z' },
          ],
        }),
        'e',
      ),
      ...over,
    },
  };
}

const checkOf = (s: ReturnType<typeof serviceStatus>, name: string) => s.checks.find((c) => c.name === name);

describe('serviceStatus', () => {
  it('is ok when the store answers, the server is current, the last run was whole and the data is fresh', () => {
    const s = serviceStatus(inputs(storeView()));
    expect(s.state).toBe('ok');
    expect(s.checks.map((c) => [c.name, c.ok])).toEqual([
      ['store', true],
      ['read_model', true],
      ['pipeline', true],
      ['venue_a', true],
      ['venue_b', true],
      ['freshness', true],
    ]);
    expect(checkOf(s, 'venue_a')?.detail).toBe('run 7: 10 pulled, 9 stored');
    expect(checkOf(s, 'freshness')?.detail).toBe(
      'newest data published 59 min ago (refresh every 60 min; stale after 120)',
    );
    expect(s.dataset).toMatchObject({ generation: 3, store_generation: 3, marks: 40, log: 2 });
    expect(s.non_core.spot).toEqual({ coins: 2, newest_as_of: '2026-11-22T09:00:00.000Z' });
    expect(s.runs.last).toEqual({
      run_id: 7,
      source: 'live',
      status: 'ok',
      degraded: [],
      started_at: '2026-11-22T09:00:00.000Z',
      finished_at: '2026-11-22T09:01:00.000Z',
      generation: 3,
    });
  });

  it('is stale when the newest published data is older than twice the refresh interval', () => {
    const old = run({ finished_at: '2026-11-22T07:59:00.000Z' });
    const s = serviceStatus(inputs(storeView({ last: old, lastPublished: old })));
    expect(s.state).toBe('stale');
    expect(checkOf(s, 'freshness')).toEqual({
      name: 'freshness',
      ok: false,
      detail: 'newest data published 121 min ago (refresh every 60 min; stale after 120)',
    });
  });

  it('does not judge the age of simulated data', () => {
    const old = run({ source: 'simulated', finished_at: '2026-11-01T00:00:00.000Z' });
    const s = serviceStatus(inputs(storeView({ last: old, lastPublished: old }), { dataSource: 'simulated' }));
    expect(s.state).toBe('ok');
    expect(checkOf(s, 'freshness')?.ok).toBe(true);
  });

  it('is stale while this server serves an older generation than the store holds', () => {
    const s = serviceStatus(inputs(storeView({ generation: 4 })));
    expect(s.state).toBe('stale');
    expect(checkOf(s, 'read_model')).toEqual({
      name: 'read_model',
      ok: false,
      detail: 'serving generation 3 while the store holds 4: a rebuild is due',
    });
  });

  it('is degraded when the last run lost a venue or failed, and degraded wins over stale', () => {
    const partial = run({
      status: 'partial',
      finished_at: '2026-11-22T06:00:00.000Z',
      summary: {
        venues: {
          venue_a: { pulled: 10, stored: 9, out_of_scope: {}, rejected: {}, error: null },
          venue_b: { pulled: 0, stored: 0, out_of_scope: {}, rejected: {}, error: 'HTTP 503 after 4 attempts' },
        },
      },
    });
    const s = serviceStatus(inputs(storeView({ last: partial, lastPublished: partial })));
    expect(s.state).toBe('degraded');
    expect(checkOf(s, 'venue_b')).toEqual({
      name: 'venue_b',
      ok: false,
      detail: 'not reached in run 7: HTTP 503 after 4 attempts',
    });
    expect(checkOf(s, 'freshness')?.ok).toBe(false);

    const failed = run({ run_id: 8, status: 'failed', generation: 0, summary: { error: 'both venues down' } });
    const f = serviceStatus(inputs(storeView({ last: failed, lastPublished: run() })));
    expect(f.state).toBe('degraded');
    expect(checkOf(f, 'pipeline')?.detail).toBe('run 8 (live) failed at 2026-11-22T09:01:00.000Z: both venues down');
  });

  it('a partial run names what fell back; an aborted run is degraded and venues are judged by the last published run', () => {
    const partial = run({
      run_id: 8,
      status: 'partial',
      summary: { ...run().summary, degraded: ['spot', 'venue_b.order_books'] },
    });
    const p = serviceStatus(inputs(storeView({ last: partial, lastPublished: partial })));
    expect(p.state).toBe('degraded');
    expect(checkOf(p, 'pipeline')).toEqual({
      name: 'pipeline',
      ok: false,
      detail: 'run 8 (live) finished at 2026-11-22T09:01:00.000Z; fell back: spot, venue_b.order_books',
    });
    expect(p.runs.last?.degraded).toEqual(['spot', 'venue_b.order_books']);

    const aborted = run({
      run_id: 9,
      status: 'aborted',
      generation: 0,
      finished_at: '2026-11-22T09:30:00.000Z',
      summary: {
        error:
          'process ended before publish; found at start by pid 42 on host-a: pid 41 on host-a is no longer running',
      },
    });
    const a = serviceStatus(inputs(storeView({ last: aborted })));
    expect(a.state).toBe('degraded');
    expect(checkOf(a, 'pipeline')?.detail).toBe(
      'run 9 (live) aborted (found at 2026-11-22T09:30:00.000Z; nothing of it was published): process ended before publish; found at start by pid 42 on host-a: pid 41 on host-a is no longer running',
    );
    expect(checkOf(a, 'venue_a')?.detail).toBe('run 7: 10 pulled, 9 stored');
    expect(a.runs.last).toMatchObject({ run_id: 9, status: 'aborted', degraded: [], generation: 0 });
  });

  it('judges venues by the last finished run while a run is in progress', () => {
    const running = run({ run_id: 8, status: 'running', finished_at: null, generation: 0, summary: {} });
    const s = serviceStatus(inputs(storeView({ last: running })));
    expect(s.state).toBe('ok');
    expect(checkOf(s, 'pipeline')?.detail).toBe('run 8 (live) running since 2026-11-22T09:00:00.000Z');
    expect(checkOf(s, 'venue_a')?.detail).toBe('run 7: 10 pulled, 9 stored');
  });

  it('is degraded when the store cannot be read, and serves the counts it has', () => {
    const s = serviceStatus(inputs({ ok: false, error: 'ECONNREFUSED; the server log has the details' }));
    expect(s.state).toBe('degraded');
    expect(s.checks[0]).toEqual({
      name: 'store',
      ok: false,
      detail: 'cannot be read: ECONNREFUSED; the server log has the details',
    });
    expect(s.dataset).toMatchObject({ store_generation: null, events: 4, markets: 9, marks: null, log: null });
    expect(s.runs).toEqual({ last: null, last_published: null });
  });
});

describe('readStoreView', () => {
  it('turns a store failure into a finding naming only the error code, and hands the error to the log', async () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432 (password for user admin)'), {
      code: 'ECONNREFUSED',
    });
    const fail = () => Promise.reject(err);
    const broken = { generation: fail, counts: fail, lastRun: fail } as unknown as Store;
    const logged: unknown[] = [];
    const view = await readStoreView(broken, (e) => logged.push(e));
    expect(view).toEqual({ ok: false, error: 'ECONNREFUSED; the server log has the details' });
    expect(logged).toEqual([err]);
    expect(JSON.stringify(view)).not.toContain('10.1.2.3');
  });

  it('reports a store that does not answer in time as unreadable', async () => {
    const hang = () => new Promise<never>(() => {});
    const stuck = { generation: hang, counts: hang, lastRun: hang } as unknown as Store;
    const logged: unknown[] = [];
    const view = await readStoreView(stuck, (e) => logged.push(e), 20);
    expect(view).toEqual({ ok: false, error: 'TIMEOUT; the server log has the details' });
    expect((logged[0] as Error).message).toBe('no answer in 20 ms');
  });
});
