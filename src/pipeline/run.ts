/**
 * One pipeline run, in DESIGN.md §4 order: pull both venues in parallel → ids → normalize → editorial
 * → diff and marks → history backfill → after-write stage → publish. A failed venue never fails the run: its
 * stored records stay untouched and its markets' marks are carried forward; the run is recorded `partial`
 * and says why.
 *
 * **Only published data is visible** (issue 15). Everything the run writes to a served table (events,
 * markets, log entries, today's marks, history marks, catalysts, spot, signals) lands in ONE transaction that
 * also bumps the generation (`store.publishRun`): readers (read-model builds, /v1/status counts, the marks
 * feed, MCP, A2A) see the whole run or nothing of it, on both engines, whatever moment the process dies at.
 * To get there the run holds its main write in memory (it did before: the write was built in memory), the
 * after-write stage computes its writes instead of writing them, and the history backfill — up to 14 days ×
 * every market, too many to hold — stages its marks under the run id in `staged_marks`, which the publish
 * moves into `marks` with one INSERT … SELECT (never over a stored mark) and empties. The log is
 * append-only, so its entries are only ever written there. The id registry is written outside (ids are not
 * served, and a rerun must get the same ones). Alternatives weighed: a `published` flag or generation column
 * on every served row would need every read (read model, feed, status, counts) filtered and a cleanup of
 * dead rows; one publish transaction needs neither. Its cost: the history marks are written twice (staged,
 * then moved), in the background catch-up only (a first start defers history).
 *
 * A run whose process dies stays `running` with no data visible; the next start marks it `aborted`
 * (abort.ts). A run where every venue failed is `failed` and publishes nothing. A run where any part fell
 * back (a venue, its order books or series, spot, history, editorial) is `partial` and lists the parts in
 * `degraded`.
 */
import { DEFAULT_HOURLY_RETENTION_DAYS, DEFAULT_VENUE_B_CLOB_URL } from '../config.ts';
import type {
  Event,
  Market,
  MarkFacts,
  MarkFigures,
  NewMark,
  NewResolutionLogEntry,
  SignalBulletin,
  Venue,
} from '../domain/index.ts';
import { byMarkDateThenMarket, isPastClose, markFiguresOf, VENUES } from '../domain/index.ts';
import { deriveEvent, linkAcrossVenues, repriceEvent } from '../editorial/index.ts';
import { type PipelineRun, readWhole, type Store, type VenueRunSummary } from '../store/index.ts';
import { createVenueHttp, type RawVenuePull } from '../venues/index.ts';
import { currentOwner } from './abort.ts';
import type { AfterWriteContext, AfterWriteResult } from './after-write.ts';
import { type BackfillSummary, type BackfillTarget, type BackfillVenue, backfillHistory } from './backfill.ts';
import { changesOf, type MarketBefore, marketBefore } from './changes.ts';
import { diffMarkets } from './diff.ts';
import {
  type EditorialFunctions,
  markSummaries,
  runEditorialStage,
  type StageItem,
  sameRecord,
} from './editorial-stage.ts';
import { hourlyMarksOf, hourlyPruneBefore } from './hourly-marks.ts';
import {
  type IncrementalState,
  type RawMemo,
  rawMemoKey,
  rawPayloadHash,
  recordState,
  usableState,
  versionFor,
} from './incremental.ts';
import { movedInDay, retimeMark } from './mark-retime.ts';
import { carryForwardMarks, markFromQuote, utcDate } from './marks.ts';
import { type MarksWindow, packWindow, windowCovers, windowFigures } from './marks-window.ts';
import { normalizeVenue, pullVenue, type VenueOutcome, type VenuePullOptions } from './pull-stage.ts';
import { requoter } from './requote.ts';
import { startStageMeter } from './stage-meter.ts';
import type { PipelineLogger, ProgressListener, RunSummary } from './types.ts';

export interface BackfillSettings {
  /** Markets with fewer than this many days of marks get venue history (default 14). */
  days?: number;
  /** Bound on history requests per run; null = unbounded (replay, simulated). Default 2,000. */
  maxCalls?: number | null;
  /** Concurrent history requests per venue (default 4). */
  concurrency?: number;
  /** History marks staged per batch (default 5,000). */
  batchSize?: number;
}

/**
 * The stage boundaries of a run, in order, where the kill-at-stage test ends the process
 * (test/pipeline/kill-at-stage.test.ts). `after_main_write` is where the main write committed before issue 15;
 * it is now held in memory until the publish. `before_publish_commit` is inside the publish transaction, after
 * its last write.
 */
export const RUN_CHECKPOINTS = [
  'after_pull',
  'after_editorial',
  'after_main_write',
  'mid_backfill',
  'after_backfill',
  'after_after_write',
  'before_publish_commit',
] as const;
export type RunCheckpoint = (typeof RUN_CHECKPOINTS)[number];

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
  /**
   * Reuse what the last published run did for events whose inputs did not change (incremental.ts; default
   * true). False re-normalizes and re-derives every event and records nothing for the next run.
   */
  incremental?: boolean;
  /**
   * The version the incremental keys are made under (default: a hash of the code and data: incremental.ts
   * `codeVersion`). A test seam: another version makes every key new.
   */
  editorialVersion?: string;
  onProgress?: ProgressListener;
  /** History backfill settings, or false to skip the stage. */
  backfill?: BackfillSettings | false;
  /**
   * Days of hourly history detail kept (PMREF_HOURLY_RETENTION_DAYS; default 7; 0 keeps none): the publish writes
   * the changed quotes of this hour and deletes hours before the window (hourly-marks.ts).
   */
  hourlyRetentionDays?: number;
  /**
   * Called once both venues are pulled, before anything is normalized: a source that serves the venues from memory
   * (the simulated universe's replay server) lets go of the catalog it served (simulated.ts).
   */
  afterPull?: () => void;
  /** Signals, catalysts, screens (DESIGN.md §4 step 7): computed before the publish, written by it. */
  afterWrite?: (ctx: AfterWriteContext) => Promise<AfterWriteResult>;
  /**
   * Test seam: called at each stage boundary (RUN_CHECKPOINTS). The kill-at-stage test ends its process here;
   * nothing else sets it.
   */
  checkpoint?: (at: RunCheckpoint) => Promise<void> | void;
}

function venueSummary(outcome: VenueOutcome, stored: number): VenueRunSummary {
  return {
    pulled: outcome.pull.pulled,
    stored,
    out_of_scope: outcome.outOfScope,
    rejected: outcome.rejected,
    error: outcome.error,
    // What the pull cost the venue (HTTP requests and retries; absent for sources that make none, e.g. a folder).
    ...(outcome.pull.requests === undefined ? {} : { requests: outcome.pull.requests }),
    ...(outcome.pull.retries === undefined ? {} : { retries: outcome.pull.retries }),
    // Drift against the venue's published document (src/venues/drift): counted per run, shown by /v1/status.
    ...(outcome.pull.drift === undefined ? {} : { drift: outcome.pull.drift }),
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/** Today's marks of a run and how the publish writes them. */
interface TodaysMarks {
  marks: NewMark[];
  /** Re-timed marks that keep their previous mark's stored raw payload, by content id. */
  kept: Map<NewMark, number>;
  /** Marks equal to the stored mark of the same day but for their time fields: moved in place (`retimeMarks`). */
  moved: Set<NewMark>;
  /** market_id → hash of the raw payload of the mark this run writes (null: none, or not known), for the next run. */
  rawPayloads: Map<string, string | null>;
}

/**
 * Today's fresh marks, in pull order: one per pulled market, from its quote (a normalized event) or re-timed
 * from the last run's mark of the same quote (a reused event: see mark-retime.ts). A mark from a quote that is the
 * last run's own quote (the same raw payload by the memo's hash, the same day) is moved in place too, sharing its
 * previous mark's provenance object when equal: most markets of an event that changed did not change themselves.
 */
function todaysMarks(
  items: readonly StageItem[],
  derived: ReadonlyMap<string, Event>,
  ctx: {
    storedMarkets: ReadonlyMap<string, Market>;
    latest: ReadonlyMap<string, MarkFacts>;
    rawPayloadIds: ReadonlyMap<string, number | null>;
    /** The usable memo's raw payload hashes (null: no memo to trust). */
    lastRawPayloads: ReadonlyMap<string, string> | null;
    /** Whether to hash raw payloads for the next run (a run that records no memo does not). */
    hashing: boolean;
    now: string;
  },
): TodaysMarks {
  const { now } = ctx;
  const out: NewMark[] = [];
  const kept = new Map<NewMark, number>();
  const moved = new Set<NewMark>();
  const rawPayloads = new Map<string, string | null>();
  /** A mark from a fresh quote, moved in place when it is the last run's own quote (the same raw payload). */
  const markOfQuote = (id: string, fresh: NewMark, previous: MarkFacts | undefined): NewMark => {
    let mark = fresh;
    const hash = mark.raw_payload === null || !ctx.hashing ? null : rawPayloadHash(mark.raw_payload);
    rawPayloads.set(id, hash);
    if (previous !== undefined && hash !== null && ctx.lastRawPayloads?.get(id) === hash) {
      if (sameRecord(mark.field_provenance, previous.field_provenance))
        mark = { ...mark, field_provenance: previous.field_provenance };
      // The stored row already holds this raw payload (the memo's run wrote it): the move leaves it there.
      if (movedInDay(mark, previous)) moved.add(mark);
    }
    return mark;
  };
  for (const item of items) {
    if (item.normalized) {
      const n = item.normalized;
      const event = derived.get(n.event.event_id);
      if (event === undefined) continue;
      const primaryId = n.markets.length > 1 ? event.primary_market_id : null;
      const primary = primaryId === null ? undefined : n.markets.find((m) => m.market.market_id === primaryId);
      const primaryPrice = primary?.quote.last_price ?? null;
      for (const m of n.markets) {
        const id = m.market.market_id;
        out.push(markOfQuote(id, markFromQuote(m.market, m.quote, { now, primaryPrice }), ctx.latest.get(id)));
      }
    } else {
      const { eventId, marketIds, summaries } = item.reused ?? item.requoted;
      const quotes = item.requoted?.quotes;
      const event = derived.get(eventId);
      if (event === undefined) continue;
      const primaryAt =
        marketIds.length > 1 && event.primary_market_id ? marketIds.indexOf(event.primary_market_id) : -1;
      const primaryPrice = summaries[primaryAt]?.last_price ?? null;
      for (const id of marketIds) {
        const market = ctx.storedMarkets.get(id);
        const previous = ctx.latest.get(id);
        // run.ts checked both before it reused or requoted the event.
        if (market === undefined || previous === undefined) throw new Error(`market ${id} was reused without its mark`);
        const quote = quotes?.get(id);
        if (quote !== undefined) {
          // A requoted market's new quote: its mark as a normalized market's (the stored market stands for it).
          out.push(markOfQuote(id, markFromQuote(market, quote, { now, primaryPrice }), previous));
          continue;
        }
        const mark = retimeMark(market, previous, now, primaryPrice);
        // The same quote, the same raw payload: kept where the store holds it (read without it: latestMarkFacts).
        const rawId = ctx.rawPayloadIds.get(id) ?? null;
        if (rawId !== null) kept.set(mark, rawId);
        rawPayloads.set(id, rawId === null ? null : (ctx.lastRawPayloads?.get(id) ?? null));
        // A later hour of the same day: only its time fields change, and the store moves them in place.
        if (movedInDay(mark, previous)) moved.add(mark);
        out.push(mark);
      }
    }
  }
  return { marks: out, kept, moved, rawPayloads };
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

/** `later` over `earlier`, by id: one write per record when two stages changed it. */
function mergeById<T>(earlier: readonly T[], later: readonly T[], idOf: (record: T) => string): T[] {
  const byId = new Map<string, T>();
  for (const r of earlier) byId.set(idOf(r), r);
  for (const r of later) byId.set(idOf(r), r);
  return [...byId.values()];
}

/**
 * What the stages after the editorial one read of a venue's outcome: not its pulled pages or normalized events,
 * which are let go once today's marks are made.
 */
interface SettledOutcome {
  venue: Venue;
  error: string | null;
  /** Parts of the venue that fell back (order books, series), from its pull. */
  degraded: Record<string, string>;
  /** venue_b: each market's YES outcome token (the history backfill asks for prices by token); else empty. */
  yesTokens: ReadonlyMap<string, string>;
  rawMemos: VenueOutcome['rawMemos'];
  rawMemosKept: VenueOutcome['rawMemosKept'];
}

function settleOutcome(o: VenueOutcome): SettledOutcome {
  return {
    venue: o.venue,
    error: o.error,
    degraded: { ...o.pull.degraded },
    yesTokens: o.error === null ? o.pull.yesTokens : new Map(),
    rawMemos: o.rawMemos,
    rawMemosKept: o.rawMemosKept,
  };
}

/** Markets handed over by the previous published run's bounded backfill. */
function pendingFromLastRun(last: PipelineRun | null): Set<string> {
  const backfill = last?.summary.backfill as { pending_market_ids?: unknown } | undefined;
  const ids = backfill?.pending_market_ids;
  return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []);
}

const markKey = (m: { snapshot_date: string; market_id: string }) => `${m.snapshot_date}|${m.market_id}`;

/** The dates from `from` (inclusive) to `to` (exclusive), YYYY-MM-DD. */
function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); ; t += 86_400_000) {
    const d = new Date(t).toISOString().slice(0, 10);
    if (d >= to) return out;
    out.push(d);
  }
}

/**
 * The marks the run will leave behind from `since` on, read without writing them: published, then staged
 * history where no mark is published, then today's marks over both (the publish applies them in that
 * precedence: upsert today's, insert staged only where nothing is stored). Published marks of today are the
 * latest marks dated today, already read at the start of the run (`latest`; no mark is dated after today
 * unless a run ran at a later clock, when they are read again): only the earlier dates are read here.
 * Their figures only (domain `MarkFigures`, all the signals read): the store builds neither their times nor
 * their provenance, and reads no payload.
 */
async function marksAfterPublish(
  store: Store,
  runId: number,
  today: readonly NewMark[],
  since: string,
  latest: ReadonlyMap<string, MarkFacts>,
  window: MarksWindow | null,
): Promise<MarkFigures[]> {
  const todayDate = today[0]?.snapshot_date;
  const latestList = [...latest.values()];
  const byKey = new Map<string, MarkFigures>();
  const merged = (published: readonly MarkFigures[], staged: readonly MarkFigures[]): MarkFigures[] => {
    for (const m of published) byKey.set(markKey(m), m);
    for (const m of staged) if (!byKey.has(markKey(m))) byKey.set(markKey(m), m);
    for (const m of today) if (m.snapshot_date >= since) byKey.set(markKey(m), markFiguresOf(m));
    return [...byKey.values()].sort(byMarkDateThenMarket);
  };
  const stagedSince = () => store.listStagedMarks(runId, { since, figuresOnly: true });
  if (todayDate === undefined || since > todayDate || latestList.some((m) => m.snapshot_date > todayDate)) {
    const [published, staged] = await Promise.all([store.listMarks({ since, figuresOnly: true }), stagedSince()]);
    return merged(published, staged);
  }
  const dates = datesBetween(since, todayDate);
  // The earlier days as the last run left them, when the memo holds them (marks-window.ts), else from the store.
  const readEarlier = async (): Promise<MarkFigures[]> => {
    if (dates.length === 0) return [];
    if (window !== null && windowCovers(window, since, todayDate)) return windowFigures(window, since, todayDate);
    return store.listMarks({ snapshotDates: dates, figuresOnly: true });
  };
  const [earlier, staged] = await Promise.all([readEarlier(), stagedSince()]);
  const publishedToday = latestList.filter((m) => m.snapshot_date === todayDate).map(markFiguresOf);
  if (staged.length > 0) return merged([...earlier, ...publishedToday], staged);
  // Nothing staged (an hourly refresh): the earlier days as read, in order, then today's marks over the published
  // ones of today, without keying and sorting the earlier days' marks again (a quarter of a million on the full
  // universe). The order is checked, not assumed: PostgreSQL orders text by its collation.
  const todays = new Map<string, MarkFigures>();
  for (const m of publishedToday) todays.set(m.market_id, m);
  for (const m of today) todays.set(m.market_id, markFiguresOf(m));
  const out = [...earlier, ...[...todays.values()].sort(byMarkDateThenMarket)];
  for (let i = 1; i < out.length; i++) {
    if (byMarkDateThenMarket(out[i - 1] as MarkFigures, out[i] as MarkFigures) >= 0)
      return out.sort(byMarkDateThenMarket);
  }
  return out;
}

/**
 * Runs the pipeline once and returns its summary. Throws only when the store itself fails (the run
 * is then recorded `failed` and nothing of it is published).
 * @example const summary = await runPipeline({ store, source: 'replay', clock: () => new Date(), logger, venues });
 */
export async function runPipeline(options: RunPipelineOptions): Promise<RunSummary> {
  const { store, logger, onProgress } = options;
  const editorial = options.editorial ?? { deriveEvent, linkAcrossVenues, repriceEvent };
  const incremental = options.incremental !== false;
  const version = versionFor(options.editorial, options.editorialVersion);
  const checkpoint = async (at: RunCheckpoint) => {
    await options.checkpoint?.(at);
  };
  const meter = startStageMeter();
  const lap = meter.lap;
  const now = options.clock().toISOString();
  const today = utcDate(now);
  const lastPublished = await store.lastRun({ published: true });
  const retentionDays = options.hourlyRetentionDays ?? DEFAULT_HOURLY_RETENTION_DAYS;
  const handle = await store.beginRun(options.source, now, currentOwner());
  const runId = handle.run_id;
  const fallbacks: string[] = [];
  const degraded = new Set<string>();
  try {
    onProgress?.({ stage: 'pull', done: 0, total: VENUES.length });
    let pulledCount = 0;
    let pulls: RawVenuePull[] | null = await Promise.all(
      VENUES.map(async (venue) => {
        const pull = await pullVenue(venue, options.venues, logger);
        onProgress?.({ stage: 'pull', done: ++pulledCount, total: VENUES.length });
        return pull;
      }),
    );
    options.afterPull?.();
    lap('pull');
    await checkpoint('after_pull');

    // What the last published run recorded (incremental.ts): an event whose raw input is unchanged is not
    // normalized again when its stored records, its marks and the clock let them stand for this run.
    const memo = incremental && lastPublished ? usableState(store, lastPublished, version) : null;
    // With a memo most stored markets stand as they are, and the run reads little of them but their catalog
    // entries: they are read lazily (lazy-market.ts). Without one, every event is derived and compared whole.
    const [storedEventList, storedMarketList, latestList] = await Promise.all([
      store.listEvents(),
      store.listMarkets({ lazy: memo !== null }),
      store.latestMarkFacts(),
    ]);
    // The stored markets as read, to count at the summary how many the run read whole.
    let storedRead: Market[] | null = [...storedMarketList];
    const storedEvents = new Map(storedEventList.map((e) => [e.event_id, e]));
    const storedMarkets = new Map(storedMarketList.map((m) => [m.market_id, m]));
    // The latest marks without their raw payloads: no stage reads one, and a re-timed mark keeps its own by id.
    const latest = new Map<string, MarkFacts>(latestList.map(({ mark }) => [mark.market_id, mark]));
    const rawPayloadIds = new Map(latestList.map(({ mark, rawPayloadId }) => [mark.market_id, rawPayloadId]));
    latestList.length = 0;
    lap('load_stored');

    const usable = (m: RawMemo): boolean => {
      if (memo === null || Date.parse(now) < Date.parse(memo.asOf)) return false;
      if (m.event === null) return true;
      const { eventId, marketIds } = m.event;
      if (!storedEvents.has(eventId)) return false;
      for (const id of marketIds) {
        const stored = storedMarkets.get(id);
        // A market the venue reports open turns `closed` at its close time (normalization derives it).
        if (stored === undefined || stored.event_id !== eventId) return false;
        if (stored.status === 'open' && isPastClose(stored.close_at, now)) return false;
        // Today's mark is re-timed from the last run's own mark of the same quote.
        const last = latest.get(id);
        if (last === undefined || last.snapshot_at !== memo.asOf || last.mark_method !== 'venue_snapshot') return false;
      }
      return true;
    };
    // An event whose quotes alone changed is repriced from the memo without being normalized (requote.ts).
    const requote =
      memo === null
        ? undefined
        : requoter({ editorial, previousKeys: memo.editorial, storedEvents, storedMarkets, now });
    let outcomes: VenueOutcome[] | null = [];
    for (const pull of pulls) {
      onProgress?.({ stage: 'normalize', done: outcomes.length, total: pulls.length });
      const outcome = await normalizeVenue(
        store,
        pull,
        now,
        incremental ? { version, memo: memo?.raw ?? null, usable, meter, ...(requote ? { requote } : {}) } : undefined,
      );
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
    pulls = null;
    let items: StageItem[] | null = outcomes.flatMap((o) => o.items);
    const reusedRaw = items.filter((i) => i.reused).length;
    const requotedRaw = items.filter((i) => i.requoted).length;
    const summaries = markSummaries(items, latest);
    const stage = await runEditorialStage({
      items,
      storedEvents,
      storedMarkets,
      marks: summaries,
      now,
      editorial,
      logger,
      meter,
      ...(incremental ? { keys: { version, previous: memo?.editorial ?? null } } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
    lap('editorial');
    await checkpoint('after_editorial');

    onProgress?.({ stage: 'diff', done: 0, total: stage.markets.length });
    const logEntries: NewResolutionLogEntry[] = [];
    for (const m of stage.changedMarkets)
      logEntries.push(...diffMarkets(storedMarkets.get(m.market_id) ?? null, m, now));
    onProgress?.({ stage: 'diff', done: stage.markets.length, total: stage.markets.length });

    const derivedEvents = new Map(stage.events.map((e) => [e.event_id, e]));
    const kept = new Set(stage.markets.map((m) => m.market_id));
    const lastRawPayloads = memo !== null && Date.parse(now) >= Date.parse(memo.asOf) ? memo.rawPayloads : null;
    const fresh = todaysMarks(items, derivedEvents, {
      storedMarkets,
      latest,
      rawPayloadIds,
      lastRawPayloads,
      hashing: incremental,
      now,
    });
    const marks = fresh.marks.filter((m) => kept.has(m.market_id));
    const keptRaw = { rawPayloadIds: fresh.kept };
    const movedInPlace = fresh.moved;
    rawPayloadIds.clear();
    const pulledEvents = items.length;
    // The pulled pages and the normalized events are garbage from here on (a quarter of a run's live heap on the
    // full universe, issue 18): what the later stages read of the venues' outcomes is settled first.
    items = null;
    const storedByVenue = countBy(stage.markets, (m) => m.platform);
    const venues = Object.fromEntries(
      outcomes.map((o) => [o.venue, venueSummary(o, storedByVenue[o.venue] ?? 0)]),
    ) as Record<Venue, VenueRunSummary>;
    const settled = outcomes.map(settleOutcome);
    outcomes = null;

    // Carry forward: every market of a failed venue, and open markets of a healthy venue that did
    // not come back this run (absences prove nothing: the market keeps its last data).
    const failedVenues = new Set<Venue>(settled.filter((o) => o.error !== null).map((o) => o.venue));
    const uncovered: string[] = [];
    for (const m of storedMarketList) {
      if (kept.has(m.market_id)) continue;
      if (failedVenues.has(m.platform) || m.status === 'open') uncovered.push(m.market_id);
    }
    const carried = carryForwardMarks(uncovered, latest, now);
    for (const venue of failedVenues) {
      degraded.add(venue);
      const n = carried.filter((c) => storedMarkets.get(c.market_id)?.platform === venue).length;
      fallbacks.push(`${venue} could not be read: its stored records were kept and ${n} marks carried forward`);
    }
    // Parts of a venue that read fine otherwise (order books, series): the venue client says what fell back.
    for (const o of settled) {
      if (o.error !== null) continue;
      for (const [part, detail] of Object.entries(o.degraded)) {
        degraded.add(`${o.venue}.${part}`);
        fallbacks.push(`${o.venue} ${part}: ${detail}`);
      }
    }
    if (stage.failures.length > 0) {
      degraded.add('editorial');
      const markets = stage.failures.reduce((n, f) => n + f.markets, 0);
      fallbacks.push(
        `editorial failed on ${stage.failures.length} events (${markets} markets; first error: ${stage.failures[0]?.error}): stored records kept, new ones stored without editorial fields`,
      );
    }
    const allMarks = [...marks, ...carried];
    // What the next run may know of the raw payloads this run leaves as each market's latest mark.
    const rawPayloads = new Map<string, string | null>();
    for (const m of marks) rawPayloads.set(m.market_id, fresh.rawPayloads.get(m.market_id) ?? null);
    for (const m of carried) rawPayloads.set(m.market_id, null);
    fresh.rawPayloads.clear();

    // What the later stages read of the stored catalog: the catalog as this run leaves it (the after-write stage's
    // input) and, for the change feed, each stored market (a slim copy of one the run replaced: `marketBefore`).
    // The stored records the run replaced are garbage from here on, not held through the backfill, the signals and
    // the publish, where a run's heap peaks (issue 18).
    const catalog = options.afterWrite
      ? {
          events: catalogAfterWrite(storedEventList, stage.events, (e) => e.event_id),
          markets: catalogAfterWrite(storedMarketList, stage.markets, (m) => m.market_id),
        }
      : null;
    const current = new Map(stage.markets.map((m) => [m.market_id, m]));
    const before = new Map<string, MarketBefore>();
    for (const m of storedMarketList) before.set(m.market_id, current.get(m.market_id) === m ? m : marketBefore(m));
    current.clear();
    storedEventList.length = 0;
    storedMarketList.length = 0;
    storedEvents.clear();
    storedMarkets.clear();
    lap('diff_and_marks');

    if (failedVenues.size === VENUES.length) {
      // Nothing was read: carrying every mark forward would publish a generation that says nothing new.
      const summary: RunSummary = {
        venues,
        log_entries: 0,
        marks: 0,
        duration_ms: meter.total().wall_ms,
        generation: 0,
        run_id: runId,
        status: 'failed',
        degraded: [...degraded].sort(),
        source: options.source,
        as_of: now,
        events_written: 0,
        markets_written: 0,
        marks_carried_forward: 0,
        editorial_failures: 0,
        backfill: null,
        fallbacks: [...fallbacks, 'every venue failed: nothing was written and no generation published'],
        timings_ms: meter.wallMs(),
        cpu_ms: meter.total().cpu_ms,
        cpu_ms_by_stage: meter.cpuMs(),
      };
      summary.generation = await store.finishRun(runId, 'failed', { ...summary }, options.clock().toISOString(), false);
      logger.error(
        { run_id: runId, status: 'failed', generation: summary.generation },
        `pipeline run ${runId} failed: every venue failed; nothing published`,
      );
      return summary;
    }
    await checkpoint('after_main_write');

    let firstBatch = true;
    const backfill = await runBackfill(options, runId, {
      today,
      outcomes: settled,
      markets: stage.markets,
      latest,
      pending: pendingFromLastRun(lastPublished),
      afterBatch: async () => {
        if (!firstBatch) return;
        firstBatch = false;
        await checkpoint('mid_backfill');
      },
    });
    if (backfill) {
      for (const [venue, reason] of Object.entries(backfill.skipped)) fallbacks.push(`${venue} history: ${reason}`);
      for (const venue of backfill.failed) degraded.add(`history.${venue}`);
      if (backfill.pending_market_ids.length > 0) {
        fallbacks.push(`${backfill.pending_market_ids.length} markets still wait for history; the next run fetches it`);
      }
    }
    lap('backfill');
    await checkpoint('after_backfill');

    let afterWrite: AfterWriteResult | undefined;
    let marksWindow: MarksWindow | null = null;
    if (options.afterWrite) {
      onProgress?.({ stage: 'after_write', done: 0, total: 1 });
      afterWrite = await options.afterWrite({
        now,
        logger,
        events: catalog?.events ?? [],
        markets: catalog?.markets ?? [],
        marksSince: async (since) => {
          const marks = await marksAfterPublish(store, runId, allMarks, since, latest, memo?.marksWindow ?? null);
          // Packed for the next run (the objects are let go with the signals): the store as this run leaves it.
          if (incremental) marksWindow = packWindow(marks, since, today);
          return marks;
        },
        latestSpot: () => store.latestSpot(),
        meter,
        screened: stage.screened,
      });
      for (const part of afterWrite.degraded) degraded.add(part);
      fallbacks.push(...afterWrite.fallbacks);
      onProgress?.({ stage: 'after_write', done: 1, total: 1 });
      lap('after_write');
    }
    await checkpoint('after_after_write');

    const status: PipelineRun['status'] = degraded.size === 0 ? 'ok' : 'partial';
    const summary: RunSummary = {
      venues,
      log_entries: logEntries.length,
      marks: allMarks.length,
      duration_ms: 0,
      generation: 0,
      run_id: runId,
      status,
      degraded: [...degraded].sort(),
      source: options.source,
      as_of: now,
      events_written: stage.changedEvents.length,
      markets_written: stage.changedMarkets.length,
      events: {
        pulled: pulledEvents,
        normalized: pulledEvents - reusedRaw - requotedRaw,
        derived: stage.derived,
        reused: stage.reused,
        repriced: stage.repriced,
        reused_unnormalized: reusedRaw,
        requoted: requotedRaw,
      },
      stored_markets: { read: storedRead.length, read_whole: storedRead.filter(readWhole).length },
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
    };

    storedRead = null;

    // The publish: every write of the run and the generation bump, in one transaction.
    onProgress?.({ stage: 'write', done: 0, total: 1 });
    const aw = afterWrite?.writes;
    const events = mergeById(stage.changedEvents, aw?.events ?? [], (e) => e.event_id);
    const markets = mergeById(stage.changedMarkets, aw?.markets ?? [], (m) => m.market_id);
    const { generation } = await store.publishRun(
      runId,
      async (tx, publishing) => {
        await meter.partAsync('publish.events', () => tx.upsertEvents(events));
        await meter.partAsync('publish.markets', () => tx.upsertMarkets(markets));
        const logged = await tx.appendLogEntries(logEntries);
        await meter.partAsync('publish.marks', async () => {
          // Today's marks of unchanged quotes move in place (their time columns only); the rest are upserted.
          const left = await tx.retimeMarks(allMarks.filter((m) => movedInPlace.has(m)));
          await tx.upsertMarks([...allMarks.filter((m) => !movedInPlace.has(m)), ...left], keptRaw);
        });
        await tx.publishStagedMarks(runId);
        // Hourly detail (issue 20): this hour's changed quotes, and the hours past retention dropped, with the run.
        const hourly = { retention_days: retentionDays, rows: 0, pruned: 0 };
        if (retentionDays > 0) hourly.rows = await tx.upsertHourlyMarks(hourlyMarksOf(allMarks, latest, now));
        hourly.pruned = await tx.pruneHourlyMarks(hourlyPruneBefore(now, retentionDays));
        let newSignals: SignalBulletin[] = [];
        if (aw) {
          await tx.replaceCatalysts(aw.catalysts);
          if (aw.spot.length > 0) await tx.insertSpot(aw.spot);
          newSignals = await tx.insertNewSignals(aw.signals);
        }
        // The change feed (issue 20), numbered in this transaction: visible with the generation, never without.
        const changes = changesOf({
          before,
          written: markets,
          log: logged,
          newSignals,
          generation: publishing,
          publishedAt: options.clock().toISOString(),
        });
        await meter.partAsync('publish.changes', () => tx.appendChanges(changes));
        onProgress?.({ stage: 'write', done: 1, total: 1 });
        onProgress?.({ stage: 'publish', done: 0, total: 1 });
        return { newSignals: newSignals.length, hourly };
      },
      ({ newSignals, hourly }) => {
        if (afterWrite) summary.after_write = afterWrite.report(newSignals);
        lap('publish');
        const total = meter.total();
        summary.duration_ms = total.wall_ms;
        summary.timings_ms = meter.wallMs();
        summary.cpu_ms = total.cpu_ms;
        summary.cpu_ms_by_stage = meter.cpuMs();
        const stored = {
          ...summary,
          backfill: backfill ? { ...summary.backfill, pending_market_ids: backfill.pending_market_ids } : null,
          // Read back by the hourly history: which retention this publish kept (Store.runHours).
          hourly,
        };
        return { status, summary: stored, finishedAt: options.clock().toISOString() };
      },
      () => checkpoint('before_publish_commit'),
    );
    summary.generation = generation;
    if (incremental) {
      recordState(
        store,
        nextState({
          runId,
          generation,
          now,
          version,
          memo,
          outcomes: settled,
          stage,
          failedVenues,
          rawPayloads,
          marksWindow,
        }),
      );
    }
    onProgress?.({ stage: 'publish', done: 1, total: 1 });
    logger.info(
      {
        run_id: runId,
        status,
        degraded: summary.degraded,
        generation,
        log_entries: logEntries.length,
        marks: summary.marks,
        duration_ms: summary.duration_ms,
        cpu_ms: summary.cpu_ms,
        cpu_ms_by_stage: summary.cpu_ms_by_stage,
        events: summary.events,
      },
      `pipeline run ${runId} ${status}`,
    );
    return summary;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    logger.error({ run_id: runId, err: error }, 'pipeline run failed; nothing published');
    await store
      .finishRun(
        runId,
        'failed',
        { error, fallbacks, degraded: [...degraded].sort() },
        options.clock().toISOString(),
        false,
      )
      .catch((finishErr: unknown) =>
        logger.error({ run_id: runId, err: String(finishErr) }, 'could not record the failed run'),
      );
    throw err;
  } finally {
    await handle.release();
  }
}

/**
 * What this run leaves for the next (incremental.ts): the raw memo of every raw event it normalized or reused
 * whose event did not fail the editorial stage, and the editorial key of every event derived or reused. What
 * this run did not touch stays as the last run recorded it: a failed venue's raw memos, and the editorial keys
 * of events it did not pull (their stored records are as they were).
 */
function nextState(input: {
  runId: number;
  generation: number;
  now: string;
  version: string;
  memo: IncrementalState | null;
  outcomes: readonly SettledOutcome[];
  stage: {
    events: readonly { event_id: string }[];
    failures: readonly { event_id: string }[];
    editorialKeys: ReadonlyMap<string, string>;
  };
  failedVenues: ReadonlySet<Venue>;
  /** market_id → raw payload hash of the mark this run wrote (null: none or not known). */
  rawPayloads: ReadonlyMap<string, string | null>;
  marksWindow: MarksWindow | null;
}): IncrementalState {
  const failed = new Set(input.stage.failures.map((f) => f.event_id));
  const pulled = new Set(input.stage.events.map((e) => e.event_id));
  const raw = new Map<string, RawMemo>();
  const editorialKeys = new Map<string, string>();
  if (input.memo) {
    for (const [key, memo] of input.memo.raw) {
      const venue = key.slice(0, key.indexOf(':')) as Venue;
      if (input.failedVenues.has(venue)) raw.set(key, memo);
    }
    for (const [id, key] of input.memo.editorial) if (!pulled.has(id)) editorialKeys.set(id, key);
  }
  for (const o of input.outcomes) {
    if (o.error !== null) continue;
    for (const { nativeEventId, ...memo } of [...o.rawMemosKept, ...o.rawMemos]) {
      if (memo.event && failed.has(memo.event.eventId)) continue;
      raw.set(rawMemoKey(o.venue, nativeEventId), memo);
    }
  }
  for (const [id, key] of input.stage.editorialKeys) editorialKeys.set(id, key);
  // A market this run wrote no mark for keeps the memo's hash: its latest mark is still the one that hash describes.
  const rawPayloads = new Map(input.memo?.rawPayloads ?? []);
  for (const [id, hash] of input.rawPayloads) {
    if (hash === null) rawPayloads.delete(id);
    else rawPayloads.set(id, hash);
  }
  return {
    runId: input.runId,
    generation: input.generation,
    asOf: input.now,
    version: input.version,
    raw,
    editorial: editorialKeys,
    rawPayloads,
    marksWindow: input.marksWindow,
  };
}

interface BackfillInput {
  today: string;
  outcomes: readonly SettledOutcome[];
  markets: readonly Market[];
  latest: ReadonlyMap<string, MarkFacts>;
  pending: ReadonlySet<string>;
  afterBatch: () => Promise<void>;
}

/** Backfill targets: fresh markets with no mark before this run, plus those the last run could not reach. */
async function runBackfill(
  options: RunPipelineOptions,
  runId: number,
  input: BackfillInput,
): Promise<BackfillSummary | null> {
  if (options.backfill === false) return null;
  const settings = options.backfill ?? {};
  const days = settings.days ?? 14;
  const maxCalls = settings.maxCalls === undefined ? 2_000 : settings.maxCalls;
  const concurrency = settings.concurrency ?? 4;
  const healthy = new Set(input.outcomes.filter((o) => o.error === null).map((o) => o.venue));
  const tokens = new Map<string, string>();
  for (const o of input.outcomes) if (o.error === null) for (const [k, v] of o.yesTokens) tokens.set(k, v);
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
    for (const mark of await options.store.listMarks({ marketIds: known.slice(i, i + 500), withoutRaw: true })) {
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
    runId,
    afterBatch: input.afterBatch,
    ...(settings.batchSize !== undefined ? { batchSize: settings.batchSize } : {}),
    today: input.today,
    days,
    maxCalls,
    venues,
    logger: options.logger,
    existingDates: existing,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
