/**
 * Signals and catalysts (DESIGN.md §4 step 7): pure computations over stored records. The pipeline
 * calls these after its write; the REST faces serve what the store then holds.
 */
import type { SignalBulletin } from '../domain/index.ts';
import { buildContext, type SignalInput } from './context.ts';
import {
  detectBenchmarkDrift,
  detectCrossVenueDivergence,
  detectNewsCycle,
  detectVolumeSpike,
} from './detectors/index.ts';

export {
  type BulletinDraft,
  makeBulletin,
  SIGNAL_LICENSE,
  SIGNAL_PROVENANCE_VERSION,
  SIGNAL_SCHEMA_ID,
  signalRecordId,
  signalSlug,
} from './bulletin.ts';
export {
  MACRO_TYPES,
  type MacroCalendar,
  type MacroCalendarEntry,
  MacroCalendarEntrySchema,
  MacroCalendarSchema,
  type MacroType,
  macroCalendar,
  parseMacroCalendar,
} from './calendar.ts';
export {
  type BoundCatalystDates,
  bindCatalystDates,
  bindEvents,
  buildCatalysts,
  type CatalystBuildInput,
  type CatalystIndex,
  catalystRelevant,
  catalystsAndDates,
  derivedCatalystType,
  earningsTicker,
  indexCatalysts,
  MAX_CATALYST_DATES,
  macroTypesFor,
  upcomingCatalysts,
} from './catalysts.ts';
export { COINS, type CoinSpec, coinOf, coinSpec, coinsReferenced } from './coins.ts';
export { buildContext, type SignalContext, type SignalInput } from './context.ts';
export {
  DIVERGENCE,
  DRIFT,
  detectBenchmarkDrift,
  detectCrossVenueDivergence,
  detectNewsCycle,
  detectVolumeSpike,
  modelProbability,
  NEWS_CYCLE,
  VOLUME_SPIKE,
} from './detectors/index.ts';
export { signalsRss } from './rss.ts';

/**
 * Runs the four detectors over one run's stored data. Every bulletin's published_at is `now`, and its
 * slug is kind + target + UTC date, so a second run on the same day yields the same slugs (the store
 * keeps the first). Ordered by slug, unique on slug.
 */
export function detectSignals(input: SignalInput): SignalBulletin[] {
  const ctx = buildContext(input);
  const all = [
    ...detectCrossVenueDivergence(ctx),
    ...detectBenchmarkDrift(ctx),
    ...detectNewsCycle(ctx),
    ...detectVolumeSpike(ctx),
  ];
  const bySlug = new Map<string, SignalBulletin>();
  for (const b of all) if (!bySlug.has(b.record_slug)) bySlug.set(b.record_slug, b);
  return [...bySlug.values()].sort((a, b) => a.record_slug.localeCompare(b.record_slug));
}
