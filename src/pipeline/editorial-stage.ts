/**
 * The editorial stage and the merge with stored state (DESIGN.md §4 step 3). Calls the editorial
 * seam per event, links twins across venues over every market (fresh and stored), and keeps what a
 * record must keep across runs: `first_seen_at` / `created_at` from the stored record, and the whole
 * stored record when nothing but its timestamps would change — so a rerun of the same input leaves
 * events and markets byte-identical.
 */
import type { Event, Market, MarkFacts } from '../domain/index.ts';
import type { EditorialInput, EditorialOutput, MarkSummary, RepriceEventInput } from '../editorial/index.ts';
import { wholeRecord } from '../store/index.ts';
import type { NormalizedEvent } from '../venues/index.ts';
import { editorialKeyOf, quotesOnlyChanged, type RawMemo } from './incremental.ts';
import { type RequotedEvent, repriceStored, summaryOfQuote } from './requote.ts';
import { screensFor, screensStand } from './screens.ts';
import type { StageMeter } from './stage-meter.ts';
import type { PipelineLogger, ProgressListener } from './types.ts';

export interface EditorialFunctions {
  deriveEvent(input: EditorialInput): EditorialOutput;
  linkAcrossVenues(markets: readonly Market[], marks: ReadonlyMap<string, MarkSummary>): Market[];
  /**
   * deriveEvent's output at new quotes from its output at earlier ones (null: derive instead). Absent: an
   * event whose quotes alone changed is derived.
   */
  repriceEvent?(input: RepriceEventInput): EditorialOutput | null;
}

/**
 * Structural equality of two JSON-like values, key order ignored (stored records come back parsed
 * from JSON; fresh ones are built in code). `skip` names top-level keys left out of the comparison.
 * A stored market read lazily (store `listMarkets({ lazy: true })`) is compared as its whole record.
 */
export function sameRecord(a: unknown, b: unknown, skip: ReadonlySet<string> = NO_KEYS): boolean {
  return sameJson(plain(a), plain(b), skip);
}

const NO_KEYS: ReadonlySet<string> = new Set();

function plain(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? wholeRecord(value) : value;
}

function sameJson(a: unknown, b: unknown, skip: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], NO_KEYS)) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of Object.keys(ra)) {
    if (skip.has(k)) continue;
    const va = ra[k];
    const vb = rb[k];
    // JSON has no undefined: a missing key and an undefined value are the same stored record.
    if (va === undefined || vb === undefined) {
      if (va !== vb) return false;
      continue;
    }
    if (!sameJson(va, vb, NO_KEYS)) return false;
  }
  // Keys only `b` has: equal only when undefined there.
  for (const k of Object.keys(rb)) {
    if (!skip.has(k) && !Object.hasOwn(ra, k) && rb[k] !== undefined) return false;
  }
  return true;
}

const MARKET_BOOKKEEPING = new Set(['first_seen_at', 'last_updated_at']);
const EVENT_BOOKKEEPING = new Set(['created_at', 'updated_at']);
/** What the stage computes after deriveEvent (screens, links: `also_on` and its provenance entry), and bookkeeping. */
const AFTER_DERIVE = new Set([...MARKET_BOOKKEEPING, 'eligibility_screens', 'also_on', 'field_provenance']);
const LINK_PROVENANCE = new Set(['also_on']);

/**
 * True when a market as deriveEvent gave it is its stored record but for what the stage computes after deriveEvent
 * (screens, `also_on` and its provenance entry) and the bookkeeping timestamps: screened and linked, both come out
 * the same, so the stored record may stand in for it from here on (as for a reused event).
 */
export function sameAsDerived(stored: Market, derived: Market): boolean {
  return (
    sameRecord(stored, derived, AFTER_DERIVE) &&
    sameRecord(stored.field_provenance, derived.field_provenance, LINK_PROVENANCE)
  );
}

/** True when two markets differ only in their bookkeeping timestamps. */
export function sameMarket(a: Market, b: Market): boolean {
  return sameRecord(a, b, MARKET_BOOKKEEPING);
}

/** True when two events differ only in their bookkeeping timestamps. */
export function sameEvent(a: Event, b: Event): boolean {
  return sameRecord(a, b, EVENT_BOOKKEEPING);
}

/**
 * Mark summaries for the editorial layer: today's quote where there is one (a normalized quote, or the one
 * a reused event's memo kept), else the latest mark.
 */
export function markSummaries(
  items: readonly StageItem[],
  latest: ReadonlyMap<string, MarkFacts>,
): Map<string, MarkSummary> {
  const out = new Map<string, MarkSummary>();
  for (const [id, mark] of latest) {
    out.set(id, { last_price: mark.yes_last_price, volume_24h_usd: mark.volume_24h_usd, liquidity_usd: null });
  }
  for (const item of items) {
    if (item.normalized) {
      for (const m of item.normalized.markets) out.set(m.market.market_id, summaryOfQuote(m.quote));
    } else {
      const { marketIds, summaries } = item.reused ?? item.requoted;
      marketIds.forEach((id, i) => {
        const s = summaries[i];
        if (s !== undefined) out.set(id, s);
      });
    }
  }
  return out;
}

/**
 * An event of the pull, in pull order: normalized this run, reused (its raw input did not change), or requoted (its
 * quotes alone changed: repriced in the normalize stage, requote.ts).
 */
export type StageItem =
  | { normalized: NormalizedEvent; reused?: undefined; requoted?: undefined }
  | { normalized?: undefined; reused: NonNullable<RawMemo['event']>; requoted?: undefined }
  | { normalized?: undefined; reused?: undefined; requoted: RequotedEvent };

export interface EditorialStageInput {
  /** The pulled events in pull order (a full run: every one normalized). */
  items: readonly StageItem[];
  storedEvents: ReadonlyMap<string, Event>;
  storedMarkets: ReadonlyMap<string, Market>;
  marks: ReadonlyMap<string, MarkSummary>;
  now: string;
  editorial: EditorialFunctions;
  logger: PipelineLogger;
  onProgress?: ProgressListener;
  /** Where the stage reports the CPU of its parts (`editorial.derive`, `editorial.link`…). */
  meter?: StageMeter;
  /**
   * Editorial keys (incremental.ts): the version they are made under and the last published run's keys
   * (null: none to trust). A normalized event whose key is unchanged is not derived again. Absent: no keys.
   */
  keys?: { version: string; previous: ReadonlyMap<string, string> | null };
}

export interface EditorialStageResult {
  /** Every pulled event after editorial (unchanged ones are the stored record itself), in pull order. */
  events: Event[];
  /** Every pulled market after editorial and linking, in pull order. */
  markets: Market[];
  changedEvents: Event[];
  changedMarkets: Market[];
  /** Events the editorial layer threw on: their stored records were kept, new ones stored as normalized. */
  failures: { event_id: string; venue: string; markets: number; error: string }[];
  /** event_id → editorial key of every event derived or reused without a failure (with `keys` given). */
  editorialKeys: Map<string, string>;
  /** Markets this stage screened at the run's clock against their final event: the after-write stage skips them. */
  screened: Set<string>;
  /** Events deriveEvent ran on; events whose stored records stood for them (unchanged key, or raw input). */
  derived: number;
  reused: number;
  /** Events whose quotes alone changed: their stored records were repriced (`repriceEvent`), not derived. */
  repriced: number;
  /** Markets of `screened` whose stored screens stood (`screensStand`): screening them would give them back. */
  screensStood: number;
}

interface StageMarket {
  market: Market;
  event: Event | null;
  keepScreens: boolean;
  stored?: Event | null;
}

/** Whether two events give a market the same screens: the screens read an event's category and question alone. */
function sameScreenSubject(a: Event | null, b: Event | null): boolean {
  return (a?.category ?? null) === (b?.category ?? null) && (a?.question ?? null) === (b?.question ?? null);
}

/** Events derived between two yields to the event loop. */
const EVENTS_PER_SLICE = 100;

/**
 * Runs deriveEvent per pulled event whose inputs changed, then linkAcrossVenues over every market (fresh and
 * stored), screens the pulled markets, and picks the records that actually changed. An event whose editorial
 * key (or raw input) is what the last published run read is not derived: its stored records are what
 * deriveEvent would give, but for the fields computed after it from every market and the clock (`also_on`,
 * `eligibility_screens`), which are recomputed, and for the bookkeeping timestamps, which move only when a
 * record changes (as for a derived record). Yields to the event loop every 100 events: where the pipeline
 * shares a thread with an HTTP server (`pmref start` on an in-memory database), requests must not wait out ten
 * seconds of editorial work.
 */
export async function runEditorialStage(input: EditorialStageInput): Promise<EditorialStageResult> {
  const { items, storedEvents, storedMarkets, now, editorial } = input;
  const part = <T>(name: string, work: () => T): T => (input.meter ? input.meter.part(name, work) : work());
  const stageEvents: Event[] = [];
  /**
   * Each pulled market before screens and links, with the event it is screened against; `stored`: the market is its
   * stored record, whose stored screens were screened against that stored event (see `screensStand`).
   */
  const stageMarkets = new Map<string, StageMarket>();
  const reusedMarkets = new Set<string>();
  const reusedEvents = new Set<string>();
  const failures: EditorialStageResult['failures'] = [];
  const editorialKeys = new Map<string, string>();
  const previousKeys = input.keys?.previous ?? null;
  let derived = 0;
  let repriced = 0;
  let done = 0;

  /** The stored records stand for an event when the event and every market of it are stored. */
  const reuse = (eventId: string, marketIds: readonly string[]): boolean => {
    const storedEvent = storedEvents.get(eventId);
    const markets = marketIds.map((id) => storedMarkets.get(id));
    if (storedEvent === undefined || markets.some((m) => m === undefined || m.event_id !== eventId)) return false;
    stageEvents.push(storedEvent);
    reusedEvents.add(eventId);
    for (const m of markets as Market[]) {
      stageMarkets.set(m.market_id, { market: m, event: storedEvent, keepScreens: false, stored: storedEvent });
      reusedMarkets.add(m.market_id);
    }
    return true;
  };

  for (const item of items) {
    if (item.reused) {
      const { eventId, marketIds } = item.reused;
      // The run checked the stored records before it skipped normalizing the event (run.ts).
      if (!reuse(eventId, marketIds)) throw new Error(`event ${eventId} was reused without its stored records`);
      const key = previousKeys?.get(eventId);
      if (key !== undefined) editorialKeys.set(eventId, key);
    } else if (item.requoted) {
      const r = item.requoted;
      const storedEvent = storedEvents.get(r.eventId);
      const markets = r.marketIds.map((id) => storedMarkets.get(id));
      // The requoter read both (requote.ts).
      if (storedEvent === undefined || markets.some((m) => m === undefined))
        throw new Error(`event ${r.eventId} was requoted without its stored records`);
      if (r.event === null) {
        reuse(r.eventId, r.marketIds);
      } else {
        standRepriced(r.event, markets as Market[], storedEvent);
        repriced++;
      }
      editorialKeys.set(r.eventId, r.key);
    } else {
      const n = item.normalized;
      const id = n.event.event_id;
      const storedEvent = storedEvents.get(id);
      const keys = input.keys;
      const key = keys
        ? part('editorial.keys', () => editorialKeyOf(n, storedEvent, storedMarkets, input.marks, keys.version))
        : null;
      const ids = n.markets.map((m) => m.market.market_id);
      const previous = previousKeys?.get(id);
      if (key !== null && previous === key && reuse(id, ids)) {
        editorialKeys.set(id, key);
      } else if (key !== null && previous !== undefined && quotesOnlyChanged(previous, key) && repriceOne(n)) {
        repriced++;
        editorialKeys.set(id, key);
      } else if (deriveOne(n, storedEvent)) {
        derived++;
        if (key !== null) editorialKeys.set(id, key);
      }
    }
    done++;
    if (done % 500 === 0 || done === items.length)
      input.onProgress?.({ stage: 'editorial', done, total: items.length });
    if (done % EVENTS_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * Reprices one event whose quotes alone changed since the last published run: its stored records are what
   * deriveEvent gave at the last quotes, so `repriceEvent` gives what it would give now. The markets are the
   * stored ones (no market field reads a quote; screens and links are redone below, as for a reused market);
   * the event moves its `updated_at` as a derived one does. False (derive instead) when the editorial functions
   * cannot reprice, a stored record is missing, or `repriceEvent` declines.
   */
  function repriceOne(n: NormalizedEvent): boolean {
    const storedEvent = storedEvents.get(n.event.event_id);
    const reprice = editorial.repriceEvent;
    if (reprice === undefined || storedEvent === undefined) return false;
    const out = part('editorial.reprice', () =>
      repriceStored(reprice, {
        event: n.event,
        storedEvent,
        marketIds: n.markets.map((m) => m.market.market_id),
        storedMarkets,
        facts: n.markets.map((m) => m.facts),
        marks: input.marks,
        updatedAt: n.event.updated_at,
      }),
    );
    if (out === null) return false;
    standRepriced(out.event, out.markets, storedEvent);
    return true;
  }

  /** A repriced event into the stage's lists: its stored markets stand, screened and linked like a reused one's. */
  function standRepriced(final: Event, markets: readonly Market[], storedEvent: Event): void {
    stageEvents.push(final);
    for (const m of markets) {
      stageMarkets.set(m.market_id, { market: m, event: final, keepScreens: false, stored: storedEvent });
      reusedMarkets.add(m.market_id);
    }
  }

  /** Derives one event into the stage's lists; false when the editorial layer threw on it. */
  function deriveOne(n: NormalizedEvent, storedEvent: Event | undefined): boolean {
    const event: Event = storedEvent ? { ...n.event, created_at: storedEvent.created_at } : n.event;
    const markets = n.markets.map((m) => {
      const stored = storedMarkets.get(m.market.market_id);
      return { market: stored ? { ...m.market, first_seen_at: stored.first_seen_at } : m.market, facts: m.facts };
    });
    try {
      const out = part('editorial.derive', () => editorial.deriveEvent({ event, markets, marks: input.marks, now }));
      // Catalyst dates belong to the after-write stage, which binds them over the whole catalog at every run
      // that runs it: the stored ones stand until then, so an event is not rewritten only to have them put back.
      const final: Event = {
        ...out.event,
        created_at: event.created_at,
        ...(storedEvent
          ? { catalyst_dates: storedEvent.catalyst_dates, catalyst_types: storedEvent.catalyst_types }
          : {}),
      };
      stageEvents.push(final);
      for (const m of out.markets) {
        const stored = storedMarkets.get(m.market_id);
        if (stored !== undefined && sameAsDerived(stored, m)) {
          // deriveEvent gave the stored record (but for what is computed after it): the stored one stands in for
          // it, as for a reused event, and the derived copy is garbage at once instead of being held to the
          // comparison below (issue 18: a new day's first run derives every event, and most come out unchanged).
          stageMarkets.set(m.market_id, {
            market: stored,
            event: final,
            keepScreens: false,
            stored: storedEvent ?? null,
          });
          reusedMarkets.add(m.market_id);
          continue;
        }
        // Screens ride along with the main write (the stored results keep their screened_at when unchanged),
        // so the after-write stage only rescreens what this run did not screen.
        const market = { ...m, eligibility_screens: stored?.eligibility_screens ?? null };
        stageMarkets.set(m.market_id, {
          market: stored ? { ...market, first_seen_at: stored.first_seen_at } : market,
          event: final,
          keepScreens: false,
        });
      }
      return true;
    } catch (err) {
      // An editorial fault never loses data: stored records stay as they are (no diff, no rewrite)
      // and markets seen for the first time are kept as normalized, without editorial fields.
      const error = err instanceof Error ? err.message : String(err);
      failures.push({
        event_id: n.event.event_id,
        venue: n.event.venue ?? 'unknown',
        markets: n.markets.length,
        error,
      });
      input.logger.error(
        { event_id: n.event.event_id, err: error },
        'editorial stage failed on an event: stored records kept, new ones stored without editorial fields',
      );
      stageEvents.push(storedEvent ?? event);
      for (const m of markets) {
        const stored = storedMarkets.get(m.market.market_id);
        stageMarkets.set(m.market.market_id, { market: stored ?? m.market, event: null, keepScreens: true });
      }
      return false;
    }
  }

  // Screens at this run's clock, against each market's final event (a failed event's markets keep theirs). A stored
  // record's stored screens stand where screening would give them back (`screensStand`), which needs the regimes
  // that screened them: those of the last published run, which screened every market (a usable memo says it was this
  // process's, and its version covers the regime files).
  const screened = new Set<string>();
  const storedMayStand = previousKeys !== null;
  let screensStood = 0;
  const withScreens = part('editorial.screens', () => {
    const out: Market[] = [];
    for (const { market, event, keepScreens, stored } of stageMarkets.values()) {
      if (keepScreens) {
        out.push(market);
        continue;
      }
      screened.add(market.market_id);
      if (storedMayStand && stored !== undefined && sameScreenSubject(stored, event) && screensStand(market, now)) {
        screensStood++;
        out.push(market);
        continue;
      }
      out.push({ ...market, eligibility_screens: screensFor(market, event, now) });
    }
    return out;
  });

  // Link over every market we know: pulled ones plus stored ones this run did not pull.
  const all: Market[] = withScreens;
  for (const [id, m] of storedMarkets) if (!stageMarkets.has(id)) all.push(m);
  const linked = part('editorial.link', () => editorial.linkAcrossVenues(all, input.marks));
  const { markets, changedMarkets } = part('editorial.compare', () => {
    const markets: Market[] = [];
    const changedMarkets: Market[] = [];
    for (const m of linked) {
      if (!stageMarkets.has(m.market_id)) continue;
      const stored = storedMarkets.get(m.market_id);
      if (reusedMarkets.has(m.market_id) && stored) {
        // Only what is computed after deriveEvent can differ from the stored record.
        if (sameRecord(stored.also_on, m.also_on) && sameRecord(stored.eligibility_screens, m.eligibility_screens)) {
          markets.push(stored);
        } else {
          const changed = { ...m, last_updated_at: now };
          markets.push(changed);
          changedMarkets.push(changed);
        }
      } else if (stored && sameMarket(stored, m)) {
        markets.push(stored);
      } else {
        markets.push(m);
        changedMarkets.push(m);
      }
    }
    return { markets, changedMarkets };
  });
  const events: Event[] = [];
  const changedEvents: Event[] = [];
  for (const e of stageEvents) {
    const stored = storedEvents.get(e.event_id);
    if (stored && (reusedEvents.has(e.event_id) || sameEvent(stored, e))) {
      events.push(stored);
    } else {
      events.push(e);
      changedEvents.push(e);
    }
  }
  return {
    events,
    markets,
    changedEvents,
    changedMarkets,
    failures,
    editorialKeys,
    screened,
    derived,
    reused: reusedEvents.size,
    repriced,
    screensStood,
  };
}
