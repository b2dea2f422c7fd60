/**
 * The one Store interface (DESIGN.md §4–5). Two adapters implement it: SQLite (embedded default) and
 * PostgreSQL. Records are the domain schemas, returned exactly as written (stored as JSON beside the columns
 * queries need; marks as typed columns and repeated parts once in `content` since migration 0006).
 */
import type {
  Catalyst,
  Change,
  Event,
  Mark,
  Market,
  MarkFacts,
  MarkFigures,
  NewChange,
  NewMark,
  NewResolutionLogEntry,
  ResolutionLogEntry,
  SignalBulletin,
  SpotRow,
  Venue,
} from '../domain/index.ts';
import type { HourKey, HourlyMark } from './hourly-codec.ts';

export type StoreEngine = 'sqlite' | 'postgres';
export type IdKind = 'event' | 'market';

export interface VenueRunSummary {
  pulled: number;
  stored: number;
  out_of_scope: Record<string, number>;
  rejected: Record<string, number>;
  error: string | null;
  /** HTTP requests the pull made to the venue, and retries among them (absent when the source makes none). */
  requests?: number;
  retries?: number;
  /** How the pull's responses departed from the venue's published OpenAPI document (absent: not watched). */
  drift?: VenueDriftSummary;
}

/**
 * One pull's drift against its venue's published document, as the run record keeps it. The venue room's drift
 * watch (src/venues/drift/watch.ts) produces it; the store cannot import that room (DESIGN.md §6), so the shape
 * is declared here too and tsc checks the two agree where the pipeline copies one into the other (run.ts).
 */
export interface VenueDriftSummary {
  document: string;
  checked: { responses: number; records: number; shapes: number };
  /** Per kind: distinct (record, field) paths (pagination: distinct findings), and the records (pages) showing one. */
  kinds: Record<
    'unknown_field' | 'missing_required' | 'type_mismatch' | 'pagination',
    { fields: number; records: number }
  >;
  records_with_drift: number;
  /** The most frequent distinct findings (bounded). */
  examples: Array<{
    record: string;
    field: string;
    kind: string;
    records: number;
    documented?: string;
    observed?: string;
    detail?: string;
  }>;
  cost_ms: number;
}

/** One pipeline run as recorded (the generation counter lives here). */
export interface PipelineRun {
  run_id: number;
  started_at: string;
  finished_at: string | null;
  source: string;
  /**
   * `aborted`: the process running it ended before it published (found `running` by a later start, see
   * abortRun); nothing of it was ever visible.
   */
  status: 'running' | 'ok' | 'partial' | 'failed' | 'aborted';
  /** The generation this run published; 0 while running and for runs that published none. */
  generation: number;
  summary: Record<string, unknown> & { venues?: Partial<Record<Venue, VenueRunSummary>> };
}

/** A published run as the hourly history sees it (Store.runHours). */
export interface RunHour {
  hour: HourKey;
  run_id: number;
  as_of: string;
  venues: Partial<Record<Venue, 'ok' | 'failed'>>;
  hourly_retention_days: number | null;
}

/** Which process runs a pipeline run: recorded at its start, read by a later start to judge whether it died. */
export interface RunOwner {
  host: string;
  pid: number;
  /** When that process started (ISO): with `pid` it tells a reused pid from the original process. */
  process_started_at: string;
}

/** A run still recorded `running`, with the process that started it (null for runs recorded before 0004). */
export interface RunningRun extends PipelineRun {
  owner: RunOwner | null;
}

/** A started run, held by this process until `release()` (PostgreSQL: a session advisory lock on the run). */
export interface RunHandle {
  run_id: number;
  release(): Promise<void>;
}

/** How the publish transaction closes a run (see Store.publishRun). */
export interface RunFinish {
  status: PipelineRun['status'];
  summary: PipelineRun['summary'];
  finishedAt: string;
}

export interface ApiKeyRecord {
  key_hash: string;
  email: string;
  daily_limit: number;
  created_at: string;
}

/** Marks written with a stored raw payload kept by content id (`StoreTx.upsertMarks`). */
export interface KeptRawPayloads {
  rawPayloadIds: ReadonlyMap<NewMark, number>;
}

/** Everything one pipeline run writes, applied in a single transaction. */
export interface RunWrite {
  events: Event[];
  markets: Market[];
  logEntries: NewResolutionLogEntry[];
  marks: NewMark[];
}

/** Writes available inside a transaction. All upserts replace the whole record by its key. */
export interface StoreTx {
  upsertEvents(events: readonly Event[]): Promise<void>;
  upsertMarkets(markets: readonly Market[]): Promise<void>;
  /** Appends; never updates. Returns the number appended. */
  appendLog(entries: readonly NewResolutionLogEntry[]): Promise<number>;
  /** appendLog that returns the entries as stored, each with the log_id it was given, in input order. */
  appendLogEntries(entries: readonly NewResolutionLogEntry[]): Promise<ResolutionLogEntry[]>;
  /**
   * Upsert on (market_id, snapshot_date). A mark in `keep.rawPayloadIds` (its raw_payload null) keeps the stored
   * raw payload of that content id (`latestMarkFacts`) instead of one serialized from the mark; the write fails when
   * such a content row is gone.
   */
  upsertMarks(marks: readonly NewMark[], keep?: KeptRawPayloads): Promise<void>;
  /**
   * Moves stored marks to a later time of their own day in place (issue 18: an hourly refresh re-times most of today's
   * marks): each given mark's time fields (snapshot_at, source_updated_at, stale_flag, hours_since_source_update)
   * replace those of the stored mark of its market and date; nothing else of the row is written. Only for a mark equal
   * to the stored one in every other field (its raw payload the stored one): the caller's check (run.ts). Returns the
   * marks it did not move (no stored mark that day, a stored row or a mark with fields outside the typed columns), for
   * `upsertMarks`.
   */
  retimeMarks(marks: readonly NewMark[]): Promise<NewMark[]>;
  replaceCatalysts(catalysts: readonly Catalyst[]): Promise<void>;
  /** Stages history marks of run `runId` (upsert on market and date); nothing reads them but the run itself. */
  stageMarks(runId: number, marks: readonly NewMark[]): Promise<void>;
  /**
   * Moves run `runId`'s staged history marks into `marks`, never replacing a mark already stored for that market
   * and date (a real snapshot beats history), and deletes them from the stage. Returns the marks moved.
   */
  publishStagedMarks(runId: number): Promise<number>;
  /** Insert bulletins whose slug is new; existing slugs are left as they are (bulletins are immutable). */
  insertSignals(signals: readonly SignalBulletin[]): Promise<number>;
  /** insertSignals that returns the bulletins that were new (the change feed reports those only). */
  insertNewSignals(signals: readonly SignalBulletin[]): Promise<SignalBulletin[]>;
  /**
   * Appends to the change feed (issue 20), numbering the changes in order after the last stored seq: dense, never
   * reused. Concurrent appenders are serialized until commit (PostgreSQL: a table lock that plain reads ignore), so
   * seqs become visible in order. Call it in `publishRun`'s write, so the changes appear with their generation.
   * Returns the number appended.
   */
  appendChanges(changes: readonly NewChange[]): Promise<number>;
  /** Upsert on (coin, as_of). */
  insertSpot(rows: readonly SpotRow[]): Promise<void>;
  /** Hourly detail (issue 20): upsert on (market_id, snapshot_hour). Returns the rows written. */
  upsertHourlyMarks(marks: readonly HourlyMark[]): Promise<number>;
  /** Deletes the hourly marks of hours before `beforeHour` (`YYYY-MM-DDTHH`). Returns the rows deleted. */
  pruneHourlyMarks(beforeHour: HourKey): Promise<number>;

  /**
   * Returns the id registered for (kind, nativeKey), registering `makeId(0)` the first time. When that id
   * already belongs to another native key (a hash collision), tries makeId(1), makeId(2)… and records which.
   */
  resolveId(kind: IdKind, nativeKey: string, makeId: (attempt: number) => string): Promise<string>;
  /** Batch form of resolveId, same rules; returns ids in input order. */
  resolveIds(
    kind: IdKind,
    nativeKeys: readonly string[],
    makeId: (key: string, attempt: number) => string,
  ): Promise<string[]>;
}

export interface MarkQuery {
  marketIds?: readonly string[];
  since?: string; // snapshot_date >= since
  until?: string; // snapshot_date <= until
  snapshotDates?: readonly string[];
  /** Keyset paging: only marks after this (snapshot_date, market_id), in that order. */
  after?: { snapshot_date: string; market_id: string };
  /** At most this many marks (the first ones in order). */
  limit?: number;
  /**
   * Leave each mark's raw venue payload out: it is neither read nor inflated (most of the cost of reading a mark,
   * and nothing but the marks feed serves it). Histories, charts, exports and the signals' window read this way.
   */
  withoutRaw?: boolean;
  /**
   * Read only each mark's figures (domain `MarkFigures`: ids, prices, volume, ask sizes, method, staleness), not
   * its times, provenance or payload: the signals' nine-day window reads this way.
   */
  figuresOnly?: boolean;
}

export interface Store extends StoreTx {
  readonly engine: StoreEngine;
  /** Forward-only, versioned migrations. Returns the versions applied by this call. */
  migrate(): Promise<string[]>;
  /**
   * The store's identity: a random id written once when the store was created (migration 0003) and never
   * rewritten, so anything derived from a store (a read-model pack) can tell which store it came from.
   * Two stores never share one, even in the same folder or at the same generation. Throws before migrate().
   */
  identity(): Promise<string>;
  close(): Promise<void>;

  /**
   * Runs `fn` in one transaction; any throw rolls every write back. Inside `fn` use only `tx`: calling
   * the store itself there throws (on SQLite it would wait forever for its own connection).
   */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;

  /** Ordered by event_id. */
  listEvents(): Promise<Event[]>;
  /**
   * Ordered by market_id. `after` and `limit` page through them (keyset: the ids greater than `after`), so a
   * reader can hold one page of records at a time. `lazy`: each record is read by its catalog entry and read whole
   * on first use of anything else (lazy-market.ts; the same records, at a fraction of the cost for a reader that
   * uses only the entry's fields of most of them, such as a pipeline run).
   */
  listMarkets(filter?: { venue?: Venue; after?: string; limit?: number; lazy?: boolean }): Promise<Market[]>;
  /** Every market id, ordered (no records parsed). */
  listMarketIds(): Promise<string[]>;
  getMarket(marketId: string): Promise<Market | null>;
  /** Ordered by log_id (append order). */
  listLog(filter?: { marketIds?: readonly string[] }): Promise<ResolutionLogEntry[]>;
  /** Ordered by snapshot_date, then market_id. The query's conditions combine with AND. */
  listMarks(query: MarkQuery & { figuresOnly: true }): Promise<MarkFigures[]>;
  listMarks(query: MarkQuery & { withoutRaw: true }): Promise<MarkFacts[]>;
  listMarks(query?: MarkQuery): Promise<Mark[]>;
  /** The newest mark per market, raw payload included, ordered by market_id. */
  latestMarks(): Promise<Mark[]>;
  /**
   * latestMarks without the raw payloads read (what a pipeline run reads: carry-forward, re-timed marks, the mark
   * summaries): each mark's facts and the content id its raw payload is kept under
   * (null: none), so that a mark of the same quote can keep it (`upsertMarks`' `keep`) without it being read,
   * serialized and hashed again (issue 18: a refresh re-times most of its marks).
   */
  latestMarkFacts(): Promise<{ mark: MarkFacts; rawPayloadId: number | null }[]>;
  /** Distinct snapshot dates, newest first. */
  markDates(limit?: number): Promise<string[]>;
  /** Ordered by date, then the order they were given to replaceCatalysts. */
  listCatalysts(): Promise<Catalyst[]>;
  /** Newest first (published_at descending, then slug). */
  listSignals(): Promise<SignalBulletin[]>;
  /** The change feed in seq order: the changes after seq `after` (default 0), at most `limit` (default all). */
  listChanges(query?: { after?: number; limit?: number }): Promise<Change[]>;
  /** The newest seq of the change feed; 0 while it is empty. */
  lastChangeSeq(): Promise<number>;
  /** The newest row per coin, ordered by coin. */
  latestSpot(): Promise<SpotRow[]>;
  /**
   * One market's hourly marks of the hours `fromHour` to `toHour` (inclusive), oldest first, preceded by its newest
   * hourly mark before `fromHour` when there is one (the value that held when the range starts).
   */
  listHourlyMarks(marketId: string, fromHour: HourKey, toHour: HourKey): Promise<HourlyMark[]>;
  /**
   * The hours from `fromHour` to `toHour` (inclusive) in which a published run started, oldest first: per hour the
   * last such run, its clock (`as_of`), which venues it read (`ok`) or not (`failed`: an error, or absent from its
   * summary) and the hourly retention it ran with (null: a run from before hourly detail).
   */
  runHours(fromHour: HourKey, toHour: HourKey): Promise<RunHour[]>;

  insertApiKey(record: ApiKeyRecord): Promise<void>;
  findApiKey(keyHash: string): Promise<ApiKeyRecord | null>;
  /**
   * Issues a key only if no key was issued to `record.email` before (one key per address; the caller passes the
   * address normalized, see `normalizeEmail` in the HTTP layer). Atomic across replicas: of two concurrent calls
   * for one address, one gets `issued`, the other `email_taken`, and nothing of the second is stored.
   */
  issueApiKey(record: ApiKeyRecord): Promise<'issued' | 'email_taken'>;

  startRun(source: string, startedAt: string): Promise<number>;
  /**
   * Starts a run owned by this process (recorded `running` with `owner`). On PostgreSQL the run is locked by a
   * session advisory lock from before its row is visible until `release()` (or until the process dies, which
   * frees it), so abortRun can tell a live run on another host from a dead one. SQLite: no lock.
   */
  beginRun(source: string, startedAt: string, owner: RunOwner): Promise<RunHandle>;
  /** Runs recorded `running`, oldest first. */
  runningRuns(): Promise<RunningRun[]>;
  /**
   * Marks a `running` run `aborted` with `summary` (why) and deletes its staged marks, in one transaction.
   * PostgreSQL: refuses (returns false) while any session holds the run's lock, i.e. while its process lives.
   * Returns whether the run was aborted (false also when it was no longer running).
   */
  abortRun(runId: number, summary: PipelineRun['summary'], finishedAt: string): Promise<boolean>;
  /**
   * Run `runId`'s staged marks, ordered by snapshot_date then market_id; `since`, `withoutRaw` and `figuresOnly`
   * as in listMarks.
   */
  listStagedMarks(runId: number, query: { since?: string; figuresOnly: true }): Promise<MarkFigures[]>;
  listStagedMarks(runId: number, query: { since?: string; withoutRaw: true }): Promise<Omit<NewMark, 'raw_payload'>[]>;
  listStagedMarks(runId: number, query?: { since?: string; withoutRaw?: boolean }): Promise<NewMark[]>;
  /**
   * The publish: runs `write` and closes run `runId` as `finish()` says, bumping the generation, in ONE
   * transaction, so readers see all of the run or none of it. Publishes are serialized (PostgreSQL: an
   * advisory lock taken first). Throws, rolling everything back, when the run is no longer `running` (a later
   * start aborted it). `beforeCommit` runs last inside the transaction (the kill-at-stage test's seam).
   * Returns the new generation and what `write` returned. `write` is told the generation it will publish (the
   * change feed stamps its changes with it).
   */
  publishRun<T>(
    runId: number,
    write: (tx: StoreTx, generation: number) => Promise<T>,
    finish: (written: T) => RunFinish,
    beforeCommit?: () => Promise<void> | void,
  ): Promise<{ generation: number; written: T }>;
  /**
   * Finishes a run (and drops any marks it staged); when `publish` is true the generation counter is bumped,
   * recorded on the run and returned. When false the run keeps generation 0 and the current published
   * generation is returned.
   */
  finishRun(
    runId: number,
    status: PipelineRun['status'],
    summary: PipelineRun['summary'],
    finishedAt: string,
    publish: boolean,
  ): Promise<number>;
  /** The published generation: 0 before the first published run. */
  generation(): Promise<number>;
  /** The most recently started run; with `published`, the run that published the current generation. */
  lastRun(filter?: { published?: boolean }): Promise<PipelineRun | null>;
  counts(): Promise<{ events: number; markets: number; marks: number; log: number; signals: number }>;
}
