// Pulled through the replay server with tiny pages, every hand-written venue record ends normalized (valid against the domain schemas), out of scope or rejected, each with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSchema, MarketSchema, VenueFactsSchema } from '../../src/domain/index.ts';
import {
  type NormalizedMarket,
  type NormalizeResult,
  nativeKeysOf,
  normalizePull,
  pullVenueA,
  pullVenueB,
  type RawVenuePull,
  type ReplayServer,
  startReplayServer,
} from '../../src/venues/index.ts';
import { BASIC_DIR, fakeClock, idsFor, NOW } from './helpers.ts';

let server: ReplayServer;
let a: RawVenuePull;
let b: RawVenuePull;
let na: NormalizeResult;
let nb: NormalizeResult;

const market = (r: NormalizeResult, id: string): NormalizedMarket => {
  const m = r.events.flatMap((e) => e.markets).find((x) => x.market.platform_market_id === id);
  if (!m) throw new Error(`market ${id} not normalized; records: ${JSON.stringify(r.records)}`);
  return m;
};

beforeAll(async () => {
  server = await startReplayServer({ dir: BASIC_DIR });
  a = await pullVenueA({ baseUrl: server.venueAUrl, clock: fakeClock(), pageSize: 2 });
  b = await pullVenueB({ baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl, clock: fakeClock(), pageSize: 1 });
  na = normalizePull(a, idsFor('venue_a'), NOW);
  nb = normalizePull(b, idsFor('venue_b'), NOW);
});
afterAll(async () => {
  await server.close();
});

describe('pull through replay', () => {
  it('pages venue_a by cursor over open/closed/settled and fetches each series once', () => {
    expect(a.error).toBeNull();
    // 5 served events: 4 open (+1 without markets, counted open), KXGDPT closed, KXCPIT settled.
    expect(a.events).toHaveLength(6);
    expect(a.pulled).toBe(7); // 6 markets (one de-duplicated copy dropped) + 1 event without markets
    expect(Object.keys(a.series).sort()).toEqual(['KXFEDT', 'KXGDPT']);
    // open: 4 events at 2 per page = 2 pages (+ closed 1 + settled 1) + 5 series lookups (3 are 404;
    // the event without markets needs no series).
    expect(a.requests).toBe(2 + 1 + 1 + 5);
  });

  it('pages venue_b by offset over closed=false and closed=true and fetches books for open markets', () => {
    expect(b.error).toBeNull();
    expect(b.events).toHaveLength(4);
    expect(b.pulled).toBe(6);
    expect(Object.keys(b.books)).toEqual(['111']);
    // closed=false: 4 events at 1 per page = 5 requests (last empty); closed=true: 1 request (empty).
    expect(b.requests).toBeGreaterThanOrEqual(6);
  });

  it('limits closed and settled pages to records closed since closedSinceMs', async () => {
    const since = Date.parse('2026-04-15T00:00:00Z');
    const recent = await pullVenueA({ baseUrl: server.venueAUrl, clock: fakeClock(), closedSinceMs: since });
    const tickers = recent.events.map((e) => (e as { event_ticker: string }).event_ticker);
    expect(tickers).toContain('KXGDPT-26Q1'); // closes 2026-04-30
    expect(tickers).not.toContain('KXCPIT-26MAR'); // settled, closed 2026-04-10
    expect(tickers).toContain('KXFEDT-26APR'); // open pages are never limited
    const url = `${server.venueBUrl}/events?closed=false&end_date_min=2026-04-25T00:00:00Z`;
    const gamma = (await (await fetch(url)).json()) as Array<{ id: string }>;
    expect(gamma.map((e) => e.id)).toEqual(['9001']); // the only event with an endDate, 2026-04-29
  });

  it('lists native keys for one batch id resolution', () => {
    expect(nativeKeysOf(a).markets).toContain('KXFEDT-26APR-T4.25');
    expect(nativeKeysOf(a).events).toContain('KXROBOTMARS-35');
    expect(nativeKeysOf(b).markets.sort()).toEqual(['0xaaa1', '0xaaa2', '0xbbb1', '0xccc1', '0xccc2', '0xddd1']);
    expect(nativeKeysOf(b).events).toContain('9100');
  });
});

describe('normalization', () => {
  it('accounts for every pulled record with a reason', () => {
    expect(na.records).toHaveLength(a.pulled);
    expect(nb.records).toHaveLength(b.pulled);
    expect(na.outOfScope).toEqual({ multivariate_combo: 1, 'category:sports': 1, event_without_markets: 1 });
    expect(na.rejected).toEqual({});
    expect(nb.outOfScope).toEqual({ 'category:sports': 1 });
    expect(nb.rejected).toEqual({ 'invalid_json_field:outcomes': 1 });
    for (const r of [...na.records, ...nb.records]) if (r.outcome !== 'normalized') expect(r.reason).toBeTruthy();
  });

  it('produces records valid against the domain schemas', () => {
    for (const r of [na, nb]) {
      for (const e of r.events) {
        expect(EventSchema.safeParse(e.event).error).toBeUndefined();
        for (const m of e.markets) {
          expect(MarketSchema.safeParse(m.market).error).toBeUndefined();
          expect(VenueFactsSchema.safeParse(m.facts).error).toBeUndefined();
          expect(m.market.event_id).toBe(e.event.event_id);
          expect(m.market.first_seen_at).toBe(NOW);
          expect(m.market.arbitration_model).toBeNull();
          expect(m.market.regulatory_class).toBeNull();
          expect(m.market.platform).toBe(e.event.venue);
        }
      }
    }
  });

  it('gives the same numbers from integer cents and from *_dollars strings', () => {
    const old = market(na, 'KXFEDT-26APR-T4.00'); // both forms present
    const cents = normalizePull(
      { ...a, events: [stripDollars(a.events, 'KXFEDT-26APR-T4.00')] },
      idsFor('venue_a'),
      NOW,
    );
    const fromCents = market(cents, 'KXFEDT-26APR-T4.00');
    for (const k of [
      'yes_bid',
      'yes_ask',
      'no_bid',
      'no_ask',
      'last_price',
      'liquidity_usd',
      'volume_total_usd',
    ] as const) {
      expect(fromCents.quote[k], k).toBe(old.quote[k]);
    }
    expect(old.quote).toMatchObject({ yes_bid: 0.42, yes_ask: 0.44, last_price: 0.43, liquidity_usd: 1234.56 });
    expect(fromCents.market.tick_size).toBe(0.01);
  });

  it('maps venue_a fields: placeholder times, rules, expiration, series sources, status, outcome', () => {
    const m = market(na, 'KXFEDT-26APR-T4.00');
    expect(m.market.resolution_rules_raw).toBe(
      "If the upper bound of the target federal funds rate published on the Federal Reserve's official website is greater than 4.00% following the Federal Reserve's Apr 29, 2026 meeting, then the market resolves to Yes.\n\nThis market will expire the first 2:05 PM ET following the release of a Federal Reserve statement.",
    );
    expect(m.quote.source_updated_at).toBe('2026-04-20T12:00:00.000Z'); // placeholder updated_time → event time
    expect(m.market.resolve_at).toBe('2026-04-29T18:05:00.000Z');
    expect(m.market.field_provenance.resolve_at?.source).toBe('native:expiration_time');
    expect(m.market.resolution_source_list).toEqual([
      { name: 'Federal Reserve', url: 'https://www.federalreserve.gov/', provenance: 'platform_api' },
    ]);
    expect(m.market.contract_terms_url).toBe('https://example.test/contract_terms/FED.pdf');
    expect(m.market.settlement_currency).toBe('USD');
    expect(m.quote.volume_total_usd).toBe(430); // 1000 contracts × 0.43
    expect(m.quote.provenance.volume_total_usd?.source).toBe('imputed');
    expect(m.quote.yes_bid_size_usd).toBeNull();
    expect(m.quote.provenance.yes_bid_size_usd?.source).toBe('null_by_venue_limitation');
    expect(market(na, 'KXFEDT-26APR-T4.25').market.resolution_rules_raw).not.toContain('\n\n');
    expect(market(na, 'KXFEDT-26APR-T4.25').quote.yes_ask_size_usd).toBe(18.06); // 150.5 × 0.12

    const resolved = market(na, 'KXCPIT-26MAR-T0.3').market;
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolution_outcome: 'YES',
      resolved_at: '2026-04-10T14:03:12.000Z',
    });
    const orphan = market(na, 'KXGDPT-26Q1-T2.0');
    expect(orphan.market).toMatchObject({
      status: 'closed',
      platform_event_id: 'KXGDPT-26Q1',
      category_raw: 'Economics',
    });
    expect(orphan.quote.last_price).toBe(0.32);
  });

  it('maps venue_b fields: JSON-in-string and array lists, books, resolution, derived categories', () => {
    const open = market(nb, '0xaaa1');
    expect(open.market).toMatchObject({
      status: 'open',
      settlement_currency: 'USDC',
      tick_size: 0.001,
      group_item_title: '25 bps decrease',
    });
    expect(open.market.resolution_rules_raw).toBe(open.market.description_raw);
    expect(open.market.resolution_source_list).toEqual([
      {
        name: null,
        url: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
        provenance: 'platform_api',
      },
    ]);
    // Book: best bid 0.19 × 250, best ask 0.21 × 80.
    expect(open.quote).toMatchObject({
      yes_bid: 0.19,
      yes_ask: 0.21,
      yes_bid_size_usd: 47.5,
      yes_ask_size_usd: 16.8,
      no_bid: 0.79,
      no_ask: 0.81,
    });
    expect(open.facts.outcomes).toEqual(['Yes', 'No']);

    const resolved = market(nb, '0xaaa2');
    expect(resolved.market).toMatchObject({
      status: 'resolved',
      resolution_outcome: 'NO',
      resolved_at: '2026-04-30T20:00:00.000Z',
    });
    expect(resolved.facts.uma_resolution_statuses).toEqual(['proposed', 'disputed', 'proposed', 'resolved']);

    const arrays = market(nb, '0xccc1'); // lists as arrays, numeric volume, string 24 h volume, no book
    expect(arrays.quote).toMatchObject({
      volume_total_usd: 2500,
      volume_24h_usd: 300.5,
      yes_bid: 0.59,
      yes_bid_size_usd: null,
    });
    expect(arrays.quote.provenance.yes_bid_size_usd?.source).toBe('null_by_venue_limitation');
    const btcEvent = nb.events.find((e) => e.event.platform_event_id === '9003');
    expect(btcEvent?.event.category).toBe('crypto');
    expect(btcEvent?.event.field_provenance.category?.source).toBe('derived');

    const orphan = nb.events.find((e) => e.event.platform_event_id === '9100');
    expect(orphan?.event).toMatchObject({ category: 'geopolitics', slug: 'us-strikes-iran-by', venue: 'venue_b' });
    expect(nb.events.find((e) => e.event.platform_event_id === '9001')?.event.category).toBe('economics');
  });

  it('is deterministic: the same pull normalizes to the same records', () => {
    expect(normalizePull(b, idsFor('venue_b'), NOW)).toEqual(nb);
  });
});

/** The event holding `ticker`, with that market's `*_dollars` / `*_fp` fields removed (older schema only). */
function stripDollars(events: unknown[], ticker: string): unknown {
  for (const e of events as Array<{ markets?: Array<Record<string, unknown>> }>) {
    const m = e.markets?.find((x) => x.ticker === ticker);
    if (!m) continue;
    const old = Object.fromEntries(Object.entries(m).filter(([k]) => !k.endsWith('_dollars') && !k.endsWith('_fp')));
    return { ...e, markets: [old] };
  }
  throw new Error(`no ${ticker}`);
}
