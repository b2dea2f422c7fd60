// The drift watch on real recorded venue responses (../shared/fixtures/venues) finds the drift that is really there: venue_a records of 2025–early 2026 still carry the integer-cent fields the 3.13.0 document dropped, the 2026-08 records match it but for one field, and Gamma records carry fields its document never listed.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkRecord,
  compileShapes,
  createDriftWatch,
  type DriftFinding,
  pullVenueA,
  pullVenueB,
  type RawVenuePull,
  type ReplayServer,
  startReplayServer,
  VENUE_SHAPES,
} from '../../src/venues/index.ts';
import { NOT_WATCHED, type RecordedBody, recordedVenueBodies } from './drift-fixtures.ts';
import { fakeClock, SHARED_VENUES_DIR } from './helpers.ts';

const present = existsSync(SHARED_VENUES_DIR);
if (!present) console.warn(`skipping the real-fixture drift suite: ${SHARED_VENUES_DIR} is absent`);

/** Every distinct finding of the records of one recorded file, as `kind Record.field`. */
function findingsOf(venue: 'venue_a' | 'venue_b', file: string): Set<string> {
  const shapes = compileShapes(VENUE_SHAPES[venue]);
  const item = recordedVenueBodies(venue).find((f) => f.file === file);
  if (!item) throw new Error(`${file} is not in drift-fixtures.ts`);
  const out = new Set<string>();
  const add = (f: DriftFinding) => out.add(`${f.kind} ${f.record}.${f.field}`);
  for (const b of item.bodies as RecordedBody[]) {
    const type = 'endpoint' in b ? (VENUE_SHAPES[venue].endpoints[b.endpoint]?.response ?? '') : b.record;
    const list = type.startsWith('array<') ? (b.body as unknown[]) : [b.body];
    const record = type.startsWith('array<') ? type.slice(6, -1) : type;
    for (const x of list) checkRecord(shapes, record, x).forEach(add);
  }
  return out;
}

const CENT_FIELDS = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'last_price', 'volume', 'volume_24h', 'open_interest'];

describe.skipIf(!present)('drift on the real recorded venue responses', () => {
  it('venue_a 2026-08 settled markets (newer schema): no integer-cent field; one new field, one required field absent', () => {
    expect([...findingsOf('venue_a', 'kalshi_markets_settled_2026-08_sports.json')].sort()).toEqual([
      'missing_required Market.fractional_trading_enabled',
      'unknown_field Market.exchange_index',
    ]);
  });

  it('venue_a 2026-01 markets: the integer-cent fields are unknown to 3.13.0 and its *_size_fp fields are missing', () => {
    const found = findingsOf('venue_a', 'kalshi_markets_2026-01_extracted.json');
    for (const f of CENT_FIELDS) expect(found).toContain(`unknown_field Market.${f}`);
    expect(found).toContain('missing_required Market.yes_bid_size_fp');
    expect(found).not.toContain('missing_required Market.yes_bid_dollars');
  });

  it('venue_a 2025 candlesticks: integer-cent OHLC instead of the documented *_dollars', () => {
    const found = findingsOf('venue_a', 'kalshi_candlesticks_sample_2025.json');
    expect(found).toContain('unknown_field BidAskDistribution.close');
    expect(found).toContain('missing_required MarketCandlestick.volume_fp');
  });

  it('venue_b Gamma: fields the document never listed (negRisk, feesEnabled), never a missing field or a changed type', () => {
    const all = new Set<string>();
    for (const { file } of recordedVenueBodies('venue_b')) for (const f of findingsOf('venue_b', file)) all.add(f);
    expect(all).toContain('unknown_field Market.negRisk');
    expect(all).toContain('unknown_field Market.feesEnabled');
    expect([...all].filter((f) => !f.startsWith('unknown_field '))).toEqual([]);
    expect(Object.keys(NOT_WATCHED)).toEqual(['clob_book_sample.json']);
  });

  it('counts a recorded venue_a page once per distinct field path, bounded examples', () => {
    const watch = createDriftWatch(VENUE_SHAPES.venue_a, () => 0);
    for (const item of recordedVenueBodies('venue_a')) {
      for (const b of item.bodies) {
        if ('endpoint' in b) watch.response(b.endpoint, b.body);
        else watch.record(b.record, b.body);
      }
    }
    const s = watch.summary();
    expect(s.checked.records).toBeGreaterThan(8000);
    expect(s.checked.shapes).toBeLessThan(100);
    expect(s.kinds.unknown_field.fields).toBeGreaterThanOrEqual(30);
    expect(s.examples.length).toBe(8);
    expect(s.kinds.pagination.fields).toBe(0);
  });

  describe('through the replay server, as a pull sees them', () => {
    let server: ReplayServer;
    let pulls: RawVenuePull[];
    beforeAll(async () => {
      server = await startReplayServer({ dir: SHARED_VENUES_DIR });
      const opts = { clock: fakeClock(), concurrency: 16, ratePerSecond: 1e6, maxBookCalls: 5 };
      pulls = await Promise.all([
        pullVenueA({ baseUrl: server.venueAUrl, ...opts }),
        pullVenueB({ baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl, ...opts }),
      ]);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('each pull carries its drift: records drift, the replay server pages as documented', () => {
      for (const p of pulls) {
        const d = p.drift;
        expect(d, p.venue).toBeDefined();
        console.log(`${p.venue} drift on the recorded fixtures: ${JSON.stringify(d?.kinds)}; ${d?.cost_ms} ms`);
        expect(d?.records_with_drift ?? 0).toBeGreaterThan(0);
        expect(d?.kinds.pagination).toEqual({ fields: 0, records: 0 });
      }
    });
  });
});
