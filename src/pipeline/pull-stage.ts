/**
 * Pull and normalize one venue (DESIGN.md §4 steps 1–2). A venue that throws, reports an error, or
 * cannot be normalized comes back as `failed` with the reason: the run goes on without it and its
 * stored records stay as they are. With a memo of the last published run (incremental.ts), raw events whose
 * raw key is unchanged are not normalized: they come back as `reused` items (raw-reuse.ts).
 */
import { eventIdFor, marketIdFor, nativeKey, type Venue } from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import type { NormalizedEvent, RawVenuePull, VenueClientOptions } from '../venues/index.ts';
import {
  nativeKeysOf,
  nativeMarketIdOf,
  normalizePull,
  pullVenueA,
  pullVenueB,
  requoteMarkets,
  type VenueQuote,
} from '../venues/index.ts';
import type { StageItem } from './editorial-stage.ts';
import { type RawMemo, rawMemoKey } from './incremental.ts';
import {
  addCounts,
  MARKET_KEY_CHARS,
  type PendingRawMemo,
  type RawEventInput,
  rawEventsOf,
  rawMemosOf,
} from './raw-reuse.ts';
import type { RequotedEvent, Requoter } from './requote.ts';
import type { StageMeter } from './stage-meter.ts';
import type { PipelineLogger } from './types.ts';
import { yesTokensOf } from './venue-tokens.ts';

export interface VenuePullOptions {
  venue_a: VenueClientOptions;
  venue_b: VenueClientOptions & { maxBookCalls?: number };
}

/**
 * What a run reads of a venue's pull once it is normalized: its counts and fallbacks, and venue_b's YES tokens
 * (the history backfill asks for prices by token). Not its pages: they are the largest thing a run holds (about
 * 170 MB of the full simulated universe's heap), and an outcome that kept them kept them through the editorial
 * stage, where a run's heap peaks (issue 18).
 */
export interface PullSummary extends Omit<RawVenuePull, 'events' | 'series' | 'books'> {
  /** venue_b: each market's YES outcome token by condition id; else empty. */
  yesTokens: ReadonlyMap<string, string>;
}

/** The summary of a pull (see PullSummary). */
export function summarizePull(pull: RawVenuePull): PullSummary {
  const { events: _events, series: _series, books: _books, ...rest } = pull;
  return { ...rest, yesTokens: pull.venue === 'venue_b' && pull.error === null ? yesTokensOf(pull) : new Map() };
}

export interface VenueOutcome {
  venue: Venue;
  pull: PullSummary;
  /** Events normalized this run; null when the venue failed (see `error`). */
  events: NormalizedEvent[] | null;
  /**
   * Every event of the pull in pull order: normalized this run, or reused (its raw input is what the last
   * published run read; not normalized). Empty when the venue failed.
   */
  items: StageItem[];
  /** What this run's normalization gave per raw event, to record once the run has published. */
  rawMemos: PendingRawMemo[];
  /**
   * Raw memos used this run (reused and requoted events, raw events that normalize to nothing), to record again: a
   * requoted event's with this pull's keys and its new quotes.
   */
  rawMemosKept: PendingRawMemo[];
  outOfScope: Record<string, number>;
  rejected: Record<string, number>;
  error: string | null;
}

/** How a venue's normalization may reuse the last published run's work (see incremental.ts). */
export interface RawReuseOptions {
  /** The code version keys are made under. */
  version: string;
  /** The last published run's memo of this venue's raw events; null: normalize every event. */
  memo: ReadonlyMap<string, RawMemo> | null;
  /** Whether a memo's event may stand for this run (its stored records, marks and clock: see run.ts). */
  usable(memo: RawMemo): boolean;
  /** Reprices a usable memo's event whose quotes alone changed (requote.ts); absent: such events are normalized. */
  requote?: Requoter;
  meter?: StageMeter;
}

/**
 * The requoted event of a raw event that changed in its markets' quotes alone (requote.ts), or null (normalize it):
 * its shell key and its markets (native ids, in order) are the memo's, and every market whose text changed kept its
 * shape, is one of the memo's event's markets and reads as a quote.
 */
function requoteEvent(
  pull: RawVenuePull,
  input: RawEventInput,
  memo: RawMemo,
  requote: Requoter,
): RequotedEvent | null {
  const event = memo.event;
  if (event === null || memo.shellKey === null || memo.shellKey !== input.shellKey) return null;
  if (memo.marketKeys.size !== input.marketKeys.size) return null;
  const changed = new Map<string, string>();
  const before = memo.marketKeys.entries();
  for (const [nativeId, keys] of input.marketKeys) {
    const [id, known] = before.next().value as [string, string];
    if (id !== nativeId) return null;
    if (known === keys) continue;
    if (known.slice(MARKET_KEY_CHARS) !== keys.slice(MARKET_KEY_CHARS)) return null;
    const at = event.nativeMarketIds.indexOf(nativeId);
    if (at < 0) return null;
    changed.set(nativeId, event.marketIds[at] as string);
  }
  const rawMarkets = (input.raw as { markets?: unknown[] }).markets ?? [];
  const raws = rawMarkets.filter((m) => changed.has(nativeMarketIdOf(pull.venue, m) ?? ''));
  if (raws.length !== changed.size) return null;
  const quotes = new Map<string, VenueQuote>();
  for (const [i, q] of requoteMarkets(pull, input.raw, raws).entries()) {
    const id = changed.get(nativeMarketIdOf(pull.venue, raws[i]) ?? '');
    if (q === null || id === undefined) return null;
    quotes.set(id, q);
  }
  return requote(event, quotes);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function emptyPull(venue: Venue, error: string): RawVenuePull {
  return { venue, events: [], series: {}, books: {}, pulled: 0, error };
}

function sortedCounts(first: Record<string, number>, more: readonly Record<string, number>[]): Record<string, number> {
  const sum = { ...first };
  for (const m of more) addCounts(sum, m);
  return Object.fromEntries(Object.entries(sum).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Pulls one venue; never throws (a throw becomes the pull's error). */
export async function pullVenue(
  venue: Venue,
  options: VenuePullOptions,
  logger: PipelineLogger,
): Promise<RawVenuePull> {
  try {
    return venue === 'venue_a'
      ? await pullVenueA({ logger, ...options.venue_a })
      : await pullVenueB({ logger, ...options.venue_b });
  } catch (err) {
    return emptyPull(venue, `pull failed: ${message(err)}`);
  }
}

/** The native id inside a registry key (`venue:nativeId`); keys given bare are taken as they are. */
function nativeIdOf(venue: Venue, key: string): string {
  const prefix = `${venue}:`;
  return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

/**
 * Registers every native key of a pull in the store's id registry in one batch per kind, then
 * normalizes the pull with those ids (spec §2.1–2.2; ids never change once registered).
 */
export async function normalizeVenue(
  store: Store,
  pull: RawVenuePull,
  now: string,
  reuse?: RawReuseOptions,
): Promise<VenueOutcome> {
  const venue = pull.venue;
  const failed = (error: string): VenueOutcome => ({
    venue,
    pull: summarizePull(pull),
    events: null,
    items: [],
    rawMemos: [],
    rawMemosKept: [],
    outOfScope: {},
    rejected: {},
    error,
  });
  if (pull.error !== null) return failed(pull.error);
  try {
    const part = <T>(name: string, work: () => T): T => (reuse?.meter ? reuse.meter.part(name, work) : work());
    // Which raw events this run must normalize: all of them, unless a memo says some are unchanged.
    const raw = reuse ? part('normalize.raw_keys', () => rawEventsOf(pull, reuse.version, reuse.memo)) : null;
    const kept = new Map<string, PendingRawMemo>();
    const requoted = new Map<string, RequotedEvent>();
    let toNormalize = pull;
    let inputs = raw?.events ?? [];
    if (raw && reuse?.memo && raw.unique) {
      const memo = reuse.memo;
      inputs = [];
      for (const input of raw.events) {
        const m = input.nativeEventId === null ? undefined : memo.get(rawMemoKey(venue, input.nativeEventId));
        if (m === undefined || input.nativeEventId === null || input.key === null || !reuse.usable(m)) {
          inputs.push(input);
        } else if (m.key === input.key) {
          kept.set(input.nativeEventId, { ...m, nativeEventId: input.nativeEventId });
        } else {
          const r = reuse.requote
            ? part('normalize.requote', () => requoteEvent(pull, input, m, reuse.requote as Requoter))
            : null;
          if (r === null) {
            inputs.push(input);
            continue;
          }
          requoted.set(input.nativeEventId, r);
          // What the next run compares against: this pull's keys, the event's new quotes.
          kept.set(input.nativeEventId, {
            ...m,
            key: input.key,
            marketKeys: input.marketKeys,
            event: { ...(m.event as NonNullable<RawMemo['event']>), summaries: r.summaries },
            nativeEventId: input.nativeEventId,
          });
        }
      }
      toNormalize = { ...pull, events: inputs.map((i) => i.raw) };
    }
    const keys = nativeKeysOf(toNormalize);
    const eventKeys = keys.events.map((k) => nativeKey(venue, nativeIdOf(venue, k)));
    const marketKeys = keys.markets.map((k) => nativeKey(venue, nativeIdOf(venue, k)));
    const eventIds = await store.resolveIds('event', eventKeys, (key, attempt) =>
      eventIdFor(venue, nativeIdOf(venue, key), attempt),
    );
    const marketIds = await store.resolveIds('market', marketKeys, (key, attempt) =>
      marketIdFor(venue, nativeIdOf(venue, key), attempt),
    );
    const eventIdByKey = new Map(eventKeys.map((k, i) => [k, eventIds[i] ?? '']));
    const marketIdByKey = new Map(marketKeys.map((k, i) => [k, marketIds[i] ?? '']));
    const lookup = (map: Map<string, string>, kind: string, nativeId: string): string => {
      const id = map.get(nativeKey(venue, nativeId));
      if (id === undefined || id === '') {
        throw new Error(`${venue}: ${kind} '${nativeId}' was not among the pull's native keys (nativeKeysOf)`);
      }
      return id;
    };
    const result = part('normalize.venue', () =>
      normalizePull(
        toNormalize,
        {
          eventId: (nativeId) => lookup(eventIdByKey, 'event', nativeId),
          marketId: (nativeId) => lookup(marketIdByKey, 'market', nativeId),
        },
        now,
      ),
    );
    // Summed over this run's normalization and the reused memos; keys sorted, so a reusing run reports the
    // very object a full run does.
    const keptMemos = [...kept.values()];
    const outOfScope = sortedCounts(
      result.outOfScope,
      keptMemos.map((m) => m.outOfScope),
    );
    const rejected = sortedCounts(
      result.rejected,
      keptMemos.map((m) => m.rejected),
    );
    let items: StageItem[] = result.events.map((n) => ({ normalized: n }));
    if (raw && reuse && kept.size > 0) {
      // Back into pull order, which a full run keeps (it orders the stage's lists and today's marks).
      const byNativeId = new Map(result.events.map((n) => [n.event.platform_event_id, n]));
      items = [];
      for (const input of raw.events) {
        const memo = input.nativeEventId === null ? undefined : kept.get(input.nativeEventId);
        const n = input.nativeEventId === null ? undefined : byNativeId.get(input.nativeEventId);
        const r = input.nativeEventId === null ? undefined : requoted.get(input.nativeEventId);
        if (r !== undefined) items.push({ requoted: r });
        else if (memo?.event) items.push({ reused: memo.event });
        else if (memo === undefined && n !== undefined) items.push({ normalized: n });
      }
      // An event the pull order cannot place: normalize the venue whole instead.
      if (items.length !== result.events.length + keptMemos.filter((m) => m.event !== null).length) {
        return normalizeVenue(store, pull, now, { ...reuse, memo: null });
      }
    }
    return {
      venue,
      pull: summarizePull(pull),
      events: result.events,
      items,
      rawMemos: raw?.unique ? rawMemosOf(venue, inputs, result) : [],
      rawMemosKept: keptMemos,
      outOfScope,
      rejected,
      error: null,
    };
  } catch (err) {
    return failed(`normalize failed: ${message(err)}`);
  }
}
