export type { Catalyst } from './catalyst.ts';
export { CatalystSchema } from './catalyst.ts';
export type { CatalystDate, Event, LadderDistribution } from './event.ts';
export { CatalystDateSchema, EVENT_ID_PATTERN, EventIdSchema, EventSchema, LadderDistributionSchema } from './event.ts';
export {
  EVENT_ALPHABET,
  eventCheckDigit,
  eventIdFor,
  isValidEventId,
  isValidMarketId,
  isValidQuestionId,
  marketIdFor,
  nativeKey,
  questionIdFor,
} from './ids.ts';
export type { Mark, NewMark } from './mark.ts';
export { MarkSchema } from './mark.ts';
export type { AlsoOn, EligibilityScreenResult, Market, ResolutionSource, ResolutionTriggers } from './market.ts';
export {
  AlsoOnItemSchema,
  AlsoOnSchema,
  EligibilityScreenResultSchema,
  MARKET_ID_PATTERN,
  MarketIdSchema,
  MarketSchema,
  QUESTION_ID_PATTERN,
  QuestionIdSchema,
  ResolutionSourceSchema,
  ResolutionTriggersSchema,
  TriggerSchema,
} from './market.ts';
export type { FieldProvenance, FieldProvenanceEntry } from './provenance.ts';
export { FieldProvenanceEntrySchema, FieldProvenanceSchema } from './provenance.ts';
export type { Evidence, FactorRating, Rcg, RcgCap, RcgFactor, RcgFactorName } from './rcg.ts';
export {
  EvidenceSchema,
  FactorRatingSchema,
  RCG_CAPS,
  RCG_FACTORS,
  RcgCapSchema,
  RcgFactorNameSchema,
  RcgFactorSchema,
  RcgSchema,
} from './rcg.ts';
export type { NewResolutionLogEntry, ResolutionLogEntry, ServedLogEntry } from './resolution-log.ts';
export { ResolutionLogEntrySchema, ServedLogEntrySchema } from './resolution-log.ts';
export type { SignalBulletin } from './signal.ts';
export { SignalBulletinSchema, SignalNumberSchema } from './signal.ts';
export type { SpotRow } from './spot.ts';
export { SpotRowSchema } from './spot.ts';
export type { VenueFacts } from './venue-facts.ts';
export { emptyVenueFacts, VenueFactsSchema } from './venue-facts.ts';
export type {
  ArbitrationModel,
  BundleType,
  Category,
  CommitmentSubtype,
  ContractType,
  DataSource,
  Direction,
  EventStatusFilter,
  Grade,
  LogEventType,
  LogSource,
  MarketStatus,
  MarkMethod,
  OccurredBasis,
  Proposer,
  ProvenanceSource,
  RegulatoryClass,
  ScreenStatus,
  SettlementCurrency,
  SettlementStyle,
  SignalCategoryTag,
  SignalKind,
  SourceCommitment,
  SourceMechanism,
  SourceStatus,
  SourceType,
  Venue,
} from './vocab.ts';
export {
  ARBITRATION_MODELS,
  ArbitrationModelSchema,
  BUNDLE_TYPES,
  BundleTypeSchema,
  CATEGORIES,
  CategorySchema,
  COMMITMENT_SUBTYPES,
  CONTRACT_TYPES,
  CommitmentSubtypeSchema,
  ContractTypeSchema,
  DATA_SOURCES,
  DataSourceSchema,
  DIRECTIONS,
  DirectionSchema,
  EVENT_STATUS_FILTERS,
  EventStatusFilterSchema,
  GRADES,
  GradeSchema,
  LOG_EVENT_TYPES,
  LOG_SOURCES,
  LogEventTypeSchema,
  LogSourceSchema,
  MARK_METHODS,
  MARKET_STATUSES,
  MarketStatusSchema,
  MarkMethodSchema,
  OCCURRED_BASES,
  OccurredBasisSchema,
  PROPOSERS,
  PROVENANCE_SOURCES,
  ProposerSchema,
  ProvenanceSourceSchema,
  REGULATORY_CLASSES,
  RegulatoryClassSchema,
  SCHEMA_VERSION,
  SCREEN_STATUSES,
  ScreenStatusSchema,
  SERVED_SOURCE_STATUSES,
  SETTLEMENT_CURRENCIES,
  SETTLEMENT_STYLES,
  ServedSourceStatusSchema,
  SettlementCurrencySchema,
  SettlementStyleSchema,
  SIGNAL_CATEGORY_TAGS,
  SIGNAL_KINDS,
  SignalCategoryTagSchema,
  SignalKindSchema,
  SOURCE_COMMITMENTS,
  SOURCE_MECHANISMS,
  SOURCE_PROVENANCES,
  SOURCE_STATUSES,
  SOURCE_TYPES,
  SourceCommitmentSchema,
  SourceMechanismSchema,
  SourceProvenanceSchema,
  SourceStatusSchema,
  SourceTypeSchema,
  TRIGGER_LOGICS,
  TriggerLogicSchema,
  VENUES,
  VenueSchema,
} from './vocab.ts';
