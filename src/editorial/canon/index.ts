/**
 * Canon (issue 6): canonical events, bundles, claim keys, question_id and cross-venue links
 * (same, complement and, since issue 16, related with typed differences).
 * Pure functions: no I/O, no clock. The pipeline calls `canonEvent` per event, then
 * `linkAcrossVenues` once over every market of the run.
 */
export type { BundleChild } from './bundle.ts';
export { bundleTypeOf, ladderDistributionOf, resolutionReferenceOf, underlyingReferenceOf } from './bundle.ts';
export type { CanonEventInput, RepriceInput } from './canon-event.ts';
export { canonEvent, entityTagsOf, normalizeQuestion, repriceEvent } from './canon-event.ts';
export type { ClaimKey, ClaimKeyResult, ThresholdOp } from './claim-key.ts';
export { claimKeyOf, normalizeClaimKey, questionIdOf } from './claim-key.ts';
export type { Horizon } from './horizon.ts';
export { easternOffsetHours, horizonOf } from './horizon.ts';
export type { CrossVenueLink, LinkKind } from './link.ts';
export { crossVenueLinks, linkAcrossVenues } from './link.ts';
export type { NativeRecord } from './native.ts';
export { blankEvent, nativeRecordsOf } from './native.ts';
export type { EventOverride, MarketOverride, Overrides } from './overrides.ts';
export { CHECKED_IN_OVERRIDES, NO_OVERRIDES, parseOverrides } from './overrides.ts';
export type { MarkSummary } from './primary.ts';
export { primaryMarketOf } from './primary.ts';
export type { Entity, Registry } from './registry.ts';
export { buildRegistry, REGISTRY } from './registry.ts';
export type { ClaimReading } from './relation.ts';
export {
  claimKeyOfRecord,
  HORIZON_TOLERANCE_DAYS,
  MAX_DIFFERENCES,
  readClaim,
  relatedDifferences,
  THRESHOLD_TOLERANCE,
} from './relation.ts';
