/**
 * The after-write stage (DESIGN.md §4 step 7): spot prices, catalysts, eligibility screens and the signal
 * wire, computed from the catalog as this run leaves it. It writes nothing itself: it hands its writes back,
 * and the run applies them in its one publish transaction (see run.ts), so none of them is visible before the
 * run publishes and a run that dies leaves none behind.
 *
 * It sees the catalog as it will be after the publish: the run's events and markets over the stored ones, and
 * marks through `marksSince` (published marks, this run's staged history and today's marks), so signals are
 * what they would be had every write already landed.
 *
 * Re-runs are quiet: a market's screen result keeps its `screened_at` while its outcome is unchanged, an
 * event's catalyst dates are rewritten only when they change, and bulletins are de-duplicated on slug by
 * the store — so running the same input twice leaves events and markets as they were.
 */
import type { Catalyst, Event, Market, MarkFigures, SignalBulletin, SpotRow } from '../domain/index.ts';
import {
  type BoundCatalystDates,
  catalystsAndDates,
  coinsReferenced,
  detectSignals,
  macroCalendar,
} from '../signals/index.ts';
import { pullSpot } from '../venues/spot/index.ts';
import { screensFor } from './screens.ts';
import type { StageMeter } from './stage-meter.ts';
import type { PipelineLogger } from './types.ts';

/** Days of marks the detectors see (the volume-spike trailing window plus the day-over-day pair). */
const SIGNAL_WINDOW_DAYS = 8;

export interface AfterWriteOptions {
  /** Simple-price API root (live: PMREF_SPOT_URL; replay/simulated: the replay server's `…/spot`). Null: no spot pull. */
  spotBaseUrl: string | null;
  userAgent?: string;
}

export interface AfterWriteContext {
  now: string;
  logger: PipelineLogger;
  /** Every event after this run's write, ordered by event_id (what `store.listEvents()` will return). */
  events: readonly Event[];
  /** Every market after this run's write, ordered by market_id (what `store.listMarkets()` will return). */
  markets: readonly Market[];
  /**
   * Marks with snapshot_date ≥ `since` as they will be after this run publishes: the published ones, this
   * run's staged history (never over a published mark) and today's marks (over them), ordered by snapshot_date
   * then market_id. Their figures are all the signals read (domain `MarkFigures`).
   */
  marksSince(since: string): Promise<MarkFigures[]>;
  /** The newest published spot row per coin. */
  latestSpot(): Promise<SpotRow[]>;
  /** Where the stage reports the CPU of its parts (`after_write.screens`, `after_write.signals`…). */
  meter?: StageMeter;
  /**
   * Markets the run already screened at this clock against their final event (the editorial stage screens
   * every market it pulled): screening them again gives what they hold, so only the others are screened here.
   */
  screened?: ReadonlySet<string>;
}

/** What the publish transaction writes for the after-write stage. */
export interface AfterWriteWrites {
  spot: SpotRow[];
  /** The whole calendar: it replaces the stored one. */
  catalysts: Catalyst[];
  /** Events whose catalyst dates changed (the stage's version wins over the run's). */
  events: Event[];
  /** Markets whose screens changed (the stage's version wins over the run's). */
  markets: Market[];
  /** Detected bulletins; the store keeps the first of each slug. */
  signals: SignalBulletin[];
}

export interface AfterWriteResult {
  writes: AfterWriteWrites;
  /** Parts that fell back (`spot`), for the run's `degraded` list. */
  degraded: string[];
  /** The same in words, for the run's `fallbacks`. */
  fallbacks: string[];
  /** The stage's part of the run summary, once the publish has said how many bulletins were new. */
  report(newSignals: number): Record<string, unknown>;
}

/** The newest row per coin over the stored ones and this run's pull (what `latestSpot` returns after the write). */
function newestSpot(stored: readonly SpotRow[], pulled: readonly SpotRow[]): SpotRow[] {
  const byCoin = new Map<string, SpotRow>();
  for (const r of [...stored, ...pulled]) {
    const seen = byCoin.get(r.coin);
    if (seen === undefined || r.as_of >= seen.as_of) byCoin.set(r.coin, r);
  }
  return [...byCoin.keys()].sort().map((coin) => byCoin.get(coin) as SpotRow);
}

/** Builds the after-write hook for runPipeline. */
export function afterWriteStage(options: AfterWriteOptions) {
  return async ({
    now,
    logger,
    events,
    markets,
    marksSince,
    latestSpot,
    meter,
    screened: screenedByRun,
  }: AfterWriteContext): Promise<AfterWriteResult> => {
    const part = <T>(name: string, work: () => T): T => (meter ? meter.part(name, work) : work());
    const eventById = new Map(events.map((e) => [e.event_id, e]));
    const degraded: string[] = [];
    const fallbacks: string[] = [];

    // Spot prices for the coins crypto markets reference.
    let spotError: string | null = null;
    let spotRows: SpotRow[] = [];
    const coins = coinsReferenced(markets);
    if (options.spotBaseUrl && coins.length > 0) {
      const pulled = await pullSpot({
        baseUrl: options.spotBaseUrl,
        coins,
        now: () => new Date(now),
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      });
      spotError = pulled.error;
      spotRows = pulled.rows;
      if (pulled.error) {
        logger.warn({ err: pulled.error }, 'spot prices unavailable; keeping the last stored prices');
        degraded.push('spot');
        fallbacks.push(`spot prices could not be read (${pulled.error}): the last stored prices were kept`);
      }
    }

    // Catalysts: the curated calendar plus venue-derived dates, bound to events.
    // Building the catalysts binds every event to them: those bindings are each event's catalyst dates.
    const { catalysts, dates } = part('after_write.catalysts', () =>
      catalystsAndDates({ calendar: macroCalendar(), events, markets, now }),
    );
    const changedEvents: Event[] = part('after_write.catalyst_dates', () => {
      const changed: Event[] = [];
      for (const event of events) {
        const bound = dates.get(event.event_id) as BoundCatalystDates;
        if (
          JSON.stringify(bound.catalyst_dates) !== JSON.stringify(event.catalyst_dates) ||
          JSON.stringify(bound.catalyst_types) !== JSON.stringify(event.catalyst_types)
        ) {
          changed.push({ ...event, catalyst_dates: bound.catalyst_dates, catalyst_types: bound.catalyst_types });
        }
      }
      return changed;
    });

    // Eligibility screens.
    const changedMarkets: Market[] = [];
    const screened = part('after_write.screens', () =>
      markets.map((m) => {
        if (screenedByRun?.has(m.market_id)) return m;
        const screens = screensFor(m, m.event_id ? (eventById.get(m.event_id) ?? null) : null, now);
        if (JSON.stringify(screens) === JSON.stringify(m.eligibility_screens)) return m;
        const next = { ...m, eligibility_screens: screens };
        changedMarkets.push(next);
        return next;
      }),
    );

    // The signal wire, over the updated records and every mark the run leaves behind.
    const since = new Date(Date.parse(now) - SIGNAL_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
    const read = () => Promise.all([marksSince(since), latestSpot()]);
    const [marks, storedSpot] = await (meter ? meter.partAsync('after_write.read_marks', read) : read());
    const spot = newestSpot(storedSpot, spotRows);
    const changedById = new Map(changedEvents.map((e) => [e.event_id, e]));
    const finalEvents = events.map((e) => changedById.get(e.event_id) ?? e);
    const bulletins = part('after_write.signals', () =>
      detectSignals({ events: finalEvents, markets: screened, marks, spot, catalysts, now }),
    );
    const byKind: Record<string, number> = {};
    for (const b of bulletins) byKind[b.detection_path] = (byKind[b.detection_path] ?? 0) + 1;
    return {
      writes: { spot: spotRows, catalysts, events: changedEvents, markets: changedMarkets, signals: bulletins },
      degraded,
      fallbacks,
      report: (newSignals) => ({
        spot: { coins: coins.length, rows: spotRows.length, error: spotError },
        catalysts: catalysts.length,
        events_with_new_catalyst_dates: changedEvents.length,
        markets_rescreened: changedMarkets.length,
        signals: { detected: bulletins.length, new: newSignals, by_kind: byKind },
      }),
    };
  };
}
