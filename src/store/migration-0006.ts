/**
 * Migration 0006 (issue 18, the store's footprint): marks become typed columns (mark-codec.ts), markets and
 * events keep a packed body with their repeated parts stored once in `content` (record-codec.ts,
 * content-store.ts). On the full simulated universe this took the store file from 1.57 GB to 0.22 GB.
 *
 * An existing store is converted in batches (bounded memory: one batch of records and the content writer's
 * cache at a time), inside the migration transaction like every migration:
 * - `marks` is copied into a new typed table, mark_id for mark_id (ids are served and stay), and the old table
 *   dropped; the id sequence continues where the old one was.
 * - `markets` and `events` get their new columns filled row by row and lose `record`. (Not a table copy: both are
 *   referenced by foreign keys, and SQLite cannot swap a parent table under them inside a transaction.)
 * - PostgreSQL's `staged_marks` (migration 0004) is converted like `marks`. SQLite stages in a scratch database
 *   that holds nothing that cannot be lost; index.ts (`attachStaging`) gives it the typed shape when it opens.
 *
 * The typed shape is MARK_COLUMNS as of this migration; a later change to it needs a migration of its own.
 */
import { type CreateTableBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Event, Market, NewMark } from '../domain/index.ts';
import { ContentWriter } from './content-store.ts';
import { MARK_COLUMNS } from './mark-codec.ts';
import { EVENT_LAYOUT, MARKET_LAYOUT, partColumn, type RecordLayout, splitRecord } from './record-codec.ts';
import { markRows } from './sql-tx.ts';
import type { StoreDatabase } from './tables.ts';
import type { StoreEngine } from './types.ts';

/** Rows converted per batch. */
const BATCH = 2_000;

function blobType(engine: StoreEngine) {
  return engine === 'sqlite' ? ('blob' as const) : ('bytea' as const);
}

/** Creates a table of typed marks: `marks_typed` (renamed `marks` once filled) or the typed `staged_marks`. */
async function createMarkTable(db: Kysely<unknown>, engine: StoreEngine, name: string, staged: boolean) {
  let table = db.schema.createTable(name) as unknown as CreateTableBuilder<string, string>;
  if (staged) table = table.addColumn('run_id', 'bigint', (c) => c.notNull());
  else
    table = table.addColumn('mark_id', engine === 'sqlite' ? 'integer' : 'bigint', (c) =>
      engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity(),
    );
  for (const column of MARK_COLUMNS) {
    table = table.addColumn(column.name, column.type, (c) => (column.notNull ? c.notNull() : c));
  }
  if (staged) {
    table = table.addPrimaryKeyConstraint('staged_marks_pk', ['run_id', 'market_id', 'snapshot_date']);
  } else {
    // Marks belong to a stored market, checked at commit (as since 0001): one run's transaction writes markets
    // and their marks in any order.
    table = table
      .addUniqueConstraint('marks_market_date', ['market_id', 'snapshot_date'])
      .addForeignKeyConstraint('marks_market_fk', ['market_id'], 'markets', ['market_id'], (fk) =>
        fk.deferrable().initiallyDeferred(),
      );
  }
  await table.execute();
}

/**
 * The `CREATE TABLE` of SQLite's scratch `staging.staged_marks` (index.ts): the typed shape of migration 0006,
 * from the same column list.
 */
export function sqliteStagedMarksDdl(schema: string): string {
  const columns = MARK_COLUMNS.map((c) => `${c.name} ${c.type}${c.notNull ? ' NOT NULL' : ''}`).join(', ');
  return `CREATE TABLE IF NOT EXISTS ${schema}.staged_marks (run_id integer NOT NULL, ${columns},
    PRIMARY KEY (run_id, market_id, snapshot_date))`;
}

/**
 * Copies old-shaped marks (JSON `record`) into a typed table in key order, one batch at a time: `marks_0005` keyed
 * by mark_id (kept), `staged_0005` by run, market and date (the run kept).
 */
async function copyMarks(
  db: Kysely<StoreDatabase>,
  content: ContentWriter,
  from: 'marks_0005' | 'staged_0005',
  to: 'marks_typed' | 'staged_typed',
) {
  const keys = from === 'marks_0005' ? ['mark_id'] : ['run_id', 'market_id', 'snapshot_date'];
  const kept = from === 'marks_0005' ? 'mark_id' : 'run_id';
  const columns = sql.join(keys.map((k) => sql.ref(k)));
  const typed = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  let after: unknown[] | null = null;
  for (;;) {
    type OldRow = Record<string, unknown> & { record: string };
    const where: RawBuilder<unknown> = after === null ? sql`` : sql`WHERE (${columns}) > (${sql.join(after)})`;
    const { rows }: { rows: OldRow[] } = await sql<OldRow>`
      SELECT ${columns}, record FROM ${sql.table(from)} ${where} ORDER BY ${columns} LIMIT ${BATCH}`.execute(db);
    const last: OldRow | undefined = rows[rows.length - 1];
    if (last === undefined) return;
    const marks = rows.map((r: OldRow) => JSON.parse(r.record) as NewMark);
    const values = (await markRows(content, marks)).map((row, i) => ({ [kept]: Number(rows[i]?.[kept]), ...row }));
    for (let i = 0; i < values.length; i += 500) {
      await typed
        .insertInto(to)
        .values(values.slice(i, i + 500))
        .execute();
    }
    after = keys.map((k) => last[k]);
  }
}

/** Fills a record table's body and part ids from its `record`, then drops `record`. */
async function packRecords<P extends string>(
  db: Kysely<StoreDatabase>,
  engine: StoreEngine,
  content: ContentWriter,
  table: 'markets' | 'events',
  layout: RecordLayout<P>,
) {
  const key = table === 'markets' ? 'market_id' : 'event_id';
  const raw = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  await raw.schema.alterTable(table).addColumn('body', blobType(engine)).execute();
  for (const part of layout.parts) await raw.schema.alterTable(table).addColumn(partColumn(part), 'bigint').execute();
  let after = '';
  for (;;) {
    const rows = (
      await sql<{ id: string; record: string }>`
        SELECT ${sql.ref(key)} AS id, record FROM ${sql.table(table)}
        WHERE ${sql.ref(key)} > ${after} ORDER BY ${sql.ref(key)} LIMIT ${BATCH}`.execute(db)
    ).rows;
    if (rows.length === 0) break;
    const split = rows.map((r) => splitRecord(JSON.parse(r.record) as Market | Event, layout));
    const ids = await content.intern(split.flatMap((s) => layout.parts.map((part) => s.parts[part])));
    for (const [i, row] of rows.entries()) {
      const values: Record<string, unknown> = { body: split[i]?.body };
      for (const [j, part] of layout.parts.entries()) values[partColumn(part)] = ids[i * layout.parts.length + j];
      await raw.updateTable(table).set(values).where(key, '=', row.id).execute();
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
  await raw.schema.alterTable(table).dropColumn('record').execute();
}

/** The highest mark id ever handed out by the old table's sequence (ids are never reused). */
async function lastMarkId(db: Kysely<StoreDatabase>, engine: StoreEngine): Promise<number> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'marks_0005'`.execute(db);
    return Number(rows[0]?.seq ?? 0);
  }
  const { rows } = await sql<{ last: number | string | null }>`
    SELECT pg_sequence_last_value(pg_get_serial_sequence('marks_0005', 'mark_id')::regclass) AS last`.execute(db);
  return Number(rows[0]?.last ?? 0);
}

/** Continues the new `marks` sequence after `last` (or after the highest id copied, if higher). */
async function continueMarkIds(db: Kysely<StoreDatabase>, engine: StoreEngine, last: number): Promise<void> {
  if (engine === 'sqlite') {
    await sql`INSERT INTO sqlite_sequence (name, seq) SELECT 'marks', 0
      WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'marks')`.execute(db);
    await sql`UPDATE sqlite_sequence SET seq = max(seq, ${last}, (SELECT coalesce(max(mark_id), 0) FROM marks))
      WHERE name = 'marks'`.execute(db);
    return;
  }
  await sql`SELECT setval(pg_get_serial_sequence('marks', 'mark_id'), m.top, true)
    FROM (SELECT greatest(${last}::bigint, coalesce(max(mark_id), 0)) AS top FROM marks) m
    WHERE m.top > 0`.execute(db);
}

export async function migrateToTypedStorage(db: Kysely<unknown>, engine: StoreEngine): Promise<void> {
  const store = db as unknown as Kysely<StoreDatabase>;
  await db.schema
    .createTable('content')
    .addColumn('content_id', engine === 'sqlite' ? 'integer' : 'bigint', (c) =>
      engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity(),
    )
    .addColumn('hash', 'bigint', (c) => c.notNull())
    .addColumn('body', blobType(engine), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('content_hash').on('content').column('hash').execute();
  const content = new ContentWriter(store, engine);

  await packRecords(store, engine, content, 'markets', MARKET_LAYOUT);
  await packRecords(store, engine, content, 'events', EVENT_LAYOUT);

  // The old table steps aside under another name, with its key constraints dropped so the names are free.
  await db.schema.dropIndex('marks_date_market').execute();
  await db.schema.alterTable('marks').renameTo('marks_0005').execute();
  if (engine === 'postgres') {
    await sql`ALTER TABLE marks_0005 DROP CONSTRAINT marks_market_date`.execute(db);
    await sql`ALTER TABLE marks_0005 DROP CONSTRAINT marks_market_fk`.execute(db);
  }
  await createMarkTable(db, engine, 'marks_typed', false);
  // Built before the copy: PostgreSQL creates no index on a table with deferred foreign key checks pending.
  await db.schema.createIndex('marks_date_market').on('marks_typed').columns(['snapshot_date', 'market_id']).execute();
  await copyMarks(store, content, 'marks_0005', 'marks_typed');
  const last = await lastMarkId(store, engine);
  await db.schema.dropTable('marks_0005').execute();
  await db.schema.alterTable('marks_typed').renameTo('marks').execute();
  await continueMarkIds(store, engine, last);

  if (engine === 'postgres') {
    await db.schema.alterTable('staged_marks').renameTo('staged_0005').execute();
    await sql`ALTER TABLE staged_0005 DROP CONSTRAINT staged_marks_pk`.execute(db);
    await createMarkTable(db, engine, 'staged_typed', true);
    await copyMarks(store, content, 'staged_0005', 'staged_typed');
    await db.schema.dropTable('staged_0005').execute();
    await db.schema.alterTable('staged_typed').renameTo('staged_marks').execute();
  }
}
