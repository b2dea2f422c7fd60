/**
 * The concise market (issue 17): what an agent needs to answer "can I trust how this settles?" in a few hundred
 * tokens. The grade with its caps and the factors that cost points (each with its rule id, what the rule means
 * and the venue's own words that decided it), the committed source, the price with its as-of time, the links
 * (cross-venue twins with their relation and price time, the event), and the rules text once. The full market
 * (`MarketDetailSchema`) repeats the rules text as `description`, `resolution.rules_raw` and, on venue_b, inside
 * `underlying_reference`; it stays one `detail=full` away.
 */
import { z } from 'zod';
import { EventIdSchema } from './event.ts';
import { AlsoOnItemSchema, MarketIdSchema } from './market.ts';
import { RcgCapSchema, RcgFactorNameSchema } from './rcg.ts';
import { ProvenanceSchema, ServedDisputesSchema, ServedGradeSchema } from './served.ts';
import {
  ArbitrationModelSchema,
  CommitmentSubtypeSchema,
  DataSourceSchema,
  GradeSchema,
  MarketStatusSchema,
  ProposerSchema,
  VenueSchema,
} from './vocab.ts';

const dateTime = () => z.iso.datetime({ offset: true });
const prob = () => z.number().min(0).max(1).nullable();

/** One piece of evidence without offsets: the quoted span, or the venue field's value. */
export const ConciseEvidenceSchema = z
  .object({
    field: z.string().describe('The record field the evidence comes from, e.g. resolution_rules_raw or question_raw.'),
    quote: z.string().optional().describe("The venue's exact words that decided the rating."),
    value: z.unknown().optional().describe('The venue field value, when the evidence is a field.'),
  })
  .strict();

/** A factor that cost points. */
export const DecidingFactorSchema = z
  .object({
    factor: RcgFactorNameSchema,
    rating: z.enum(['partial', 'fail']),
    points_lost: z.number().describe('Weight minus points earned.'),
    rule: z.string().describe('The rule id that decided the rating (glossary tool, METHODOLOGY.md).'),
    meaning: z.string().nullable().describe('What the rule means, in a sentence.'),
    evidence: z.array(ConciseEvidenceSchema),
  })
  .strict();

export const ConciseCapSchema = z
  .object({
    cap: RcgCapSchema,
    ceiling: GradeSchema.describe('The best grade this cap allows.'),
    meaning: z.string(),
  })
  .strict();

export const ConciseAlsoOnItemSchema = AlsoOnItemSchema.extend({
  price_as_of: dateTime().nullable().describe("The venue's time of the twin's price; null when it gave none."),
}).describe('A market on the other venue, with its relation, price and the time of that price.');

export const MarketConciseSchema = z
  .object({
    detail: z
      .literal('concise')
      .describe('This view; pass detail=full for every field, offsets and eligibility screens.'),
    market_id: MarketIdSchema,
    platform: VenueSchema,
    platform_market_id: z.string(),
    question: z.string().nullable(),
    status: MarketStatusSchema,
    close_at: dateTime().nullable(),
    resolution_outcome: z.string().nullable(),
    last_price: prob(),
    price_as_of: dateTime().nullable().describe("The venue's time of last_price; null when it gave none."),
    volume_24h_usd: z.number().nullable(),
    rcg: z.object({
      grade: ServedGradeSchema,
      score: z.number().int().nullable(),
      caps: z.array(ConciseCapSchema),
      deciding_factors: z
        .array(DecidingFactorSchema)
        .describe('Factors rated partial or fail, most points lost first; a factor that passed is not listed.'),
    }),
    resolution: z.object({
      source_of_record: z.string().nullable().describe('The committed source, verbatim from the venue text.'),
      source_commitment_subtype: CommitmentSubtypeSchema.nullable().describe(
        'How firmly the market commits to its source; any subtype but named comes with its cap (and meaning) in rcg.caps.',
      ),
      source_hedge_text: z.string().nullable(),
      source_citation: z.string().nullable(),
      arbitration_model: ArbitrationModelSchema.nullable(),
      proposer: ProposerSchema.nullable(),
      disputes: ServedDisputesSchema.pick({ count: true, state: true }),
      rules: z.string().nullable().describe('The rules text, once (venue_a rules; venue_b description).'),
    }),
    question_id: z.string().nullable(),
    also_on: z.array(ConciseAlsoOnItemSchema).nullable(),
    event: z
      .object({ event_id: EventIdSchema, slug: z.string(), question: z.string(), url: z.string() })
      .nullable()
      .describe('The event this market belongs to (get_event with the slug).'),
    data_source: DataSourceSchema.nullable().describe('live, replay or simulated: where the data comes from.'),
    _provenance: ProvenanceSchema,
  })
  .describe('One market, concise: grade with caps and deciding factors, source, price with as-of, links, rules once.');
export type MarketConcise = z.infer<typeof MarketConciseSchema>;
export type DecidingFactor = z.infer<typeof DecidingFactorSchema>;
