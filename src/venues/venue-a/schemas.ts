/**
 * Loose schemas of venue_a's native shapes (trade-api v2 Market, Event, Series; see
 * fixtures/venues/reference/kalshi_trade_api_v2_openapi.yaml). Unknown fields pass through; only
 * the fields normalization reads are typed, and each accepts every form seen in recorded data
 * (integer cents and `*_dollars` strings; `*_fp` strings; absent cent fields in the 2026-08 schema).
 */
import { z } from 'zod';

const numLike = z.union([z.number(), z.string()]).nullish();
const str = z.string().nullish();

export const VenueAMarketSchema = z.looseObject({
  ticker: z.string().min(1),
  event_ticker: z.string().min(1),
  market_type: str,
  title: str,
  subtitle: str,
  yes_sub_title: str,
  no_sub_title: str,
  status: str,
  result: str,
  category: str,
  open_time: str,
  close_time: str,
  expected_expiration_time: str,
  expiration_time: str,
  latest_expiration_time: str,
  settlement_ts: str,
  created_time: str,
  updated_time: str,
  rules_primary: str,
  rules_secondary: str,
  early_close_condition: str,
  strike_type: str,
  floor_strike: numLike,
  cap_strike: numLike,
  custom_strike: z.record(z.string(), z.unknown()).nullish(),
  mve_collection_ticker: str,
  mve_selected_legs: z.array(z.unknown()).nullish(),
  tick_size: numLike,
  price_ranges: z.array(z.looseObject({ step: numLike })).nullish(),
  notional_value: numLike,
  notional_value_dollars: numLike,
  yes_bid: numLike,
  yes_ask: numLike,
  no_bid: numLike,
  no_ask: numLike,
  last_price: numLike,
  yes_bid_dollars: numLike,
  yes_ask_dollars: numLike,
  no_bid_dollars: numLike,
  no_ask_dollars: numLike,
  last_price_dollars: numLike,
  yes_bid_size_fp: numLike,
  yes_ask_size_fp: numLike,
  volume: numLike,
  volume_fp: numLike,
  volume_24h: numLike,
  volume_24h_fp: numLike,
  open_interest: numLike,
  open_interest_fp: numLike,
  liquidity: numLike,
  liquidity_dollars: numLike,
  settlement_value: numLike,
  settlement_value_dollars: numLike,
});
export type VenueAMarket = z.infer<typeof VenueAMarketSchema>;

export const VenueAEventSchema = z.looseObject({
  event_ticker: z.string().min(1),
  series_ticker: str,
  title: str,
  sub_title: str,
  category: str,
  mutually_exclusive: z.boolean().nullish(),
  last_updated_ts: str,
  markets: z.array(z.unknown()).nullish(),
});
export type VenueAEvent = z.infer<typeof VenueAEventSchema>;

export const VenueASeriesSchema = z.looseObject({
  ticker: z.string().min(1),
  title: str,
  category: str,
  tags: z.array(z.string()).nullish(),
  contract_terms_url: str,
  contract_url: str,
  settlement_sources: z.array(z.looseObject({ name: str, url: str })).nullish(),
  fee_type: str,
  fee_multiplier: numLike,
  last_updated_ts: str,
});
export type VenueASeries = z.infer<typeof VenueASeriesSchema>;

/** `GET /events` page: `{ events, cursor }` (cursor empty on the last page). */
export const VenueAEventsPageSchema = z.looseObject({
  events: z.array(z.unknown()),
  cursor: z.string().nullish(),
});

/** `GET /series/{ticker}`: `{ series }`. */
export const VenueASeriesResponseSchema = z.looseObject({ series: z.unknown() });

/** The first zod issue as a short reason: `schema:<path>`. */
export function schemaReason(err: z.ZodError): string {
  const issue = err.issues[0];
  return `schema:${issue ? issue.path.join('.') || issue.code : 'unknown'}`;
}
