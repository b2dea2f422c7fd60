/**
 * A small, realistic dataset for the serve/http/e2e tests: two venues, a venue_a strike ladder with four
 * markets, a cross-venue twin pair sharing a question_id (also_on both ways), a resolved venue_b market with
 * lifecycle log entries, an unpublished event, marks on two adjacent days, catalysts, a signal and spot rows.
 */
import type { Mark, NewMark, Rcg, SignalBulletin } from '../../src/domain/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

export const NOW = new Date('2026-11-21T12:30:00.000Z');
export const TODAY = '2026-11-21';
export const YESTERDAY = '2026-11-20';

const rcg = (grade: 'A' | 'B' | 'C', score: number, caps: Rcg['caps'] = []): Rcg => ({
  grade,
  score,
  caps,
  applied_factors: 6,
  rubric_version: 'rcg-1',
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
});

// --- the fed ladder (venue_a, economics, live) ---
export const fed = makeEvent({
  native: 'KXFED-26DEC',
  slug: 'fed-upper-bound-december-2026',
  question: 'Fed upper bound after the December 2026 meeting?',
  category: 'economics',
  tags: ['fed', 'rates', 'fomc'],
  bundle_type: 'strike_ladder',
  updated_at: '2026-11-21T11:00:00.000Z',
  catalyst_dates: [
    { date: '2026-12-10', label: 'FOMC decision', type: 'fomc', source_url: 'https://www.federalreserve.gov/' },
  ],
});
const ladder = [3.75, 4.0, 4.25, 4.5].map((t, i) =>
  makeMarket({
    native: `KXFED-26DEC-T${t.toFixed(2)}`,
    event_id: fed.event_id,
    platform_event_id: 'KXFED-26DEC',
    question_raw: `Will the upper bound be above ${t.toFixed(2)}%?`,
    threshold: t,
    direction: 'above',
    settlement_style: 'terminal',
    close_at: '2026-12-10T19:00:00.000Z',
    resolve_at: '2026-12-10T19:00:00.000Z',
    arbitration_model: 'venue_a_staff',
    resolution_source: 'Federal Reserve',
    source_status: 'platform_named',
    source_commitment: 'named',
    source_commitment_subtype: 'named',
    source_of_record: 'Federal Reserve',
    resolution_source_list: [
      { name: 'Federal Reserve', url: 'https://www.federalreserve.gov/', provenance: 'platform_api' },
    ],
    tags: ['fed'],
    rcg: i === 3 ? null : rcg('A', 90 - i),
  }),
);
export const fedMarkets = ladder;
fed.primary_market_id = ladder[1]?.market_id ?? null;

// --- cross-venue twins (crypto) ---
const QID = 'SVCX-0123456789';
export const btcB = makeEvent({
  native: 'btc-150k-2026',
  event_id: makeEvent({ native: 'btc-150k-2026' }).event_id.replace('SVC-EVT-', 'SVC-EVT-'),
  slug: 'bitcoin-150k-by-dec-31',
  question: 'Will Bitcoin reach $150k by December 31, 2026?',
  category: 'crypto',
  tags: ['bitcoin', 'crypto'],
  venue: 'venue_b',
  updated_at: '2026-11-21T10:00:00.000Z',
});
export const btcA = makeEvent({
  native: 'KXBTC-26DEC31',
  slug: 'bitcoin-above-150k-dec-31',
  question: 'Bitcoin above $150,000 on December 31?',
  category: 'crypto',
  tags: ['bitcoin'],
  updated_at: '2026-11-21T09:00:00.000Z',
});
export const btcMarketB = makeMarket({
  native: '0xabc0000000000000000000000000000000000000000000000000000000000001',
  platform: 'venue_b',
  event_id: btcB.event_id,
  question_raw: 'Will Bitcoin reach $150k by December 31, 2026?',
  question_id: QID,
  arbitration_model: 'optimistic_oracle',
  resolution_proposer: 'permissionless',
  source_commitment: 'uncommitted',
  source_commitment_subtype: 'uncommitted_illustrative',
  source_hedge_text: 'such as Binance',
  rcg: rcg('B', 71, []),
  tags: ['bitcoin'],
});
export const btcMarketA = makeMarket({
  native: 'KXBTC-26DEC31-T150000',
  event_id: btcA.event_id,
  question_raw: 'Bitcoin above $150,000 on December 31?',
  question_id: QID,
  source_status: 'platform_named',
  rcg: rcg('A', 88),
  tags: ['bitcoin'],
});
btcMarketB.also_on = [{ venue: 'venue_a', market_id: btcMarketA.market_id, price: 0.1 }];
btcMarketA.also_on = [{ venue: 'venue_b', market_id: btcMarketB.market_id, price: 0.1 }];
btcB.primary_market_id = btcMarketB.market_id;
btcA.primary_market_id = btcMarketA.market_id;

// --- resolved (venue_b, politics) ---
export const treaty = makeEvent({
  native: 'treaty-signed-nov-1',
  slug: 'treaty-signed-by-november-1',
  question: 'Will the treaty be signed by November 1?',
  category: 'politics',
  tags: ['treaty'],
  venue: 'venue_b',
  updated_at: '2026-11-02T00:00:00.000Z',
});
export const treatyMarket = makeMarket({
  native: '0xdef0000000000000000000000000000000000000000000000000000000000002',
  platform: 'venue_b',
  event_id: treaty.event_id,
  question_raw: 'Will the treaty be signed by November 1?',
  status: 'resolved',
  close_at: '2026-11-01T00:00:00.000Z',
  resolve_at: '2026-11-01T00:00:00.000Z',
  resolution_outcome: 'YES',
  rcg: rcg('C', 40, ['adversarial_ground_truth']),
});
treaty.primary_market_id = treatyMarket.market_id;

// --- unpublished ---
export const hidden = makeEvent({ native: 'KXHIDDEN-26', slug: 'hidden-event', published: false });
const hiddenMarket = makeMarket({ native: 'KXHIDDEN-26-T1', event_id: hidden.event_id });

export const allMarkets = [...ladder, btcMarketB, btcMarketA, treatyMarket, hiddenMarket];

function mark(marketId: string, date: string, price: number, vol: number): NewMark {
  return {
    market_id: marketId,
    snapshot_date: date,
    snapshot_at: `${date}T12:00:00.000Z`,
    source_updated_at: `${date}T11:59:00.000Z`,
    yes_bid: Math.max(0, price - 0.01),
    yes_ask: Math.min(1, price + 0.01),
    no_bid: Math.max(0, 1 - price - 0.01),
    no_ask: Math.min(1, 1 - price + 0.01),
    yes_bid_size_usd: 100,
    yes_ask_size_usd: 100,
    no_bid_size_usd: 100,
    no_ask_size_usd: 100,
    yes_last_price: price,
    implied_probability: price,
    volume_24h_usd: vol,
    volume_total_usd: vol * 10,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: null,
    spread: 0.02,
    mid: price,
    divergence_from_primary: null,
    hours_since_source_update: 0.02,
    field_provenance: {},
  };
}

export function seedMarks(): NewMark[] {
  const out: NewMark[] = [];
  const [l0, l1, l2, l3] = ladder;
  if (!l0 || !l1 || !l2 || !l3) throw new Error('ladder');
  // yesterday → today volumes: l0 ×5, l1 ×2.5, l2 ×1.2, btcB ×3, btcA prev 0 (never qualifies)
  out.push(mark(l0.market_id, YESTERDAY, 0.9, 100), mark(l0.market_id, TODAY, 0.92, 500));
  out.push(mark(l1.market_id, YESTERDAY, 0.6, 1000), mark(l1.market_id, TODAY, 0.64, 2500));
  out.push(mark(l2.market_id, YESTERDAY, 0.3, 1000), mark(l2.market_id, TODAY, 0.28, 1200));
  out.push(mark(l3.market_id, TODAY, 0.05, 10));
  out.push(mark(btcMarketB.market_id, YESTERDAY, 0.2, 2000), mark(btcMarketB.market_id, TODAY, 0.22, 6000));
  out.push(mark(btcMarketA.market_id, YESTERDAY, 0.18, 0), mark(btcMarketA.market_id, TODAY, 0.19, 700));
  out.push(mark(treatyMarket.market_id, YESTERDAY, 1, 0));
  return out;
}

export const signal: SignalBulletin = {
  $schema: 'https://pmref.example/schemas/signals.json',
  record_id: 'SIG-2026-11-21-0001',
  record_slug: 'btc-cross-venue-divergence-2026-11-21',
  schema_version: 'v0.2.0',
  provenance_version: '1',
  published_at: '2026-11-21T12:00:00.000Z',
  headline: 'Bitcoin $150k: venues 3 points apart',
  category_tag: 'CROSS_VENUE_DIVERGENCE',
  secondary_tags: [],
  detection_path: 'cross_venue_divergence',
  pre_news_classification: 'concurrent',
  target_event_id: btcB.event_id,
  target_event_slug: btcB.slug,
  event_question: btcB.question,
  linked_event_ids: [btcA.event_id],
  venues: ['venue_a', 'venue_b'],
  primary_market: {
    market_id: btcMarketB.market_id,
    platform: 'venue_b',
    platform_market_id: btcMarketB.platform_market_id,
    question_raw: btcMarketB.question_raw,
    current_price: 0.22,
    grade: 'B',
  },
  related_markets: [],
  bullets: ['one', 'two', 'three'],
  atomic_claims: [],
  numbers: [],
  sources: [{ label: 'venue_b', url: 'https://venue-b.example/' }],
  license: 'CC-BY-4.0',
};

/** Opens a migrated store at `dbUrl` and writes the dataset as one published pipeline run. */
export async function seedStore(dbUrl = 'sqlite::memory:'): Promise<Store> {
  const store = await openStore(dbUrl, { now: () => NOW });
  await store.migrate();
  const runId = await store.startRun('simulated', '2026-11-21T12:00:00.000Z');
  await store.transaction(async (tx) => {
    await tx.upsertEvents([fed, btcB, btcA, treaty, hidden]);
    await tx.upsertMarkets(allMarkets);
    await tx.appendLog([
      {
        market_id: treatyMarket.market_id,
        event_type: 'status_change',
        occurred_basis: 'first_observed',
        occurred_at: '2026-11-01T01:00:00.000Z',
        recorded_at: '2026-11-01T01:05:00.000Z',
        from_value: 'open',
        to_value: 'closed',
        diff: null,
        source: 'platform_api',
        source_ref: null,
        actor: null,
      },
      {
        market_id: treatyMarket.market_id,
        event_type: 'resolved',
        occurred_basis: 'venue_settlement',
        occurred_at: '2026-11-02T00:00:00.000Z',
        recorded_at: '2026-11-02T00:10:00.000Z',
        from_value: 'closed',
        to_value: 'YES',
        diff: null,
        source: 'platform_api',
        source_ref: null,
        actor: null,
      },
    ]);
    await tx.upsertMarks(seedMarks());
    await tx.replaceCatalysts([
      {
        date: '2026-11-01',
        type: 'election',
        label: 'Past election',
        source_url: 'https://example.gov/e',
        origin: 'calendar',
        event_ids: [],
      },
      {
        date: '2026-12-05',
        type: 'cpi',
        label: 'CPI (November)',
        source_url: 'https://www.bls.gov/cpi/',
        origin: 'calendar',
        event_ids: [fed.event_id],
      },
      {
        date: '2026-12-10',
        type: 'fomc',
        label: 'FOMC decision',
        source_url: 'https://www.federalreserve.gov/',
        origin: 'calendar',
        event_ids: [fed.event_id],
      },
      {
        date: '2027-03-01',
        type: 'gdp',
        label: 'GDP (Q4)',
        source_url: 'https://www.bea.gov/',
        origin: 'calendar',
        event_ids: [],
      },
    ]);
    await tx.insertSignals([signal]);
    await tx.insertSpot([
      { coin: 'ethereum', price_usd: 3500, as_of: '2026-11-21T12:00:00.000Z' },
      { coin: 'bitcoin', price_usd: 97000, as_of: '2026-11-21T12:00:00.000Z' },
    ]);
  });
  await store.finishRun(runId, 'ok', {}, '2026-11-21T12:05:00.000Z', true);
  return store;
}

export type { Mark };
