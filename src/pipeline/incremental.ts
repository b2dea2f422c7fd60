/**
 * What an hourly refresh may skip (issue 18): the pipeline remembers, per store, what the last published run
 * read for each event, so the next run re-does only the events whose inputs changed and takes the stored
 * records for the rest.
 *
 * Two keys per event, each a hash of everything a step reads:
 * - the **raw key** (raw-reuse.ts): the venue's raw event (plus the series or order books it reads) — equal keys
 *   skip normalization, the editorial layer and the record comparison; today's marks are re-timed from the
 *   last run's (mark-retime.ts). Its parts say more: when only some markets' quote parts differ, the event is
 *   requoted (requote.ts: repriced from what the memo kept, not normalized);
 * - the **editorial key** (`editorialKeyOf`): the normalized event and markets without their bookkeeping
 *   timestamps, their venue facts, the mark summaries deriveEvent reads for those markets, the stored
 *   `created_at` / `first_seen_at` — equal keys skip deriveEvent and the comparison. It is two hashes, the
 *   quotes apart from the rest (`quotesOnlyChanged`): when only the quotes differ, the stored records are
 *   repriced (editorial `repriceEvent`: the ladder distribution and primary market) instead of derived.
 * Both start with the code version (`codeVersion`): a hash of the code and data that shape the records. Beside them,
 * per market, a SHA-1 of the raw payload of the mark the run left as its latest (`rawPayloads`): a fresh mark of the
 * same day with the same payload is moved in place by the next run (run.ts `todaysMarks`, `StoreTx.retimeMarks`).
 *
 * What the editorial layer reads from `now`: nothing (it is passed in but no rule reads it: see
 * src/editorial/canon/canon-event.ts). Normalization reads it for the bookkeeping timestamps (left out of
 * the keys: a reused record keeps the stored ones, as an unchanged record always did) and for one derived
 * status (a market the venue reports open past its close time is `closed`): a raw key is used only when no
 * market of its event would cross its close time at this run's clock, and never for a clock earlier than the
 * run that recorded it. Screens, links, catalysts and signals depend on `now` and on every market: they are
 * recomputed every run.
 *
 * **Where the keys live.** In memory, per store object (the pipeline thread of `pmref start` keeps its store
 * across runs), recorded only when a run has published and used only while the store's last published run is
 * the run that recorded them (a failed run, another process's run, or a restart leaves them unused: the next
 * run re-derives everything and records them again). A pipeline thread replaced after its runs (thread.ts) hands
 * them to the next one. Keeping them in the store instead would let a restart skip work too; that needs a table
 * (see the report of issue 18).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Event, Market, Venue } from '../domain/index.ts';
import type { MarkSummary } from '../editorial/index.ts';
import type { PipelineRun, Store } from '../store/index.ts';
import type { NormalizedEvent } from '../venues/index.ts';
import type { MarksWindow } from './marks-window.ts';

/** Bumped when what a key covers changes (this file, raw-reuse.ts). */
const KEY_FORMAT = 'incremental-3';

/** Folders and files whose content shapes an event's records: a change to any of them changes every key. */
const VERSIONED_PATHS = [
  'src/editorial',
  'src/venues',
  'src/domain',
  'src/pipeline',
  // The screen regimes: stored screens stand on a refresh (pipeline/screens.ts `screensStand`) only under the regimes
  // that screened them; a pipeline thread that replaces another reads the regime files again.
  'src/signals/screens',
  'data/screens',
  'data/editorial',
  'data/registry',
  'package-lock.json',
];

let cachedCodeVersion: string | null = null;

function addFiles(root: string, path: string, hash: ReturnType<typeof createHash>): void {
  const full = join(root, path);
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) addFiles(root, join(path, name), hash);
    return;
  }
  hash.update(`${path}\0`);
  hash.update(readFileSync(full));
  hash.update('\0');
}

/**
 * The code version every key starts with: a SHA-1 over the editorial, venue, domain and pipeline sources, the
 * editorial and registry data files and the dependency lock, read once per process (about 1 MB). No one has
 * to remember to bump it. When the sources cannot be read (an installation without them), a random version:
 * keys then hold within this process only, which is all an in-memory memo needs.
 */
export function codeVersion(): string {
  if (cachedCodeVersion !== null) return cachedCodeVersion;
  const hash = createHash('sha1').update(KEY_FORMAT);
  try {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    for (const path of VERSIONED_PATHS) addFiles(root, path, hash);
    cachedCodeVersion = `${KEY_FORMAT}:${hash.digest('base64url')}`;
  } catch {
    cachedCodeVersion = `${KEY_FORMAT}:unversioned:${randomUUID()}`;
  }
  return cachedCodeVersion;
}

const editorialIds = new WeakMap<object, string>();

/**
 * The version keys are made under: the code version with the default editorial functions; a version of its
 * own for any other implementation (a test seam), so a memo is never used across two implementations.
 */
export function versionFor(editorial: object | undefined, explicit?: string): string {
  if (explicit !== undefined) return explicit;
  if (editorial === undefined) return codeVersion();
  let id = editorialIds.get(editorial);
  if (id === undefined) {
    id = `custom:${randomUUID()}`;
    editorialIds.set(editorial, id);
  }
  return `${codeVersion()}|${id}`;
}

/** What normalizing one raw venue event gave, recorded for the next run (see raw-reuse.ts). */
export interface RawMemo {
  /** The raw key (raw-reuse.ts `RawEventInput.key`). */
  key: string;
  /** The raw event's shell key and its markets' keys by native id (raw-reuse.ts `RawEventInput`). */
  shellKey: string | null;
  marketKeys: Map<string, string>;
  /** Out-of-scope and rejected records of this raw event, by reason. */
  outOfScope: Record<string, number>;
  rejected: Record<string, number>;
  /** The event it normalized to, or null when none (every record out of scope or rejected). */
  event: {
    eventId: string;
    /** Its markets, in normalized order. */
    marketIds: string[];
    /** Each market's quote summary (last price, 24 h volume, liquidity), parallel to marketIds. */
    summaries: MarkSummary[];
    /** Each market's native id, parallel to marketIds. */
    nativeMarketIds: string[];
    /**
     * What the editorial layer was given for the event but for the quotes (the normalized event and each market's
     * venue facts, requote.ts `packRepriceInputs`): a raw event whose quotes alone changed is repriced from these
     * without being normalized again. Null when they could not be kept.
     */
    repriceInputs: string | null;
  } | null;
}

/** What one published run left for the next. */
export interface IncrementalState {
  /** The published run that recorded it; usable only while it is the store's last published run. */
  runId: number;
  generation: number;
  /** That run's clock: a raw memo is never used at an earlier clock. */
  asOf: string;
  version: string;
  /** `venue:nativeEventId` → memo. */
  raw: Map<string, RawMemo>;
  /** event_id → editorial key. */
  editorial: Map<string, string>;
  /**
   * market_id → `rawPayloadHash` of the raw payload of the market's latest stored mark, for the markets whose latest
   * mark that run (or one before it) wrote with a raw payload: a fresh mark of the same day with the same payload may
   * then move in place (run.ts) without the stored payload being read.
   */
  rawPayloads: Map<string, string>;
  /**
   * The marks the signal detectors read in that run, as it left them (marks-window.ts): the next run's earlier days
   * come from here instead of the store. Null when that run read none (no after-write stage) or could not pack them.
   */
  marksWindow: MarksWindow | null;
}

/** A strong hash of a raw payload's JSON text (the text the store keeps as content). */
export function rawPayloadHash(payload: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(payload) ?? '')
    .digest('base64url');
}

const states = new WeakMap<Store, IncrementalState>();

/**
 * The memo recorded by the store's last published run, or null when there is none to trust: nothing recorded
 * in this process, another run published since (a failed run publishes nothing and leaves it usable), or
 * another code version.
 */
export function usableState(store: Store, lastPublished: PipelineRun | null, version: string): IncrementalState | null {
  const state = states.get(store);
  if (state === undefined || lastPublished === null) return null;
  if (state.runId !== lastPublished.run_id || state.generation !== lastPublished.generation) return null;
  return state.version === version ? state : null;
}

/** Records what a run that has published leaves for the next one. */
export function recordState(store: Store, state: IncrementalState): void {
  states.set(store, state);
}

/**
 * The memo recorded for the store, whatever run recorded it: what a pipeline thread hands to the one that replaces
 * it (thread.ts), which records it for its own store object. `usableState` still decides whether a run may use it.
 */
export function recordedState(store: Store): IncrementalState | null {
  return states.get(store) ?? null;
}

/** Forgets the store's memo (the next run re-derives everything). */
export function forgetState(store: Store): void {
  states.delete(store);
}

const MARKET_BOOKKEEPING = { first_seen_at: undefined, last_updated_at: undefined };
const EVENT_BOOKKEEPING = { created_at: undefined, updated_at: undefined };

/**
 * The editorial key of one normalized event: everything deriveEvent reads for it (and what the stage copies onto
 * its result), as `<inputs>.<quotes>`: a SHA-1 over the event and its markets without their bookkeeping
 * timestamps, their venue facts and the `created_at` / `first_seen_at` it is given, then one over the mark
 * summaries of those markets. `now` is left out: no editorial rule reads it (see the module comment).
 */
export function editorialKeyOf(
  n: NormalizedEvent,
  storedEvent: Event | undefined,
  storedMarkets: ReadonlyMap<string, Market>,
  marks: ReadonlyMap<string, MarkSummary>,
  version: string,
): string {
  const hash = createHash('sha1').update(version).update('\0');
  hash.update(JSON.stringify({ ...n.event, ...EVENT_BOOKKEEPING }));
  // The created_at / first_seen_at deriveEvent is given: the stored ones, else this run's (which the next run
  // finds stored), so a new event's key holds from its first run on.
  hash.update(`\0${storedEvent?.created_at ?? n.event.created_at}`);
  for (const m of n.markets) {
    const id = m.market.market_id;
    hash.update('\0');
    hash.update(JSON.stringify({ ...m.market, ...MARKET_BOOKKEEPING }));
    hash.update('\0');
    hash.update(JSON.stringify(m.facts));
    hash.update(`\0${storedMarkets.get(id)?.first_seen_at ?? m.market.first_seen_at}\0`);
  }
  return `${hash.digest('base64url')}.${quotesKeyOf(n.markets.map((m) => marks.get(m.market.market_id)))}`;
}

/** The quotes half of an editorial key: a SHA-1 of the mark summaries of an event's markets, in event order. */
export function quotesKeyOf(summaries: readonly (MarkSummary | undefined)[]): string {
  const quotes = createHash('sha1');
  for (const s of summaries) {
    quotes.update(s === undefined ? '-\0' : `${s.last_price}|${s.volume_24h_usd}|${s.liquidity_usd}\0`);
  }
  return quotes.digest('base64url');
}

/** An editorial key with its inputs half kept and its quotes half replaced (see `quotesOnlyChanged`). */
export function withQuotesKey(key: string, quotesKey: string): string | null {
  const dot = key.indexOf('.');
  return dot > 0 ? `${key.slice(0, dot)}.${quotesKey}` : null;
}

/**
 * True when two editorial keys of one event differ in the quotes only: its stored records may be repriced
 * instead of derived (editorial-stage.ts).
 */
export function quotesOnlyChanged(previous: string, next: string): boolean {
  const dot = next.indexOf('.');
  return previous !== next && dot > 0 && previous.startsWith(next.slice(0, dot + 1));
}

/** The memo key of a raw event. */
export const rawMemoKey = (venue: Venue, nativeEventId: string): string => `${venue}:${nativeEventId}`;
