/**
 * One pipeline run, in DESIGN.md §4 order: pull both venues in parallel → ids → normalize → editorial
 * → diff → write (one transaction: events, markets, log entries, today's marks) → history backfill →
 * after-write stage → publish. A failed venue never fails the run: its stored records stay untouched
 * and its markets' marks are carried forward; the run is recorded `partial` and says why.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_VENUE_B_CLOB_URL } from '../config.ts';
import type { Event, Mark, Market, NewMark, NewResolutionLogEntry, Venue } from '../domain/index.ts';
import { VENUES } from '../domain/index.ts';
import { deriveEvent, linkAcrossVenues } from '../editorial/index.ts';
import type { PipelineRun, Store, VenueRunSummary } from '../store/index.ts';
import { createVenueHttp, type NormalizedEvent } from '../venues/index.ts';
import { type BackfillSummary, type BackfillTarget, type BackfillVenue, backfillHistory } from './backfill.ts';
import { diffMarkets } from './diff.ts';
import { type EditorialFunctions, markSummaries, runEditorialStage } from './editorial-stage.ts';
import { carryForwardMarks, markFromQuote, utcDate } from './marks.ts';
import { normalizeVenue, pullVenue, type VenueOutcome, type VenuePullOptions } from './pull-stage.ts';
import type { PipelineLogger, ProgressListener, RunSummary } from './types.ts';
import { yesTokensOf } from './venue-tokens.ts';

export interface BackfillSettings {
  /** Markets with fewer than this many days of marks get venue history (default 14). */
  days?: number;
  /** Bound on history requests per run; null = unbounded (replay, simulated). Default 2,000. */
  maxCalls?: number | null;
  /** Concurrent history requests per venue (default 4). */
  concurrency?: number;
}

export interface AfterWriteContext {
  store: Store;
  now: string;
  logger: PipelineLogger;
  /** Every stored event after this run's write, ordered by event_id (what `store.listEvents()` returns). */
  events: readonly Event[];
  /** Every stored market after this run's write, ordered by market_id (what `store.listMarkets()` returns). */
  markets: readonly Market[];
}

export interface RunPipelineOptions {
  store: Store;
  /** live | replay | simulated: recorded on the run. */
  source: string;
  /** The run clock. Every record of the run carries this one time. */
  clock: () => Date;
  logger: PipelineLogger;
  venues: VenuePullOptions;
  /** The editorial seam; defaults to `src/editorial`. */
  editorial?: EditorialFunctions;
  onProgress?: ProgressListener;
  /** History backfill settings, or false to skip the stage. */
  backfill?: BackfillSettings | false;
  /** Signals, catalysts, screens (DESIGN.md §4 step 7): runs after write, before publish. */
  afterWrite?: (ctx: AfterWriteContext) => Promise<Record<string, unknown> | undefined>;
}

function venueSummary(outcome: VenueOutcome, stored: number): VenueRunSummary {
  return {
    pulled: outcome.pull.pulled,
    stored,
    out_of_scope: outcome.outOfScope,
    rejected: outcome.rejected,
    error: outcome.error,
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/** Today's fresh marks: one per freshly normalized market that the editorial stage kept. */
function freshMarks(events: readonly NormalizedEvent[], derived: ReadonlyMap<string, Event>, now: string): NewMark[] {
  const out: NewMark[] = [];
  for (const n of events) {
    const event = derived.get(n.event.event_id);
    if (event === undefined) continue;
    const primaryId = n.markets.length > 1 ? event.primary_market_id : null;
    const primary = primaryId === null ? undefined : n.markets.find((m) => m.market.market_id === primaryId);
    const primaryPrice = primary?.quote.last_price ?? null;
    for (const m of n.markets) out.push(markFromQuote(m.market, m.quote, { now, primaryPrice }));
  }
  return out;
}

/**
 * The store's records after this run's write, without reading them back: the stored ones with this run's
 * records in their place (the write stores every changed one; unchanged ones are the stored record), by id.
 */
function catalogAfterWrite<T>(stored: readonly T[], fresh: readonly T[], idOf: (record: T) => string): T[] {
  const byId = new Map<string, T>();
  for (const r of stored) byId.set(idOf(r), r);
  for (const r of fresh) byId.set(idOf(r), r);
  return [...byId.keys()].sort().map((id) => byId.get(id) as T);
}

/** Markets handed over by the previous run's bounded backfill. */
function pendingFromLastRun(last: PipelineRun | null): Set<string> {
  const backfill = last?.summary.backfill as { pending_market_ids?: unknown } | undefined;
  const ids = backfill?.pending_market_ids;
  return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []);
}

/**
 * Runs the pipeline once and returns its summary. Throws only when the store itself fails (the run
 * is then recorded `failed` and nothing of it is published).
 * @example const summary = await runPipeline({ store, source: 'replay', clock: () => new Date(), logger, venues });
 */
export async function runPipeline(options: RunPipelineOptions): Promise<RunSummary> {
  const { store, logger, onProgress } = options;
  const editorial = options.editorial ?? { deriveEvent, linkAcrossVenues };
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  let lapStart = t0;
  const lap = (name: string) => {
    const t = performance.now();
    timings[name] = Math.round(t - lapStart);
    lapStart = t;
  };
  const now = options.clock().toISOString();
  const today = utcDate(now);
  const lastRun = await store.lastRun();
  const runId = await store.startRun(options.source, now);
  const fallbacks: string[] = [];
  try {
    onProgress?.({ stage: 'pull', done: 0, total: VENUES.length });
    let pulledCount = 0;
    const pulls = await Promise.all(
      VENUES.map(async (venue) => {
        const pull = await pullVenue(venue, options.venues, logger);
        onProgress?.({ stage: 'pull', done: ++pulledCount, total: VENUES.length });
        return pull;
      }),
    );

    lap('pull');
    const [storedEventList, storedMarketList, latestList] = await Promise.all([
      store.listEvents(),
      store.listMarkets(),
      store.latestMarks(),
    ]);
    const storedEvents = new Map(storedEventList.map((e) => [e.event_id, e]));
    const storedMarkets = new Map(storedMarketList.map((m) => [m.market_id, m]));
    const latest = new Map<string, Mark>(latestList.map((m) => [m.market_id, m]));
    lap('load_stored');

    const outcomes: VenueOutcome[] = [];
    for (const pull of pulls) {
      onProgress?.({ stage: 'normalize', done: outcomes.length, total: pulls.length });
      const outcome = await normalizeVenue(store, pull, now);
      if (outcome.error !== null) {
        logger.warn(
          { venue: outcome.venue, error: outcome.error },
          `${outcome.venue} failed; its stored records are kept`,
        );
      }
      outcomes.push(outcome);
    }
    onProgress?.({ stage: 'normalize', done: outcomes.length, total: pulls.length });

    lap('normalize');
    const fresh = outcomes.flatMap((o) => o.events ?? []);
    const stage = await runEditorialStage({
      fresh,
      storedEvents,
      storedMarkets,
      marks: markSummaries(fresh, latest),
      now,
      editorial,
      logger,
      ...(onProgress ? { onProgress } : {}),
    });

    lap('editorial');
    onProgress?.({ stage: 'diff', done: 0, total: stage.markets.length });
    const logEntries: NewResolutionLogEntry[] = [];
    for (const m of stage.changedMarkets)
      logEntries.push(...diffMarkets(storedMarkets.get(m.market_id) ?? null, m, now));
    onProgress?.({ stage: 'diff', done: stage.markets.length, total: stage.markets.length });

    const derivedEvents = new Map(stage.events.map((e) => [e.event_id, e]));
    const kept = new Set(stage.markets.map((m) => m.market_id));
    const marks = freshMarks(fresh, derivedEvents, now).filter((m) => kept.has(m.market_id));

    // Carry forward: every market of a failed venue, and open markets of a healthy venue that did
    // not come back this run (absences prove nothing: the market keeps its last data).
    const failedVenues = new Set<Venue>(outcomes.filter((o) => o.error !== null).map((o) => o.venue));
    const uncovered: string[] = [];
    for (const m of storedMarketList) {
      if (kept.has(m.market_id)) continue;
      if (failedVenues.has(m.platform) || m.status === 'open') uncovered.push(m.market_id);
    }
    const carried = carryForwardMarks(uncovered, latest, now);
    for (const venue of failedVenues) {
      const n = carried.filter((c) => storedMarkets.get(c.market_id)?.platform === venue).length;
      fallbacks.push(`${venue} could not be read: its stored records were kept and ${n} marks carried forward`);
    }
    const allMarks = [...marks, ...carried];

    lap('diff_and_marks');
    onProgress?.({ stage: 'write', done: 0, total: 1 });
    const appended = await store.transaction(async (tx) => {
      await tx.upsertEvents(stage.changedEvents);
      await tx.upsertMarkets(stage.changedMarkets);
      const n = await tx.appendLog(logEntries);
      await tx.upsertMarks(allMarks);
      return n;
    });
    onProgress?.({ stage: 'write', done: 1, total: 1 });
    lap('write');

    const backfill = await runBackfill(options, {
      today,
      outcomes,
      markets: stage.markets,
      latest,
      pending: pendingFromLastRun(lastRun),
    });
    if (backfill) {
      for (const [venue, reason] of Object.entries(backfill.skipped)) fallbacks.push(`${venue} history: ${reason}`);
      if (backfill.pending_market_ids.length > 0) {
        fallbacks.push(`${backfill.pending_market_ids.length} markets still wait for history; the next run fetches it`);
      }
    }

    lap('backfill');
    let afterWrite: Record<string, unknown> | undefined;
    if (options.afterWrite) {
      onProgress?.({ stage: 'after_write', done: 0, total: 1 });
      afterWrite = await options.afterWrite({
        store,
        now,
        logger,
        events: catalogAfterWrite(storedEventList, stage.events, (e) => e.event_id),
        markets: catalogAfterWrite(storedMarketList, stage.markets, (m) => m.market_id),
      });
      onProgress?.({ stage: 'after_write', done: 1, total: 1 });
    }

    const storedByVenue = countBy(stage.markets, (m) => m.platform);
    const venues = Object.fromEntries(
      outcomes.map((o) => [o.venue, venueSummary(o, storedByVenue[o.venue] ?? 0)]),
    ) as Record<Venue, VenueRunSummary>;
    if (stage.failures.length > 0) {
      const markets = stage.failures.reduce((n, f) => n + f.markets, 0);
      fallbacks.push(
        `editorial failed on ${stage.failures.length} events (${markets} markets; first error: ${stage.failures[0]?.error}): stored records kept, new ones stored without editorial fields`,
      );
    }
    const status: PipelineRun['status'] =
      failedVenues.size === 0 ? 'ok' : failedVenues.size === VENUES.length ? 'failed' : 'partial';
    const summary: RunSummary = {
      venues,
      log_entries: appended,
      marks: allMarks.length,
      duration_ms: 0,
      generation: 0,
      run_id: runId,
      status,
      source: options.source,
      as_of: now,
      events_written: stage.changedEvents.length,
      markets_written: stage.changedMarkets.length,
      marks_carried_forward: carried.length,
      editorial_failures: stage.failures.length,
      backfill: backfill && {
        targets: backfill.targets,
        calls: backfill.calls,
        marks: backfill.marks,
        markets_with_history: backfill.markets_with_history,
        skipped: backfill.skipped,
        pending: backfill.pending_market_ids.length,
      },
      fallbacks,
      timings_ms: timings,
      ...(afterWrite ? { after_write: afterWrite } : {}),
    };
    if (options.afterWrite) lap('after_write');
    onProgress?.({ stage: 'publish', done: 0, total: 1 });
    summary.duration_ms = Math.round(performance.now() - t0);
    const stored = {
      ...summary,
      backfill: backfill ? { ...summary.backfill, pending_market_ids: backfill.pending_market_ids } : null,
    };
    summary.generation = await store.finishRun(runId, status, stored, options.clock().toISOString(), true);
    onProgress?.({ stage: 'publish', done: 1, total: 1 });
    logger.info(
      { run_id: runId, status, generation: summary.generation, log_entries: appended, marks: summary.marks },
      `pipeline run ${runId} ${status}`,
    );
    return summary;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    logger.error({ run_id: runId, err: error }, 'pipeline run failed; nothing published');
    await store
      .finishRun(runId, 'failed', { error, fallbacks }, options.clock().toISOString(), false)
      .catch((finishErr: unknown) =>
        logger.error({ run_id: runId, err: String(finishErr) }, 'could not record the failed run'),
      );
    throw err;
  }
}

interface BackfillInput {
  today: string;
  outcomes: readonly VenueOutcome[];
  markets: readonly Market[];
  latest: ReadonlyMap<string, Mark>;
  pending: ReadonlySet<string>;
}

/** Backfill targets: fresh markets with no mark before this run, plus those the last run could not reach. */
async function runBackfill(options: RunPipelineOptions, input: BackfillInput): Promise<BackfillSummary | null> {
  if (options.backfill === false) return null;
  const settings = options.backfill ?? {};
  const days = settings.days ?? 14;
  const maxCalls = settings.maxCalls === undefined ? 2_000 : settings.maxCalls;
  const concurrency = settings.concurrency ?? 4;
  const healthy = new Set(input.outcomes.filter((o) => o.error === null).map((o) => o.venue));
  const tokens = new Map<string, string>();
  for (const o of input.outcomes)
    if (o.venue === 'venue_b' && o.error === null) for (const [k, v] of yesTokensOf(o.pull)) tokens.set(k, v);
  const targets: BackfillTarget[] = [];
  for (const market of input.markets) {
    if (!healthy.has(market.platform)) continue;
    const previous = input.latest.get(market.market_id);
    if (previous !== undefined && !input.pending.has(market.market_id)) continue;
    targets.push({
      market,
      yesToken: market.platform === 'venue_b' ? (tokens.get(market.platform_market_id) ?? null) : null,
    });
  }
  if (targets.length === 0) return null;
  const existing = new Map<string, Set<string>>();
  // Dates already marked matter only when history is fetched (a deferred backfill fetches none).
  const known =
    maxCalls === 0 ? [] : targets.filter((t) => input.latest.has(t.market.market_id)).map((t) => t.market.market_id);
  for (let i = 0; i < known.length; i += 500) {
    for (const mark of await options.store.listMarks({ marketIds: known.slice(i, i + 500) })) {
      const set = existing.get(mark.market_id) ?? new Set<string>();
      set.add(mark.snapshot_date);
      existing.set(mark.market_id, set);
    }
  }
  const venues: Partial<Record<Venue, BackfillVenue>> = {};
  const a = options.venues.venue_a;
  const b = options.venues.venue_b;
  venues.venue_a = {
    http: createVenueHttp('venue_a', { ...a, logger: options.logger }),
    baseUrl: a.baseUrl,
    concurrency,
  };
  const clob = b.clobBaseUrl ?? DEFAULT_VENUE_B_CLOB_URL;
  venues.venue_b = {
    http: createVenueHttp('venue_b', { ...b, baseUrl: clob, logger: options.logger }),
    baseUrl: clob,
    concurrency,
  };
  return backfillHistory(targets, {
    store: options.store,
    today: input.today,
    days,
    maxCalls,
    venues,
    logger: options.logger,
    existingDates: existing,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
