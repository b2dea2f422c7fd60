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
 */
import venueAFees from '../../data/fees/venue_a.json' with { type: 'json' };
import venueBFees from '../../data/fees/venue_b.json' with { type: 'json' };
import { type FeeSchedule, FeeScheduleSchema, takerFeeUsd, type Venue } from '../domain/index.ts';

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
  contracts?: number;
  schedules?: Readonly<Record<Venue, FeeSchedule>>;
}

export interface NetSpread {
  size_contracts: number;
  /** Where YES (venue_a's side) is bought; NO is bought on the other venue. */
  buy_yes_on: Venue;
  /** Per contract, 0–1: p_high − p_low. */
  gross: number;
  /** Taker fee per contract (USD) of each venue's leg at the stated size. */
  fees: Record<Venue, number>;
  /** gross − both fees, per contract. */
  net: number;
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
  const fees: Record<Venue, number> = {
    venue_a: takerFeeUsd(schedules.venue_a, contracts, pa) / contracts,
    venue_b: takerFeeUsd(schedules.venue_b, contracts, input.priceB) / contracts,
  };
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
    net: gross - fees.venue_a - fees.venue_b,
    depth_ok: depthOk,
  };
}
