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
 * Taker fee in dollars for one order of `contracts` contracts at `price` (0–1) under `schedule`.
 * Rounding up is done on whole cents with a small tolerance, so 0.07 × 100 × 0.5 × 0.5 = 1.75 stays 1.75.
 * @example takerFeeUsd(kalshiSchedule, 100, 0.5) // 1.75; takerFeeUsd(kalshiSchedule, 1, 0.5) // 0.02
 */
export function takerFeeUsd(schedule: FeeSchedule, contracts: number, price: number): number {
  if (contracts <= 0 || price <= 0 || price >= 1) return 0;
  const raw = schedule.taker_rate * schedule.multiplier * contracts * price * (1 - price);
  if (schedule.rounding === 'none') return raw;
  return Math.ceil(raw * 100 - 1e-9) / 100;
}
