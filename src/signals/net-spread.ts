/**
 * Cross-venue spreads net of costs (issue 20, item 5). A divergence between two venues is only worth reporting
 * as a spread if it survives both venues' taker fees: buy YES (same side) where it is cheaper, buy NO where it is
 * dearer, and the pair pays $1 whatever happens. Per contract that locks in gross = p_high − p_low (the
 * divergence's own price convention: the daily mark's implied price, complement-adjusted), less each leg's taker
 * fee at the stated size. Fee schedules are data (data/fees/*.json, src/domain/fees.ts).
 *
 * Depth: marks keep only the top of each book (yes/no ask size in USD = contracts × price at the best ask), so
 * `depth_ok` says whether the stated size fits at the best ask of both legs; deeper levels are not stored, and
 * a size that does not fit may still fill at worse prices. Null when either leg's top-of-book size is unknown.
 *
 * A market's own fee terms (its `fee_terms`: venue_a series fee fields, venue_b market fee fields) price its leg
 * over the venue's general schedule: a venue_a series at half rate costs half, a venue_b market with fees disabled
 * costs nothing. Where the venue says a market charges a fee pmref cannot price (`taker_multiplier` null), that
 * leg's fee and the net spread are null, and `fees_unknown` names the venue: no figure is better than a wrong one.
 */
import venueAFees from '../../data/fees/venue_a.json' with { type: 'json' };
import venueBFees from '../../data/fees/venue_b.json' with { type: 'json' };
import {
  type FeeSchedule,
  FeeScheduleSchema,
  type MarketFeeTerms,
  takerFeeUsd,
  takerMultiplierOf,
  type Venue,
} from '../domain/index.ts';

/** Both venues' schedules, validated once at load (a malformed data file fails at startup, not mid-request). */
export const FEE_SCHEDULES: Readonly<Record<Venue, FeeSchedule>> = {
  venue_a: FeeScheduleSchema.parse(venueAFees),
  venue_b: FeeScheduleSchema.parse(venueBFees),
};

/** The stated size: 100 contracts, i.e. a $100 payout (cost ≤ $100); Kalshi rounds fees per order, so size matters. */
export const SPREAD_SIZE_CONTRACTS = 100;

/** Top-of-book ask sizes of one market, in USD (as the marks store them). */
export interface AskDepth {
  yes_ask_size_usd: number | null;
  no_ask_size_usd: number | null;
}

export interface SpreadInput {
  /** venue_a's YES price (0–1). */
  priceA: number;
  /** venue_b's own YES price (0–1), before any complement adjustment. */
  priceB: number;
  /** True when venue_b's market states the other side of the boundary (its YES is venue_a's NO). */
  complement: boolean;
  depthA?: AskDepth | null;
  depthB?: AskDepth | null;
  /** Each market's own fee terms (Market.fee_terms); absent or null: the venue's schedule as it stands. */
  feesA?: MarketFeeTerms | null;
  feesB?: MarketFeeTerms | null;
  contracts?: number;
  schedules?: Readonly<Record<Venue, FeeSchedule>>;
}

export interface NetSpread {
  size_contracts: number;
  /** Where YES (venue_a's side) is bought; NO is bought on the other venue. */
  buy_yes_on: Venue;
  /** Per contract, 0–1: p_high − p_low. */
  gross: number;
  /** Taker fee per contract (USD) of each venue's leg at the stated size; null where it cannot be priced. */
  fees: Record<Venue, number | null>;
  /** gross − both fees, per contract; null when either fee is. */
  net: number | null;
  /** Venues whose leg charges a fee pmref cannot price (empty when both are priced). */
  fees_unknown: Venue[];
  depth_ok: boolean | null;
}

/** Whether `usd` worth of contracts fits at the top of book; null when the size there is unknown. */
function fits(sizeUsd: number | null | undefined, neededUsd: number): boolean | null {
  if (sizeUsd === null || sizeUsd === undefined) return null;
  return sizeUsd + 1e-9 >= neededUsd;
}

/**
 * Gross and net spread of a cross-venue pair at the stated size. Pure.
 * @example netSpread({ priceA: 0.6, priceB: 0.5, complement: false }).net // 0.1 − 0.0168 − 0 = 0.0832
 */
export function netSpread(input: SpreadInput): NetSpread {
  const contracts = input.contracts ?? SPREAD_SIZE_CONTRACTS;
  const schedules = input.schedules ?? FEE_SCHEDULES;
  const pa = input.priceA;
  const bSame = input.complement ? 1 - input.priceB : input.priceB;
  const buyYesOn: Venue = pa <= bSame ? 'venue_a' : 'venue_b';
  const gross = Math.abs(pa - bSame);
  // P × (1 − P) is symmetric: each leg's fee depends only on its market's price, not on the side bought.
  const legFee = (venue: Venue, price: number, terms: MarketFeeTerms | null | undefined): number | null => {
    const multiplier = takerMultiplierOf(schedules[venue], terms);
    return multiplier === null ? null : takerFeeUsd(schedules[venue], contracts, price, multiplier) / contracts;
  };
  const fees: Record<Venue, number | null> = {
    venue_a: legFee('venue_a', pa, input.feesA),
    venue_b: legFee('venue_b', input.priceB, input.feesB),
  };
  const feesUnknown = (['venue_a', 'venue_b'] as const).filter((v) => fees[v] === null);
  // Which of each market's own books the legs take from, and the USD each leg spends there.
  const aYes = buyYesOn === 'venue_a';
  const bOwnYes = buyYesOn === 'venue_b' ? !input.complement : input.complement;
  const okA = fits(
    aYes ? input.depthA?.yes_ask_size_usd : input.depthA?.no_ask_size_usd,
    contracts * (aYes ? pa : 1 - pa),
  );
  const okB = fits(
    bOwnYes ? input.depthB?.yes_ask_size_usd : input.depthB?.no_ask_size_usd,
    contracts * (bOwnYes ? input.priceB : 1 - input.priceB),
  );
  const depthOk = okA === false || okB === false ? false : okA === null || okB === null ? null : true;
  return {
    size_contracts: contracts,
    buy_yes_on: buyYesOn,
    gross,
    fees,
    net: fees.venue_a === null || fees.venue_b === null ? null : gross - fees.venue_a - fees.venue_b,
    fees_unknown: feesUnknown,
    depth_ok: depthOk,
  };
}
