// The fee schedules in data/fees/ validate and give the venues' published numbers; a cross-venue spread is gross −
// both legs' taker fees at the stated size, whichever side is bought, and depth says whether that size fits at the
// top of both books.
import { describe, expect, it } from 'vitest';
import { type FeeSchedule, FeeScheduleSchema, takerFeeUsd } from '../../src/domain/index.ts';
import { FEE_SCHEDULES, netSpread, SPREAD_SIZE_CONTRACTS } from '../../src/signals/net-spread.ts';

const A = FEE_SCHEDULES.venue_a;
const B = FEE_SCHEDULES.venue_b;

describe('fee schedules as data', () => {
  it('carry a source URL and a date, and reject a record without them', () => {
    for (const s of [A, B]) {
      expect(s.source_url).toMatch(/^https:\/\//);
      expect(s.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const { source_url: _s, ...noSource } = A;
    expect(FeeScheduleSchema.safeParse(noSource).success).toBe(false);
    expect(FeeScheduleSchema.safeParse({ ...A, taker_rate: -0.1 }).success).toBe(false);
  });

  it("venue_a: ceil to the cent of 0.07 × C × P × (1 − P) per order (Kalshi's general table)", () => {
    expect(takerFeeUsd(A, 100, 0.5)).toBe(1.75);
    expect(takerFeeUsd(A, 1, 0.5)).toBe(0.02); // 0.0175 rounds up
    expect(takerFeeUsd(A, 100, 0.25)).toBe(1.32); // 1.3125 rounds up
    expect(takerFeeUsd(A, 10, 0.5)).toBe(0.18); // 0.175
    expect(takerFeeUsd(A, 100, 0.25)).toBe(takerFeeUsd(A, 100, 0.75)); // symmetric in P
    expect(takerFeeUsd(A, 100, 0)).toBe(0);
  });

  it('venue_b: no taker fee on the markets pmref records', () => {
    expect(takerFeeUsd(B, 100, 0.5)).toBe(0);
  });
});

describe('netSpread', () => {
  it('buys YES where cheaper and NO where dearer; net is gross less both fees per contract', () => {
    const s = netSpread({ priceA: 0.6, priceB: 0.5, complement: false });
    expect(s.size_contracts).toBe(SPREAD_SIZE_CONTRACTS);
    expect(s.buy_yes_on).toBe('venue_b');
    expect(s.gross).toBeCloseTo(0.1, 12);
    expect(s.fees.venue_a).toBeCloseTo(0.0168, 12); // ceil(0.07 × 100 × 0.24) = 1.68 / 100
    expect(s.fees.venue_b).toBe(0);
    expect(s.net).toBeCloseTo(0.0832, 12);
    expect(s.depth_ok).toBeNull();
  });

  it('reads a complement on the same side (1 − p_b), with the fee at the market’s own price', () => {
    const s = netSpread({ priceA: 0.3, priceB: 0.6, complement: true });
    expect(s.gross).toBeCloseTo(0.1, 12);
    expect(s.buy_yes_on).toBe('venue_a');
    expect(s.fees.venue_a).toBeCloseTo(0.0147, 12); // 0.07 × 100 × 0.21 = 1.47
  });

  it('a small divergence vanishes net of fees', () => {
    const s = netSpread({ priceA: 0.5, priceB: 0.49, complement: false });
    expect(s.gross).toBeCloseTo(0.01, 12);
    expect(s.net).toBeLessThan(0);
  });

  it('uses the schedules given (both legs charged)', () => {
    const flat: FeeSchedule = {
      ...A,
      venue: 'venue_b',
      formula: 'per_share_quadratic',
      rounding: 'none',
      taker_rate: 0.04,
    };
    const s = netSpread({ priceA: 0.6, priceB: 0.5, complement: false, schedules: { venue_a: A, venue_b: flat } });
    expect(s.fees.venue_b).toBeCloseTo(0.01, 12); // 0.04 × 0.25
    expect(s.net).toBeCloseTo(0.1 - 0.0168 - 0.01, 12);
  });

  it('depth: the stated size against the best-ask USD of the book each leg takes', () => {
    // Buy YES on venue_b at 0.5 (100 contracts = $50) and NO on venue_a at 0.4 ($40).
    const deep = { yes_ask_size_usd: 1000, no_ask_size_usd: 1000 };
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: false, depthA: deep, depthB: deep }).depth_ok).toBe(true);
    const thinNoA = { yes_ask_size_usd: 1000, no_ask_size_usd: 39 };
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: false, depthA: thinNoA, depthB: deep }).depth_ok).toBe(
      false,
    );
    // venue_a's thin YES book is not the one this trade takes.
    const thinYesA = { yes_ask_size_usd: 1, no_ask_size_usd: 40 };
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: false, depthA: thinYesA, depthB: deep }).depth_ok).toBe(
      true,
    );
    // Complement: venue_b's same-side YES is its own NO book.
    const thinYesB = { yes_ask_size_usd: 1, no_ask_size_usd: 1000 };
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: true, depthA: deep, depthB: thinYesB }).depth_ok).toBe(
      true,
    );
    const unknown = { yes_ask_size_usd: null, no_ask_size_usd: null };
    expect(
      netSpread({ priceA: 0.6, priceB: 0.5, complement: false, depthA: deep, depthB: unknown }).depth_ok,
    ).toBeNull();
    // A known shortfall on one leg decides even when the other leg is unknown.
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: false, depthA: thinNoA, depthB: unknown }).depth_ok).toBe(
      false,
    );
  });
});

describe("a market's own fee terms (fee_terms) over its venue's schedule", () => {
  it('venue_a: a series at half rate pays half the general table; a flat fee type cannot be priced', () => {
    const half = { taker_multiplier: 0.5, basis: 'venue_series' as const, venue_fields: { fee_multiplier: 0.5 } };
    const s = netSpread({ priceA: 0.6, priceB: 0.5, complement: false, feesA: half });
    expect(s.fees.venue_a).toBeCloseTo(0.0084, 12); // ceil(0.07 × 0.5 × 100 × 0.24) = 0.84 / 100
    expect(s.net).toBeCloseTo(0.1 - 0.0084, 12);
    expect(s.fees_unknown).toEqual([]);
    const flat = { taker_multiplier: null, basis: 'venue_series' as const, venue_fields: { fee_type: 'flat' } };
    const u = netSpread({ priceA: 0.6, priceB: 0.5, complement: false, feesA: flat });
    expect(u.fees.venue_a).toBeNull();
    expect(u.net).toBeNull();
    expect(u.gross).toBeCloseTo(0.1, 12);
    expect(u.fees_unknown).toEqual(['venue_a']);
  });

  it('venue_b: fees disabled cost nothing; fees enabled at an unknown rate leave no net figure', () => {
    const off = { taker_multiplier: 0, basis: 'venue_market' as const, venue_fields: { feesEnabled: false } };
    const on = {
      taker_multiplier: null,
      basis: 'venue_market' as const,
      venue_fields: { feesEnabled: true, takerBaseFee: 1000 },
    };
    const charged: FeeSchedule = { ...B, taker_rate: 0.04 };
    const schedules = { venue_a: A, venue_b: charged };
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: false, feesB: off, schedules }).fees.venue_b).toBe(0);
    const u = netSpread({ priceA: 0.6, priceB: 0.5, complement: false, feesB: on, schedules });
    expect(u.fees.venue_b).toBeNull();
    expect(u.net).toBeNull();
    expect(u.fees_unknown).toEqual(['venue_b']);
    // No terms: the schedule as it stands.
    expect(netSpread({ priceA: 0.6, priceB: 0.5, complement: false, schedules }).fees.venue_b).toBeCloseTo(0.01, 12);
  });
});
