import { z } from 'zod';
import { MarkSchema } from './mark.ts';
import { MarketIdSchema } from './market.ts';
import { NoticeSchema, ProvenanceSchema } from './served.ts';

const dateTime = () => z.iso.datetime({ offset: true });

/**
 * How a history point was obtained (issue 20, item 1). A mark written by a run from the venue's current quote is
 * `venue_snapshot`; one the backfill read from the venue's price history is `venue_history`; one a run copied
 * from the previous day because the venue failed is `carried_forward`; one an editor set is `editorial_override`.
 */
export const HISTORY_OBTAINED = ['venue_snapshot', 'venue_history', 'carried_forward', 'editorial_override'] as const;
export const HistoryObtainedSchema = z
  .enum(HISTORY_OBTAINED)
  .describe('How the point was obtained: the venue quote at a refresh, the venue price history, carried forward.');
export type HistoryObtained = z.infer<typeof HistoryObtainedSchema>;

/** The mark fields (spec §2.3) a history point carries as stored: prices, sizes, volumes, staleness. */
const HISTORY_MARK_FIELDS = {
  yes_bid: true,
  yes_ask: true,
  no_bid: true,
  no_ask: true,
  yes_bid_size_usd: true,
  yes_ask_size_usd: true,
  no_bid_size_usd: true,
  no_ask_size_usd: true,
  yes_last_price: true,
  implied_probability: true,
  mid: true,
  spread: true,
  volume_24h_usd: true,
  volume_total_usd: true,
  open_interest_usd: true,
  stale_flag: true,
} as const;

export type HistoryQuoteField = keyof typeof HISTORY_MARK_FIELDS;

/** Those fields as a list, in served order (hourly rows keep and compare the same quote). */
export const HISTORY_QUOTE_FIELDS = Object.keys(HISTORY_MARK_FIELDS) as ReadonlyArray<HistoryQuoteField>;

/**
 * The quote fields of a mark, an hourly row or anything else that has them, copied in served order: the one place
 * a history point's (and an hourly row's) quote is taken from its source.
 */
export function historyQuoteOf<T extends { [K in HistoryQuoteField]: unknown }>(
  source: T,
): { [K in HistoryQuoteField]: T[K] } {
  const out: Record<string, unknown> = {};
  for (const field of HISTORY_QUOTE_FIELDS) out[field] = source[field];
  return out as { [K in HistoryQuoteField]: T[K] };
}

/** One day of a market's history: the day's mark (spec §2.3) as stored, without the raw venue payload. */
export const HistoryPointSchema = MarkSchema.pick(HISTORY_MARK_FIELDS)
  .extend({
    date: z.iso.date().describe('The UTC date of the mark (interval=hour: the date of the hour).'),
    hour: z.iso
      .datetime()
      .optional()
      .describe(
        'interval=hour only: the UTC hour of the point (its start), an hour in which a published refresh ran. ' +
          'Absent from daily points.',
      ),
    snapshot_at: dateTime().describe(
      'When pmref read the venue (for history marks: the time of the venue point; interval=hour: when that ' +
        "hour's refresh read it, or for a carried-forward hour when the venue was last read).",
    ),
    price_as_of: dateTime()
      .nullable()
      .describe("The venue's own time for the quote; null when the venue gave none (as in GET /v1/markets/{id})."),
    obtained: HistoryObtainedSchema,
  })
  .describe('One daily mark of a market, or (interval=hour) its quote as of one hourly refresh.');
export type HistoryPoint = z.infer<typeof HistoryPointSchema>;

/** `GET /v1/markets/{id}/history` (issue 20, item 1): one market's daily marks, or hourly quotes, over a range. */
export const MarketHistorySchema = z
  .object({
    market_id: MarketIdSchema,
    interval: z
      .enum(['day', 'hour'])
      .describe(
        'day: one point per UTC date with a stored mark. hour: one point per hour in which a published refresh ran ' +
          '(hourly detail is kept for a limited number of days; README "History and retention").',
      ),
    from: z
      .union([z.iso.date(), z.iso.datetime()])
      .describe('First date (interval=day) or hour (interval=hour, ISO UTC hour start) asked for (inclusive).'),
    to: z
      .union([z.iso.date(), z.iso.datetime()])
      .describe('Last date (interval=day) or hour (interval=hour, ISO UTC hour start) asked for (inclusive).'),
    count: z
      .number()
      .int()
      .describe('Points in the range: dates with no stored mark, and hours in which no refresh ran, have no point.'),
    points: z.array(HistoryPointSchema).describe('Oldest first.'),
    _provenance: ProvenanceSchema,
    _notice: NoticeSchema,
  })
  .describe(
    "A market's daily marks over a date range, or its hourly quotes over an hour range, each with how it was obtained.",
  );
export type MarketHistory = z.infer<typeof MarketHistorySchema>;
