export { blankMarket } from './blank-market.ts';
export type { Catalyst } from './catalyst.ts';
export { CatalystSchema } from './catalyst.ts';
export type { Change, ChangeDetail, ChangeKind, ChangeLink, ChangesPage, NewChange } from './change.ts';
export {
  CHANGE_KINDS,
  ChangeDetailSchema,
  ChangeKindSchema,
  ChangeLinkSchema,
  ChangeSchema,
  ChangesPageSchema,
} from './change.ts';
export type { CatalystDate, Event, LadderDistribution } from './event.ts';
export { CatalystDateSchema, EVENT_ID_PATTERN, EventIdSchema, EventSchema, LadderDistributionSchema } from './event.ts';
export type { FeeSchedule, MarketFeeTerms } from './fees.ts';
export { FeeScheduleSchema, MarketFeeTermsSchema, takerFeeUsd, takerMultiplierOf } from './fees.ts';
export {
  CAP_MEANINGS,
  COMMITMENT_SUBTYPE_MEANINGS,
  DIFFERENCE_MEANINGS,
  FACTOR_MEANINGS,
  GRADE_MEANINGS,
  RELATION_MEANINGS,
  RULE_MEANINGS,
  SCREEN_FUNNEL_REASON_MEANINGS,
  SCREEN_RULE_REASON_MEANINGS,
} from './glossary.ts';
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
export { JSON_SCHEMA_DIALECT, RECORD_SCHEMA_NAMES, type RecordSchemaName, recordJsonSchemas } from './json-schema.ts';
export type { Mark, MarkFacts, MarkFigures, NewMark } from './mark.ts';
export { byMarkDateThenMarket, MARK_FIGURE_FIELDS, MarkSchema, markFiguresOf, VENUE_HISTORY_NOTE } from './mark.ts';
export type {
  AlsoOn,
  EligibilityScreenResult,
  LinkDifference,
  LinkDifferenceType,
  LinkRelation,
  Market,
  ResolutionHistory,
  ResolutionSource,
  ResolutionTriggers,
} from './market.ts';
export {
  AlsoOnItemSchema,
  AlsoOnSchema,
  EligibilityScreenResultSchema,
  isPastClose,
  LinkDifferenceSchema,
  LinkDifferenceTypeSchema,
  LinkRelationSchema,
  MARKET_ID_PATTERN,
  MarketIdSchema,
  MarketSchema,
  QUESTION_ID_PATTERN,
  QuestionIdSchema,
  ResolutionHistorySchema,
  ResolutionSourceSchema,
  ResolutionTriggersSchema,
  TriggerSchema,
} from './market.ts';
export type { DecidingFactor, MarketConcise } from './market-concise.ts';
export {
  ConciseAlsoOnItemSchema,
  ConciseCapSchema,
  ConciseEvidenceSchema,
  DecidingFactorSchema,
  MarketConciseSchema,
} from './market-concise.ts';
export type { HistoryObtained, HistoryPoint, HistoryQuoteField, MarketHistory } from './market-history.ts';
export {
  HISTORY_OBTAINED,
  HISTORY_QUOTE_FIELDS,
  HistoryObtainedSchema,
  HistoryPointSchema,
  historyQuoteOf,
  MarketHistorySchema,
} from './market-history.ts';
export type { EventPage, ListNotice, ListSort, MarketList, MarketListItem, MarketPage } from './market-list.ts';
export {
  ELIGIBILITY_STATUSES,
  EventPageSchema,
  LIST_SORTS,
  ListNoticeSchema,
  ListSortSchema,
  MarketListItemSchema,
  MarketListSchema,
  MarketPageSchema,
} from './market-list.ts';
export type { FieldProvenance, FieldProvenanceEntry } from './provenance.ts';
export { FieldProvenanceEntrySchema, FieldProvenanceSchema } from './provenance.ts';
export type {
  DiffSegment,
  QuestionComparison,
  QuestionDetail,
  QuestionLeg,
  QuestionList,
  QuestionPage,
  QuestionSummary,
  RulesDiff,
} from './question.ts';
export {
  DiffSegmentSchema,
  pairIdFor,
  QUESTION_PAIR_ID_PATTERN,
  QuestionComparisonSchema,
  QuestionDetailSchema,
  QuestionLegSchema,
  QuestionListSchema,
  QuestionNoticeSchema,
  QuestionPageSchema,
  QuestionPairIdSchema,
  QuestionSummarySchema,
  RulesDiffSchema,
} from './question.ts';
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
export type { IdentifierKind, RecordIdentifiers, RefForm, ResolveAnswer, ResolvedRecord } from './resolve.ts';
export {
  AmbiguousAnswerSchema,
  IDENTIFIER_KINDS,
  IdentifierKindSchema,
  MAX_CANDIDATES,
  REF_FORMS,
  RecordIdentifiersSchema,
  RefFormSchema,
  ResolveAnswerSchema,
  ResolvedAnswerSchema,
  ResolvedRecordSchema,
} from './resolve.ts';
export type {
  Catalysts,
  ConciseMarket,
  ErrorBody,
  EventDetail,
  EventList,
  EventListItem,
  KeyCreated,
  MarketDetail,
  MarksPage,
  Mover,
  Movers,
  Notice,
  Provenance,
  RunStatus,
  ServedDisputes,
  ServedMarket,
  ServiceInfo,
  ServiceStatus,
  SignalIndex,
  SpotTable,
} from './served.ts';
export {
  CatalystsSchema,
  ConciseMarketSchema,
  CurrentPrimaryMarkSchema,
  ErrorBodySchema,
  EventDetailSchema,
  EventListItemSchema,
  EventListSchema,
  KeyCreatedSchema,
  KeyRequestSchema,
  MarketDetailSchema,
  MarksPageSchema,
  MoverSchema,
  MoversSchema,
  NoticeSchema,
  ProvenanceSchema,
  RunStatusSchema,
  ServedCatalystDateSchema,
  ServedCatalystSchema,
  ServedDisputesSchema,
  ServedGradeSchema,
  ServedMarketSchema,
  ServedMarkSchema,
  ServedRcgDetailSchema,
  ServedRcgSchema,
  ServedResolutionSchema,
  ServiceInfoSchema,
  ServiceStatusSchema,
  SignalIndexItemSchema,
  SignalIndexSchema,
  SpotTableSchema,
} from './served.ts';
export type { SignalBulletin } from './signal.ts';
export { SignalBulletinSchema, SignalNumberSchema } from './signal.ts';
export type { SpotRow } from './spot.ts';
export { SpotRowSchema } from './spot.ts';
export type { DisputeRate, Stats, StatsCell } from './stats.ts';
export { DisputeRateSchema, StatsBodySchema, StatsCellSchema, StatsSchema } from './stats.ts';
export type { VenueFacts } from './venue-facts.ts';
export { emptyVenueFacts, VenueFactsSchema } from './venue-facts.ts';
export type { MarketVenueRefs } from './venue-refs.ts';
export { MarketVenueRefsSchema } from './venue-refs.ts';
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
