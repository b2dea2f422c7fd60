/**
 * Table shapes as kysely sees them. Most record tables keep the whole domain record as JSON text in
 * `record` (so it round-trips exactly) beside the few columns that queries filter, join or sort on.
 * Since migration 0006 (issue 18) marks are typed columns (mark-codec.ts), and markets and events keep a
 * packed body with their repeated parts in `content` (record-codec.ts, content-store.ts).
 * Dates and timestamps in key columns are ISO 8601 text on both engines: they sort correctly as text and come
 * back byte-for-byte as they were written.
 */
import type { Generated } from 'kysely';
import type { HourlyRow } from './hourly-codec.ts';
import type { MarkRow } from './mark-codec.ts';

export interface SchemaMigrationsTable {
  version: string;
  applied_at: string;
}

export interface EventsTable {
  event_id: string;
  venue: string | null;
  category: string;
  slug: string;
  /** The record packed (content-codec.ts), its `field_provenance` replaced by null. */
  body: Buffer;
  field_provenance_id: number | null;
}

export interface MarketsTable {
  market_id: string;
  platform: string;
  platform_market_id: string;
  event_id: string | null;
  status: string;
  question_id: string | null;
  /** The record packed (content-codec.ts), its shared parts (record-codec.ts MARKET_LAYOUT) replaced by null. */
  body: Buffer;
  /**
   * The market's catalog entry (record-codec.ts `marketEntryText`, plain text): what a pipeline run reads of every
   * stored market without the body (lazy-market.ts). Null only for a row no writer has touched since migration 0009
   * filled the column; such a row is read whole.
   */
  entry: string | null;
  field_provenance_id: number | null;
  eligibility_screens_id: number | null;
  resolution_source_list_id: number | null;
}

/** A mark as typed columns (mark-codec.ts); `mark_id` is the key. */
export interface MarksTable extends MarkRow {
  mark_id: Generated<number>;
}

/** JSON texts stored once per distinct content (content-store.ts). */
export interface ContentTable {
  content_id: Generated<number>;
  /** First 48 bits of the text's SHA-256: the lookup key, not unique. */
  hash: number;
  /** The text packed (content-codec.ts). */
  body: Buffer;
}

export interface ResolutionLogTable {
  log_id: Generated<number>;
  market_id: string;
  event_type: string;
  occurred_at: string;
  recorded_at: string;
  /** The entry without `log_id` (the column is the key). */
  record: string;
}

/** The change feed (migration 0007): append-only, `seq` assigned by SqlTx.appendChanges. */
export interface ChangesTable {
  seq: number;
  generation: number;
  kind: string;
  /** The change without `seq` (the column is the key). */
  record: string;
}

export interface CatalystsTable {
  catalyst_id: Generated<number>;
  date: string;
  type: string;
  record: string;
}

export interface SignalsTable {
  slug: string;
  record_id: string;
  published_at: string;
  target_event_id: string;
  record: string;
}

export interface SpotPricesTable {
  coin: string;
  as_of: string;
  price_usd: number;
  record: string;
}

export interface ApiKeysTable {
  key_hash: string;
  email: string;
  daily_limit: number;
  created_at: string;
}

/**
 * Which email holds a key (migration 0005): one row per normalized address, so a second key for the same address
 * is refused by the primary key, atomically, on every replica.
 */
export interface ApiKeyEmailsTable {
  email: string;
  key_hash: string;
  created_at: string;
}

export interface IdRegistryTable {
  kind: string;
  native_key: string;
  id: string;
  /** 0 for the unsalted id; n when makeId(n) was needed to get past a collision. */
  attempt: number;
  registered_at: string;
}

export interface PipelineRunsTable {
  run_id: Generated<number>;
  started_at: string;
  finished_at: string | null;
  source: string;
  status: string;
  /** The generation this run published; 0 when it published none. */
  generation: number;
  summary: string;
  /** JSON RunOwner (migration 0004): which process runs it; null for runs recorded before. */
  owner: string | null;
}

/**
 * History marks of a run not yet published (migration 0004, typed like `marks` since 0006); the publish moves
 * them into `marks`.
 */
export interface StagedMarksTable extends MarkRow {
  run_id: number;
}

/** Hourly detail (migration 0008, hourly-codec.ts): a market's observation in an hour where its quote changed. */
export type HourlyMarksTable = HourlyRow;

/** Write-once facts about the store itself (migration 0003): `store_id` is its identity. */
export interface StoreMetaTable {
  key: string;
  value: string;
}

export interface StoreDatabase {
  schema_migrations: SchemaMigrationsTable;
  store_meta: StoreMetaTable;
  events: EventsTable;
  markets: MarketsTable;
  marks: MarksTable;
  resolution_log: ResolutionLogTable;
  catalysts: CatalystsTable;
  signals: SignalsTable;
  spot_prices: SpotPricesTable;
  api_keys: ApiKeysTable;
  api_key_emails: ApiKeyEmailsTable;
  id_registry: IdRegistryTable;
  pipeline_runs: PipelineRunsTable;
  staged_marks: StagedMarksTable;
  content: ContentTable;
  changes: ChangesTable;
  hourly_marks: HourlyMarksTable;
}
