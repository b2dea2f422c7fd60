import { z } from 'zod';
import { MarketFeeTermsSchema } from './fees.ts';
import { FieldProvenanceSchema } from './provenance.ts';
import { RcgSchema } from './rcg.ts';
import { MarketVenueRefsSchema } from './venue-refs.ts';
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

/**
 * How a cross-venue market relates to this one (issue 16). `same` and `complement` share this market's
 * question_id; `related` never does: same subject and measured quantity, with typed differences listed.
 */
export const LinkRelationSchema = z
  .enum(['same', 'complement', 'related'])
  .describe(
    'same: one question_id, same side. complement: one question_id, opposite side (above vs below one boundary). related: a different question_id, same subject and same measured quantity, differing only in the typed `differences`.',
  );
export type LinkRelation = z.infer<typeof LinkRelationSchema>;

/** The typed parts of a claim in which a `related` pair may differ (METHODOLOGY.md, cross-venue identity). */
export const LinkDifferenceTypeSchema = z
  .enum(['resolves_on', 'horizon', 'threshold', 'source', 'scope', 'death_rule', 'wording'])
  .describe(
    'resolves_on: what event settles it (election call vs inauguration, IPO filing vs first trade). horizon: the deadline (cumulative deadlines at most 31 days apart). threshold: the strike (same side, within 2%). source: the named price or data source. scope: what else counts (an announced intention, any length of time, phone contact). death_rule: what the death of the subject does. wording: the two measured-thing phrases, read as one by the documented vocabulary.',
  );
export type LinkDifferenceType = z.infer<typeof LinkDifferenceTypeSchema>;

/** One typed difference of a related pair, with each venue's value (absolute sides, so both markets list it alike). */
export const LinkDifferenceSchema = z
  .object({
    type: LinkDifferenceTypeSchema,
    venue_a: z.string().nullable().describe("The venue_a market's value; null when its terms say nothing on it."),
    venue_b: z.string().nullable().describe("The venue_b market's value; null when its terms say nothing on it."),
  })
  .strict();
export type LinkDifference = z.infer<typeof LinkDifferenceSchema>;

export const AlsoOnItemSchema = z
  .object({
    venue: VenueSchema,
    market_id: MarketIdSchema,
    price: z.number().min(0).max(1).nullable(),
    relation: LinkRelationSchema.optional().describe(
      'pmref extension of spec §2.2 (whose item has only venue, market_id and price): how the listed market relates to this one. Set on every item since issue 16; absent only on records stored before it, which were all same or complement.',
    ),
    differences: z
      .array(LinkDifferenceSchema)
      .optional()
      .describe(
        'pmref extension: present when relation is related, the typed differences between the two markets, each with the venue_a and the venue_b value.',
      ),
  })
  .strict()
  .describe(
    'A market on the other venue: the same question (shared question_id) or a near-equivalent one (relation related, with its differences).',
  );
export const AlsoOnSchema = z
  .array(AlsoOnItemSchema)
  .nullable()
  .describe(
    'Markets on the other venue that ask this question (same, complement) or a near-equivalent one (related, with typed differences), with their prices; null when there are none.',
  );
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

/**
 * The resolution states a venue reported for a market, oldest first (pmref addition; spec §2.4 and §6 name
 * `resolution_proposed` and `disputed`). venue_b: the UMA history Gamma sends in `umaResolutionStatuses`,
 * followed by the current `umaResolutionStatus` when the list lags it (Gamma often sends `["proposed"]` with
 * status `resolved`). venue_a: the one settlement state its snapshot shows (`determined`, `disputed`, `amended`,
 * `finalized`, `settled`); Kalshi publishes no history, so the lifecycle log keeps what earlier runs saw.
 */
export const ResolutionHistorySchema = z
  .object({
    state: z
      .string()
      .nullable()
      .describe("The venue's current resolution state (e.g. proposed, disputed, resolved, determined, finalized)."),
    statuses: z.array(z.string()).describe('Every resolution state the venue reports, oldest first, lowercase.'),
    proposals: z.number().int().min(0).describe('Outcome proposals in `statuses` (venue_a: determinations).'),
    disputes: z.number().int().min(0).describe('Disputes in `statuses`.'),
  })
  .describe("A market's resolution process as the venue reports it: proposals, disputes, current state.");
export type ResolutionHistory = z.infer<typeof ResolutionHistorySchema>;

/**
 * True when `closeAt` has passed at `now`. A market the venue still reports open past its close time is
 * served `closed` (derived): trading has stopped whatever a stale venue flag says (issue 15).
 * @example isPastClose('2026-03-01T00:00:00Z', '2026-03-02T00:00:00.000Z') // true
 */
export function isPastClose(closeAt: string | null, now: string): boolean {
  if (closeAt === null) return false;
  const close = Date.parse(closeAt);
  return Number.isFinite(close) && close <= Date.parse(now);
}

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
      .describe(
        'The hedge or placeholder phrase that made the source uncommitted; for a committed source with a placeholder fallback (mechanism precedence), the fallback clause.',
      ),
    eligibility_screens: z.array(EligibilityScreenResultSchema).nullable(),
    // Optional so records stored before it existed still parse; the normalizers always set it.
    resolution_history: ResolutionHistorySchema.nullable()
      .optional()
      .describe('The venue-reported resolution process (proposals, disputes); null when the venue reports none.'),
    // Optional so records stored before it existed still parse (issue 20: any-identifier lookup).
    venue_refs: MarketVenueRefsSchema.nullable()
      .optional()
      .describe(
        'The venue identifiers beyond platform_market_id a client may hold (venue_b market slug, CLOB token ids, Gamma question id and id; venue_a series ticker); null when the venue sent none.',
      ),
    // Optional so records stored before it existed still parse (issue 20: spreads net of fees).
    fee_terms: MarketFeeTermsSchema.nullable()
      .optional()
      .describe(
        "The market's own fee terms as its venue states them (venue_a series fee fields, venue_b market fee fields), used for spreads net of fees; null when the venue sent none and its general schedule (data/fees/) applies.",
      ),
  })
  .describe('One market on one venue (spec §2.2).');
export type Market = z.infer<typeof MarketSchema>;
