/**
 * Versioned, forward-only migrations. Each runs once, in order, inside the migration transaction, and
 * is recorded in `schema_migrations`. Never edit a migration that has shipped: add the next version.
 * One definition serves both engines; the few differences (auto-increment keys, trigger syntax) are
 * switched on `engine`.
 */
import { randomUUID } from 'node:crypto';
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { migrateToTypedStorage } from './migration-0006.ts';
import { addMarketEntries } from './migration-0009.ts';
import { plainEventBodies } from './migration-0010.ts';
import type { StoreEngine } from './types.ts';

export interface Migration {
  version: string;
  up(db: Kysely<unknown>, engine: StoreEngine): Promise<void>;
}

/** An auto-increment integer key: SQLite rowid alias, PostgreSQL identity column. */
function autoKey(engine: StoreEngine) {
  return engine === 'sqlite' ? ('integer' as const) : ('bigint' as const);
}

const appendOnlyTriggersSqlite = [
  sql`CREATE TRIGGER resolution_log_no_update BEFORE UPDATE ON resolution_log
      BEGIN SELECT RAISE(ABORT, 'resolution_log is append-only: UPDATE rejected'); END`,
  sql`CREATE TRIGGER resolution_log_no_delete BEFORE DELETE ON resolution_log
      BEGIN SELECT RAISE(ABORT, 'resolution_log is append-only: DELETE rejected'); END`,
];

const appendOnlyTriggersPostgres = [
  sql`CREATE FUNCTION resolution_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'resolution_log is append-only: % rejected', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`,
  sql`CREATE TRIGGER resolution_log_no_update_delete BEFORE UPDATE OR DELETE ON resolution_log
      FOR EACH ROW EXECUTE FUNCTION resolution_log_append_only()`,
  sql`CREATE TRIGGER resolution_log_no_truncate BEFORE TRUNCATE ON resolution_log
      FOR EACH STATEMENT EXECUTE FUNCTION resolution_log_append_only()`,
];

/**
 * `store_meta` is write-once: rows may be added, never changed or removed (a store's identity must not move).
 * On SQLite the log also refuses an insert onto an existing `log_id`. That catches REPLACE and INSERT OR
 * REPLACE before they delete the old row. In a BEFORE INSERT trigger an auto-assigned key reads as -1, so
 * the second trigger keeps every stored log_id positive: an auto-assigned insert can then never match.
 */
const identityAndLogGuardsSqlite = [
  sql`CREATE TRIGGER store_meta_no_update BEFORE UPDATE ON store_meta
      BEGIN SELECT RAISE(ABORT, 'store_meta is write-once: UPDATE rejected'); END`,
  sql`CREATE TRIGGER store_meta_no_delete BEFORE DELETE ON store_meta
      BEGIN SELECT RAISE(ABORT, 'store_meta is write-once: DELETE rejected'); END`,
  sql`CREATE TRIGGER store_meta_no_replace BEFORE INSERT ON store_meta
      WHEN EXISTS (SELECT 1 FROM store_meta WHERE key = NEW.key)
      BEGIN SELECT RAISE(ABORT, 'store_meta is write-once: INSERT over an existing key rejected'); END`,
  sql`CREATE TRIGGER resolution_log_no_replace BEFORE INSERT ON resolution_log
      WHEN EXISTS (SELECT 1 FROM resolution_log WHERE log_id = NEW.log_id)
      BEGIN SELECT RAISE(ABORT, 'resolution_log is append-only: INSERT over an existing entry rejected'); END`,
  sql`CREATE TRIGGER resolution_log_positive_id AFTER INSERT ON resolution_log
      WHEN NEW.log_id < 1
      BEGIN SELECT RAISE(ABORT, 'resolution_log is append-only: log_id must be positive'); END`,
];

const storeMetaGuardsPostgres = [
  sql`CREATE FUNCTION store_meta_write_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'store_meta is write-once: % rejected', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`,
  sql`CREATE TRIGGER store_meta_no_update_delete BEFORE UPDATE OR DELETE ON store_meta
      FOR EACH ROW EXECUTE FUNCTION store_meta_write_once()`,
  sql`CREATE TRIGGER store_meta_no_truncate BEFORE TRUNCATE ON store_meta
      FOR EACH STATEMENT EXECUTE FUNCTION store_meta_write_once()`,
];

/**
 * `changes` (migration 0007) is append-only: the resolution_log guards of 0001 and 0003 (UPDATE, DELETE, and on
 * SQLite an insert over an existing seq, which is how REPLACE would rewrite a row), plus TRUNCATE on PostgreSQL.
 */
const changeGuardsSqlite = [
  sql`CREATE TRIGGER changes_no_update BEFORE UPDATE ON changes
      BEGIN SELECT RAISE(ABORT, 'changes is append-only: UPDATE rejected'); END`,
  sql`CREATE TRIGGER changes_no_delete BEFORE DELETE ON changes
      BEGIN SELECT RAISE(ABORT, 'changes is append-only: DELETE rejected'); END`,
  sql`CREATE TRIGGER changes_no_replace BEFORE INSERT ON changes
      WHEN EXISTS (SELECT 1 FROM changes WHERE seq = NEW.seq)
      BEGIN SELECT RAISE(ABORT, 'changes is append-only: INSERT over an existing entry rejected'); END`,
];

const changeGuardsPostgres = [
  sql`CREATE FUNCTION changes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'changes is append-only: % rejected', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`,
  sql`CREATE TRIGGER changes_no_update_delete BEFORE UPDATE OR DELETE ON changes
      FOR EACH ROW EXECUTE FUNCTION changes_append_only()`,
  sql`CREATE TRIGGER changes_no_truncate BEFORE TRUNCATE ON changes
      FOR EACH STATEMENT EXECUTE FUNCTION changes_append_only()`,
];

/**
 * Whole records are 1–4 KB of JSON, so PostgreSQL compresses them into TOAST on every write. Its default
 * (pglz) made that the slowest part of a 40,000-market upsert; lz4 roughly halves it. Servers built
 * without lz4 keep the default.
 */
async function compressRecordsWithLz4(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ lz4: boolean }>`
    SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`.execute(db);
  if (!rows[0]?.lz4) return;
  for (const table of ['events', 'markets', 'marks', 'resolution_log', 'signals']) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN record SET COMPRESSION lz4`.execute(db);
  }
}

/** The columns migration 0008 creates for `hourly_marks`, frozen (hourly-codec.ts HOURLY_COLUMNS must match). */
export const FROZEN_0008_HOURLY_COLUMNS: ReadonlyArray<{
  name: string;
  type: 'text' | 'bigint' | 'double precision' | 'smallint';
  notNull?: true;
}> = [
  { name: 'market_id', type: 'text', notNull: true },
  { name: 'snapshot_hour', type: 'text', notNull: true },
  { name: 'snapshot_offset_ms', type: 'bigint', notNull: true },
  { name: 'quote_lag_ms', type: 'bigint' },
  ...[
    'yes_bid',
    'yes_ask',
    'no_bid',
    'no_ask',
    'yes_bid_size_usd',
    'yes_ask_size_usd',
    'no_bid_size_usd',
    'no_ask_size_usd',
    'yes_last_price',
    'implied_probability',
    'mid',
    'spread',
    'volume_24h_usd',
    'volume_total_usd',
    'open_interest_usd',
  ].map((name) => ({ name, type: 'double precision' as const })),
  { name: 'stale_flag', type: 'smallint' },
];

export const MIGRATIONS: readonly Migration[] = [
  {
    version: '0001_initial',
    async up(db, engine) {
      const id = autoKey(engine);
      const identity = (c: ColumnDefinitionBuilder) =>
        engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity();

      await db.schema
        .createTable('events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('venue', 'text')
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_venue').on('events').column('venue').execute();

      await db.schema
        .createTable('markets')
        .addColumn('market_id', 'text', (c) => c.primaryKey())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('platform_market_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('question_id', 'text')
        .addColumn('record', 'text', (c) => c.notNull())
        .addUniqueConstraint('markets_platform_native', ['platform', 'platform_market_id'])
        .execute();
      await db.schema.createIndex('markets_event').on('markets').column('event_id').execute();
      await db.schema.createIndex('markets_question').on('markets').column('question_id').execute();

      // Marks and log entries belong to a stored market. The checks are deferred to commit so one
      // run's transaction may write markets and their marks in any order.
      await db.schema
        .createTable('marks')
        .addColumn('mark_id', id, identity)
        .addColumn('market_id', 'text', (c) => c.notNull())
        .addColumn('snapshot_date', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addUniqueConstraint('marks_market_date', ['market_id', 'snapshot_date'])
        .addForeignKeyConstraint('marks_market_fk', ['market_id'], 'markets', ['market_id'], (fk) =>
          fk.deferrable().initiallyDeferred(),
        )
        .execute();
      await db.schema.createIndex('marks_date').on('marks').column('snapshot_date').execute();

      await db.schema
        .createTable('resolution_log')
        .addColumn('log_id', id, identity)
        .addColumn('market_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addForeignKeyConstraint('resolution_log_market_fk', ['market_id'], 'markets', ['market_id'], (fk) =>
          fk.deferrable().initiallyDeferred(),
        )
        .execute();
      await db.schema.createIndex('resolution_log_market').on('resolution_log').column('market_id').execute();
      for (const statement of engine === 'sqlite' ? appendOnlyTriggersSqlite : appendOnlyTriggersPostgres) {
        await statement.execute(db);
      }

      await db.schema
        .createTable('catalysts')
        .addColumn('catalyst_id', id, identity)
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('catalysts_date').on('catalysts').column('date').execute();

      await db.schema
        .createTable('signals')
        .addColumn('slug', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('target_event_id', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('signals_published').on('signals').column('published_at').execute();

      await db.schema
        .createTable('spot_prices')
        .addColumn('coin', 'text', (c) => c.notNull())
        .addColumn('as_of', 'text', (c) => c.notNull())
        .addColumn('price_usd', 'double precision', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('spot_prices_pk', ['coin', 'as_of'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('daily_limit', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('id_registry')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('native_key', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('registered_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('id_registry_pk', ['kind', 'native_key'])
        .addUniqueConstraint('id_registry_id', ['id'])
        .execute();

      await db.schema
        .createTable('pipeline_runs')
        .addColumn('run_id', id, identity)
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('summary', 'text', (c) => c.notNull())
        .execute();
      // A published generation belongs to exactly one run; concurrent publishers cannot share one.
      if (engine === 'postgres') await compressRecordsWithLz4(db);

      await db.schema
        .createIndex('pipeline_runs_generation')
        .on('pipeline_runs')
        .column('generation')
        .unique()
        .where(sql.ref('generation'), '>', 0)
        .execute();
    },
  },
  {
    // The marks feed (`GET /v1/marks`) pages through marks in (snapshot_date, market_id) order; this index
    // serves that order directly and makes the date-only index redundant.
    version: '0002_marks_date_market',
    async up(db) {
      await db.schema.createIndex('marks_date_market').on('marks').columns(['snapshot_date', 'market_id']).execute();
      await db.schema.dropIndex('marks_date').execute();
    },
  },
  {
    // Issue 15. (1) The store's identity: a random id written once, when the store is created (or, for a
    // store created before this version, when it first migrates to it), and never rewritten. A read-model
    // pack records it, so a pack is never served for another store that happens to share its folder, its
    // generation and its day. (2) SQLite's REPLACE / INSERT OR REPLACE delete the conflicting row without
    // firing DELETE triggers (unless recursive_triggers is on for that connection), so they could rewrite a
    // log entry past the 0001 triggers; a BEFORE INSERT guard refuses any insert onto an existing log_id,
    // whatever the pragmas. PostgreSQL needs no change there: it has no REPLACE, its upsert fires the
    // UPDATE trigger and TRUNCATE has its own (test/store/append-only.test.ts pins every form).
    version: '0003_store_identity_log_guards',
    async up(db, engine) {
      await db.schema
        .createTable('store_meta')
        .addColumn('key', 'text', (c) => c.primaryKey().notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO store_meta (key, value) VALUES ('store_id', ${randomUUID()})`.execute(db);
      const guards = engine === 'sqlite' ? identityAndLogGuardsSqlite : storeMetaGuardsPostgres;
      for (const statement of guards) await statement.execute(db);
    },
  },
  {
    // Issue 15: only published data is visible. A run's history marks (up to 14 days × every market) are
    // too many to hold in memory until the publish, so the backfill stages them in `staged_marks`, keyed by
    // the run, and the publish transaction moves them into `marks` (no served query reads this table). A
    // run's `owner` (host, pid, process start) lets the next start tell a run left `running` by a dead process
    // from one still going, and mark it `aborted`.
    version: '0004_published_only',
    async up(db, engine) {
      // SQLite keeps the table in an attached scratch database beside the store instead (index.ts,
      // `attachStaging`), so a history catch-up's staged rows never leave free pages in the store file.
      if (engine === 'postgres')
        await db.schema
          .createTable('staged_marks')
          .addColumn('run_id', 'bigint', (c) => c.notNull())
          .addColumn('market_id', 'text', (c) => c.notNull())
          .addColumn('snapshot_date', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('staged_marks_pk', ['run_id', 'market_id', 'snapshot_date'])
          .execute();
      await db.schema.alterTable('pipeline_runs').addColumn('owner', 'text').execute();
    },
  },
  {
    // Issue 15: one key per email. A claim table keyed by the normalized address (trimmed, lower case) makes a
    // second key for an address impossible, atomically across replicas. A unique index on api_keys.email could
    // not be built on a store that already holds two keys for one address; the claim table takes the first of
    // them (both keep working) and refuses any further one.
    version: '0005_api_keys_email',
    async up(db) {
      await db.schema
        .createTable('api_key_emails')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('key_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO api_key_emails (email, key_hash, created_at)
        SELECT lower(trim(email)), min(key_hash), min(created_at)
        FROM api_keys GROUP BY lower(trim(email))`.execute(db);
    },
  },
  {
    // Issue 18: the store's footprint. Marks as typed columns, markets' and events' repeated parts stored once in
    // a content table, their bodies compressed; existing rows are converted (migration-0006.ts).
    version: '0006_typed_marks_content',
    up: migrateToTypedStorage,
  },
  {
    // Issue 20: the sequenced change feed. One row per change a publish makes visible, written in the publish
    // transaction. `seq` is the key and is assigned by the store (SqlTx.appendChanges: the last seq + 1, under a
    // table lock), not by an identity sequence: PostgreSQL sequences are not transactional, so a rolled-back
    // publish would leave holes, and a client could no longer tell a missed change from a skipped number. The
    // table is append-only like resolution_log, with the same guards on both engines.
    version: '0007_change_feed',
    async up(db, engine) {
      await db.schema
        .createTable('changes')
        .addColumn('seq', engine === 'sqlite' ? 'integer' : 'bigint', (c) => c.primaryKey())
        .addColumn('generation', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      for (const statement of engine === 'sqlite' ? changeGuardsSqlite : changeGuardsPostgres) {
        await statement.execute(db);
      }
    },
  },
  {
    // Issue 20: hourly detail for `GET /v1/markets/{id}/history?interval=hour`. A refresh writes a row only for a
    // market whose observed quote changed since its previous mark (src/pipeline/hourly-marks.ts), in its publish
    // transaction, and deletes rows older than PMREF_HOURLY_RETENTION_DAYS there too. Typed columns
    // (hourly-codec.ts), no raw payload, no provenance; the key is (market_id, snapshot_hour), which also serves one
    // market's hours in order. The columns are written out here (not read from HOURLY_COLUMNS at run time) so a later
    // change to the codec cannot change what this version created.
    version: '0008_hourly_marks',
    async up(db, engine) {
      let table = db.schema.createTable('hourly_marks') as CreateTableBuilder<string, string>;
      for (const column of FROZEN_0008_HOURLY_COLUMNS) {
        table = table.addColumn(column.name, column.type, (c) => (column.notNull ? c.notNull() : c));
      }
      table = table.addPrimaryKeyConstraint('hourly_marks_pk', ['market_id', 'snapshot_hour']);
      // SQLite: the rows live in the key's b-tree instead of beside a copy of the key (about 40 bytes a row less).
      await (engine === 'sqlite' ? table.modifyEnd(sql`WITHOUT ROWID`) : table).execute();
      // Pruning deletes by hour across markets.
      await db.schema.createIndex('hourly_marks_hour').on('hourly_marks').column('snapshot_hour').execute();
      // The history's grid reads the runs of an hour range (Store.runHours): a year of hourly runs is 8,760 rows
      // of multi-KB summaries, too many to scan per request.
      await db.schema.createIndex('pipeline_runs_started').on('pipeline_runs').column('started_at').execute();
    },
  },
  {
    // Issue 18: a stored market's catalog entry beside its body (record-codec.ts `marketEntryText`), which a
    // pipeline run reads of every market instead of the whole record (lazy-market.ts). Existing rows are filled
    // here from their bodies (the entry holds none of the shared parts); every write keeps it since.
    version: '0009_market_entries',
    up: addMarketEntries,
  },
  {
    // Issue 18: event bodies kept plain (record-codec.ts EVENT_LAYOUT): a run reads every event whole and rewrites
    // about a quarter of them each hour, and the deflate's set-up cost more than its bytes saved. Existing rows are
    // rewritten plain here (migration-0010.ts).
    version: '0010_plain_event_bodies',
    up: plainEventBodies,
  },
];
