import { z } from 'zod';
import { FieldProvenanceSchema } from './provenance.ts';
import { RcgSchema } from './rcg.ts';
import {
  ArbitrationModelSchema,
  CommitmentSubtypeSchema,
  ContractTypeSchema,
  DirectionSchema,
  MarketStatusSchema,
  ProposerSchema,
  RegulatoryClassSchema,
  SettlementCurrencySchema,
  SettlementStyleSchema,
  SourceCommitmentSchema,
  SourceMechanismSchema,
  SourceProvenanceSchema,
  SourceStatusSchema,
  SourceTypeSchema,
  TriggerLogicSchema,
  VenueSchema,
} from './vocab.ts';

const dateTime = () => z.iso.datetime({ offset: true });

/** Schema pattern of spec §2.2; served ids are 10 uppercase alphanumerics after the prefix and clients accept both. */
export const MARKET_ID_PATTERN = /^SVC-MKT-(?:[0-9]{6}|[0-9A-Z]{10})$/;
export const MarketIdSchema = z.string().regex(MARKET_ID_PATTERN).describe('Service market id, SVC-MKT-…');
export const QUESTION_ID_PATTERN = /^SVCX-[0-9A-F]{10}$/;
export const QuestionIdSchema = z.string().regex(QUESTION_ID_PATTERN).describe('Cross-venue question id, SVCX-…');

export const ResolutionSourceSchema = z
  .object({
    name: z.string().nullable(),
    url: z.string().nullable(),
    provenance: SourceProvenanceSchema.nullable(),
  })
  .describe('A resolution source: venue-listed (platform_api) or named in the rules prose (service_editorial).');
export type ResolutionSource = z.infer<typeof ResolutionSourceSchema>;

export const TriggerSchema = z.object({
  type: z.string(),
  description: z.string(),
  metric: z.string().nullable(),
  threshold: z.unknown(),
  source: z.string().nullable(),
  deadline: dateTime().nullable(),
});
export const ResolutionTriggersSchema = z
  .object({
    triggers: z.array(TriggerSchema),
    trigger_logic: TriggerLogicSchema,
    exclusions: z.array(z.string()),
    resolution_risks: z.string(),
  })
  .describe('Editorial parse of what makes the market resolve.');
export type ResolutionTriggers = z.infer<typeof ResolutionTriggersSchema>;

export const AlsoOnItemSchema = z
  .object({
    venue: VenueSchema,
    market_id: MarketIdSchema,
    price: z.number().min(0).max(1).nullable(),
  })
  .strict();
export const AlsoOnSchema = z
  .array(AlsoOnItemSchema)
  .nullable()
  .describe('Twins of this question on the other venue, with their prices; null when there are none.');
export type AlsoOn = z.infer<typeof AlsoOnSchema>;

export const EligibilityScreenResultSchema = z.object({
  regime: z.string(),
  screen_version: z.string(),
  status: z.enum(['eligible', 'review', 'not_eligible']),
  reasons: z.array(z.string()),
  permitted_category: z.string().nullable(),
  screened_at: dateTime(),
  review_cluster: z.string().nullable().optional().describe('The judgment cluster of a market under review.'),
});
export type EligibilityScreenResult = z.infer<typeof EligibilityScreenResultSchema>;

/** The canonical Market record (spec §2.2), as stored. */
export const MarketSchema = z
  .object({
    market_id: MarketIdSchema,
    platform: VenueSchema,
    platform_market_id: z.string().min(1).describe('Ticker for venue_a, condition id for venue_b.'),
    event_id: z.string().nullable(),
    platform_event_id: z.string().nullable(),
    question_raw: z.string().nullable(),
    description_raw: z.string().nullable(),
    category_raw: z.string().nullable(),
    contract_type: ContractTypeSchema,
    settlement_currency: SettlementCurrencySchema,
    tick_size: z.number().nullable(),
    contract_multiplier: z.number().nullable(),
    underlying_reference: z.string().nullable(),
    group_item_title: z.string().nullable(),
    close_at: dateTime().nullable(),
    last_trading_date: dateTime().nullable(),
    resolve_at: dateTime().nullable(),
    status: MarketStatusSchema,
    resolution_rules_raw: z.string().nullable(),
    resolution_triggers: ResolutionTriggersSchema.nullable(),
    arbitration_model: ArbitrationModelSchema.nullable(),
    resolution_proposer: ProposerSchema.nullable(),
    resolution_source: z.string().nullable(),
    source_citation: z.string().nullable(),
    resolution_source_list: z.array(ResolutionSourceSchema).nullable(),
    source_commitment: SourceCommitmentSchema.nullable(),
    source_commitment_subtype: CommitmentSubtypeSchema.nullable(),
    source_of_record: z.string().nullable(),
    source_status: SourceStatusSchema.nullable(),
    source_mechanism: SourceMechanismSchema.nullable(),
    source_type: SourceTypeSchema.nullable(),
    threshold: z.number().nullable(),
    direction: DirectionSchema.nullable(),
    settlement_style: SettlementStyleSchema.nullable(),
    question_id: QuestionIdSchema.nullable(),
    tags: z.array(z.string()),
    regulatory_class: RegulatoryClassSchema.nullable(),
    analyst_notes: z.string().nullable(),
    contract_terms_url: z.string().nullable(),
    resolution_outcome: z.string().nullable(),
    resolution_value: z.number().nullable(),
    resolved_at: dateTime().nullable(),
    first_seen_at: dateTime(),
    last_updated_at: dateTime(),
    also_on: AlsoOnSchema,
    field_provenance: FieldProvenanceSchema,
    // pmref additions (additive, documented in METHODOLOGY.md):
    rcg: RcgSchema.nullable().describe('The full grade with factors; null until graded.'),
    question_id_reason: z.string().nullable().describe('Why question_id is null, when it is.'),
    claim_key: z.record(z.string(), z.unknown()).nullable().describe('The normalized claim key behind question_id.'),
    source_hedge_text: z
      .string()
      .nullable()
      .describe('The hedge or placeholder phrase that made the source uncommitted.'),
    eligibility_screens: z.array(EligibilityScreenResultSchema).nullable(),
  })
  .describe('One market on one venue (spec §2.2).');
export type Market = z.infer<typeof MarketSchema>;
