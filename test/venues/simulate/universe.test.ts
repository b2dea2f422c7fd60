// Pins the written universe: every file parses and has the venues' real shapes, the manifest counts match the files, truth.json's ids all exist, the texts carry every commitment class and RCG factor pattern, and the two snapshots differ by closes, resolutions, rule edits and volume spikes.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateUniverse, type Manifest, type TruthPair } from '../../../src/venues/simulate/index.ts';

const AS_OF = '2026-11-22';
const YESTERDAY = '2026-11-21';
let dir = '';
let manifest: Manifest;

const read = (p: string): unknown => JSON.parse(readFileSync(join(dir, p), 'utf8'));
const eventsOf = (date: string, venue: 'venue_a' | 'venue_b'): Array<Record<string, unknown>> =>
  readdirSync(join(dir, 'snapshots', date, venue))
    .filter((f) => /^events-\d{4}\.json$/.test(f))
    .sort()
    .flatMap((f) => read(join('snapshots', date, venue, f)) as Array<Record<string, unknown>>);

const iso = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const dollars = z.string().regex(/^\d\.\d{4}$/);
const KalshiMarket = z.object({
  ticker: z.string().regex(/^[A-Z0-9.-]+$/),
  event_ticker: z.string(),
  title: z.string().min(5),
  yes_sub_title: z.string(),
  status: z.enum(['active', 'closed', 'finalized']),
  strike_type: z.enum(['greater', 'greater_or_equal', 'less', 'less_or_equal', 'between', 'custom', 'structured']),
  rules_primary: z.string().regex(/^If .+, then the market resolves to Yes\.$/s),
  rules_secondary: z.string(),
  open_time: iso,
  close_time: iso,
  expiration_time: iso,
  expected_expiration_time: iso,
  created_time: z.literal('0001-01-01T00:00:00Z'),
  updated_time: z.literal('0001-01-01T00:00:00Z'),
  result: z.enum(['', 'yes', 'no']),
  yes_bid_dollars: dollars,
  yes_ask_dollars: dollars,
  last_price_dollars: dollars,
  volume_fp: z.string().regex(/^\d+\.\d{2}$/),
  volume_24h_fp: z.string().regex(/^\d+\.\d{2}$/),
  open_interest_fp: z.string().regex(/^\d+\.\d{2}$/),
  liquidity_dollars: z.string(),
});
const KalshiEvent = z.object({
  event_ticker: z.string(),
  series_ticker: z.string(),
  title: z.string(),
  sub_title: z.string(),
  category: z.enum([
    'Economics',
    'Financials',
    'Crypto',
    'Companies',
    'Science and Technology',
    'Politics',
    'Elections',
    'World',
    'Health',
    'Climate and Weather',
  ]),
  mutually_exclusive: z.boolean(),
  markets: z.array(KalshiMarket).min(1),
});
const KalshiSeries = z.object({
  ticker: z.string(),
  title: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  settlement_sources: z.array(z.object({ name: z.string().min(2), url: z.string().url() })),
  contract_terms_url: z.string().url(),
  frequency: z.string(),
});
const jsonString = <T extends z.ZodType>(inner: T) =>
  z
    .string()
    .transform((s) => JSON.parse(s) as unknown)
    .pipe(inner);
const GammaMarket = z
  .object({
    id: z.string().regex(/^\d+$/),
    question: z.string().min(5),
    conditionId: z.string().regex(/^0x[0-9a-f]{64}$/),
    slug: z.string(),
    description: z.string().includes('This market will resolve to "Yes" if'),
    resolutionSource: z.string(),
    endDate: iso,
    outcomes: jsonString(z.tuple([z.literal('Yes'), z.literal('No')])),
    outcomePrices: jsonString(z.tuple([z.string(), z.string()])),
    clobTokenIds: jsonString(z.tuple([z.string().regex(/^\d{70,78}$/), z.string().regex(/^\d{70,78}$/)])),
    umaResolutionStatuses: jsonString(z.array(z.enum(['proposed', 'disputed', 'resolved']))),
    volume: z.string().regex(/^\d+(\.\d+)?$/),
    liquidity: z.string(),
    volumeNum: z.number(),
    volume24hr: z.number(),
    volume1wk: z.number(),
    lastTradePrice: z.number(),
    groupItemTitle: z.string(),
    negRisk: z.boolean(),
    closed: z.boolean(),
    active: z.boolean(),
    updatedAt: iso,
    bestBid: z.number().optional(),
    umaResolutionStatus: z.enum(['proposed', 'disputed', 'resolved']).optional(),
  })
  .refine((m) => !('tags' in m), 'tags live only on events');
const GammaEvent = z.object({
  id: z.string().regex(/^\d+$/),
  slug: z.string().regex(/^[a-z0-9-]+$/),
  ticker: z.string(),
  title: z.string(),
  description: z.string(),
  resolutionSource: z.string(),
  startDate: iso,
  endDate: iso,
  negRisk: z.boolean(),
  negRiskAugmented: z.boolean(),
  volume: z.number(),
  tags: z.array(z.object({ id: z.string(), label: z.string(), slug: z.string() })).min(1),
  markets: z.array(GammaMarket).min(1),
});
const Book = z.object({
  market: z.string().regex(/^0x[0-9a-f]{64}$/),
  asset_id: z.string(),
  timestamp: z.string().regex(/^\d{13}$/),
  bids: z.array(z.object({ price: z.string(), size: z.string() })),
  asks: z.array(z.object({ price: z.string(), size: z.string() })),
  tick_size: z.string(),
  min_order_size: z.string(),
  neg_risk: z.boolean(),
  last_trade_price: z.string(),
});
const Spot = z.record(
  z.string(),
  z.object({ usd: z.number().positive(), usd_24h_change: z.number(), last_updated_at: z.number().int() }),
);
const Candle = z.union([
  z.object({
    end_period_ts: z.number().int(),
    price: z.object({ open: z.number(), high: z.number(), low: z.number(), close: z.number() }),
    yes_bid: z.object({ close: z.number() }),
    yes_ask: z.object({ close: z.number() }),
    volume: z.number(),
    open_interest: z.number(),
  }),
  z.object({
    end_period_ts: z.number().int(),
    price: z.object({ close_dollars: dollars }),
    yes_bid: z.object({ close_dollars: dollars }),
    yes_ask: z.object({ close_dollars: dollars }),
    volume_fp: z.string(),
    open_interest_fp: z.string(),
  }),
]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-sim-uni-'));
  manifest = await generateUniverse({ outDir: dir, seed: 2026, days: 14, asOf: AS_OF, scale: 0.1 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the written universe', () => {
  it('has the contract manifest, and its counts match the files', () => {
    expect(read('manifest.json')).toEqual(manifest);
    expect(manifest).toMatchObject({
      seed: 2026,
      days: 14,
      as_of: AS_OF,
      generated_by: 'pmref simulate',
      data_source: 'simulated',
      snapshots: [YESTERDAY, AS_OF],
    });
    for (const date of manifest.snapshots) {
      const a = eventsOf(date, 'venue_a');
      const b = eventsOf(date, 'venue_b');
      const count = (evs: Array<Record<string, unknown>>) =>
        evs.reduce((s, e) => s + (e.markets as unknown[]).length, 0);
      expect({ a: a.length, am: count(a), b: b.length, bm: count(b) }).toEqual({
        a: manifest.counts.venue_a.events,
        am: manifest.counts.venue_a.markets,
        b: manifest.counts.venue_b.events,
        bm: manifest.counts.venue_b.markets,
      });
    }
    expect(manifest.counts.events).toBe(manifest.counts.venue_a.events + manifest.counts.venue_b.events);
    expect(Object.values(manifest.counts.by_category).reduce((s, n) => s + n, 0)).toBe(manifest.counts.events);
  });

  it('writes venue_a events, markets and series in the Kalshi v2 shape, both price schemas mixed', () => {
    const events = eventsOf(AS_OF, 'venue_a');
    for (const e of events) KalshiEvent.parse(e);
    const markets = events.flatMap((e) => e.markets as Array<Record<string, unknown>>);
    expect(markets.filter((m) => typeof m.yes_bid === 'number').length).toBeGreaterThan(100);
    expect(markets.filter((m) => !('yes_bid' in m) && !('volume' in m)).length).toBeGreaterThan(100);
    expect(markets.some((m) => m.strike_type === 'greater' && typeof m.floor_strike === 'number')).toBe(true);
    expect(markets.some((m) => m.strike_type === 'between' && typeof m.cap_strike === 'number')).toBe(true);
    const series = z.array(KalshiSeries).parse(read(`snapshots/${AS_OF}/venue_a/series.json`));
    const tickers = new Set(series.map((s) => s.ticker));
    for (const e of events) expect(tickers.has(String(e.series_ticker))).toBe(true);
    expect(series.filter((s) => s.settlement_sources.length > 0).length / series.length).toBeGreaterThan(0.95);
  });

  it('writes venue_b events, markets and books in the Gamma/CLOB shape', () => {
    const events = eventsOf(AS_OF, 'venue_b');
    for (const e of events) GammaEvent.parse(e);
    const markets = events.flatMap((e) => e.markets as Array<Record<string, unknown>>);
    expect(markets.filter((m) => !('bestBid' in m)).length).toBeGreaterThan(10);
    expect(markets.filter((m) => m.resolutionSource === '').length / markets.length).toBeGreaterThan(0.7);
    expect(events.some((e) => e.negRisk === true && e.negRiskAugmented === true)).toBe(true);
    const books = z.array(Book).parse(read(`snapshots/${AS_OF}/venue_b/books.json`));
    expect(books.length).toBeGreaterThan(10);
    const yes = new Set(markets.map((m) => (JSON.parse(String(m.clobTokenIds)) as string[])[0]));
    for (const b of books) expect(yes.has(b.asset_id)).toBe(true);
  });

  it('writes spot prices for the six coins and history for both venues', () => {
    const spot = Spot.parse(read(`snapshots/${AS_OF}/spot/simple_price.json`));
    expect(Object.keys(spot)).toEqual(['bitcoin', 'ethereum', 'solana', 'ripple', 'dogecoin', 'cardano']);
    const candles = z.record(z.string(), z.array(Candle).max(14)).parse(read('history/venue_a/candlesticks.json'));
    const aTickers = new Set(
      eventsOf(AS_OF, 'venue_a').flatMap((e) => (e.markets as Array<{ ticker: string }>).map((m) => m.ticker)),
    );
    expect(Object.keys(candles).length).toBeGreaterThan(aTickers.size / 2);
    for (const t of Object.keys(candles)) expect(aTickers.has(t)).toBe(true);
    const History = z.array(z.object({ t: z.number().int(), p: z.number().min(0).max(1) })).max(14 * 24 + 1);
    const prices = read('history/venue_b/prices-history.json') as Record<string, unknown>;
    // Every series has the shape; a sample is checked field by field (the file is large).
    for (const [i, h] of Object.values(prices).entries()) {
      if (i < 300) History.parse(h);
      else expect(Array.isArray(h)).toBe(true);
    }
    expect(Object.keys(prices).length).toBeGreaterThan(100);
    expect(Math.max(...Object.values(prices).map((h) => (h as unknown[]).length))).toBe(14 * 24 + 1);
  });

  it('lists twins, complements and every trap kind in truth.json, all ids present in the snapshot', () => {
    const { pairs } = read('truth.json') as { pairs: TruthPair[] };
    const a = new Map(
      eventsOf(AS_OF, 'venue_a').flatMap((e) =>
        (e.markets as Array<Record<string, string>>).map((m) => [m.ticker, m] as const),
      ),
    );
    const b = new Map(
      eventsOf(AS_OF, 'venue_b').flatMap((e) =>
        (e.markets as Array<Record<string, string>>).map((m) => [m.conditionId, m] as const),
      ),
    );
    for (const p of pairs) {
      const ma = a.get(p.a.native_id);
      const mb = b.get(p.b.native_id);
      expect(ma, p.a.native_id).toBeDefined();
      expect(mb, p.b.native_id).toBeDefined();
      expect(p.why.length).toBeGreaterThan(10);
      // Each venue phrases the question its own way: no copied titles.
      expect(ma?.title).not.toBe(mb?.question);
      if (p.label === 'complement') expect(mb?.question).toMatch(/below/);
      if (p.label === 'different') expect(p.trap_kind).toBeDefined();
    }
    expect(pairs.filter((p) => p.label === 'same').length).toBe(manifest.counts.twins);
    expect(pairs.filter((p) => p.label === 'complement').length).toBe(manifest.counts.complements);
    expect(pairs.filter((p) => p.label === 'different').length).toBe(manifest.counts.traps);
    expect(new Set(pairs.map((p) => p.trap_kind).filter(Boolean))).toEqual(
      new Set(['deadline', 'threshold', 'window', 'price_source', 'event_definition']),
    );
  });

  it('covers every commitment class and every RCG factor pass/fail pattern in the texts', () => {
    const aTexts = eventsOf(AS_OF, 'venue_a').flatMap((e) =>
      (e.markets as Array<Record<string, string>>).map((m) => `${m.rules_primary}\n${m.rules_secondary}`),
    );
    const bTexts = eventsOf(AS_OF, 'venue_b').flatMap((e) =>
      (e.markets as Array<Record<string, string>>).map((m) => m.description ?? ''),
    );
    const all = [...aTexts, ...bTexts];
    const has = (re: RegExp, texts = all) => texts.filter((t) => re.test(t)).length;
    const patterns: Record<string, RegExp> = {
      named: /The Source Agency is|The resolution source for this market (will be|is) (?!a consensus|reporting)/,
      secondhand: /no other source will be consulted|'s reporting found at|solely on reporting by|will be reporting by/,
      illustrative: /for example,? /,
      consensus: /(will be|on) a consensus of credible reporting\./,
      primary_fallback: /however,? a consensus of credible reporting (may|will) also be used/,
      ordered_fallback:
        /If .{3,120} (is unavailable at resolution time|has not published the figure|has not confirmed the outcome)/,
      quorum: /at least two of the following Source Agencies|have all reported the same outcome/,
      menu: /reporting from [^.]+, or [^.]+\./,
      discretionary:
        /credible reports indicate|substantially equivalent progress|as judged by the resolver|to a significant extent/,
      contested_territory: /control the city center of .+ ISW interactive map/,
      contested_self_report: /Tesla reports it delivered|government of .+ announces/,
      editable: /as it appears when checked at resolution time|Wikipedia page/,
      snapshot: /as first published|first released by|Revisions published after the initial release/,
      vague_time: /by late [A-Z]|by the end of [A-Z][a-z]+ \d{4}/,
      precise_time: /11:59 PM ET|\d:00 (AM|PM) E[SD]T/,
      permissionless: /UMA Optimistic Oracle by posting the required bond/,
      managed: /managed proposer set/,
      automatic: /settled automatically/,
    };
    for (const [name, re] of Object.entries(patterns)) expect(has(re), name).toBeGreaterThan(0);
    // No source language at all (commitment "none"): only on venue_b.
    expect(has(/resolution source|Source Agenc|reporting|information from/i, bTexts)).toBeLessThan(bTexts.length);
    expect(
      bTexts.filter((t) => !/resolution source|Source Agenc|reporting|information from|Binance|Chainlink/i.test(t))
        .length,
    ).toBeGreaterThan(0);
  });

  it('changes between the two snapshots: closes, resolutions, disputes, reversals, rule edits and volume spikes', () => {
    const index = (date: string, venue: 'venue_a' | 'venue_b', key: string) =>
      new Map(
        eventsOf(date, venue).flatMap((e) =>
          (e.markets as Array<Record<string, unknown>>).map((m) => [String(m[key]), m] as const),
        ),
      );
    const ay = index(YESTERDAY, 'venue_a', 'ticker');
    const at = index(AS_OF, 'venue_a', 'ticker');
    const by = index(YESTERDAY, 'venue_b', 'conditionId');
    const bt = index(AS_OF, 'venue_b', 'conditionId');
    let statusA = 0;
    let rulesA = 0;
    let spikeA = 0;
    let reversedA = 0;
    for (const [t, m] of at) {
      const y = ay.get(t);
      expect(y).toBeDefined();
      if (!y) continue;
      if (y.status !== m.status) statusA++;
      if (y.result && m.result && y.result !== m.result) reversedA++;
      if (y.rules_secondary !== m.rules_secondary) rulesA++;
      if (Number(m.volume_24h_fp) >= 3 * Math.max(50, Number(y.volume_24h_fp))) spikeA++;
    }
    let closedB = 0;
    let umaB = 0;
    let rulesB = 0;
    for (const [c, m] of bt) {
      const y = by.get(c);
      if (!y) continue;
      if (y.closed !== m.closed) closedB++;
      if (y.umaResolutionStatus !== m.umaResolutionStatus) umaB++;
      if (y.description !== m.description) rulesB++;
    }
    for (const [k, v] of Object.entries({ statusA, rulesA, spikeA, reversedA, closedB, umaB, rulesB }))
      expect(v, k).toBeGreaterThan(0);
    const disputed = [...bt.values(), ...by.values()].filter((m) =>
      String(m.umaResolutionStatuses).includes('disputed'),
    );
    expect(disputed.length).toBeGreaterThan(0);
  });
});
