// Every REST endpoint, filter and error of spec §4/§7 answers over real HTTP with the served shape, and every body matches its schema in /openapi.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewMark } from '../../src/domain/index.ts';
import {
  allMarkets,
  btcA,
  btcB,
  btcMarketA,
  btcMarketB,
  fed,
  fedMarkets,
  seedMarks,
  signal,
  treaty,
  treatyMarket,
} from '../serve/seed.ts';
import { call, type Got, ORIGIN, ResponseValidator, type Started, startServer } from './rest-helpers.ts';

let s: Started;
let v: ResponseValidator;

const notice = {
  type: 'free_key_offer',
  message:
    'Free anonymous access stays. A free key (POST /v1/keys with {"email": …}) raises the daily limit to 10,000 ' +
    'requests and adds advance notice of schema changes and deprecations. Problems: open an issue on the repository. ' +
    'This instance serves SIMULATED data, not real venue data.',
  docs: `${ORIGIN}/docs`,
  policy: 'This _notice field is additive; its shape will not change.',
  data_source: 'simulated',
};
const prov = (ref: string) => ({ source: ORIGIN, ref, terms: `Attribution required. ${ORIGIN}` });
const anyId = expect.any(String);

beforeAll(async () => {
  s = await startServer();
  const doc = await call(s.base, '/openapi.json');
  v = new ResponseValidator(doc.body as Record<string, unknown>);
});
afterAll(async () => {
  await s.close();
});

/** GET (or other method) `path`, validate against `template`'s documented response, return it. */
async function api(template: string, path: string, init: RequestInit = {}): Promise<Got> {
  const got = await call(s.base, path, init);
  if (got.status !== 304) {
    try {
      v.check(init.method ?? 'GET', template, got.status, got.body);
    } catch (err) {
      console.error(got.text);
      throw err;
    }
  }
  return got;
}

const ids = (got: Got) => (got.body as { events: Array<{ event_id: string }> }).events.map((e) => e.event_id);

describe('GET /', () => {
  it('serves counts, the filter vocabulary and the data source', async () => {
    const got = await api('/', '/');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      service: 'pmref',
      status: 'ok',
      schema: 'v0.2.0',
      data_source: 'simulated',
      generation: 1,
      built_at: '2026-11-21T12:30:00.000Z',
      events: 5,
      markets: 8,
      published_events: 4,
      live_events: 3,
      docs: `Reference data for prediction markets: graded events and markets across two venues. Docs: ${ORIGIN}/docs`,
      status_url: '/v1/status',
      marks_url: '/v1/marks?since=<ISO>',
      openapi: `${ORIGIN}/openapi.json`,
      llms: `${ORIGIN}/llms.txt`,
      filters: {
        category: [
          'economics',
          'financials',
          'crypto',
          'companies',
          'technology',
          'politics',
          'geopolitics',
          'health',
          'climate',
        ],
        platform: ['venue_a', 'venue_b'],
        grade: ['A', 'B', 'C'],
        status: ['all', 'active', 'resolved'],
        max_limit: 100,
        signals_detection_path: ['news_cycle', 'cross_venue_divergence', 'benchmark_drift', 'volume_spike'],
      },
    });
    expect(got.text.startsWith('{\n  "service": "pmref",\n')).toBe(true);
    expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(got.headers.get('x-schema-version')).toBe('v0.2.0');
    expect(got.headers.get('access-control-allow-origin')).toBe('*');
    expect(got.headers.get('x-request-id')).toMatch(/.+/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await api('/health', '/health')).body).toEqual(got.body);
  });
});

describe('GET /v1/status', () => {
  it('reports the state with its checks, dataset counts and runs, never cached', async () => {
    const got = await api('/v1/status', '/v1/status');
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(got.headers.get('etag')).toBeNull();
    expect(got.headers.get('ratelimit-limit')).toBe('1000');
    const run = {
      run_id: 1,
      source: 'simulated',
      status: 'ok',
      degraded: [],
      started_at: '2026-11-21T12:00:00.000Z',
      finished_at: expect.any(String),
      generation: 1,
    };
    expect(got.body).toEqual({
      service: 'pmref',
      as_of: '2026-11-21T12:30:00.000Z',
      schema_version: 'v0.2.0',
      state: 'ok',
      checks: [
        { name: 'store', ok: true, detail: 'readable; newest published generation 1' },
        { name: 'read_model', ok: true, detail: 'serving generation 1, built 2026-11-21T12:30:00.000Z' },
        { name: 'pipeline', ok: true, detail: expect.stringMatching(/^run 1 \(simulated\) finished ok at /) },
        { name: 'freshness', ok: true, detail: 'simulated data: a fixed universe, its age is not judged' },
      ],
      dataset: {
        data_source: 'simulated',
        generation: 1,
        store_generation: 1,
        built_at: '2026-11-21T12:30:00.000Z',
        events: 5,
        markets: 8,
        marks: expect.any(Number),
        log: 2,
        signals: 1,
      },
      runs: { last: run, last_published: run },
      non_core: {
        signals: { count: 1, newest_published_at: signal.published_at },
        spot: { coins: expect.any(Number), newest_as_of: expect.any(String) },
      },
      docs: `What each check means: ${ORIGIN}/openapi.json (getStatus). Docs: ${ORIGIN}/docs`,
    });
    expect(got.text.startsWith('{\n  "service": "pmref",\n')).toBe(true);
  });
});

describe('GET /v1/marks', () => {
  type Page = { count: number; next_cursor: string | null; marks: Array<Record<string, unknown>> };
  const key = (m: Record<string, unknown>) => `${m.snapshot_date} ${m.market_id}`;

  it('pages through the marks since a moment with the cursor, published markets only, never cached', async () => {
    // Its own server: the test adds a mark of the unpublished event's market to the store.
    const own = await startServer();
    try {
      const hiddenMarket = allMarkets[allMarkets.length - 1] as { market_id: string };
      await own.store.upsertMarks([{ ...(seedMarks()[0] as NewMark), market_id: hiddenMarket.market_id }]);
      const get = async (path: string) => {
        const got = await call(own.base, path);
        v.check('GET', '/v1/marks', got.status, got.body);
        return got;
      };
      const first = await get('/v1/marks?since=2026-11-20&limit=5');
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(first.headers.get('etag')).toBeNull();
      expect(Object.keys(first.body as object)).toEqual([
        'as_of',
        'schema_version',
        'since',
        'count',
        'next_cursor',
        'docs',
        '_notice',
        'marks',
      ]);
      expect(first.body).toMatchObject({
        as_of: '2026-11-21T12:30:00.000Z',
        schema_version: 'v0.2.0',
        since: '2026-11-20T00:00:00.000Z',
        count: 5,
        next_cursor: expect.any(String),
        _notice: notice,
      });
      const seeded = seedMarks().find(
        (m) =>
          key(m as unknown as Record<string, unknown>) ===
          key((first.body as Page).marks[0] as Record<string, unknown>),
      );
      const { raw_payload: _raw, ...servedSeed } = seeded as NewMark;
      expect((first.body as Page).marks[0]).toEqual({ mark_id: expect.any(Number), ...servedSeed });

      const keys = (first.body as Page).marks.map(key);
      let cursor = (first.body as Page).next_cursor;
      while (cursor) {
        const page = (await get(`/v1/marks?since=2026-11-20&limit=5&cursor=${cursor}`)).body as Page;
        expect(page.count).toBeLessThanOrEqual(5);
        keys.push(...page.marks.map(key));
        cursor = page.next_cursor;
      }
      const expected = seedMarks()
        .map((m) => key(m as unknown as Record<string, unknown>))
        .sort();
      expect(keys).toEqual(expected);
      expect(keys.some((k) => k.endsWith(hiddenMarket.market_id))).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('serves marks whose snapshot_at is at or after since, and clamps limit with a notice', async () => {
    const today = (await api('/v1/marks', '/v1/marks?since=2026-11-21T12:00:00Z')).body as Page;
    expect(today.marks.map((m) => m.snapshot_date)).toEqual(Array(6).fill('2026-11-21'));
    expect(today.next_cursor).toBeNull();
    const after = (await api('/v1/marks', '/v1/marks?since=2026-11-21T13:00:00%2B01:00')).body as Page;
    expect(after.count).toBe(6);
    const none = (await api('/v1/marks', '/v1/marks?since=2026-11-21T12:00:01Z')).body as Page;
    expect(none).toMatchObject({ count: 0, next_cursor: null, marks: [] });
    const plain = await call(s.base, '/v1/marks?since=2026-11-20', { headers: { 'accept-encoding': 'identity' } });
    const gz = await call(s.base, '/v1/marks?since=2026-11-20', { headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('Accept-Encoding, Authorization');
    expect(gz.text).toBe(plain.text);
    const capped = await api('/v1/marks', '/v1/marks?since=2026-11-21&limit=99999');
    expect(capped.body).toMatchObject({ limit_notice: 'limit 99999 is over the maximum 2000; capped at 2000.' });
  });

  it('answers a missing or malformed since and a foreign cursor with 400 saying what to fix', async () => {
    const sinceHint = 'Pass since as an ISO date or date-time, e.g. since=2026-11-20 or since=2026-11-20T12:00:00Z.';
    for (const [path, error, hint] of [
      ['/v1/marks', 'since is required', sinceHint],
      ['/v1/marks?since=yesterday', 'since is not an ISO date or date-time', sinceHint],
      ['/v1/marks?since=2026-13-45', 'since is not an ISO date or date-time', sinceHint],
      [
        '/v1/marks?since=2026-11-20&cursor=bm9wZQ',
        'cursor is not one this feed issued',
        'Pass next_cursor from the previous page unchanged, or drop it to start from since.',
      ],
    ] as const) {
      const got = await api('/v1/marks', path);
      expect(got.status, path).toBe(400);
      expect(got.body).toEqual({ error, code: 'invalid_request', hint, request_id: anyId });
    }
  });
});

describe('GET /v1/events', () => {
  it('lists published events live first, then updated_at descending, with the served item shape', async () => {
    const got = await api('/v1/events', '/v1/events?category=politics');
    expect(got.body).toEqual({
      count: 1,
      total: 1,
      limit: 50,
      offset: 0,
      keyed: false,
      _notice: notice,
      events: [
        {
          event_id: treaty.event_id,
          slug: 'treaty-signed-by-november-1',
          question: 'Will the treaty be signed by November 1?',
          category: 'politics',
          event_type: 'BINARY',
          tags: ['treaty'],
          venues_covered: ['venue_b'],
          market_count: 1,
          primary_market_id: treatyMarket.market_id,
          grade: 'C',
          rcg_score: 40,
          last_price: 1,
          price_as_of: '2026-11-20T11:59:00.000Z',
          last_checked_at: '2026-11-20T12:00:00.000Z',
          status: 'resolved',
          updated_at: '2026-11-02T00:00:00.000Z',
          _provenance: prov(treaty.event_id),
          resolved: true,
        },
      ],
    });
    const all = await api('/v1/events', '/v1/events');
    expect(ids(all)).toEqual([fed.event_id, btcB.event_id, btcA.event_id, treaty.event_id]);
    expect(all.text).toBe(`${JSON.stringify(all.body, null, 2)}`);
  });

  it('filters by category (case-insensitive), platform, grade, q and status', async () => {
    expect(ids(await api('/v1/events', '/v1/events?category=CRYPTO'))).toEqual([btcB.event_id, btcA.event_id]);
    expect(ids(await api('/v1/events', '/v1/events?platform=venue_b'))).toEqual([btcB.event_id, treaty.event_id]);
    expect(ids(await api('/v1/events', '/v1/events?grade=a'))).toEqual([fed.event_id, btcA.event_id]);
    // Ranked by relevance (search/engine.ts); both bitcoin events match, in either order of equal rank.
    expect(ids(await api('/v1/events', '/v1/events?q=bitcoin%20150')).sort()).toEqual(
      [btcB.event_id, btcA.event_id].sort(),
    );
    expect(ids(await api('/v1/events', '/v1/events?q=FOMC'))).toEqual([fed.event_id]); // a tag
    // No event has both words: the best partial matches are served and the notice names the word left out.
    const partial = await api('/v1/events', '/v1/events?q=bitcoin%20treaty');
    expect(String((partial.body as { notice?: { reason?: string } }).notice?.reason)).toMatch(/match every word/);
    expect(ids(await api('/v1/events', '/v1/events?q=zebra%20quasar'))).toEqual([]);
    expect(ids(await api('/v1/events', '/v1/events?status=active'))).toEqual([
      fed.event_id,
      btcB.event_id,
      btcA.event_id,
    ]);
    expect(ids(await api('/v1/events', '/v1/events?status=resolved'))).toEqual([treaty.event_id]);
    expect(ids(await api('/v1/events', '/v1/events?status=all&platform=venue_a&grade=A'))).toEqual([
      fed.event_id,
      btcA.event_id,
    ]);
  });

  it('pages with limit and offset', async () => {
    const got = await api('/v1/events', '/v1/events?limit=2&offset=1');
    expect(got.body).toMatchObject({ count: 2, total: 4, limit: 2, offset: 1 });
    expect(ids(got)).toEqual([btcB.event_id, btcA.event_id]);
    const past = await api('/v1/events', '/v1/events?offset=10');
    expect(past.body).toMatchObject({ count: 0, total: 4, events: [] });
  });

  it('answers unknown filter values with 200, an empty page and notices naming the valid sets', async () => {
    const got = await api('/v1/events', '/v1/events?category=sports&platform=venue_c&grade=Z&status=open');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      count: 0,
      total: 0,
      limit: 50,
      offset: 0,
      keyed: false,
      notice: {
        reason:
          '"sports" is not a category; valid: economics, financials, crypto, companies, technology, politics, geopolitics, health, climate. "venue_c" is not a platform; valid: venue_a, venue_b. "Z" is not a grade; valid: A, B, C. "open" is not a status; valid: all, active, resolved.',
        try: ['the values named in the reason'],
      },
      category_notice:
        '"sports" is not a category; valid: economics, financials, crypto, companies, technology, politics, geopolitics, health, climate.',
      valid_categories: [
        'economics',
        'financials',
        'crypto',
        'companies',
        'technology',
        'politics',
        'geopolitics',
        'health',
        'climate',
      ],
      platform_notice: '"venue_c" is not a platform; valid: venue_a, venue_b.',
      valid_platforms: ['venue_a', 'venue_b'],
      grade_notice: '"Z" is not a grade; valid: A, B, C.',
      valid_grades: ['A', 'B', 'C'],
      status_notice: '"open" is not a status; valid: all, active, resolved.',
      valid_statuses: ['all', 'active', 'resolved'],
      _notice: notice,
      events: [],
    });
  });

  it('clamps out-of-range limit and offset with notices (never 400)', async () => {
    const high = await api('/v1/events', '/v1/events?limit=500&offset=-3');
    expect(high.body).toMatchObject({
      count: 4,
      limit: 100,
      offset: 0,
      limit_notice: 'limit 500 is over the maximum 100; capped at 100. Page with offset.',
      offset_notice: 'offset -3 is negative; used 0.',
    });
    expect((await api('/v1/events', '/v1/events?limit=abc')).body).toMatchObject({
      limit: 50,
      limit_notice: 'limit "abc" is not a number; used the default 50. Page with offset.',
    });
    expect((await api('/v1/events', '/v1/events?limit=0')).body).toMatchObject({ limit: 50 });
    expect((await api('/v1/events', '/v1/events?limit=-5')).body).toMatchObject({ limit: 1, count: 1 });
  });
});

describe('GET /v1/events/{slug}', () => {
  it('serves the full event with markets, the lifecycle log, _notice and _provenance in served key order', async () => {
    const got = await api('/v1/events/{slug}', `/v1/events/${treaty.slug}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      _notice: notice,
      event_id: treaty.event_id,
      slug: treaty.slug,
      question: treaty.question,
      category: 'politics',
      event_type: 'BINARY',
      ladder_distribution: null,
      tags: ['treaty'],
      catalyst_types: [],
      catalyst_dates: [],
      editorial_notes: null,
      venues_covered: ['venue_b'],
      primary_market_id: treatyMarket.market_id,
      current_primary_mark: { last_price: 1, implied_probability: 1, as_of: '2026-11-20T11:59:00.000Z' },
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-02T00:00:00.000Z',
      markets: [
        {
          market_id: treatyMarket.market_id,
          event_id: treaty.event_id,
          platform: 'venue_b',
          platform_market_id: treatyMarket.platform_market_id,
          question: 'Will the treaty be signed by November 1?',
          description: null,
          contract_type: 'binary',
          settlement_currency: 'USDC',
          underlying_reference: null,
          close_at: '2026-11-01T00:00:00.000Z',
          resolve_at: '2026-11-01T00:00:00.000Z',
          status: 'resolved',
          status_provenance: { source: 'platform_api' },
          resolution_outcome: 'YES',
          resolved_at: null,
          final_price: 1,
          resolution: {
            rules_raw: null,
            arbitration_model: null,
            proposer: null,
            source: null,
            source_status: 'unknown',
            source_citation: null,
            sources: null,
            source_of_record: null,
            source_mechanism: null,
            source_type: null,
            source_quality: null,
            source_commitment: null,
            source_commitment_subtype: null,
            source_hedge_text: null,
            disputes: { disputed: false, count: 0, last_at: null, proposals: 0, state: null },
          },
          rcg: { grade: 'C', score: 40, caps: ['adversarial_ground_truth'], applied_factors: 6 },
          last_price: 1,
          implied_probability: 1,
          price_as_of: '2026-11-20T11:59:00.000Z',
          volume_24h_usd: 0,
          volume_total_usd: 0,
          settlement_style: null,
          direction: null,
          threshold: null,
          question_id: null,
          also_on: null,
          tags: [],
          eligibility_screens: null,
          last_checked_at: '2026-11-20T12:00:00.000Z',
          reconciled_at: null,
        },
      ],
      resolution_log: [
        {
          market_id: treatyMarket.market_id,
          platform: 'venue_b',
          event_type: 'resolved',
          outcome: 'YES',
          resolved_at: '2026-11-02T00:00:00.000Z',
          occurred_basis: 'venue_settlement',
          final_price: 1,
          recorded_at: '2026-11-02T00:10:00.000Z',
          source: 'platform_api',
          source_ref: null,
        },
        {
          market_id: treatyMarket.market_id,
          platform: 'venue_b',
          event_type: 'status_change',
          outcome: 'closed',
          resolved_at: '2026-11-01T01:00:00.000Z',
          occurred_basis: 'first_observed',
          final_price: null,
          recorded_at: '2026-11-01T01:05:00.000Z',
          source: 'platform_api',
          source_ref: null,
        },
      ],
      _provenance: prov(treaty.event_id),
    });
    expect(Object.keys(got.body as object)[0]).toBe('_notice');
  });

  it('resolves the event id too, orders ladder markets by strike and merges catalyst dates', async () => {
    const got = await api('/v1/events/{slug}', `/v1/events/${fed.event_id}`);
    const body = got.body as { markets: Array<{ market_id: string; rcg: unknown }>; catalyst_dates: unknown };
    expect(body.markets.map((m) => m.market_id)).toEqual(fedMarkets.map((m) => m.market_id));
    expect(body.markets[3]?.rcg).toEqual({ grade: 'pending', score: null, caps: [], applied_factors: 0 });
    expect(body.catalyst_dates).toEqual([
      { date: '2026-12-05', type: 'cpi', label: 'CPI (November)', source_url: 'https://www.bls.gov/cpi/' },
      { date: '2026-12-10', type: 'fomc', label: 'FOMC decision', source_url: 'https://www.federalreserve.gov/' },
    ]);
  });

  it('trims markets with detail=concise, and serves full with a notice for an unknown detail', async () => {
    const got = await api('/v1/events/{slug}', `/v1/events/${btcB.slug}?detail=concise`);
    expect((got.body as { markets: unknown[] }).markets).toEqual([
      {
        market_id: btcMarketB.market_id,
        platform: 'venue_b',
        question: 'Will Bitcoin reach $150k by December 31, 2026?',
        last_price: 0.22,
        implied_probability: 0.22,
        price_as_of: '2026-11-21T11:59:00.000Z',
        status: 'open',
        rcg: { grade: 'B', score: 71 },
        resolution: { arbitration_model: 'optimistic_oracle', source: null, source_status: 'unknown' },
        question_id: 'SVCX-0123456789',
        also_on: [{ venue: 'venue_a', market_id: btcMarketA.market_id, price: 0.19 }],
        last_checked_at: '2026-11-21T12:00:00.000Z',
      },
    ]);
    const odd = await api('/v1/events/{slug}', `/v1/events/${btcB.slug}?detail=brief`);
    const full = await api('/v1/events/{slug}', `/v1/events/${btcB.slug}`);
    expect(odd.body).toEqual({
      detail_notice: 'detail "brief" is not known; valid: full, concise. Served the full view.',
      valid_details: ['full', 'concise'],
      ...(full.body as object),
    });
    expect(odd.text).toBe(JSON.stringify(odd.body, null, 2));
  });

  it('404s an unknown slug and an unpublished event', async () => {
    for (const slug of ['no-such-event', 'hidden-event']) {
      const got = await api('/v1/events/{slug}', `/v1/events/${slug}`);
      expect(got.status).toBe(404);
      expect(got.body).toEqual({
        error: 'Event not found',
        code: 'event_not_found',
        hint: 'Pass an event slug or SVC-EVT- id; find one with /v1/events?q=…',
        request_id: anyId,
      });
    }
  });
});

describe('GET /v1/markets/{id}', () => {
  const expected = {
    market_id: btcMarketA.market_id,
    event_id: btcA.event_id,
    platform: 'venue_a',
    platform_market_id: 'KXBTC-26DEC31-T150000',
    question: 'Bitcoin above $150,000 on December 31?',
    description: null,
    contract_type: 'binary',
    settlement_currency: 'USD',
    underlying_reference: null,
    close_at: '2027-06-30T00:00:00.000Z',
    resolve_at: '2027-06-30T00:00:00.000Z',
    status: 'open',
    status_provenance: { source: 'platform_api' },
    resolution_outcome: null,
    resolved_at: null,
    final_price: null,
    resolution: {
      rules_raw: null,
      arbitration_model: null,
      proposer: null,
      source: null,
      source_status: 'platform_named',
      source_citation: null,
      sources: null,
      source_of_record: null,
      source_mechanism: null,
      source_type: null,
      source_quality: null,
      source_commitment: null,
      source_commitment_subtype: null,
      source_hedge_text: null,
      disputes: { disputed: false, count: 0, last_at: null, proposals: 0, state: null },
    },
    rcg: {
      grade: 'A',
      score: 88,
      caps: [],
      applied_factors: 6,
      factors: [
        {
          factor: 'source_clarity',
          weight: 20,
          rating: 'pass',
          points: 20,
          rule: 'SC-1',
          evidence: [{ field: 'resolution_rules_raw', quote: 'Federal Reserve', start: 0, end: 15 }],
        },
      ],
    },
    last_price: 0.19,
    implied_probability: 0.19,
    price_as_of: '2026-11-21T11:59:00.000Z',
    volume_24h_usd: 700,
    volume_total_usd: 7000,
    settlement_style: null,
    direction: null,
    threshold: null,
    question_id: 'SVCX-0123456789',
    also_on: [{ venue: 'venue_b', market_id: btcMarketB.market_id, price: 0.22 }],
    tags: ['bitcoin'],
    eligibility_screens: null,
    last_checked_at: '2026-11-21T12:00:00.000Z',
    reconciled_at: null,
    _provenance: prov(btcMarketA.market_id),
    _notice: notice,
  };

  it('serves one market with factors, provenance and twins priced from their latest marks', async () => {
    const got = await api('/v1/markets/{id}', `/v1/markets/${btcMarketA.market_id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(expected);
  });

  it('resolves a venue-native id, a ticker in any case, and a venue market URL (parsed, never fetched)', async () => {
    const refs = [
      'KXBTC-26DEC31-T150000',
      'kxbtc-26dec31-t150000',
      encodeURIComponent('https://venue-a.example/markets/kxbtc/kxbtc-26dec31-t150000'),
      encodeURIComponent('https://venue-a.example/markets/kxbtc-26dec31-t150000/bitcoin-150k?ref=x#top'),
    ];
    for (const ref of refs) {
      const got = await api('/v1/markets/{id}', `/v1/markets/${ref}`);
      expect(got.status, ref).toBe(200);
      expect((got.body as { market_id: string }).market_id).toBe(btcMarketA.market_id);
    }
    const b = await api('/v1/markets/{id}', `/v1/markets/${btcMarketB.platform_market_id}`);
    expect((b.body as { market_id: string }).market_id).toBe(btcMarketB.market_id);
  });

  it('404s unknown ids, venue_b slug URLs and markets of unpublished events', async () => {
    for (const ref of [
      'SVC-MKT-ZZZZZZZZZZ',
      encodeURIComponent('https://venue-b.example/event/some-slug'),
      'KXHIDDEN-26-T1',
    ]) {
      const got = await api('/v1/markets/{id}', `/v1/markets/${ref}`);
      expect(got.status).toBe(404);
      expect(got.body).toEqual({
        error: 'Market not found',
        code: 'market_not_found',
        hint: 'Pass a service id (SVC-MKT-…), a venue-native id or ticker, or a venue market URL; find one via /v1/events?q=…',
        request_id: anyId,
      });
    }
  });
});

describe('GET /v1/markets/movers', () => {
  it('lists volume movers of the two latest days, largest multiple first', async () => {
    const got = await api('/v1/markets/movers', '/v1/markets/movers');
    expect(got.body).toEqual({
      metric: 'volume_24h',
      day: '2026-11-21',
      prior_day: '2026-11-20',
      min_mult: 2,
      count: 3,
      _notice: { ...notice, message: `Thanks for pulling the daily movers. ${notice.message}` },
      movers: [
        {
          market_id: fedMarkets[0]?.market_id,
          slug: fed.slug,
          event_question: fed.question,
          category: 'economics',
          platform: 'venue_a',
          question_raw: 'Will the upper bound be above 3.75%?',
          last_price: 0.92,
          volume_24h_usd: 500,
          volume_24h_usd_prev: 100,
          volume_mult: 5,
          volume_delta_pct: 400,
        },
        {
          market_id: btcMarketB.market_id,
          slug: btcB.slug,
          event_question: btcB.question,
          category: 'crypto',
          platform: 'venue_b',
          question_raw: btcMarketB.question_raw,
          last_price: 0.22,
          volume_24h_usd: 6000,
          volume_24h_usd_prev: 2000,
          volume_mult: 3,
          volume_delta_pct: 200,
        },
        {
          market_id: fedMarkets[1]?.market_id,
          slug: fed.slug,
          event_question: fed.question,
          category: 'economics',
          platform: 'venue_a',
          question_raw: 'Will the upper bound be above 4.00%?',
          last_price: 0.64,
          volume_24h_usd: 2500,
          volume_24h_usd_prev: 1000,
          volume_mult: 2.5,
          volume_delta_pct: 150,
        },
      ],
    });
  });

  it('filters by min_mult and limit, and clamps out-of-range values with notices', async () => {
    expect((await api('/v1/markets/movers', '/v1/markets/movers?min_mult=2.8')).body).toMatchObject({ count: 2 });
    expect((await api('/v1/markets/movers', '/v1/markets/movers?min_mult=1&limit=1')).body).toMatchObject({
      count: 1,
      min_mult: 1,
    });
    const low = await api('/v1/markets/movers', '/v1/markets/movers?min_mult=0.5&limit=999');
    expect(low.body).toMatchObject({
      min_mult: 1,
      count: 4,
      min_mult_notice: 'min_mult 0.5 is under the minimum 1; raised to 1.',
      limit_notice: 'limit 999 is over the maximum 200; capped at 200.',
    });
    expect((await api('/v1/markets/movers', '/v1/markets/movers?min_mult=abc')).body).toMatchObject({
      min_mult: 2,
      min_mult_notice: 'min_mult "abc" is not a number; used the default 2.',
    });
  });
});

describe('GET /v1/catalysts/upcoming', () => {
  it('serves the window from today, date ascending, and clamps days', async () => {
    const got = await api('/v1/catalysts/upcoming', '/v1/catalysts/upcoming');
    expect(got.body).toEqual({
      window_days: 30,
      from: '2026-11-21',
      to: '2026-12-21',
      count: 2,
      _notice: notice,
      catalysts: [
        { date: '2026-12-05', type: 'cpi', label: 'CPI (November)', source_url: 'https://www.bls.gov/cpi/' },
        { date: '2026-12-10', type: 'fomc', label: 'FOMC decision', source_url: 'https://www.federalreserve.gov/' },
      ],
    });
    const year = await api('/v1/catalysts/upcoming', '/v1/catalysts/upcoming?days=1000');
    expect(year.body).toMatchObject({
      window_days: 365,
      to: '2027-11-21',
      count: 3,
      days_notice: 'days 1000 is over the maximum 365; capped at 365.',
    });
    expect((await api('/v1/catalysts/upcoming', '/v1/catalysts/upcoming?days=-2')).body).toMatchObject({
      window_days: 1,
      count: 0,
    });
  });
});

describe('signals and spot', () => {
  it('indexes the wire with filters and serves a bulletin unchanged', async () => {
    const got = await api('/v1/signals', '/v1/signals');
    expect(got.body).toEqual({
      count: 1,
      _notice: notice,
      signals: [
        {
          record_id: signal.record_id,
          record_slug: signal.record_slug,
          published_at: signal.published_at,
          headline: signal.headline,
          category_tag: 'CROSS_VENUE_DIVERGENCE',
          detection_path: 'cross_venue_divergence',
          target_event_id: btcB.event_id,
          target_event_slug: btcB.slug,
          linked_event_ids: [btcA.event_id],
          venues: ['venue_a', 'venue_b'],
          html: `${ORIGIN}/signals/${signal.record_slug}.html`,
          json: `${ORIGIN}/v1/signals/${signal.record_slug}`,
        },
      ],
    });
    expect((await api('/v1/signals', `/v1/signals?event_id=${btcA.event_id}`)).body).toMatchObject({ count: 1 });
    expect((await api('/v1/signals', '/v1/signals?category=cross_venue_divergence&venue=venue_a')).body).toMatchObject({
      count: 1,
    });
    expect((await api('/v1/signals', '/v1/signals?detection_path=volume_spike')).body).toMatchObject({ count: 0 });
    expect((await api('/v1/signals', '/v1/signals?detection_path=nope')).body).toMatchObject({
      count: 0,
      detection_path_notice:
        '"nope" is not a detection path; valid: news_cycle, cross_venue_divergence, benchmark_drift, volume_spike.',
    });
    const one = await api('/v1/signals/{slug}', `/v1/signals/${signal.record_slug}`);
    expect(one.body).toEqual(signal);
    const missing = await api('/v1/signals/{slug}', '/v1/signals/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: 'Signal not found',
      code: 'signal_not_found',
      hint: 'Try /v1/signals for the wire index.',
      request_id: anyId,
    });
  });

  it('serves spot sorted by coin', async () => {
    expect((await api('/v1/spot', '/v1/spot')).body).toEqual({
      source: 'coingecko',
      vs_currency: 'usd',
      spot: [
        { coin: 'bitcoin', price_usd: 97000, as_of: '2026-11-21T12:00:00.000Z' },
        { coin: 'ethereum', price_usd: 3500, as_of: '2026-11-21T12:00:00.000Z' },
      ],
    });
  });
});

describe('POST /v1/keys and keyed requests', () => {
  const post = (body: string, type = 'application/json') =>
    api('/v1/keys', '/v1/keys', { method: 'POST', body, headers: { 'content-type': type } });

  it('issues a key once, accepts it as Bearer or ?key=, and rejects an unknown key with 401', async () => {
    const got = await post(JSON.stringify({ email: 'dev@example.com' }));
    expect(got.status).toBe(201);
    expect(got.body).toEqual({
      key: expect.stringMatching(/^pmref_[0-9a-f]{32}$/),
      email: 'dev@example.com',
      daily_limit: 10000,
      usage:
        'Optional: anonymous access works too. Send Authorization: Bearer <key> or ?key=<key> for the higher limit.',
    });
    const key = (got.body as { key: string }).key;
    const bearer = await api('/v1/events', '/v1/events?limit=1', { headers: { authorization: `Bearer ${key}` } });
    expect(bearer.body).toMatchObject({ keyed: true });
    expect(bearer.headers.get('ratelimit-limit')).toBe('10000');
    const query = await api('/v1/events', `/v1/events?limit=1&key=${key}`);
    expect(query.body).toMatchObject({ keyed: true });
    expect(query.headers.get('ratelimit-remaining')).toBe('9998');
    const bad = await api('/v1/events', '/v1/events', {
      headers: { authorization: 'Bearer pmref_00000000000000000000000000000000' },
    });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({
      error: 'Invalid API key',
      code: 'invalid_api_key',
      hint: 'Omit the key for anonymous access (1,000 requests/day per IP), or get one with POST /v1/keys {"email": …} for 10,000/day.',
      request_id: anyId,
    });
    const stored = await s.store.findApiKey((await import('../../src/http/index.ts')).hashKey(key));
    expect(stored?.email).toBe('dev@example.com');
  });

  it('answers a bad email, a non-JSON body, a wrong media type and an oversized body with 4xx', async () => {
    const invalid = await post(JSON.stringify({ email: 'not-an-email' }));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      error: 'A valid email is required, e.g. { "email": "you@example.com" }',
      code: 'invalid_email',
      request_id: anyId,
    });
    const missing = await post(JSON.stringify({}));
    expect(missing.body).toMatchObject({ code: 'invalid_email' });
    const notJson = await post('{"email":');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({
      error: 'Body must be JSON: { "email": "you@example.com" }',
      code: 'invalid_body',
      request_id: anyId,
    });
    const array = await post('[]');
    expect(array.body).toMatchObject({ code: 'invalid_body' });
    const text = await post('email=a@b.c', 'text/plain');
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ code: 'invalid_body' });
    const xml = await post('<email>a@b.c</email>', 'application/xml');
    expect(xml.status).toBe(415);
    expect(xml.body).toEqual({
      error: 'Send the body as application/json',
      code: 'unsupported_media_type',
      hint: 'Content-Type: application/json',
      request_id: anyId,
    });
    const big = await post(JSON.stringify({ email: `${'a'.repeat(5000)}@example.com` }));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      error: 'Request body is over 4096 bytes',
      code: 'payload_too_large',
      request_id: anyId,
    });
  });
});

describe('HTTP manners', () => {
  it('answers OPTIONS with 204 and CORS headers only', async () => {
    const got = await call(s.base, '/v1/events', { method: 'OPTIONS' });
    expect(got.status).toBe(204);
    expect(got.text).toBe('');
    expect(got.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(got.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(got.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('sends an ETag, answers If-None-Match with 304, and expires at the next hourly refresh', async () => {
    const got = await api('/v1/events/{slug}', `/v1/events/${fed.slug}`);
    const etag = got.headers.get('etag');
    expect(etag).toMatch(/^"g1-[A-Za-z0-9_-]+"$/);
    expect(got.headers.get('cache-control')).toBe('public, max-age=1800'); // 12:30 → 13:00
    const again = await call(s.base, `/v1/events/${fed.slug}`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const list1 = await call(s.base, '/v1/events?q=fed');
    const list2 = await call(s.base, '/v1/events?q=bitcoin');
    expect(list1.headers.get('etag')).not.toBe(list2.headers.get('etag'));
  });

  it('compresses large bodies when asked', async () => {
    const res = await fetch(`${s.base}/v1/events/${fed.slug}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect((await res.json()) as unknown).toMatchObject({ event_id: fed.event_id });
    // The event is held gzip (issue 18): sent as held to a client that takes gzip, brotli or not…
    const both = await fetch(`${s.base}/v1/events/${fed.slug}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(both.headers.get('content-encoding')).toBe('gzip');
    // …and as brotli to one that takes only brotli.
    const br = await fetch(`${s.base}/v1/events/${fed.slug}`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect((await br.json()) as unknown).toMatchObject({ event_id: fed.event_id });
  });

  it('strips trailing slashes, 404s unknown paths and 405s other methods, in the one error shape', async () => {
    expect((await call(s.base, '/v1/events/')).status).toBe(200);
    const unknown = await call(s.base, '/v2/things');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: 'Not found',
      code: 'not_found',
      hint: 'Try / for the service index, /v1/events, or /docs.',
      request_id: anyId,
    });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const got = await call(s.base, '/v1/events', { method });
      expect(got.status, method).toBe(405);
      expect(got.body).toEqual({
        error: 'Method not allowed',
        code: 'method_not_allowed',
        hint: 'This path answers GET, HEAD, OPTIONS.',
        request_id: anyId,
      });
      expect(got.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('meters data endpoints with RateLimit headers, but not discovery documents', async () => {
    const got = await call(s.base, '/v1/spot');
    expect(got.headers.get('ratelimit-limit')).toBe('1000');
    expect(Number(got.headers.get('ratelimit-remaining'))).toBeLessThan(1000);
    expect(got.headers.get('ratelimit-reset')).toBe(String(11.5 * 3600)); // 12:30 → 00:00 UTC
    expect((await call(s.base, '/llms.txt')).headers.get('ratelimit-limit')).toBeNull();
    expect((await call(s.base, '/openapi.json')).headers.get('cache-control')).toBe('public, max-age=3600');
  });
});
