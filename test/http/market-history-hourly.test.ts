// GET /v1/markets/{id}/history?interval=hour, end to end from pipeline runs: each refresh keeps a row only for a
// market whose quote changed; the series has one point per hour in which a published run ran (none for an hour
// without one), each the quote as of that run, `venue_snapshot` when the market's venue answered and
// `carried_forward` when it failed; rows older than the retention are pruned by a later run; a bad hour, a range
// longer than the retention, a start before it and a store that keeps no hourly detail (retention 0) are 400s; the MCP
// tool get_market_history answers interval hour with the same body.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketHistorySchema } from '../../src/domain/index.ts';
import { buildApp } from '../../src/http/index.ts';
import { runPipeline } from '../../src/pipeline/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { HourlyMark, SqlStore } from '../../src/store/index.ts';
import { startReplayServer } from '../../src/venues/index.ts';
import { DAY1, memoryLogger, tempStore, venueOptions } from '../pipeline/harness.ts';

const H10 = '2026-03-01T10:00:00.000Z';
const H11 = '2026-03-01T11:00:00.000Z';
const H13 = '2026-03-01T13:00:00.000Z';
const H14 = '2026-03-01T14:00:00.000Z';
const LATER = '2026-03-10T10:00:00.000Z';
const LATER_OFF = '2026-03-10T11:00:00.000Z';

let store: SqlStore;
let dispose: () => Promise<void>;
const apps: Awaited<ReturnType<typeof buildApp>>[] = [];

async function run(dir: string, at: string, opts: { faults?: string; retention?: number } = {}) {
  const logger = memoryLogger();
  const server = await startReplayServer({ dir, port: 0, ...(opts.faults ? { faults: opts.faults } : {}) });
  try {
    return await runPipeline({
      store,
      source: 'replay',
      clock: () => new Date(at),
      logger,
      venues: venueOptions(server, logger),
      backfill: { maxCalls: null },
      hourlyRetentionDays: opts.retention ?? 7,
    });
  } finally {
    await server.close();
  }
}

/** An app over the store as it is now, its clock at `at`. */
async function appAt(at: string) {
  const holder = await ReadModelHolder.create(store, { origin: 'http://pmref.test', clock: () => new Date(at) });
  const app = await buildApp({
    store,
    readModel: holder,
    config: { origin: 'http://pmref.test', trustProxy: false, refreshMinutes: 60 },
    clock: () => new Date(at),
  });
  apps.push(app);
  return (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
}

/** Every market's hourly rows of 2026-03-01. */
async function rowsByMarket(): Promise<Map<string, HourlyMark[]>> {
  const out = new Map<string, HourlyMark[]>();
  for (const id of await store.listMarketIds()) {
    const rows = await store.listHourlyMarks(id, '2026-03-01T00', '2026-03-01T23');
    if (rows.length > 0) out.set(id, rows);
  }
  return out;
}

const summaries: Record<string, { hourly?: { rows: number; pruned: number; retention_days: number } }> = {};
let rowsAfterDay: Map<string, HourlyMark[]>;
let changedB: string; // a venue_b market whose quote moved at 13:00
let unchangedA: string; // a venue_a market whose price never moved (its quote went stale at 14:00)
let get: Awaited<ReturnType<typeof appAt>>;

beforeAll(async () => {
  ({ store, dispose } = (await tempStore()) as { store: SqlStore; dispose: () => Promise<void> });
  // Day 1's input with one venue_b market's quote moved: what a later refresh of the same day reads.
  const dir = mkdtempSync(join(tmpdir(), 'pmref-hourly-'));
  cpSync(DAY1, dir, { recursive: true });
  const eventsFile = join(dir, 'venue_b_events.json');
  const events = JSON.parse(readFileSync(eventsFile, 'utf8')) as { markets: Record<string, unknown>[] }[];
  const moved = events.flatMap((e) => e.markets).find((m) => String(m.conditionId).startsWith('0xbbb1'));
  if (!moved) throw new Error('fixture: no 0xbbb1 market');
  Object.assign(moved, { outcomePrices: '["0.66", "0.34"]', lastTradePrice: 0.66, bestBid: 0.65, bestAsk: 0.67 });
  writeFileSync(eventsFile, JSON.stringify(events));
  try {
    for (const [at, input, faults] of [
      [H10, DAY1, undefined],
      [H11, DAY1, undefined],
      [H13, dir, undefined],
      [H14, dir, 'venue_b:5xx'],
    ] as const) {
      await run(input, at, faults ? { faults } : {});
      summaries[at] = (await store.lastRun())?.summary as (typeof summaries)[string];
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  rowsAfterDay = await rowsByMarket();
  const markets = await store.listMarkets();
  const venueOf = new Map(markets.map((m) => [m.market_id, m.platform]));
  const movedAt13 = [...rowsAfterDay].filter(([, rows]) => rows.some((r) => r.snapshot_hour === '2026-03-01T13'));
  const b = movedAt13.find(([id, rows]) => venueOf.get(id) === 'venue_b' && rows[0]?.snapshot_hour === '2026-03-01T10');
  const a = [...rowsAfterDay].find(([id]) => venueOf.get(id) === 'venue_a');
  if (!b || !a) throw new Error('fixtures: no moved venue_b market or no venue_a market');
  changedB = b[0];
  unchangedA = a[0];
  get = await appAt('2026-03-01T14:30:00.000Z');
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await dispose();
});

describe('hourly detail written by the runs', () => {
  it('keeps every first observation, nothing for an unchanged rerun, and only the moved quotes after', () => {
    const first = summaries[H10]?.hourly?.rows ?? 0;
    expect(first).toBeGreaterThan(0);
    expect(summaries[H11]?.hourly).toEqual({ retention_days: 7, rows: 0, pruned: 0 });
    const moved = summaries[H13]?.hourly?.rows ?? 0;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(first);
    // venue_b failed at 14:00: its markets were not read, so none of them has a row of that hour.
    const at14 = [...rowsAfterDay.values()].flat().filter((r) => r.snapshot_hour === '2026-03-01T14');
    expect(at14.map((r) => r.market_id)).not.toContain(changedB);
    // venue_a's price never moved: a row when first read, and one when its quote turned stale (5 h old at 14:00).
    const a = rowsAfterDay.get(unchangedA) ?? [];
    expect(a.map((r) => [r.snapshot_hour, r.stale_flag])).toEqual([
      ['2026-03-01T10', false],
      ['2026-03-01T14', true],
    ]);
    expect(a[0]?.yes_last_price).toBe(a[1]?.yes_last_price);
  });
});

describe('GET /v1/markets/{id}/history?interval=hour', () => {
  it('serves one point per run hour: read, unchanged, no run at 12:00, moved, carried forward when the venue failed', async () => {
    const res = await get(`/v1/markets/${changedB}/history?interval=hour&from=2026-03-01`);
    expect(res.statusCode, res.body).toBe(200);
    const body = MarketHistorySchema.parse(res.json());
    const rows = rowsAfterDay.get(changedB) ?? [];
    const at10 = rows[0];
    const at13 = rows.find((r) => r.snapshot_hour === '2026-03-01T13');
    if (!at10 || !at13) throw new Error('rows');
    expect(at10.yes_last_price).not.toBe(at13.yes_last_price);
    expect(body).toMatchObject({
      market_id: changedB,
      interval: 'hour',
      from: '2026-03-01T00:00:00.000Z',
      // `to` defaults to the newest run's hour.
      to: H14,
      count: 4,
    });
    expect(
      body.points.map((p) => [p.hour, p.date, p.obtained, p.snapshot_at, p.yes_last_price, p.price_as_of]),
    ).toEqual([
      [H10, '2026-03-01', 'venue_snapshot', H10, at10.yes_last_price, at10.price_as_of],
      [H11, '2026-03-01', 'venue_snapshot', H11, at10.yes_last_price, at10.price_as_of],
      [H13, '2026-03-01', 'venue_snapshot', H13, at13.yes_last_price, at13.price_as_of],
      [H14, '2026-03-01', 'carried_forward', H13, at13.yes_last_price, at13.price_as_of],
    ]);
    expect(body.points[2]).toMatchObject({
      yes_bid: at13.yes_bid,
      yes_ask: at13.yes_ask,
      volume_24h_usd: at13.volume_24h_usd,
      mid: at13.mid,
      spread: at13.spread,
    });
  });

  it('serves an unchanged hour from the row before it, venue_a answering throughout', async () => {
    const body = (
      await get(`/v1/markets/${unchangedA}/history?interval=hour&from=2026-03-01T11&to=2026-03-01T14:59:59Z`)
    ).json();
    expect(body).toMatchObject({ from: H11, to: H14, count: 3 });
    const price = rowsAfterDay.get(unchangedA)?.[0]?.yes_last_price;
    expect(
      body.points.map((p: { hour: string; obtained: string; stale_flag: boolean; yes_last_price: number }) => [
        p.hour,
        p.obtained,
        p.stale_flag,
        p.yes_last_price,
      ]),
    ).toEqual([
      [H11, 'venue_snapshot', false, price],
      [H13, 'venue_snapshot', false, price],
      [H14, 'venue_snapshot', true, price],
    ]);
  });

  it('defaults to the retention window up to the newest run, and keeps the daily series as it was', async () => {
    const hourly = (await get(`/v1/markets/${changedB}/history?interval=hour`)).json();
    expect(hourly).toMatchObject({ from: '2026-02-22T00:00:00.000Z', to: H14, count: 4 });
    const daily = (await get(`/v1/markets/${changedB}/history?from=2026-03-01`)).json();
    expect(daily).toMatchObject({ interval: 'day', from: '2026-03-01', count: 1 });
    expect(daily.points[0]).not.toHaveProperty('hour');
  });

  it('is served by the MCP tool get_market_history with interval hour, the same body as REST', async () => {
    const app = apps[0];
    if (!app) throw new Error('app');
    const res = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_market_history',
          arguments: { market_id: changedB, interval: 'hour', from: '2026-03-01' },
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = res.body.startsWith('{') ? res.body : (res.body.match(/^data: (.*)$/m)?.[1] ?? '');
    const rest = (await get(`/v1/markets/${changedB}/history?interval=hour&from=2026-03-01`)).json();
    expect(JSON.parse(text).result.structuredContent).toEqual(rest);
  });

  it('has its own ETag and answers a revalidation 304', async () => {
    const url = `/v1/markets/${changedB}/history?interval=hour&from=2026-03-01`;
    const first = await get(url);
    const etag = first.headers.etag as string;
    expect(etag).not.toBe((await get(`/v1/markets/${changedB}/history?from=2026-03-01`)).headers.etag);
    expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it.each([
    ['from=2026-03-01T25', 'from is not a date or an hour'],
    ['to=2026-02-30T10', 'to is not a date or an hour'],
    ['from=10am', 'from is not a date or an hour'],
    ['from=2026-03-01T14&to=2026-03-01T13', 'from is after to'],
    ['from=2026-02-22T00&to=2026-03-02T00', 'the range is longer than the 8 days of hourly detail kept (192 hours)'],
    ['from=2026-02-21T23&to=2026-03-01T10', 'hourly detail before 2026-02-22T00:00:00.000Z is not kept'],
  ])('answers %s with a 400', async (query, message) => {
    const res = await get(`/v1/markets/${changedB}/history?interval=hour&${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request', error: message });
  });
});

describe('retention', () => {
  it('prunes hours older than the retention at a later run, and retention 0 turns interval=hour off', async () => {
    await run(DAY1, LATER);
    const later = (await store.lastRun())?.summary as (typeof summaries)[string];
    const kept = [...rowsAfterDay.values()].flat().length;
    expect(later.hourly?.pruned).toBe(kept);
    expect(await store.listHourlyMarks(changedB, '2026-03-01T00', '2026-03-01T23')).toEqual([]);
    const getLater = await appAt('2026-03-10T10:30:00.000Z');
    const old = await getLater(`/v1/markets/${changedB}/history?interval=hour&from=2026-03-01`);
    expect(old.statusCode).toBe(400);
    expect(old.json().error).toBe('hourly detail before 2026-03-03T00:00:00.000Z is not kept');
    const now = (await getLater(`/v1/markets/${changedB}/history?interval=hour`)).json();
    expect(now).toMatchObject({ from: '2026-03-03T00:00:00.000Z', to: LATER, count: 1 });
    expect(now.points[0]).toMatchObject({ hour: LATER, obtained: 'venue_snapshot', snapshot_at: LATER });

    await run(DAY1, LATER_OFF, { retention: 0 });
    const off = (await store.lastRun())?.summary as (typeof summaries)[string];
    expect(off.hourly).toMatchObject({ retention_days: 0, rows: 0 });
    expect(await store.listHourlyMarks(changedB, '2026-03-10T00', '2026-03-10T23')).toEqual([]);
    const getOff = await appAt('2026-03-10T11:30:00.000Z');
    const res = await getOff(`/v1/markets/${changedB}/history?interval=hour`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^hourly detail is off/);
    expect(res.json().hint).toMatch(/History and retention/);
    expect((await getOff(`/v1/markets/${changedB}/history`)).statusCode).toBe(200);
  });
});
