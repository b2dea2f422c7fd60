/**
 * Raw keys (issue 18, see incremental.ts): a raw venue event whose key equals the one the last published run
 * recorded is not normalized again; its stored records stand for it. The key hashes the raw event as pulled and
 * what its normalization reads beside it (venue_a's series: the whole series map, a series change is rare and
 * re-normalizes that venue; venue_b's order books of each market's tokens), in parts: the event's fields outside
 * its markets (the shell key), and per market a key of its text and a key of its shape, its text without its quote
 * part (venues `rawMarketShape`). An event whose shell and market shapes are the memo's changed in its quotes alone:
 * it is requoted instead of normalized (requote.ts). A market whose text is the memo's keeps the memo's shape key,
 * so a refresh serializes the shape only of the markets that changed.
 *
 * Normalization is per event except for one rule: a market listed under two events is kept under the first
 * (`duplicate_market_in_pull`). So when a pull lists a native event or market id twice, nothing of that venue
 * is reused (its events are normalized together, as before).
 */
import { createHash, hash } from 'node:crypto';
import type { Venue } from '../domain/index.ts';
import {
  type NormalizeResult,
  nativeKeysOf,
  nativeMarketIdOf,
  type RawVenuePull,
  rawEventShell,
  rawMarketShape,
  rawMarketText,
} from '../venues/index.ts';
import { type RawMemo, rawMemoKey } from './incremental.ts';
import { packRepriceInputs, summaryOfQuote } from './requote.ts';

/** One raw event of a pull: its native ids and its raw key (null: it cannot be recognized next run). */
export interface RawEventInput {
  raw: unknown;
  nativeEventId: string | null;
  nativeMarketIds: string[];
  /** Equal keys, equal raw events (but for the order of their fields). */
  key: string | null;
  /**
   * The hash of the code version, venue and context, the event's fields outside its markets and any market without
   * a native id. Null with `key`.
   */
  shellKey: string | null;
  /**
   * Native market id → its market key and its shape key, 16 characters each (`MARKET_KEY_CHARS`): hashes of the
   * market's text (venues `rawMarketText`) and of its shape (`rawMarketShape`), in raw order. A market whose text is
   * the memo's keeps the memo's shape key (its shape is not serialized again).
   */
  marketKeys: Map<string, string>;
}

/** venue_a: a digest of every series, by ticker (the client fills the map in the order its answers arrive). */
function seriesDigest(series: Record<string, unknown>): string {
  const hash = createHash('sha1');
  for (const ticker of Object.keys(series).sort()) hash.update(`${ticker}\0${JSON.stringify(series[ticker])}\0`);
  return hash.digest('hex');
}

/** Characters of each half of a market's keys: 96 bits of a SHA-1 in base64url. */
export const MARKET_KEY_CHARS = 16;

const shortHash = (text: string): string => hash('sha1', text, 'base64url').slice(0, MARKET_KEY_CHARS);

/**
 * Fills in the keys of one raw event: the shell key over `head` (code version, venue, context) and the event's fields
 * outside its markets, each market's keys, and the raw key over all of them. `previous`: the memo's keys of the same
 * raw event, whose shape keys stand for the markets whose text did not change.
 */
function keyEvent(
  input: RawEventInput,
  raw: Record<string, unknown>,
  pull: RawVenuePull,
  head: string,
  previous: ReadonlyMap<string, string> | undefined,
  bookTokens: readonly string[],
): void {
  const shell = createHash('sha1').update(head).update(rawEventShell(raw));
  const order = createHash('sha1');
  for (const market of Array.isArray(raw.markets) ? raw.markets : []) {
    const text = rawMarketText(pull, market, bookTokens);
    const id = nativeMarketIdOf(pull.venue, market);
    if (id === null) {
      shell.update('\0').update(text);
      continue;
    }
    const marketKey = shortHash(text);
    const known = previous?.get(id);
    const shapeKey =
      known?.startsWith(marketKey) === true
        ? known.slice(MARKET_KEY_CHARS)
        : shortHash(rawMarketShape(pull.venue, market));
    input.marketKeys.set(id, marketKey + shapeKey);
    order.update(`${id}\0${marketKey}\0`);
  }
  input.shellKey = shell.digest('base64url');
  input.key = `${input.shellKey}.${order.digest('base64url')}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every raw event of a pull with its native ids and raw key, and whether the ids are unique (see the module
 * comment: reuse needs them unique).
 */
export function rawEventsOf(
  pull: RawVenuePull,
  version: string,
  memo: ReadonlyMap<string, RawMemo> | null = null,
): { events: RawEventInput[]; unique: boolean } {
  const context = pull.venue === 'venue_a' ? seriesDigest(pull.series) : '';
  const bookTokens = Object.keys(pull.books);
  const events: RawEventInput[] = [];
  const eventIds = new Set<string>();
  const marketIds = new Set<string>();
  let unique = true;
  for (const raw of pull.events) {
    const keys = nativeKeysOf({ ...pull, events: [raw] });
    const nativeEventId = keys.events.length === 1 ? (keys.events[0] ?? null) : null;
    if (nativeEventId !== null) {
      if (eventIds.has(nativeEventId)) unique = false;
      eventIds.add(nativeEventId);
    }
    for (const id of keys.markets) {
      if (marketIds.has(id)) unique = false;
      marketIds.add(id);
    }
    const input: RawEventInput = {
      raw,
      nativeEventId,
      nativeMarketIds: keys.markets,
      key: null,
      shellKey: null,
      marketKeys: new Map(),
    };
    if (nativeEventId !== null && isRecord(raw)) {
      const previous = memo?.get(rawMemoKey(pull.venue, nativeEventId))?.marketKeys;
      keyEvent(input, raw, pull, `${version}\0${pull.venue}\0${context}\0`, previous, bookTokens);
    }
    events.push(input);
  }
  return { events, unique };
}

/** A raw memo of this run, before it is known whether its event made it through the editorial stage. */
export interface PendingRawMemo extends RawMemo {
  nativeEventId: string;
}

/**
 * What each raw event of `inputs` normalized to, read off one normalization of those events: its records'
 * outcomes (by native id) and its event. Empty when a record cannot be told apart (an id that is not among
 * the inputs' native ids): nothing of that venue is then recorded, so its next run normalizes it again.
 */
export function rawMemosOf(venue: Venue, inputs: readonly RawEventInput[], result: NormalizeResult): PendingRawMemo[] {
  const memoByEvent = new Map<string, PendingRawMemo>();
  const ownerOfMarket = new Map<string, PendingRawMemo>();
  for (const input of inputs) {
    if (input.key === null || input.nativeEventId === null) continue;
    const memo: PendingRawMemo = {
      nativeEventId: input.nativeEventId,
      key: input.key,
      shellKey: input.shellKey,
      marketKeys: input.marketKeys,
      outOfScope: {},
      rejected: {},
      event: null,
    };
    memoByEvent.set(input.nativeEventId, memo);
    for (const id of input.nativeMarketIds) ownerOfMarket.set(id, memo);
  }
  for (const r of result.records) {
    const memo = r.kind === 'event' ? memoByEvent.get(r.native_id) : ownerOfMarket.get(r.native_id);
    if (memo === undefined) return [];
    if (r.outcome === 'normalized' || r.reason === null) continue;
    const counts = r.outcome === 'out_of_scope' ? memo.outOfScope : memo.rejected;
    counts[r.reason] = (counts[r.reason] ?? 0) + 1;
  }
  for (const n of result.events) {
    const memo = n.event.platform_event_id === null ? undefined : memoByEvent.get(n.event.platform_event_id);
    if (memo === undefined || memo.event !== null || n.event.venue !== venue) return [];
    memo.event = {
      eventId: n.event.event_id,
      marketIds: n.markets.map((m) => m.market.market_id),
      summaries: n.markets.map((m) => summaryOfQuote(m.quote)),
      nativeMarketIds: n.markets.map((m) => m.market.platform_market_id),
      repriceInputs: packRepriceInputs(n),
    };
  }
  return [...memoByEvent.values()];
}

/** Adds `from`'s counts into `into`. */
export function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}
