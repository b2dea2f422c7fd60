/**
 * Every closed vocabulary of the spec (interface version 0.2.0), once. Schemas, filters,
 * OpenAPI and the MCP tool schemas all import these constants.
 */
import { z } from 'zod';

/** Spec §2.1, in the order the filter vocabulary is served (served-shapes §2). */
export const CATEGORIES = [
  'economics',
  'financials',
  'crypto',
  'companies',
  'technology',
  'politics',
  'geopolitics',
  'health',
  'climate',
] as const;
export const CategorySchema = z.enum(CATEGORIES).describe('One of the nine service categories.');
export type Category = z.infer<typeof CategorySchema>;

export const VENUES = ['venue_a', 'venue_b'] as const;
export const VenueSchema = z
  .enum(VENUES)
  .describe(
    'venue_a: CFTC-regulated exchange settling in USD; venue_b: token-vote-arbitrated protocol settling in USDC.',
  );
export type Venue = z.infer<typeof VenueSchema>;

export const MARKET_STATUSES = ['open', 'closed', 'resolved', 'amended'] as const;
export const MarketStatusSchema = z.enum(MARKET_STATUSES).describe('Market lifecycle status (spec §3).');
export type MarketStatus = z.infer<typeof MarketStatusSchema>;

export const EVENT_STATUS_FILTERS = ['all', 'active', 'resolved'] as const;
export const EventStatusFilterSchema = z.enum(EVENT_STATUS_FILTERS);
export type EventStatusFilter = z.infer<typeof EventStatusFilterSchema>;

export const BUNDLE_TYPES = ['categorical', 'date_ladder', 'strike_ladder', 'augmented_negrisk', 'singleton'] as const;
export const BundleTypeSchema = z.enum(BUNDLE_TYPES).describe('Which resolution fields are shared at event level.');
export type BundleType = z.infer<typeof BundleTypeSchema>;

export const CONTRACT_TYPES = ['binary', 'scalar'] as const;
export const ContractTypeSchema = z.enum(CONTRACT_TYPES);
export type ContractType = z.infer<typeof ContractTypeSchema>;

export const SETTLEMENT_CURRENCIES = ['USD', 'USDC'] as const;
export const SettlementCurrencySchema = z.enum(SETTLEMENT_CURRENCIES);
export type SettlementCurrency = z.infer<typeof SettlementCurrencySchema>;

export const ARBITRATION_MODELS = [
  'optimistic_oracle',
  'venue_a_staff',
  'venue_b_staff',
  'platform_auto',
  'determinations_committee',
  'other',
] as const;
export const ArbitrationModelSchema = z.enum(ARBITRATION_MODELS);
export type ArbitrationModel = z.infer<typeof ArbitrationModelSchema>;

export const PROPOSERS = ['permissionless', 'managed_whitelist', 'platform_staff', 'gov_agency'] as const;
export const ProposerSchema = z.enum(PROPOSERS);
export type Proposer = z.infer<typeof ProposerSchema>;

export const SOURCE_COMMITMENTS = ['named', 'uncommitted', 'none'] as const;
export const SourceCommitmentSchema = z.enum(SOURCE_COMMITMENTS);
export type SourceCommitment = z.infer<typeof SourceCommitmentSchema>;

export const COMMITMENT_SUBTYPES = [
  'named',
  'committed_secondhand',
  'uncommitted_illustrative',
  'uncommitted_placeholder',
  'none',
] as const;
export const CommitmentSubtypeSchema = z.enum(COMMITMENT_SUBTYPES);
export type CommitmentSubtype = z.infer<typeof CommitmentSubtypeSchema>;

/** Stored values; the serve layer may also emit `unknown` for never-classified rows. */
export const SOURCE_STATUSES = ['platform_named', 'no_committed_source', 'no_source_stated'] as const;
export const SourceStatusSchema = z.enum(SOURCE_STATUSES);
export type SourceStatus = z.infer<typeof SourceStatusSchema>;
export const SERVED_SOURCE_STATUSES = [...SOURCE_STATUSES, 'unknown'] as const;
export const ServedSourceStatusSchema = z.enum(SERVED_SOURCE_STATUSES);

export const SOURCE_MECHANISMS = ['single_authority', 'precedence', 'quorum'] as const;
export const SourceMechanismSchema = z.enum(SOURCE_MECHANISMS);
export type SourceMechanism = z.infer<typeof SourceMechanismSchema>;

export const SOURCE_TYPES = [
  'gov_stat_agency',
  'central_bank',
  'regulated_data_vendor',
  'media_consensus',
  'court_filing',
  'issuer_announcement',
  'scheduled_event',
  'subjective',
  'other',
] as const;
export const SourceTypeSchema = z.enum(SOURCE_TYPES);
export type SourceType = z.infer<typeof SourceTypeSchema>;

export const DIRECTIONS = ['above', 'below', 'reach', 'between', 'occurrence'] as const;
export const DirectionSchema = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof DirectionSchema>;

export const SETTLEMENT_STYLES = ['touch', 'terminal', 'relative', 'occurrence'] as const;
export const SettlementStyleSchema = z.enum(SETTLEMENT_STYLES);
export type SettlementStyle = z.infer<typeof SettlementStyleSchema>;

export const MARK_METHODS = ['venue_snapshot', 'imputed_carry_forward', 'editorial_override'] as const;
export const MarkMethodSchema = z.enum(MARK_METHODS);
export type MarkMethod = z.infer<typeof MarkMethodSchema>;

export const LOG_EVENT_TYPES = [
  'status_change',
  'rule_change',
  'resolution_proposed',
  'disputed',
  'resolved',
  'amended',
  'reversed',
] as const;
export const LogEventTypeSchema = z.enum(LOG_EVENT_TYPES);
export type LogEventType = z.infer<typeof LogEventTypeSchema>;

export const LOG_SOURCES = [
  'platform_api',
  'uma_subgraph',
  'editorial_observation',
  'platform_announcement',
  'cftc_filing',
] as const;
export const LogSourceSchema = z.enum(LOG_SOURCES);
export type LogSource = z.infer<typeof LogSourceSchema>;

export const OCCURRED_BASES = ['venue_settlement', 'deadline', 'first_observed'] as const;
export const OccurredBasisSchema = z.enum(OCCURRED_BASES);
export type OccurredBasis = z.infer<typeof OccurredBasisSchema>;

export const REGULATORY_CLASSES = ['DCM', 'DeFi', 'Other'] as const;
export const RegulatoryClassSchema = z.enum(REGULATORY_CLASSES);
export type RegulatoryClass = z.infer<typeof RegulatoryClassSchema>;

export const GRADES = ['A', 'B', 'C'] as const;
export const GradeSchema = z.enum(GRADES).describe('Resolution Clarity Grade: A clearest, C least clear.');
export type Grade = z.infer<typeof GradeSchema>;

export const SOURCE_PROVENANCES = ['platform_api', 'service_editorial'] as const;
export const SourceProvenanceSchema = z.enum(SOURCE_PROVENANCES);

/** Field provenance `source` values: the union over events, markets and marks (spec §2.1–2.3). */
export const PROVENANCE_SOURCES = [
  'platform_api',
  'service_editorial',
  'service_editorial_fallback',
  'composed:event+child',
  'inherited:event',
  'native:expiration_time',
  'derived:group_item_title',
  'derived',
  'imputed',
  'null_by_venue_limitation',
] as const;
export const ProvenanceSourceSchema = z.enum(PROVENANCE_SOURCES);
export type ProvenanceSource = z.infer<typeof ProvenanceSourceSchema>;

export const TRIGGER_LOGICS = ['AND', 'OR', 'SINGLE'] as const;
export const TriggerLogicSchema = z.enum(TRIGGER_LOGICS);

export const SIGNAL_KINDS = ['news_cycle', 'cross_venue_divergence', 'benchmark_drift', 'volume_spike'] as const;
export const SignalKindSchema = z.enum(SIGNAL_KINDS).describe('Detection path of a signal bulletin.');
export type SignalKind = z.infer<typeof SignalKindSchema>;

export const SIGNAL_CATEGORY_TAGS = [
  'MOMENTUM_REPRICING',
  'CROSS_VENUE_DIVERGENCE',
  'COVERAGE_GAP',
  'PRE_EVENT_PRICING',
  'VS_BENCHMARK_DRIFT',
  'RESOLUTION_DISPUTED',
  'VOLUME_SPIKE',
  'NEW_LISTING',
] as const;
export const SignalCategoryTagSchema = z.enum(SIGNAL_CATEGORY_TAGS);
export type SignalCategoryTag = z.infer<typeof SignalCategoryTagSchema>;

export const SCREEN_STATUSES = ['eligible', 'review', 'not_eligible'] as const;
export const ScreenStatusSchema = z.enum(SCREEN_STATUSES);
export type ScreenStatus = z.infer<typeof ScreenStatusSchema>;

export const DATA_SOURCES = ['live', 'replay', 'simulated'] as const;
export const DataSourceSchema = z.enum(DATA_SOURCES);
export type DataSource = z.infer<typeof DataSourceSchema>;

/** Interface version this service implements (spec §9). */
export const SCHEMA_VERSION = '0.2.0';
