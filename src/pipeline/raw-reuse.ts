/**
 * Raw keys (issue 18, see incremental.ts): a raw venue event whose key equals the one the last published run
 * recorded is not normalized again; its stored records stand for it. The key hashes the raw event as pulled
 * and what its normalization reads beside it: venue_a's series (the whole series map: a series change is rare
 * and re-normalizes that venue), venue_b's order books of the event's tokens.
 *
 * Normalization is per event except for one rule: a market listed under two events is kept under the first
 * (`duplicate_market_in_pull`). So when a pull lists a native event or market id twice, nothing of that venue
 * is reused (its events are normalized together, as before).
 */
import { createHash } from 'node:crypto';
import type { Venue } from '../domain/index.ts';
import type { MarkSummary } from '../editorial/index.ts';
import { type NormalizedEvent, type NormalizeResult, nativeKeysOf, type RawVenuePull } from '../venues/index.ts';
import type { RawMemo } from './incremental.ts';

/** One raw event of a pull: its native ids and its raw key (null: it cannot be recognized next run). */
export interface RawEventInput {
  raw: unknown;
  nativeEventId: string | null;
  nativeMarketIds: string[];
  key: string | null;
}

function decodeList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** venue_b: the order books a raw event's markets may read (every token of every market, in order). */
function booksOf(raw: unknown, books: Record<string, unknown>): string {
  const markets = (raw as { markets?: unknown } | null)?.markets;
  if (!Array.isArray(markets)) return '';
  const out: unknown[] = [];
  for (const m of markets) {
    for (const token of decodeList((m as { clobTokenIds?: unknown } | null)?.clobTokenIds)) {
      if (typeof token === 'string' && books[token] !== undefined) out.push(token, books[token]);
    }
  }
  return out.length === 0 ? '' : JSON.stringify(out);
}

/** venue_a: a digest of every series, by ticker (the client fills the map in the order its answers arrive). */
function seriesDigest(series: Record<string, unknown>): string {
  const hash = createHash('sha1');
  for (const ticker of Object.keys(series).sort()) hash.update(`${ticker}\0${JSON.stringify(series[ticker])}\0`);
  return hash.digest('hex');
}

/**
 * Every raw event of a pull with its native ids and raw key, and whether the ids are unique (see the module
 * comment: reuse needs them unique).
 */
export function rawEventsOf(pull: RawVenuePull, version: string): { events: RawEventInput[]; unique: boolean } {
  const context = pull.venue === 'venue_a' ? seriesDigest(pull.series) : '';
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
    let key: string | null = null;
    if (nativeEventId !== null) {
      const hash = createHash('sha1').update(`${version}\0${pull.venue}\0${context}\0`);
      if (pull.venue === 'venue_b') hash.update(booksOf(raw, pull.books)).update('\0');
      key = hash.update(JSON.stringify(raw) ?? '').digest('base64url');
    }
    events.push({ raw, nativeEventId, nativeMarketIds: keys.markets, key });
  }
  return { events, unique };
}

/** A raw memo of this run, before it is known whether its event made it through the editorial stage. */
export interface PendingRawMemo extends RawMemo {
  nativeEventId: string;
}

const summaryOf = (q: NormalizedEvent['markets'][number]['quote']): MarkSummary => ({
  last_price: q.last_price,
  volume_24h_usd: q.volume_24h_usd,
  liquidity_usd: q.liquidity_usd,
});

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
      summaries: n.markets.map((m) => summaryOf(m.quote)),
    };
  }
  return [...memoByEvent.values()];
}

/** Adds `from`'s counts into `into`. */
export function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}
