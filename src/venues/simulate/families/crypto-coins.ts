/** The six simulated coins: base spot, volatility, ladder steps, and the log-normal odds their threshold markets trade at. */
import { niceStep } from '../builders.ts';
import type { CoinId } from '../model.ts';

export interface CoinInfo {
  name: string;
  sym: string;
  base: number;
  vol: number;
  step: number;
  decimals: number;
}

export const COINS: Record<CoinId, CoinInfo> = {
  bitcoin: { name: 'Bitcoin', sym: 'BTC', base: 77_790, vol: 0.55, step: 1000, decimals: 2 },
  ethereum: { name: 'Ethereum', sym: 'ETH', base: 2_443.5, vol: 0.7, step: 50, decimals: 2 },
  solana: { name: 'Solana', sym: 'SOL', base: 146, vol: 0.9, step: 5, decimals: 2 },
  ripple: { name: 'XRP', sym: 'XRP', base: 2.35, vol: 0.9, step: 0.05, decimals: 4 },
  dogecoin: { name: 'Dogecoin', sym: 'DOGE', base: 0.21, vol: 1.0, step: 0.01, decimals: 5 },
  cardano: { name: 'Cardano', sym: 'ADA', base: 0.68, vol: 0.95, step: 0.02, decimals: 4 },
};
export const COIN_IDS = Object.keys(COINS) as CoinId[];

/** P(spot at horizon above k) under a driftless log-normal with the coin's annual vol. */
export function spotAboveProb(spot: number, k: number, vol: number, yearsAhead: number): number {
  const sd = vol * Math.sqrt(Math.max(yearsAhead, 1 / (365 * 24)));
  const z = Math.log(spot / k) / sd;
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

/** Abramowitz–Stegun 7.1.26 (enough for prices quoted in cents). */
export function erf(x: number): number {
  const s = x < 0 ? -1 : 1;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return s * y;
}

/** Ladder step: the coin's usual tick, widened so `n` strikes span at most about ±30% of spot. */
export function stepFor(info: CoinInfo, spot: number, n = 12): number {
  const usual = spot > 20_000 ? 1000 : spot > 1000 ? 50 : spot > 50 ? 5 : spot > 1 ? 0.05 : info.step;
  return Math.max(usual, niceStep((spot * 0.6) / Math.max(1, n)));
}
