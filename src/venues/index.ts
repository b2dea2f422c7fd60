/** The venue room: venue_a and venue_b clients, normalization, and the replay server. */
export type { CategoryVerdict } from './categories.ts';
export {
  categoryFromKeywords,
  categoryFromVenueA,
  categoryFromVenueBTags,
  refinePolitics,
  VENUE_A_CATEGORY_TABLE,
} from './categories.ts';
export type { DriftFinding, DriftKind } from './drift/check.ts';
export { checkRecord, compileShapes, DRIFT_KINDS } from './drift/check.ts';
export type { VenueShapeSpec } from './drift/extract.ts';
export { documentSource, extractShapeManifest, VENUE_SHAPE_SPECS } from './drift/extract.ts';
export { VENUE_SHAPES } from './drift/manifests.ts';
export type { VenueShapeManifest } from './drift/shapes.ts';
export type { DriftExample, DriftWatch, PageContext, VenueDriftSummary } from './drift/watch.ts';
export { createDriftWatch, driftCount } from './drift/watch.ts';
export type { VenueHttp } from './http.ts';
export { backoffMs, createVenueHttp, PMREF_USER_AGENT, retryAfterMs, VenueFetchError } from './http.ts';
export {
  nativeKeysOf,
  nativeMarketIdOf,
  normalizePull,
  rawEventShell,
  rawMarketShape,
  rawMarketText,
  rawQuoteFields,
  requoteMarkets,
} from './normalize.ts';
export type {
  FaultMode,
  FaultRule,
  FaultSpec,
  ReplayServer,
  ReplayServerOptions,
  ReplayStats,
} from './replay/index.ts';
export { loadReplayData, parseFaultSpec, startReplayServer } from './replay/index.ts';
export type { PullSpotOptions, SpotPull } from './spot/index.ts';
export { pullSpot } from './spot/index.ts';
export type {
  IdResolver,
  NormalizedEvent,
  NormalizedMarket,
  NormalizeResult,
  RawVenuePull,
  RecordOutcome,
  VenueClientOptions,
  VenueClock,
  VenueLogger,
  VenueQuote,
} from './types.ts';
export { pullVenueA, VENUE_A_DEFAULT_BASE_URL } from './venue-a/client.ts';
export { venueAPrice, venueAStatus } from './venue-a/normalize.ts';
export { pullVenueB, VENUE_B_DEFAULT_BASE_URL, VENUE_B_DEFAULT_CLOB_URL } from './venue-b/client.ts';
export { venueBResolutionHistory } from './venue-b/normalize.ts';
