// A raw venue record or page that departs from its venue's documented shape yields one finding per departure (unknown field, missing required field, changed type, pagination), and a pull counts each distinct field path once however many records show it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkRecord,
  compileShapes,
  createDriftWatch,
  driftCount,
  pullVenueA,
  pullVenueB,
  type ReplayServer,
  startReplayServer,
  VENUE_SHAPES,
  type VenueShapeManifest,
} from '../../src/venues/index.ts';
import { BASIC_DIR, fakeClock } from './helpers.ts';

/** A small manifest in venue_a's documented shape (trade API v2, cursor paging) and venue_b's (Gamma, offset). */
const MANIFEST: VenueShapeManifest = {
  venue: 'venue_a',
  venue_shape: 'test',
  document: { file: 'test.yaml', title: 'Test', version: '1.0.0', openapi: '3.0.0' },
  source: { repo: 'test/test', path: 'test.yaml', commit: '0000000', licence: 'none', listed_in: 'test' },
  extracted_at: '2026-01-01',
  notes: [],
  not_covered: [],
  endpoints: {
    'GET /events': {
      response: 'GetEventsResponse',
      paging: { kind: 'cursor', cursor_field: 'cursor', cursor_param: 'cursor' },
    },
    'GET /gamma/events': {
      response: 'array<Market>',
      paging: { kind: 'offset', limit_param: 'limit', offset_param: 'offset' },
    },
  },
  records: {
    GetEventsResponse: { fields: { events: 'array<EventData>', cursor: 'string' }, required: ['events', 'cursor'] },
    EventData: {
      fields: { event_ticker: 'string', markets: 'array<Market>', strike_date: 'string|null' },
      required: ['event_ticker'],
    },
    Market: {
      fields: {
        id: 'string',
        ticker: 'string',
        yes_bid_dollars: 'string',
        settlement_timer_seconds: 'integer',
        floor_strike: 'number|null',
      },
      required: ['ticker', 'yes_bid_dollars'],
    },
  },
};
const shapes = compileShapes(MANIFEST);
const market = {
  ticker: 'KXFED-26APR-T4.00',
  yes_bid_dollars: '0.4500',
  settlement_timer_seconds: 300,
  floor_strike: 4,
};

describe('checkRecord', () => {
  it('finds nothing in a record that matches its documented shape, nullable and integer-as-number respected', () => {
    expect(checkRecord(shapes, 'Market', market)).toEqual([]);
    expect(checkRecord(shapes, 'Market', { ...market, floor_strike: null })).toEqual([]);
    expect(checkRecord(shapes, 'Market', { ...market, floor_strike: 4.25 })).toEqual([]);
  });

  it('names an unknown field with its observed type', () => {
    expect(checkRecord(shapes, 'Market', { ...market, yes_bid: 45 })).toEqual([
      { record: 'Market', field: 'yes_bid', kind: 'unknown_field', observed: 'integer' },
    ]);
  });

  it('names a missing required field, and not a missing optional one', () => {
    const { yes_bid_dollars: _, floor_strike: __, ...partial } = market;
    expect(checkRecord(shapes, 'Market', partial)).toEqual([
      { record: 'Market', field: 'yes_bid_dollars', kind: 'missing_required' },
    ]);
  });

  it('names a changed type with the documented and the observed type', () => {
    expect(checkRecord(shapes, 'Market', { ...market, yes_bid_dollars: 0.45, settlement_timer_seconds: 1.5 })).toEqual([
      { record: 'Market', field: 'yes_bid_dollars', kind: 'type_mismatch', documented: 'string', observed: 'number' },
      {
        record: 'Market',
        field: 'settlement_timer_seconds',
        kind: 'type_mismatch',
        documented: 'integer',
        observed: 'number',
      },
    ]);
    expect(checkRecord(shapes, 'EventData', { event_ticker: 'E', strike_date: 5 })).toEqual([
      {
        record: 'EventData',
        field: 'strike_date',
        kind: 'type_mismatch',
        documented: 'string|null',
        observed: 'integer',
      },
    ]);
  });

  it('checks the records nested in a record', () => {
    expect(
      checkRecord(shapes, 'EventData', { event_ticker: 'E', markets: [market, { ...market, volume: 3 }] }),
    ).toEqual([{ record: 'Market', field: 'volume', kind: 'unknown_field', observed: 'integer' }]);
  });
});

describe('createDriftWatch', () => {
  const page = (markets: unknown[], cursor?: string) => ({
    events: [{ event_ticker: 'E', markets }],
    ...(cursor === undefined ? {} : { cursor }),
  });

  it('counts each distinct field path once and every record that shows it', () => {
    const watch = createDriftWatch(MANIFEST, () => 0);
    const drifted = { ...market, yes_bid: 45 };
    watch.response('GET /events', page([drifted, drifted, market], 'c1'), { listing: 'status=open' });
    watch.response('GET /events', page([drifted], ''), { listing: 'status=open' });
    const s = watch.summary();
    expect(s.checked).toEqual({ responses: 2, records: 8, shapes: 4 });
    expect(s.kinds.unknown_field).toEqual({ fields: 1, records: 3 });
    expect(s.records_with_drift).toBe(3);
    expect(s.examples).toEqual([
      { record: 'Market', field: 'yes_bid', kind: 'unknown_field', observed: 'integer', records: 3 },
    ]);
    expect(driftCount(s)).toBe(1);
    expect(s.document).toBe('Test 1.0.0 (extracted 2026-01-01)');
  });

  it('reports a cursor page without a cursor as pagination, not also as a missing field', () => {
    const watch = createDriftWatch(MANIFEST, () => 0);
    watch.response('GET /events', page([market]), { listing: 'status=open' });
    const s = watch.summary();
    expect(s.kinds.missing_required).toEqual({ fields: 0, records: 0 });
    expect(s.examples).toEqual([
      { record: 'GetEventsResponse', field: 'cursor', kind: 'pagination', detail: 'page without a cursor', records: 1 },
    ]);
  });

  it('reports a cursor that repeats within one listing, not across listings', () => {
    const watch = createDriftWatch(MANIFEST, () => 0);
    watch.response('GET /events', page([market], 'c1'), { listing: 'status=open' });
    watch.response('GET /events', page([market], 'c1'), { listing: 'status=closed' });
    expect(watch.summary().kinds.pagination.fields).toBe(0);
    watch.response('GET /events', page([market], 'c1'), { listing: 'status=open' });
    expect(watch.summary().examples).toEqual([
      { record: 'GetEventsResponse', field: 'cursor', kind: 'pagination', detail: 'cursor repeated', records: 1 },
    ]);
  });

  it('reports an offset page longer than its limit and a page that repeats the previous one', () => {
    const watch = createDriftWatch(MANIFEST, () => 0);
    const rows = (ids: string[]) => ids.map((id) => ({ ...market, id }));
    watch.response('GET /gamma/events', rows(['1', '2']), { listing: 'closed=false', limit: 2 });
    watch.response('GET /gamma/events', rows(['3', '4']), { listing: 'closed=false', limit: 2 });
    expect(watch.summary().kinds.pagination.fields).toBe(0);
    watch.response('GET /gamma/events', rows(['3', '4', '5']), { listing: 'closed=false', limit: 2 });
    expect(watch.summary().examples.map((e) => [e.field, e.detail])).toEqual([
      ['limit', 'page longer than the requested limit'],
      ['offset', "page repeats the previous page's first record (offset ignored)"],
    ]);
  });

  it('checks a bare record and ignores endpoints and records the manifest does not list', () => {
    const watch = createDriftWatch(MANIFEST, () => 0);
    watch.response('GET /book', { bids: [] });
    watch.record('OrderBook', { bids: [] });
    watch.record('Market', { ...market, yes_bid_dollars: null });
    const s = watch.summary();
    expect(s.checked).toEqual({ responses: 0, records: 1, shapes: 1 });
    expect(s.kinds.type_mismatch).toEqual({ fields: 1, records: 1 });
  });
});

describe('the committed manifests on records in the venues’ shapes', () => {
  it('venue_a 3.13.0: an integer-cent price is unknown, a missing *_dollars price is a missing required field', () => {
    const a = compileShapes(VENUE_SHAPES.venue_a);
    const found = checkRecord(a, 'Market', { ticker: 'KXFED-26APR-T4.00', event_ticker: 'KXFED-26APR', yes_bid: 45 });
    expect(found).toContainEqual({ record: 'Market', field: 'yes_bid', kind: 'unknown_field', observed: 'integer' });
    expect(found).toContainEqual({ record: 'Market', field: 'yes_bid_dollars', kind: 'missing_required' });
  });

  it('venue_b Gamma: no field is required; a number where the document says string is a changed type', () => {
    const b = compileShapes(VENUE_SHAPES.venue_b);
    expect(checkRecord(b, 'Market', { id: '1', volume: 12.5 })).toEqual([
      { record: 'Market', field: 'volume', kind: 'type_mismatch', documented: 'string|null', observed: 'number' },
    ]);
    expect(VENUE_SHAPES.venue_b.not_covered.join(' ')).toMatch(/CLOB/);
  });
});

describe('the venue clients carry the drift of their pull', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer({ dir: BASIC_DIR });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('checks every page and record a pull reads, and none when the watch is off', async () => {
    const opts = { clock: fakeClock(), ratePerSecond: 1e6, pageSize: 2 };
    const a = await pullVenueA({ baseUrl: server.venueAUrl, ...opts });
    const b = await pullVenueB({ baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl, ...opts });
    expect(a.error, JSON.stringify(a.drift)).toBeNull();
    expect(a.drift?.document).toMatch(/^Kalshi Trade API Manual Endpoints 3\.13\.0/);
    expect(a.drift?.checked.records).toBeGreaterThan(a.pulled);
    expect(a.drift?.kinds.pagination).toEqual({ fields: 0, records: 0 });
    expect(b.drift?.document).toMatch(/^Markets API 1\.0\.0/);
    expect(b.drift?.checked.records).toBeGreaterThanOrEqual(b.pulled);
    const off = await pullVenueA({ baseUrl: server.venueAUrl, ...opts, driftShapes: null });
    expect(off.drift).toBeUndefined();
  });

  it('sees a venue that starts sending a new field the day it does (replay fault unknown-fields)', async () => {
    const faulty = await startReplayServer({ dir: BASIC_DIR, faults: 'venue_b:unknown-fields' });
    try {
      const opts = { clock: fakeClock(), ratePerSecond: 1e6 };
      const before = await pullVenueB({ baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl, ...opts });
      const after = await pullVenueB({ baseUrl: faulty.venueBUrl, clobBaseUrl: faulty.clobUrl, ...opts });
      expect(after.error).toBeNull();
      const injected = (d: typeof after.drift) =>
        (d?.examples ?? []).filter((e) => e.field === 'x_replay_unknown_field').map((e) => [e.record, e.kind]);
      expect(injected(before.drift)).toEqual([]);
      expect(injected(after.drift)).toEqual(
        expect.arrayContaining([
          ['Event', 'unknown_field'],
          ['Market', 'unknown_field'],
        ]),
      );
      expect(after.drift?.kinds.unknown_field.fields).toBeGreaterThan(before.drift?.kinds.unknown_field.fields ?? 0);
    } finally {
      await faulty.close();
    }
  });
});
