// A mark follows spec §2.3 field for field, and carry-forward copies the last mark to today as imputed without ever inventing one.
import { describe, expect, it } from 'vitest';
import type { Mark } from '../../src/domain/index.ts';
import { MarkSchema } from '../../src/domain/index.ts';
import {
  carryForwardMark,
  carryForwardMarks,
  markFromQuote,
  type QuoteInput,
  utcDate,
} from '../../src/pipeline/marks.ts';
import { makeMarket } from '../support/records.ts';

const NOW = '2026-03-02T12:00:00.000Z';
const market = makeMarket();

function quote(overrides: Partial<QuoteInput> = {}): QuoteInput {
  return {
    yes_bid: 0.51,
    yes_ask: 0.53,
    no_bid: 0.47,
    no_ask: 0.49,
    yes_bid_size_usd: 120,
    yes_ask_size_usd: 80,
    no_bid_size_usd: 40,
    no_ask_size_usd: 60,
    last_price: 0.52,
    volume_24h_usd: 1000,
    volume_total_usd: 50_000,
    open_interest_usd: 20_000,
    source_updated_at: '2026-03-02T10:30:00.000Z',
    provenance: { yes_bid: { source: 'platform_api' } },
    raw: { ticker: 'KXTEST-26-T1', yes_bid_dollars: '0.5100' },
    ...overrides,
  };
}

describe('markFromQuote', () => {
  it('fills every spec §2.3 field, with the derived ones computed at write', () => {
    const mark = markFromQuote(market, quote(), { now: NOW, primaryPrice: 0.6 });
    expect(MarkSchema.omit({ mark_id: true }).parse(mark)).toEqual(mark);
    expect(mark).toMatchObject({
      market_id: market.market_id,
      snapshot_date: '2026-03-02',
      snapshot_at: NOW,
      source_updated_at: '2026-03-02T10:30:00.000Z',
      yes_bid: 0.51,
      yes_ask: 0.53,
      yes_last_price: 0.52,
      implied_probability: 0.52,
      volume_24h_usd: 1000,
      open_interest_usd: 20_000,
      mark_method: 'venue_snapshot',
      source_count: 1,
      spread: 0.02,
      mid: 0.52,
      divergence_from_primary: 0.08,
      hours_since_source_update: 1.5,
      stale_flag: false,
      raw_payload: { ticker: 'KXTEST-26-T1', yes_bid_dollars: '0.5100' },
    });
    expect(mark.field_provenance.yes_bid).toEqual({ source: 'platform_api' });
    expect(mark.field_provenance.spread?.source).toBe('derived');
  });

  it('flags a mark stale past 4 hours since the venue update, not at exactly 4', () => {
    expect(
      markFromQuote(market, quote({ source_updated_at: '2026-03-02T08:00:00.000Z' }), { now: NOW, primaryPrice: null })
        .stale_flag,
    ).toBe(false);
    const stale = markFromQuote(market, quote({ source_updated_at: '2026-03-02T07:59:00.000Z' }), {
      now: NOW,
      primaryPrice: null,
    });
    expect(stale.stale_flag).toBe(true);
    expect(stale.hours_since_source_update).toBeCloseTo(4.0167, 3);
  });

  it('leaves divergence null without a primary price and spread/mid null without both sides', () => {
    const mark = markFromQuote(market, quote({ yes_ask: null }), { now: NOW, primaryPrice: null });
    expect(mark).toMatchObject({ divergence_from_primary: null, spread: null, mid: null });
  });

  it('falls back to the pull time when the venue gives no update time, and says so', () => {
    const mark = markFromQuote(market, quote({ source_updated_at: null }), { now: NOW, primaryPrice: null });
    expect(mark.source_updated_at).toBe(NOW);
    expect(mark.hours_since_source_update).toBeNull();
    expect(mark.stale_flag).toBe(false);
    expect(mark.field_provenance.source_updated_at?.source).toBe('imputed');
  });

  it('drops out-of-range values to null instead of storing an invalid mark', () => {
    const mark = markFromQuote(market, quote({ yes_bid: 1.4, volume_24h_usd: -3 }), { now: NOW, primaryPrice: null });
    expect(mark.yes_bid).toBeNull();
    expect(mark.volume_24h_usd).toBeNull();
  });

  it('takes the UTC date of the run clock as snapshot_date', () => {
    expect(markFromQuote(market, quote(), { now: '2026-03-02T23:59:59.000Z', primaryPrice: null }).snapshot_date).toBe(
      '2026-03-02',
    );
    expect(markFromQuote(market, quote(), { now: '2026-03-03T00:00:00.000Z', primaryPrice: null }).snapshot_date).toBe(
      '2026-03-03',
    );
  });
});

describe('carry-forward', () => {
  const yesterday: Mark = {
    mark_id: 7,
    ...markFromQuote(market, quote({ source_updated_at: '2026-03-01T10:30:00.000Z' }), {
      now: '2026-03-01T12:00:00.000Z',
      primaryPrice: null,
    }),
  };

  it('copies the latest values to today as imputed_carry_forward and lets the mark turn stale', () => {
    const carried = carryForwardMark(yesterday, NOW);
    expect(carried).toMatchObject({
      market_id: market.market_id,
      snapshot_date: '2026-03-02',
      snapshot_at: NOW,
      source_updated_at: yesterday.source_updated_at,
      yes_bid: 0.51,
      yes_last_price: 0.52,
      volume_24h_usd: 1000,
      mark_method: 'imputed_carry_forward',
      stale_flag: true,
      hours_since_source_update: 25.5,
      raw_payload: null,
    });
    expect(carried).not.toHaveProperty('mark_id');
    expect(carried.field_provenance.yes_bid).toEqual({
      source: 'imputed',
      note: 'carried forward from the 2026-03-01 mark: the venue could not be read',
    });
    expect(MarkSchema.omit({ mark_id: true }).parse(carried)).toEqual(carried);
  });

  it('writes the key order of a fresh mark from a latest mark read without its raw payload', () => {
    const { raw_payload: _raw, ...facts } = yesterday;
    const fresh = markFromQuote(market, quote(), { now: NOW, primaryPrice: null });
    expect(Object.keys(carryForwardMark(facts, NOW))).toEqual(Object.keys(fresh));
    expect(carryForwardMark(facts, NOW)).toEqual(carryForwardMark(yesterday, NOW));
  });

  it('never invents a mark for a market without one, and never replaces a mark already taken today', () => {
    const other = makeMarket({ native: 'KXOTHER-1' });
    const today: Mark = {
      ...yesterday,
      mark_id: 8,
      snapshot_date: '2026-03-02',
      snapshot_at: '2026-03-02T09:00:00.000Z',
    };
    const latest = new Map([[market.market_id, yesterday]]);
    expect(carryForwardMarks([market.market_id, other.market_id], latest, NOW).map((m) => m.market_id)).toEqual([
      market.market_id,
    ]);
    expect(carryForwardMarks([market.market_id], new Map([[market.market_id, today]]), NOW)).toEqual([]);
  });
});

describe('utcDate', () => {
  it('gives the UTC date of any ISO time, offsets included', () => {
    expect(utcDate('2026-03-02T23:59:59.999Z')).toBe('2026-03-02');
    expect(utcDate('2026-03-02T23:30:00-02:00')).toBe('2026-03-03');
    expect(utcDate('2026-03-03T01:00:00+02:00')).toBe('2026-03-02');
  });
});
