/**
 * Loose schemas of venue_b's native shapes (Gamma Event and Market, CLOB book; see
 * fixtures/venues/reference/polymarket_gamma_openapi.json). Unknown fields pass through. Numbers
 * arrive as numbers or strings (`volume` is a string on markets, a number on events); the
 * JSON-in-string list fields are typed `unknown` here and decoded by normalization, so one bad
 * field rejects one market, not its page.
 */
import { z } from 'zod';

const numLike = z.union([z.number(), z.string()]).nullish();
const str = z.string().nullish();
const idLike = z.union([z.string(), z.number()]);

export const VenueBTagSchema = z.looseObject({ id: idLike.nullish(), label: str, slug: str });

export const VenueBMarketSchema = z.looseObject({
  id: idLike.nullish(),
  conditionId: str,
  /** Gamma's UMA question id (a venue identifier the market serves, normalize.ts venueBRefs). */
  questionID: z.unknown().optional(),
  question: str,
  description: str,
  slug: str,
  category: str,
  resolutionSource: str,
  startDate: str,
  endDate: str,
  closedTime: str,
  umaEndDate: str,
  updatedAt: str,
  active: z.boolean().nullish(),
  closed: z.boolean().nullish(),
  archived: z.boolean().nullish(),
  enableOrderBook: z.boolean().nullish(),
  outcomes: z.unknown().optional(),
  outcomePrices: z.unknown().optional(),
  clobTokenIds: z.unknown().optional(),
  umaResolutionStatuses: z.unknown().optional(),
  umaResolutionStatus: str,
  groupItemTitle: str,
  orderPriceMinTickSize: numLike,
  bestBid: numLike,
  bestAsk: numLike,
  lastTradePrice: numLike,
  volume: numLike,
  volumeNum: numLike,
  volume24hr: numLike,
  liquidity: numLike,
  liquidityNum: numLike,
  negRisk: z.boolean().nullish(),
  resolvedBy: str,
  automaticallyResolved: z.boolean().nullish(),
  feesEnabled: z.boolean().nullish(),
  feeType: str,
  takerBaseFee: numLike,
  events: z.array(z.unknown()).nullish(),
});
export type VenueBMarket = z.infer<typeof VenueBMarketSchema>;

export const VenueBEventSchema = z.looseObject({
  id: idLike,
  slug: str,
  ticker: str,
  title: str,
  description: str,
  resolutionSource: str,
  category: str,
  endDate: str,
  updatedAt: str,
  closed: z.boolean().nullish(),
  negRisk: z.boolean().nullish(),
  negRiskAugmented: z.boolean().nullish(),
  tags: z.array(VenueBTagSchema).nullish(),
  markets: z.array(z.unknown()).nullish(),
});
export type VenueBEvent = z.infer<typeof VenueBEventSchema>;

const level = z.looseObject({ price: numLike, size: numLike });
export const ClobBookSchema = z.looseObject({
  market: str,
  asset_id: str,
  timestamp: numLike,
  bids: z.array(level).nullish(),
  asks: z.array(level).nullish(),
});
export type ClobBook = z.infer<typeof ClobBookSchema>;
