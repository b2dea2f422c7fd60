/** The four detectors of the signal wire and their thresholds (METHODOLOGY.md § Signals). */
export {
  DRIFT,
  detectBenchmarkDrift,
  modelProbability,
  type SettlementModel,
  settlementModel,
} from './benchmark-drift.ts';
export { DIVERGENCE, detectCrossVenueDivergence } from './cross-venue-divergence.ts';
export { normCdf, probTerminalAbove, probTouch } from './lognormal.ts';
export { detectNewsCycle, NEWS_CYCLE, nearestCatalyst } from './news-cycle.ts';
export { detectVolumeSpike, VOLUME_SPIKE } from './volume-spike.ts';
