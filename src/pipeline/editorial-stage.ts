/**
 * The editorial stage and the merge with stored state (DESIGN.md §4 step 3). Calls the editorial
 * seam per event, links twins across venues over every market (fresh and stored), and keeps what a
 * record must keep across runs: `first_seen_at` / `created_at` from the stored record, and the whole
 * stored record when nothing but its timestamps would change — so a rerun of the same input leaves
 * events and markets byte-identical.
 */
import type { Event, Mark, Market } from '../domain/index.ts';
import type { EditorialInput, EditorialOutput, MarkSummary } from '../editorial/index.ts';
import type { NormalizedEvent } from '../venues/index.ts';
import { screensFor } from './screens.ts';
import type { PipelineLogger, ProgressListener } from './types.ts';

export interface EditorialFunctions {
  deriveEvent(input: EditorialInput): EditorialOutput;
  linkAcrossVenues(markets: readonly Market[], marks: ReadonlyMap<string, MarkSummary>): Market[];
}

/**
 * Structural equality of two JSON-like values, key order ignored (stored records come back parsed
 * from JSON; fresh ones are built in code). `skip` names top-level keys left out of the comparison.
 */
export function sameRecord(a: unknown, b: unknown, skip: ReadonlySet<string> = new Set()): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameRecord(a[i], b[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) {
    if (skip.has(k)) continue;
    const va = ra[k];
    const vb = rb[k];
    // JSON has no undefined: a missing key and an undefined value are the same stored record.
    if (va === undefined || vb === undefined) {
      if (va !== vb) return false;
      continue;
    }
    if (!sameRecord(va, vb)) return false;
  }
  return true;
}

const MARKET_BOOKKEEPING = new Set(['first_seen_at', 'last_updated_at']);
const EVENT_BOOKKEEPING = new Set(['created_at', 'updated_at']);

/** True when two markets differ only in their bookkeeping timestamps. */
export function sameMarket(a: Market, b: Market): boolean {
  return sameRecord(a, b, MARKET_BOOKKEEPING);
}

/** True when two events differ only in their bookkeeping timestamps. */
export function sameEvent(a: Event, b: Event): boolean {
  return sameRecord(a, b, EVENT_BOOKKEEPING);
}

/** Mark summaries for the editorial layer: today's quote where there is one, else the latest mark. */
export function markSummaries(
  fresh: readonly NormalizedEvent[],
  latest: ReadonlyMap<string, Mark>,
): Map<string, MarkSummary> {
  const out = new Map<string, MarkSummary>();
  for (const [id, mark] of latest) {
    out.set(id, { last_price: mark.yes_last_price, volume_24h_usd: mark.volume_24h_usd, liquidity_usd: null });
  }
  for (const e of fresh) {
    for (const m of e.markets) {
      out.set(m.market.market_id, {
        last_price: m.quote.last_price,
        volume_24h_usd: m.quote.volume_24h_usd,
        liquidity_usd: m.quote.liquidity_usd,
      });
    }
  }
  return out;
}

export interface EditorialStageInput {
  fresh: readonly NormalizedEvent[];
  storedEvents: ReadonlyMap<string, Event>;
  storedMarkets: ReadonlyMap<string, Market>;
  marks: ReadonlyMap<string, MarkSummary>;
  now: string;
  editorial: EditorialFunctions;
  logger: PipelineLogger;
  onProgress?: ProgressListener;
}

export interface EditorialStageResult {
  /** Every fresh event after editorial (unchanged ones are the stored record itself). */
  events: Event[];
  /** Every fresh market after editorial and linking. */
  markets: Market[];
  changedEvents: Event[];
  changedMarkets: Market[];
  /** Events the editorial layer threw on: their stored records were kept, new ones stored as normalized. */
  failures: { event_id: string; venue: string; markets: number; error: string }[];
}

/** Events derived between two yields to the event loop. */
const EVENTS_PER_SLICE = 100;

/**
 * Runs deriveEvent per fresh event, then linkAcrossVenues over fresh + stored markets, and picks the
 * records that actually changed. Yields to the event loop every 100 events: where the pipeline shares a
 * thread with an HTTP server (`pmref start` on an in-memory database), requests must not wait out ten seconds
 * of editorial work.
 */
export async function runEditorialStage(input: EditorialStageInput): Promise<EditorialStageResult> {
  const { fresh, storedEvents, storedMarkets, now, editorial } = input;
  const derivedEvents: Event[] = [];
  const derivedMarkets = new Map<string, Market>();
  const failures: EditorialStageResult['failures'] = [];
  let done = 0;
  for (const n of fresh) {
    const storedEvent = storedEvents.get(n.event.event_id);
    const event: Event = storedEvent ? { ...n.event, created_at: storedEvent.created_at } : n.event;
    const markets = n.markets.map((m) => {
      const stored = storedMarkets.get(m.market.market_id);
      return { market: stored ? { ...m.market, first_seen_at: stored.first_seen_at } : m.market, facts: m.facts };
    });
    try {
      const out = editorial.deriveEvent({ event, markets, marks: input.marks, now });
      derivedEvents.push({ ...out.event, created_at: event.created_at });
      for (const m of out.markets) {
        const stored = storedMarkets.get(m.market_id);
        // Screens ride along with the main write (the stored results keep their screened_at when unchanged),
        // so the after-write stage only rescreens what this run did not derive.
        const screened = { ...m, eligibility_screens: stored?.eligibility_screens ?? null };
        const withScreens = { ...m, eligibility_screens: screensFor(screened, out.event, now) };
        derivedMarkets.set(m.market_id, stored ? { ...withScreens, first_seen_at: stored.first_seen_at } : withScreens);
      }
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
      derivedEvents.push(storedEvent ?? event);
      for (const m of markets)
        derivedMarkets.set(m.market.market_id, storedMarkets.get(m.market.market_id) ?? m.market);
    }
    done++;
    if (done % 500 === 0 || done === fresh.length)
      input.onProgress?.({ stage: 'editorial', done, total: fresh.length });
    if (done % EVENTS_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  // Link over every market we know: fresh ones plus stored ones this run did not re-derive.
  const all: Market[] = [...derivedMarkets.values()];
  for (const [id, m] of storedMarkets) if (!derivedMarkets.has(id)) all.push(m);
  const linked = editorial.linkAcrossVenues(all, input.marks);
  const markets: Market[] = [];
  const changedMarkets: Market[] = [];
  for (const m of linked) {
    if (!derivedMarkets.has(m.market_id)) continue;
    const stored = storedMarkets.get(m.market_id);
    if (stored && sameMarket(stored, m)) {
      markets.push(stored);
    } else {
      markets.push(m);
      changedMarkets.push(m);
    }
  }
  const events: Event[] = [];
  const changedEvents: Event[] = [];
  for (const e of derivedEvents) {
    const stored = storedEvents.get(e.event_id);
    if (stored && sameEvent(stored, e)) {
      events.push(stored);
    } else {
      events.push(e);
      changedEvents.push(e);
    }
  }
  return { events, markets, changedEvents, changedMarkets, failures };
}
