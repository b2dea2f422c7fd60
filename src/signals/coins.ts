/**
 * Which coin a crypto market is about, and the annualized volatility the benchmark-drift model uses
 * for it. Coin ids are the simple-price API's ids (served-shapes §9).
 */
import type { Market } from '../domain/index.ts';

export interface CoinSpec {
  /** Simple-price API id. */
  id: string;
  /** Words that name the coin in question text or tags (matched case-insensitively on word boundaries). */
  names: readonly string[];
  /** Ticker symbol as it appears inside venue_a tickers (e.g. KXBTCD-…). */
  symbol: string;
  /**
   * Annualized volatility for the lognormal model (METHODOLOGY.md § Signals). Round numbers near each
   * coin's trailing one-year realized volatility; a documented constant, not a live estimate.
   */
  annualVol: number;
}

export const COINS: readonly CoinSpec[] = [
  { id: 'bitcoin', names: ['bitcoin', 'btc'], symbol: 'BTC', annualVol: 0.55 },
  { id: 'ethereum', names: ['ethereum', 'eth', 'ether'], symbol: 'ETH', annualVol: 0.7 },
  { id: 'solana', names: ['solana', 'sol'], symbol: 'SOL', annualVol: 0.9 },
  { id: 'ripple', names: ['xrp', 'ripple'], symbol: 'XRP', annualVol: 0.9 },
  { id: 'dogecoin', names: ['dogecoin', 'doge'], symbol: 'DOGE', annualVol: 1 },
  { id: 'cardano', names: ['cardano', 'ada'], symbol: 'ADA', annualVol: 0.95 },
];

const COIN_WORD = COINS.map((c) => ({ coin: c, re: new RegExp(`\\b(?:${c.names.join('|')})\\b`, 'i') }));
/**
 * Any coin's name: a text it does not match names no coin, and most texts name none (every market's texts are read
 * every run: one test instead of one per coin). A text it matches is read coin by coin, in COINS order, as before.
 */
const ANY_COIN_WORD = new RegExp(`\\b(?:${COINS.flatMap((c) => c.names).join('|')})\\b`, 'i');
/** venue_a crypto series: KXBTC, KXBTCD (daily), KXETHMAXY (yearly max)…; the suffix list keeps KXSOLANO out. */
const TICKER_PREFIX = new RegExp(
  `^KX(${COINS.map((c) => c.symbol).join('|')})(?:D|E|W|M|Y|MAXY|MINY|MAXM|MINM|MAX|MIN|RANGE|USD)?(?:-|$)`,
);

/** The coin spec for a simple-price id. */
export function coinSpec(id: string): CoinSpec | undefined {
  return COINS.find((c) => c.id === id);
}

/**
 * The coin a market references, or null. Question text, underlying reference, group title and tags are
 * read first; a venue_a ticker prefix (`KXBTC…`) is the fallback.
 * @example coinOf({ question_raw: 'Will Bitcoin be above $100,000 on Dec 31?', … }) // 'bitcoin'
 */
export function coinOf(
  market: Pick<Market, 'question_raw' | 'underlying_reference' | 'group_item_title' | 'tags' | 'platform_market_id'>,
): string | null {
  const texts = [market.question_raw, market.underlying_reference, market.group_item_title, ...market.tags];
  for (const text of texts) {
    if (!text || !ANY_COIN_WORD.test(text)) continue;
    for (const { coin, re } of COIN_WORD) if (re.test(text)) return coin.id;
  }
  const m = TICKER_PREFIX.exec(market.platform_market_id.toUpperCase());
  if (m) return COINS.find((c) => c.symbol === m[1])?.id ?? null;
  return null;
}

/**
 * The distinct coins crypto markets reference, sorted: the `ids` the spot client asks for.
 * @example coinsReferenced(markets) // ['bitcoin', 'ethereum']
 */
export function coinsReferenced(markets: readonly Market[]): string[] {
  const ids = new Set<string>();
  for (const m of markets) {
    const id = coinOf(m);
    if (id) ids.add(id);
  }
  return [...ids].sort();
}
