/**
 * The after-write stage (DESIGN.md §4 step 7): spot prices, catalysts, eligibility screens and the signal
 * wire, computed from what the store now holds, written before the run publishes.
 *
 * Re-runs are quiet: a market's screen result keeps its `screened_at` while its outcome is unchanged, an
 * event's catalyst dates are rewritten only when they change, and bulletins are de-duplicated on slug by
 * the store — so running the same input twice leaves events and markets as they were.
 */
import type { Event, Market } from '../domain/index.ts';
import { bindCatalystDates, buildCatalysts, coinsReferenced, detectSignals, macroCalendar } from '../signals/index.ts';
import { pullSpot } from '../venues/spot/index.ts';
import type { AfterWriteContext } from './run.ts';
import { screensFor } from './screens.ts';

/** Days of marks the detectors see (the volume-spike trailing window plus the day-over-day pair). */
const SIGNAL_WINDOW_DAYS = 8;

export interface AfterWriteOptions {
  /** Simple-price API root (live: PMREF_SPOT_URL; replay/simulated: the replay server's `…/spot`). Null: no spot pull. */
  spotBaseUrl: string | null;
  userAgent?: string;
}

/** Builds the after-write hook for runPipeline. */
export function afterWriteStage(options: AfterWriteOptions) {
  return async ({ store, now, logger, events, markets }: AfterWriteContext): Promise<Record<string, unknown>> => {
    const eventById = new Map(events.map((e) => [e.event_id, e]));

    // Spot prices for the coins crypto markets reference.
    let spotError: string | null = null;
    let spotRows = 0;
    const coins = coinsReferenced(markets);
    if (options.spotBaseUrl && coins.length > 0) {
      const pulled = await pullSpot({
        baseUrl: options.spotBaseUrl,
        coins,
        now: () => new Date(now),
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      });
      spotError = pulled.error;
      spotRows = pulled.rows.length;
      if (pulled.error) logger.warn({ err: pulled.error }, 'spot prices unavailable; keeping the last stored prices');
      if (pulled.rows.length > 0) await store.insertSpot(pulled.rows);
    }

    // Catalysts: the curated calendar plus venue-derived dates, bound to events.
    const catalysts = buildCatalysts({ calendar: macroCalendar(), events, markets, now });
    const marketsByEvent = new Map<string, Market[]>();
    for (const m of markets)
      if (m.event_id) marketsByEvent.set(m.event_id, [...(marketsByEvent.get(m.event_id) ?? []), m]);
    const changedEvents: Event[] = [];
    for (const event of events) {
      const bound = bindCatalystDates(event, marketsByEvent.get(event.event_id) ?? [], catalysts, now);
      if (
        JSON.stringify(bound.catalyst_dates) !== JSON.stringify(event.catalyst_dates) ||
        JSON.stringify(bound.catalyst_types) !== JSON.stringify(event.catalyst_types)
      ) {
        changedEvents.push({ ...event, catalyst_dates: bound.catalyst_dates, catalyst_types: bound.catalyst_types });
      }
    }

    // Eligibility screens.
    const changedMarkets: Market[] = [];
    const screened = markets.map((m) => {
      const screens = screensFor(m, m.event_id ? (eventById.get(m.event_id) ?? null) : null, now);
      if (JSON.stringify(screens) === JSON.stringify(m.eligibility_screens)) return m;
      const next = { ...m, eligibility_screens: screens };
      changedMarkets.push(next);
      return next;
    });

    await store.transaction(async (tx) => {
      await tx.replaceCatalysts(catalysts);
      if (changedEvents.length > 0) await tx.upsertEvents(changedEvents);
      if (changedMarkets.length > 0) await tx.upsertMarkets(changedMarkets);
    });

    // The signal wire, over the updated records and every stored mark.
    const since = new Date(Date.parse(now) - SIGNAL_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
    const [marks, spot] = await Promise.all([store.listMarks({ since }), store.latestSpot()]);
    const changedById = new Map(changedEvents.map((e) => [e.event_id, e]));
    const finalEvents = events.map((e) => changedById.get(e.event_id) ?? e);
    const bulletins = detectSignals({ events: finalEvents, markets: screened, marks, spot, catalysts, now });
    const inserted = await store.insertSignals(bulletins);
    const byKind: Record<string, number> = {};
    for (const b of bulletins) byKind[b.detection_path] = (byKind[b.detection_path] ?? 0) + 1;
    return {
      spot: { coins: coins.length, rows: spotRows, error: spotError },
      catalysts: catalysts.length,
      events_with_new_catalyst_dates: changedEvents.length,
      markets_rescreened: changedMarkets.length,
      signals: { detected: bulletins.length, new: inserted, by_kind: byKind },
    };
  };
}
