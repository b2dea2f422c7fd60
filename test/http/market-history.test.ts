// GET /v1/markets/{id}/history serves a market's stored daily marks over a date range, oldest first, each with
// price_as_of and how it was obtained (venue snapshot, venue history backfill, carried forward); defaults to the
// 365 days up to the market's newest mark; refuses bad ranges, and interval=hour while no hourly detail is kept, with
// a 400; answers an unknown market 404; and revalidates with a per-generation ETag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewMark } from '../../src/domain/index.ts';
import { MarketHistorySchema } from '../../src/domain/index.ts';
import { buildApp } from '../../src/http/index.ts';
import { marksFromPriceHistory } from '../../src/pipeline/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import { obtainedOf } from '../../src/serve/market-history.ts';
import type { Store } from '../../src/store/index.ts';
import { allMarkets, fedMarkets, hidden, NOW, seedStore, TODAY, YESTERDAY } from '../serve/seed.ts';

const market = fedMarkets[0];
if (!market) throw new Error('seed');
const id = market.market_id;
const hiddenMarket = allMarkets.find((m) => m.event_id === hidden.event_id);
if (!hiddenMarket) throw new Error('seed');

let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;

function extra(date: string, overrides: Partial<NewMark>): NewMark {
  return {
    market_id: id,
    snapshot_date: date,
    snapshot_at: `${date}T23:00:00.000Z`,
    source_updated_at: `${date}T23:00:00.000Z`,
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: 0.5,
    implied_probability: 0.5,
    volume_24h_usd: null,
    volume_total_usd: null,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: null,
    spread: null,
    mid: null,
    divergence_from_primary: null,
    hours_since_source_update: 0,
    field_provenance: {},
    ...overrides,
  };
}

const BACKFILLED = '2026-11-10';
const CARRIED = '2026-11-15';
const OLD = '2025-06-01';

beforeAll(async () => {
  store = await seedStore();
  await store.transaction((tx) =>
    tx.upsertMarks([
      // Written as the backfill writes it, from a venue price-history point.
      ...marksFromPriceHistory(market, [{ t: Date.parse(`${BACKFILLED}T23:00:00Z`) / 1000, p: 0.41 }], {
        from: BACKFILLED,
        toExclusive: TODAY,
      }),
      // As a run writes one when the venue failed: the venue gave no time, so price_as_of is null.
      extra(CARRIED, {
        mark_method: 'imputed_carry_forward',
        stale_flag: true,
        yes_last_price: 0.45,
        field_provenance: { source_updated_at: { source: 'imputed', note: 'carried forward' } },
      }),
      extra(OLD, { yes_last_price: 0.2 }),
      { ...extra(TODAY, {}), market_id: hiddenMarket.market_id },
    ]),
  );
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

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /v1/markets/{id}/history', () => {
  it('serves the stored daily marks in the range, oldest first, with price_as_of and obtained', async () => {
    const res = await get(`/v1/markets/${id}/history?from=2026-11-01&to=${TODAY}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = MarketHistorySchema.parse(res.json());
    expect(body).toMatchObject({ market_id: id, interval: 'day', from: '2026-11-01', to: TODAY, count: 4 });
    expect(body.points.map((p) => [p.date, p.obtained, p.price_as_of])).toEqual([
      [BACKFILLED, 'venue_history', `${BACKFILLED}T23:00:00.000Z`],
      [CARRIED, 'carried_forward', null],
      [YESTERDAY, 'venue_snapshot', `${YESTERDAY}T11:59:00.000Z`],
      [TODAY, 'venue_snapshot', `${TODAY}T11:59:00.000Z`],
    ]);
    expect(body.points[3]).toMatchObject({ yes_last_price: 0.92, yes_bid: 0.91, volume_24h_usd: 500, mid: 0.92 });
    expect(body.points[1]).toMatchObject({ yes_last_price: 0.45, stale_flag: true });
    expect(body._provenance.ref).toBe(id);
    // Metered like every /v1 read.
    expect(Number(res.headers['ratelimit-remaining'])).toBeGreaterThan(0);
    expect(res.json()).not.toHaveProperty('points.0.raw_payload');
  });

  it('takes any reference the market route takes (a venue ticker)', async () => {
    const res = await get(`/v1/markets/${encodeURIComponent(market.platform_market_id)}/history?from=2026-11-20`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ market_id: id, from: YESTERDAY, to: TODAY, count: 2 });
  });

  it("defaults to the 365 days up to the market's newest mark", async () => {
    const res = await get(`/v1/markets/${id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ to: TODAY, from: '2025-11-21', count: 4 });
    expect(body.points.map((p: { date: string }) => p.date)).not.toContain(OLD);
    const all = (await get(`/v1/markets/${id}/history?from=2025-01-01`)).json();
    expect(all.points[0].date).toBe(OLD);
    // A range with no stored marks is an empty series, not an error.
    const none = (await get(`/v1/markets/${id}/history?from=2024-01-01&to=2024-12-31`)).json();
    expect(none).toMatchObject({ count: 0, points: [] });
  });

  it.each([
    ['from=2026-13-01', 'from is not a date'],
    ['to=2026-02-30', 'to is not a date'],
    ['from=yesterday', 'from is not a date'],
    ['from=2026-11-21&to=2026-11-20', 'from is after to'],
    ['from=2010-01-01&to=2026-11-21', 'the range is longer than 3660 days'],
    ['interval=week', 'interval is not one of day, hour'],
  ])('answers %s with a 400', async (query, message) => {
    const res = await get(`/v1/markets/${id}/history?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request', error: message });
  });

  it('refuses interval=hour where no run kept hourly detail, saying so and where retention is documented', async () => {
    // The seeded store has no run that kept hourly detail (test/http/market-history-hourly.test.ts has runs that do).
    const res = await get(`/v1/markets/${id}/history?interval=hour`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toMatch(/hourly detail is off/);
    expect(body.hint).toMatch(/History and retention/);
    expect((await get(`/v1/markets/${id}/history?interval=day`)).statusCode).toBe(200);
  });

  it('answers an unknown or unpublished market 404', async () => {
    const res = await get('/v1/markets/SVC-MKT-ZZZZZZZZZZ/history');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'market_not_found' });
    // An unpublished market's marks are stored but not served (spec §2.1), as on GET /v1/markets/{id}.
    expect((await get(`/v1/markets/${hiddenMarket.market_id}/history`)).statusCode).toBe(404);
  });

  it('carries an ETag per range and generation and answers If-None-Match with 304', async () => {
    const first = await get(`/v1/markets/${id}/history?from=2026-11-01`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"g\d+-/);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const again = await get(`/v1/markets/${id}/history?from=2026-11-01`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get(`/v1/markets/${id}/history?from=2026-11-02`, { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });

  it('is documented in /openapi.json with its response schema', async () => {
    const doc = (await get('/openapi.json')).json();
    const op = doc.paths['/v1/markets/{id}/history']?.get;
    expect(op?.operationId).toBe('getMarketHistory');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
  });
});

describe('obtainedOf', () => {
  it('reads the mark method and the backfill note', () => {
    expect(obtainedOf({ mark_method: 'venue_snapshot', field_provenance: {} })).toBe('venue_snapshot');
    expect(obtainedOf({ mark_method: 'imputed_carry_forward', field_provenance: {} })).toBe('carried_forward');
    expect(obtainedOf({ mark_method: 'editorial_override', field_provenance: {} })).toBe('editorial_override');
    const [backfilled] = marksFromPriceHistory(market, [{ t: 1_763_700_000, p: 0.3 }], {
      from: '2025-11-01',
      toExclusive: '2025-12-01',
    });
    expect(backfilled && obtainedOf(backfilled)).toBe('venue_history');
  });
});
