/**
 * A small store for the cross-venue question and stats tests: one `same` pair (economics, 6 points apart), one
 * `complement` pair (crypto, 10 points apart once adjusted), one `related` pair (politics, the venue_b leg has
 * no mark), a venue_a market without links, an unpublished venue_b market linked to a published one (never
 * served), and venue_b UMA histories (one disputed).
 */
import type { Category, Market, NewMark, Rcg } from '../../src/domain/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

export const Q_NOW = new Date('2026-11-21T12:30:00.000Z');
const DAY = '2026-11-21';

const rcg = (grade: 'A' | 'B' | 'C', score: number): Rcg => ({
  grade,
  score,
  caps: [],
  applied_factors: 6,
  rubric_version: 'rcg-1',
  factors: [],
});

const ev = (native: string, category: Category, venue: 'venue_a' | 'venue_b', published = true) =>
  makeEvent({ native, slug: native.toLowerCase(), question: `${native}?`, category, venue, published });

export const cpiA = ev('KXCPI-26DEC', 'economics', 'venue_a');
export const cpiB = ev('cpi-above-3-dec', 'economics', 'venue_b');
export const btcA = ev('KXBTC-26DEC', 'crypto', 'venue_a');
export const btcB = ev('btc-below-100k-dec', 'crypto', 'venue_b');
export const electA = ev('KXELECT-26', 'politics', 'venue_a');
export const electB = ev('elect-inaugurated', 'politics', 'venue_b');
export const loneA = ev('KXLONE-26', 'health', 'venue_a');
export const hiddenB = ev('hidden-twin', 'economics', 'venue_b', false);

export const Q_SAME = 'SVCX-00000000A1';
export const Q_COMP = 'SVCX-00000000B2';

export const CPI_RULES_A =
  'If the CPI-U year-over-year change for December 2026, as first published by the Bureau of Labor Statistics, is above 3.0%, the market resolves to Yes.';
export const CPI_RULES_B =
  'This market will resolve to "Yes" if the CPI-U year-over-year change for December 2026, as published by the BLS, is above 3.0%. Otherwise "No".';

export const mCpiA = makeMarket({
  native: 'KXCPI-26DEC-T3.0',
  event_id: cpiA.event_id,
  question_raw: 'CPI above 3.0% in December 2026?',
  question_id: Q_SAME,
  direction: 'above',
  threshold: 3,
  arbitration_model: 'venue_a_staff',
  source_of_record: 'Bureau of Labor Statistics',
  source_commitment_subtype: 'named',
  resolution_rules_raw: CPI_RULES_A,
  rcg: rcg('A', 92),
});
export const mCpiB = makeMarket({
  native: '0xc0000000000000000000000000000000000000000000000000000000000000b1',
  platform: 'venue_b',
  event_id: cpiB.event_id,
  question_raw: 'Will CPI be above 3% in December?',
  question_id: Q_SAME,
  direction: 'above',
  threshold: 3,
  arbitration_model: 'optimistic_oracle',
  source_of_record: null,
  source_commitment_subtype: 'uncommitted_illustrative',
  resolution_rules_raw: CPI_RULES_B,
  rcg: rcg('B', 70),
  resolution_history: { state: 'disputed', statuses: ['proposed', 'disputed'], proposals: 1, disputes: 1 },
});
export const mBtcA = makeMarket({
  native: 'KXBTC-26DEC-T100000',
  event_id: btcA.event_id,
  question_raw: 'Bitcoin above $100,000 on December 31?',
  question_id: Q_COMP,
  direction: 'above',
  arbitration_model: 'venue_a_staff',
  source_of_record: 'CF Benchmarks',
  source_commitment_subtype: 'named',
  resolution_rules_raw: 'Resolves Yes if the CF Benchmarks BRTI is above 100,000 at 4pm ET on December 31.',
  rcg: rcg('A', 88),
});
export const mBtcB = makeMarket({
  native: '0xc0000000000000000000000000000000000000000000000000000000000000b2',
  platform: 'venue_b',
  event_id: btcB.event_id,
  question_raw: 'Bitcoin below $100k on December 31?',
  question_id: Q_COMP,
  direction: 'below',
  arbitration_model: 'optimistic_oracle',
  source_of_record: 'Binance',
  source_commitment_subtype: 'named',
  resolution_rules_raw: null,
  rcg: rcg('C', 40),
  resolution_history: { state: 'resolved', statuses: ['proposed', 'resolved'], proposals: 1, disputes: 0 },
});
export const mElectA = makeMarket({
  native: 'KXELECT-26-X',
  event_id: electA.event_id,
  question_raw: 'Will X win the 2026 election?',
  question_id: 'SVCX-00000000C3',
  arbitration_model: 'venue_a_staff',
  resolution_rules_raw: 'Resolves Yes if X is projected the winner.',
  rcg: rcg('B', 75),
});
export const mElectB = makeMarket({
  native: '0xc0000000000000000000000000000000000000000000000000000000000000b3',
  platform: 'venue_b',
  event_id: electB.event_id,
  question_raw: 'Will X be inaugurated?',
  question_id: 'SVCX-00000000D4',
  arbitration_model: 'optimistic_oracle',
  resolution_rules_raw: 'Resolves Yes if X is inaugurated.',
  rcg: null,
});
export const mLoneA = makeMarket({ native: 'KXLONE-26-T1', event_id: loneA.event_id, rcg: rcg('C', 30) });
const mHiddenB = makeMarket({
  native: '0xc0000000000000000000000000000000000000000000000000000000000000b9',
  platform: 'venue_b',
  event_id: hiddenB.event_id,
  question_id: Q_SAME,
  direction: 'above',
});

export const RELATED_DIFFERENCES = [
  { type: 'resolves_on' as const, venue_a: 'election call', venue_b: 'inauguration' },
];

const link = (m: Market, relation: 'same' | 'complement' | 'related', extra: object = {}) => ({
  venue: m.platform,
  market_id: m.market_id,
  price: 0.5,
  relation,
  ...extra,
});
mCpiA.also_on = [link(mCpiB, 'same'), link(mHiddenB, 'same')];
mCpiB.also_on = [link(mCpiA, 'same')];
mHiddenB.also_on = [link(mCpiA, 'same')];
mBtcA.also_on = [link(mBtcB, 'complement')];
mBtcB.also_on = [link(mBtcA, 'complement')];
mElectA.also_on = [link(mElectB, 'related', { differences: RELATED_DIFFERENCES })];
mElectB.also_on = [link(mElectA, 'related', { differences: RELATED_DIFFERENCES })];

/** A mark at `price`; `depth` sets top-of-book sizes. */
function mark(market: Market, price: number, depth: Partial<NewMark> = {}): NewMark {
  return {
    market_id: market.market_id,
    snapshot_date: DAY,
    snapshot_at: `${DAY}T12:00:00.000Z`,
    source_updated_at: `${DAY}T11:59:00.000Z`,
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: price,
    implied_probability: price,
    volume_24h_usd: 100,
    volume_total_usd: 1000,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: null,
    spread: null,
    mid: price,
    divergence_from_primary: null,
    hours_since_source_update: 0.02,
    field_provenance: {},
    ...depth,
  };
}

/** Opens a migrated store at `dbUrl` holding the dataset above as one published run. */
export async function seedQuestionStore(dbUrl = 'sqlite::memory:'): Promise<Store> {
  const store = await openStore(dbUrl, { now: () => Q_NOW });
  await store.migrate();
  const runId = await store.startRun('simulated', '2026-11-21T12:00:00.000Z');
  await store.transaction(async (tx) => {
    await tx.upsertEvents([cpiA, cpiB, btcA, btcB, electA, electB, loneA, hiddenB]);
    await tx.upsertMarkets([mCpiA, mCpiB, mBtcA, mBtcB, mElectA, mElectB, mLoneA, mHiddenB]);
    await tx.upsertMarks([
      // Top-of-book ask sizes: the CPI pair's legs are YES on venue_a ($40 at 100 contracts) and NO on venue_b
      // ($54): venue_a's book holds it, venue_b's $20 does not.
      mark(mCpiA, 0.4, { yes_ask_size_usd: 500 }),
      mark(mCpiB, 0.46, { no_ask_size_usd: 20 }),
      mark(mBtcA, 0.3),
      mark(mBtcB, 0.6),
      mark(mElectA, 0.55),
      mark(mHiddenB, 0.9),
    ]);
  });
  await store.finishRun(runId, 'ok', {}, '2026-11-21T12:05:00.000Z', true);
  return store;
}
