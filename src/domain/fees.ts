/**
 * Venue fee schedules (issue 20, item 5). The schedules live as data in data/fees/<venue>.json, each with its
 * source URL and date, so a fee change is a reviewed data edit, not a code change. Both venues publish a taker
 * fee of the same shape, rate × C × P × (1 − P) for C contracts at price P; they differ in rate and rounding.
 * Because P × (1 − P) is symmetric, a leg costs the same whether it buys YES at P or NO at 1 − P.
 */
import { z } from 'zod';
import { VenueSchema } from './vocab.ts';

/** One venue's published fee schedule, as stored in data/fees/<venue>.json. */
export const FeeScheduleSchema = z
  .object({
    venue: VenueSchema,
    venue_shape: z.string().describe('Which real venue API the venue follows.'),
    formula: z
      .enum(['per_order_quadratic', 'per_share_quadratic'])
      .describe('rate × C × P × (1 − P), charged per order (rounded once) or per share (no rounding).'),
    taker_rate: z.number().min(0).max(1),
    maker_rate: z.number().min(0).max(1),
    multiplier: z.number().min(0).describe('Series/market multiplier applied to the rate (1 = the general table).'),
    rounding: z.enum(['up_to_cent_per_order', 'none']),
    source_url: z.url(),
    as_of: z.iso.date().describe('Date the schedule was read (see notes for what was and was not re-fetched).'),
    notes: z.array(z.string()),
  })
  .strict()
  .describe('A venue fee schedule with its source.');
export type FeeSchedule = z.infer<typeof FeeScheduleSchema>;

/**
 * What a venue said about one market's own fees (issue 20, item 5), beside the venue's schedule: venue_a's series
 * `fee_type` / `fee_multiplier`, venue_b's market `feesEnabled` / `takerBaseFee` / `feeType`. Null on a market
 * record when the venue sent none of them: the venue's general schedule applies as it stands.
 */
export const MarketFeeTermsSchema = z
  .object({
    taker_multiplier: z
      .number()
      .min(0)
      .nullable()
      .describe(
        "Multiplier on the venue schedule's taker rate for this market (data/fees/<venue>.json): 1 the general table, 0.5 a series at half rate, 0 no taker fee. Null when the venue says the market charges a fee pmref cannot price from what the venue sent (venue_a fee_type flat: the Specific Trading Fees Table; venue_b feesEnabled true): a spread over it has no net figure.",
      ),
    basis: z
      .enum(['venue_series', 'venue_market'])
      .describe('Where the venue said it: venue_a series fee fields, venue_b market fee fields.'),
    venue_fields: z
      .record(z.string(), z.unknown())
      .describe("The venue's own fee fields as sent (e.g. fee_type, fee_multiplier; feesEnabled, takerBaseFee)."),
  })
  .strict()
  .describe("A market's own fee terms as its venue states them.");
export type MarketFeeTerms = z.infer<typeof MarketFeeTermsSchema>;

/**
 * The multiplier a leg's taker fee is priced with: the market's own (its venue's fee fields) over the schedule's;
 * null when the market charges a fee pmref cannot price.
 * @example takerMultiplierOf(kalshiSchedule, { taker_multiplier: 0.5, basis: 'venue_series', venue_fields: {} }) // 0.5
 */
export function takerMultiplierOf(schedule: FeeSchedule, terms: MarketFeeTerms | null | undefined): number | null {
  if (terms === null || terms === undefined) return schedule.multiplier;
  return terms.taker_multiplier;
}

/**
 * Taker fee in dollars for one order of `contracts` contracts at `price` (0–1) under `schedule`.
 * Rounding up is done on whole cents with a small tolerance, so 0.07 × 100 × 0.5 × 0.5 = 1.75 stays 1.75.
 * @example takerFeeUsd(kalshiSchedule, 100, 0.5) // 1.75; takerFeeUsd(kalshiSchedule, 1, 0.5) // 0.02
 */
export function takerFeeUsd(
  schedule: FeeSchedule,
  contracts: number,
  price: number,
  multiplier: number = schedule.multiplier,
): number {
  if (contracts <= 0 || price <= 0 || price >= 1) return 0;
  const raw = schedule.taker_rate * multiplier * contracts * price * (1 - price);
  if (schedule.rounding === 'none') return raw;
  return Math.ceil(raw * 100 - 1e-9) / 100;
}
