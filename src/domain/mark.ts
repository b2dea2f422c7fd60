import { z } from 'zod';
import { MarketIdSchema } from './market.ts';
import { FieldProvenanceSchema } from './provenance.ts';
import { MarkMethodSchema } from './vocab.ts';

const prob = () => z.number().min(0).max(1).nullable();
const usd = () => z.number().min(0).nullable();

/** Daily mark, one per market per UTC date (spec §2.3). */
export const MarkSchema = z
  .object({
    mark_id: z.number().int(),
    market_id: MarketIdSchema,
    snapshot_date: z.iso.date(),
    snapshot_at: z.iso.datetime({ offset: true }),
    source_updated_at: z.iso.datetime({ offset: true }),
    yes_bid: prob(),
    yes_ask: prob(),
    no_bid: prob(),
    no_ask: prob(),
    yes_bid_size_usd: usd(),
    yes_ask_size_usd: usd(),
    no_bid_size_usd: usd(),
    no_ask_size_usd: usd(),
    yes_last_price: prob(),
    implied_probability: prob(),
    volume_24h_usd: usd(),
    volume_total_usd: usd(),
    open_interest_usd: usd(),
    mark_method: MarkMethodSchema,
    stale_flag: z.boolean(),
    source_count: z.number().int().min(0),
    raw_payload: z.record(z.string(), z.unknown()).nullable(),
    spread: z.number().nullable(),
    mid: z.number().nullable(),
    divergence_from_primary: z.number().nullable(),
    hours_since_source_update: z.number().nullable(),
    field_provenance: FieldProvenanceSchema,
  })
  .describe('Daily price and liquidity snapshot of one market (spec §2.3).');
export type Mark = z.infer<typeof MarkSchema>;
/**
 * The provenance note on `snapshot_at` of a mark the history backfill read from the venue's price history: the
 * one thing that tells such a mark from one a refresh read from the venue's quote (both are `venue_snapshot`).
 */
export const VENUE_HISTORY_NOTE = 'venue price history (daily)';

/** A mark before the store assigns its key. */
export type NewMark = Omit<Mark, 'mark_id'>;

/**
 * A mark without its raw venue payload: what everything but the audit trail reads (histories, charts, exports,
 * signals, the marks feed), so the store need not read or inflate the payload.
 */
export type MarkFacts = Omit<Mark, 'raw_payload'>;

/** The fields of a mark in `MarkFigures`. */
export const MARK_FIGURE_FIELDS = [
  'market_id',
  'snapshot_date',
  'yes_last_price',
  'implied_probability',
  'volume_24h_usd',
  'yes_ask_size_usd',
  'no_ask_size_usd',
  'mark_method',
  'stale_flag',
] as const satisfies readonly (keyof MarkFacts)[];

/**
 * A mark's figures without its times, provenance or payload: all the signal detectors read of the nine days of
 * marks they look at (about 300,000 on the full universe), which the store reads without building the rest
 * (`MarkQuery.figuresOnly`): a third of the memory and CPU of reading whole marks.
 */
export type MarkFigures = Pick<MarkFacts, (typeof MARK_FIGURE_FIELDS)[number]>;

/** A mark's figures (`MarkFigures`): its MARK_FIGURE_FIELDS and nothing else, in that order. */
export function markFiguresOf(mark: MarkFigures): MarkFigures {
  const out: Record<string, unknown> = {};
  for (const field of MARK_FIGURE_FIELDS) out[field] = mark[field];
  return out as MarkFigures;
}

/** The order marks are stored and listed in: snapshot_date, then market_id (no key built per comparison). */
export function byMarkDateThenMarket(
  a: { snapshot_date: string; market_id: string },
  b: { snapshot_date: string; market_id: string },
): number {
  if (a.snapshot_date !== b.snapshot_date) return a.snapshot_date < b.snapshot_date ? -1 : 1;
  return a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0;
}
