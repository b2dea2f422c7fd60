/**
 * Catalog statistics (issue 17, item 4): what share of each venue's markets gets which grade and which source
 * commitment, per category; how many questions are linked across venues; how often UMA outcomes are disputed
 * per grade. Precomputed per generation; schemas once (STYLE.md).
 */
import { z } from 'zod';
import { LinkRelationSchema } from './market.ts';
import { NoticeSchema, ServedGradeSchema } from './served.ts';
import { CategorySchema, CommitmentSubtypeSchema, VenueSchema } from './vocab.ts';

/**
 * One cell of the venue × grade × commitment subtype × category cube. A flat list rather than nested objects:
 * it filters and pivots in one line in any client (jq, pandas, a spreadsheet), absent combinations are simply
 * not listed, and null values (no subtype derived, no event) stay values instead of becoming made-up keys.
 */
export const StatsCellSchema = z
  .object({
    venue: VenueSchema,
    grade: ServedGradeSchema,
    source_commitment_subtype: CommitmentSubtypeSchema.nullable().describe(
      'How the market commits to its resolution source; null when not derived.',
    ),
    category: CategorySchema.nullable().describe("The market's event category; null for a market without an event."),
    markets: z.number().int().min(1),
  })
  .strict();
export type StatsCell = z.infer<typeof StatsCellSchema>;

/** A dispute count: markets with a UMA proposal history, how many were disputed, and the rate. */
export const DisputeRateSchema = z
  .object({
    markets: z.number().int().describe('venue_b markets with at least one UMA proposal or dispute.'),
    disputed: z.number().int().describe('Of those, markets with at least one dispute.'),
    rate: z.number().min(0).max(1).nullable().describe('disputed / markets, 4 decimals; null when markets is 0.'),
  })
  .strict();
export type DisputeRate = z.infer<typeof DisputeRateSchema>;

const counts = (key: z.ZodType<string>, what: string) => z.record(key, z.number().int()).describe(what);

/** Plain statistics (MCP `get_stats`, the HTML pages). */
export const StatsSchema = z
  .object({
    generation: z.number().int().describe('The data generation these counts describe.'),
    markets: z.number().int().describe('Served markets (of published events), every status.'),
    by_venue: counts(z.string(), 'Served markets per venue.'),
    by_grade: counts(z.string(), 'Served markets per grade (A, B, C, pending).'),
    by_commitment_subtype: counts(
      z.string(),
      'Served markets per source_commitment_subtype; "none" counts markets without one.',
    ),
    by_category: counts(z.string(), 'Served markets per event category; "none" counts markets without an event.'),
    cells: z
      .array(StatsCellSchema)
      .describe(
        'Every non-empty venue × grade × commitment subtype × category combination, sorted by venue, grade, subtype, category.',
      ),
    questions: z
      .object({
        pairs: z.number().int().describe('Cross-venue pairs served at /v1/questions.'),
        by_relation: z.record(LinkRelationSchema, z.number().int()).describe('Pairs per relation.'),
        question_ids: z.number().int().describe('Distinct question_ids of the same and complement pairs.'),
      })
      .describe('Linked questions, as listed at /v1/questions.'),
    disputes: z
      .object({
        venue: z.literal('venue_b'),
        basis: z.string().describe('What is counted, and what is not.'),
        all: DisputeRateSchema,
        by_grade: z.record(ServedGradeSchema, DisputeRateSchema).describe('Per grade, pending included.'),
      })
      .describe("Dispute rates by grade from venue_b's UMA resolution history (resolution_history)."),
  })
  .describe('Catalog statistics, precomputed per generation.');
export type Stats = z.infer<typeof StatsSchema>;

/** `GET /v1/stats`: the statistics with the service notice. */
export const StatsBodySchema = StatsSchema.extend({ _notice: NoticeSchema }).describe(
  'Catalog statistics, precomputed per generation.',
);
