// A fresh record equal to the stored one except for bookkeeping timestamps counts as unchanged, whatever its key order;
// a derived market equal to its stored record but for screens and links is carried as the stored record itself.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { emptyVenueFacts, type Market } from '../../src/domain/index.ts';
import {
  runEditorialStage,
  type StageItem,
  sameAsDerived,
  sameMarket,
  sameRecord,
} from '../../src/pipeline/editorial-stage.ts';
import { screensFor } from '../../src/pipeline/screens.ts';
import type { VenueQuote } from '../../src/venues/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

describe('sameRecord', () => {
  it('ignores key order and treats a missing key like an undefined one', () => {
    expect(sameRecord({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameRecord({ a: 1, u: undefined }, { a: 1 })).toBe(true);
  });

  it('sees every nested difference', () => {
    expect(sameRecord({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameRecord({ a: { b: null } }, { a: { b: 0 } })).toBe(false);
    expect(sameRecord({ a: [] }, { a: {} })).toBe(false);
  });
});

describe('sameMarket', () => {
  it('skips only first_seen_at and last_updated_at', () => {
    const m = makeMarket();
    const reordered = Object.fromEntries(Object.entries(m).reverse()) as typeof m;
    expect(
      sameMarket(m, { ...reordered, first_seen_at: '2030-01-01T00:00:00Z', last_updated_at: '2030-01-01T00:00:00Z' }),
    ).toBe(true);
    expect(sameMarket(m, { ...m, status: 'closed' })).toBe(false);
    expect(sameMarket(m, { ...m, field_provenance: { status: { source: 'platform_api' } } })).toBe(false);
  });
});

describe('runEditorialStage: a derived market equal to its stored record', () => {
  const NOW = '2026-11-02T10:00:00.000Z';
  const event = makeEvent();
  const base = makeMarket({ event_id: event.event_id });
  const linked = {
    also_on: [{ venue: 'venue_b' as const, market_id: 'mkt_other', price: 0.4, relation: 'same' as const }],
    provenance: { source: 'derived' as const, rule: 'canon.also_on' },
  };
  // As stored: screened and linked by an earlier run.
  const stored: Market = {
    ...base,
    eligibility_screens: screensFor(base, event, NOW),
    also_on: linked.also_on,
    field_provenance: { ...base.field_provenance, also_on: linked.provenance },
  };
  // A quote with a last price only (deriveEvent is a stub here: nothing reads it).
  const figures = ['yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'volume_24h_usd', 'volume_total_usd', 'open_interest_usd'];
  const quote = {
    ...Object.fromEntries(figures.map((f) => [f, null])),
    ...Object.fromEntries(['yes', 'no'].flatMap((side) => ['bid', 'ask'].map((k) => [`${side}_${k}_size_usd`, null]))),
    last_price: 0.5,
    liquidity_usd: null,
    source_updated_at: null,
    provenance: {},
    raw: {},
  } as VenueQuote;

  /** The stage over one stored event, with deriveEvent giving `derived` before screens and links. */
  const stage = (derived: Market) =>
    runEditorialStage({
      items: [{ normalized: { event, markets: [{ market: base, facts: emptyVenueFacts(), quote }] } }],
      storedEvents: new Map([[event.event_id, event]]),
      storedMarkets: new Map([[stored.market_id, stored]]),
      marks: new Map(),
      now: NOW,
      logger: pino({ level: 'silent' }),
      editorial: {
        deriveEvent: () => ({ event, markets: [derived] }),
        // The link every run finds for this market.
        linkAcrossVenues: (markets) =>
          markets.map((m) => ({
            ...m,
            also_on: linked.also_on,
            field_provenance: { ...m.field_provenance, also_on: linked.provenance },
          })),
      },
    });

  it('is the stored record itself: what the stage computes after deriveEvent and the bookkeeping aside', async () => {
    // As deriveEvent gives it: not yet screened or linked, this run's bookkeeping time.
    const derived: Market = { ...base, last_updated_at: NOW, eligibility_screens: null, also_on: null };
    expect(sameAsDerived(stored, derived)).toBe(true);
    const out = await stage(derived);
    expect(out.markets).toHaveLength(1);
    expect(out.markets[0]).toBe(stored);
    expect(out.changedMarkets).toEqual([]);
  });

  it('is a change when deriveEvent gave anything else, in the record or in its other provenance', async () => {
    const retitled: Market = { ...base, question_raw: 'Will the other test happen?', also_on: null };
    expect(sameAsDerived(stored, retitled)).toBe(false);
    const out = await stage(retitled);
    expect(out.changedMarkets.map((m) => m.question_raw)).toEqual(['Will the other test happen?']);
    expect(out.changedMarkets[0]?.also_on).toEqual(linked.also_on);
    const reprovenanced: Market = { ...base, field_provenance: { status: { source: 'platform_api' } } };
    expect(sameAsDerived(stored, reprovenanced)).toBe(false);
  });
});

describe('runEditorialStage: stored screens that stand', () => {
  const SCREENED = '2026-11-02T10:00:00.000Z';
  const event = makeEvent({ category: 'economics', question: 'CPI in June 2027?' });
  // Resolves 30 days and 90 minutes after SCREENED: the CIRO regime's 30-day minimum maturity is crossed 90 minutes on.
  const base = makeMarket({ event_id: event.event_id, resolve_at: '2026-12-02T11:30:00.000Z', close_at: null });
  const stored: Market = { ...base, eligibility_screens: screensFor(base, event, SCREENED) };
  const reused: StageItem = {
    reused: {
      eventId: event.event_id,
      marketIds: [stored.market_id],
      summaries: [],
      nativeMarketIds: [stored.platform_market_id],
      repriceInputs: null,
    },
  };
  const stage = (now: string, previous: Map<string, string> | null, items: StageItem[] = [reused], derive = event) =>
    runEditorialStage({
      items,
      storedEvents: new Map([[event.event_id, event]]),
      storedMarkets: new Map([[stored.market_id, stored]]),
      marks: new Map(),
      now,
      logger: pino({ level: 'silent' }),
      keys: { version: 'v', previous },
      editorial: {
        deriveEvent: () => ({ event: derive, markets: [{ ...stored, eligibility_screens: null }] }),
        linkAcrossVenues: (markets) => [...markets],
      },
    });

  it('keeps a reused market as stored, unscreened, an hour later', async () => {
    const out = await stage('2026-11-02T11:00:00.000Z', new Map());
    expect(out.screensStood).toBe(1);
    expect(out.screened).toEqual(new Set([stored.market_id]));
    expect(out.markets[0]).toBe(stored);
    expect(out.changedMarkets).toEqual([]);
  });

  it('screens it again once the minimum maturity is crossed, and the outcome changes', async () => {
    const out = await stage('2026-11-02T12:00:00.000Z', new Map());
    expect(out.screensStood).toBe(0);
    const ciro = out.changedMarkets[0]?.eligibility_screens?.find((r) => r.regime === 'ciro-26-0076');
    expect([ciro?.status, ciro?.reasons]).toEqual(['not_eligible', ['under_min_maturity']]);
  });

  it('screens everything without a memo, and a market whose event now reads otherwise', async () => {
    const noMemo = await stage('2026-11-02T11:00:00.000Z', null);
    expect(noMemo.screensStood).toBe(0);
    expect(noMemo.changedMarkets).toEqual([]);
    // deriveEvent gives the stored market back against a re-worded event: its screens are redone against that event.
    const reworded = { ...event, question: 'Will Trump raise the tariff on steel?' };
    const normalized: StageItem = {
      normalized: { event, markets: [{ market: base, facts: emptyVenueFacts(), quote: {} as VenueQuote }] },
    };
    const out = await stage('2026-11-02T11:00:00.000Z', new Map(), [normalized], reworded);
    expect(out.screensStood).toBe(0);
    const ciro = out.changedMarkets[0]?.eligibility_screens?.find((r) => r.regime === 'ciro-26-0076');
    expect(ciro?.status).toBe('review');
  });
});
