/**
 * Opens the store named by a database URL: `sqlite:PATH` (embedded; `sqlite::memory:` for a throwaway
 * in-memory db) or `postgres://…`. Both engines run the same kysely queries (sql-store.ts).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { sqliteStagedMarksDdl } from './migration-0006.ts';
import { SqlStore } from './sql-store.ts';
import type { StoreDatabase } from './tables.ts';
import { EventLoopTurnPlugin } from './turn-plugin.ts';

export interface OpenStoreOptions {
  /** PostgreSQL pool size (default 5). */
  poolSize?: number;
  /** PostgreSQL schema to use instead of the connection's default search_path (one store per schema). */
  pgSchema?: string;
  /** Clock for the store's own bookkeeping timestamps (migration and id registration times). */
  now?: () => Date;
  /**
   * Called when an idle PostgreSQL connection fails (server restart, network). The pool drops the
   * connection and the next query opens a new one; without a listener the error would end the process.
   */
  onPoolError?: (err: Error) => void;
}

/** PostgreSQL int8 (counts, bigint keys) comes back as a JS number; our keys stay far below 2^53. */
const PG_INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === PG_INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** The file path of a `sqlite:` URL, or null for any other URL. `sqlite::memory:` gives `:memory:`. */
export function sqlitePathOf(dbUrl: string): string | null {
  if (!dbUrl.startsWith('sqlite:')) return null;
  const path = dbUrl.slice('sqlite:'.length);
  return path === ':memory:' ? ':memory:' : path;
}

/** Whether a database URL names a PostgreSQL store (`postgres://` or `postgresql://`); else it is SQLite's. */
export function isPostgresUrl(dbUrl: string): boolean {
  return /^postgres(ql)?:\/\//.test(dbUrl);
}

/**
 * Opens (does not migrate) the store for `dbUrl`.
 * @example const store = await openStore('sqlite:./data/pmref.sqlite'); await store.migrate();
 */
export async function openStore(dbUrl: string, opts: OpenStoreOptions = {}): Promise<SqlStore> {
  const path = sqlitePathOf(dbUrl);
  if (path !== null) {
    if (path === '') throw new Error('sqlite: URL needs a path, e.g. sqlite:./data/pmref.sqlite');
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const database = new Database(path);
    if (path !== ':memory:') database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    attachStaging(database, path);
    const db = new Kysely<StoreDatabase>({
      dialect: new SqliteDialect({ database: keepingStatements(database) }),
      plugins: [new EventLoopTurnPlugin()],
    });
    return new SqlStore(db, { engine: 'sqlite', sqlite: database, ...(opts.now ? { now: opts.now } : {}) });
  }
  if (isPostgresUrl(dbUrl)) {
    // Server-side TCP keepalives (ignored on Unix sockets): a run holds its run lock on one of these
    // connections, and a host that vanishes mid-run must not keep that lock for the kernel's default two hours
    // (pipeline/abort.ts: a run is declared dead only when no session holds its lock).
    const keepalives = '-c tcp_keepalives_idle=20 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3';
    const pool = new pg.Pool({
      connectionString: dbUrl,
      max: opts.poolSize ?? 5,
      types: pgTypes,
      keepAlive: true,
      options: opts.pgSchema !== undefined ? `${keepalives} -c search_path=${quoteIdent(opts.pgSchema)}` : keepalives,
    });
    pool.on(
      'error',
      opts.onPoolError ??
        ((err) => process.stderr.write(`pmref store: idle PostgreSQL connection failed: ${err.message}\n`)),
    );
    const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
    return new SqlStore(db, { engine: 'postgres', ...(opts.now ? { now: opts.now } : {}) });
  }
  throw new Error(`unsupported database URL '${dbUrl}': use sqlite:PATH or postgres://user@host:port/db`);
}

/**
 * Statements kept by `keepingStatements`, and the SQL text they may hold in all (their compiled programs take about 40×
 * that: a 500-row statement of 11 KB held 460 KB).
 */
const KEPT_STATEMENTS = 64;
const KEPT_SQL_CHARS = 160 * 1024;

/**
 * The database as kysely sees it, with its prepared statements kept by SQL text (least recently used out first).
 * better-sqlite3 prepares every statement kysely runs, and a chunked write repeats one text per full chunk: an
 * hourly refresh moves 39,200 marks in place in 79 chunks of one `UPDATE … FROM (VALUES …)` each, whose planning
 * took 0.6 s of its CPU (issue 18). A kept statement is only ever run to completion (kysely runs one statement
 * at a time and reads all its rows), so sharing it is safe; SQLite re-prepares it itself after a schema change.
 * The raw-mode reads (SqlStore.rowArrays) prepare their own statements: raw mode is a statement's state.
 */
export function keepingStatements(database: Database.Database): {
  close(): void;
  prepare(sql: string): Database.Statement;
} {
  const kept = new Map<string, Database.Statement>();
  let chars = 0;
  return {
    close: () => {
      kept.clear();
      database.close();
    },
    prepare: (sql) => {
      const hit = kept.get(sql);
      if (hit !== undefined) {
        kept.delete(sql);
        kept.set(sql, hit);
        return hit;
      }
      const statement = database.prepare(sql);
      if (sql.length > KEPT_SQL_CHARS / 2) return statement;
      kept.set(sql, statement);
      chars += sql.length;
      for (const [oldest] of kept) {
        if (kept.size <= KEPT_STATEMENTS && chars <= KEPT_SQL_CHARS) break;
        kept.delete(oldest);
        chars -= oldest.length;
      }
      return statement;
    },
  };
}

/**
 * SQLite: a run's staged history marks (issue 15: nothing unpublished is visible) live in a scratch database
 * attached as `staging` (`<store>.staging`, or in memory for an in-memory store), not in the store file. A
 * first start stages about half a million marks and the publish moves them into `marks`; in the store file
 * the emptied staging pages would stay allocated (about 840 MB on the simulated universe), here they are
 * given back after each run (SqlStore.releaseStaging). The scratch file holds nothing that cannot be
 * lost: a rollback journal (crash-safe without WAL's growth), no fsync. Unqualified `staged_marks` resolves
 * to it because the store file has no table of that name (migration 0004 creates it on PostgreSQL only). Its
 * rows are typed like `marks` (migration 0006); the content they reference is written to the store file when
 * they are staged (it is permanent once published; an aborted run's is collected by the next publish).
 */
function attachStaging(database: Database.Database, path: string): void {
  const scratch = path === ':memory:' ? ':memory:' : `${path}.staging`;
  database.prepare('ATTACH DATABASE ? AS staging').run(scratch);
  database.pragma('staging.journal_mode = TRUNCATE');
  database.pragma('staging.synchronous = OFF');
  // A scratch file from before migration 0006 holds JSON-shaped rows: they are dropped with their table (runs
  // left `running` by a dead process are aborted at the next start anyway, their staged marks dropped).
  const columns = database.prepare('SELECT name FROM pragma_table_info(?, ?)').all('staged_marks', 'staging') as {
    name: string;
  }[];
  if (columns.some((c) => c.name === 'record')) database.exec('DROP TABLE staging.staged_marks');
  database.exec(sqliteStagedMarksDdl('staging'));
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid PostgreSQL schema name '${name}'`);
  return name;
}

export type { HourKey, HourlyMark } from './hourly-codec.ts';
export { addHours, hourKeyOf, hourlyRetentionStart, hourStartMs } from './hourly-codec.ts';
export { readWhole, wholeRecord } from './lazy-market.ts';
export { MIGRATIONS } from './migrations.ts';
export type { SqlStoreOptions } from './sql-store.ts';
export { SqlStore } from './sql-store.ts';
export type { StoreDatabase } from './tables.ts';
export type {
  ApiKeyRecord,
  IdKind,
  KeptRawPayloads,
  MarkQuery,
  PipelineRun,
  RunFinish,
  RunHandle,
  RunHour,
  RunningRun,
  RunOwner,
  RunWrite,
  Store,
  StoreEngine,
  StoreTx,
  VenueRunSummary,
} from './types.ts';
