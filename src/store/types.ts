/**
 * The one Store interface (DESIGN.md §4–5). Two adapters implement it: SQLite (embedded default) and
 * PostgreSQL. Records are the domain schemas, stored whole (JSON) beside the columns queries need.
 */
import type {
  Catalyst,
  Event,
  Mark,
  Market,
  NewMark,
  NewResolutionLogEntry,
  ResolutionLogEntry,
  SignalBulletin,
  SpotRow,
  Venue,
} from '../domain/index.ts';

export type StoreEngine = 'sqlite' | 'postgres';
export type IdKind = 'event' | 'market';

export interface VenueRunSummary {
  pulled: number;
  stored: number;
  out_of_scope: Record<string, number>;
  rejected: Record<string, number>;
  error: string | null;
}

/** One pipeline run as recorded (the generation counter lives here). */
export interface PipelineRun {
  run_id: number;
  started_at: string;
  finished_at: string | null;
  source: string;
  status: 'running' | 'ok' | 'partial' | 'failed';
  /** The generation this run published; 0 while running and for runs that published none. */
  generation: number;
  summary: Record<string, unknown> & { venues?: Partial<Record<Venue, VenueRunSummary>> };
}

export interface ApiKeyRecord {
  key_hash: string;
  email: string;
  daily_limit: number;
  created_at: string;
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
  /** Upsert on (market_id, snapshot_date). */
  upsertMarks(marks: readonly NewMark[]): Promise<void>;
  replaceCatalysts(catalysts: readonly Catalyst[]): Promise<void>;
  /** Insert bulletins whose slug is new; existing slugs are left as they are (bulletins are immutable). */
  insertSignals(signals: readonly SignalBulletin[]): Promise<number>;
  /** Upsert on (coin, as_of). */
  insertSpot(rows: readonly SpotRow[]): Promise<void>;

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
  snapshotDates?: readonly string[];
  /** Keyset paging: only marks after this (snapshot_date, market_id), in that order. */
  after?: { snapshot_date: string; market_id: string };
  /** At most this many marks (the first ones in order). */
  limit?: number;
}

export interface Store extends StoreTx {
  readonly engine: StoreEngine;
  /** Forward-only, versioned migrations. Returns the versions applied by this call. */
  migrate(): Promise<string[]>;
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
   * reader can hold one page of records at a time.
   */
  listMarkets(filter?: { venue?: Venue; after?: string; limit?: number }): Promise<Market[]>;
  /** Every market id, ordered (no records parsed). */
  listMarketIds(): Promise<string[]>;
  getMarket(marketId: string): Promise<Market | null>;
  /** Ordered by log_id (append order). */
  listLog(filter?: { marketIds?: readonly string[] }): Promise<ResolutionLogEntry[]>;
  /** Ordered by snapshot_date, then market_id. The query's conditions combine with AND. */
  listMarks(query?: MarkQuery): Promise<Mark[]>;
  /** The newest mark per market (for carry-forward and the read model), ordered by market_id. */
  latestMarks(): Promise<Mark[]>;
  /** Distinct snapshot dates, newest first. */
  markDates(limit?: number): Promise<string[]>;
  /** Ordered by date, then the order they were given to replaceCatalysts. */
  listCatalysts(): Promise<Catalyst[]>;
  /** Newest first (published_at descending, then slug). */
  listSignals(): Promise<SignalBulletin[]>;
  /** The newest row per coin, ordered by coin. */
  latestSpot(): Promise<SpotRow[]>;

  insertApiKey(record: ApiKeyRecord): Promise<void>;
  findApiKey(keyHash: string): Promise<ApiKeyRecord | null>;

  startRun(source: string, startedAt: string): Promise<number>;
  /**
   * Finishes a run; when `publish` is true the generation counter is bumped, recorded on the run and
   * returned. When false the run keeps generation 0 and the current published generation is returned.
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
