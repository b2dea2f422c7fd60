/**
 * A store as an older pmref left it: migrated only through a given version, holding rows in the shape of that
 * time (whole JSON records in `record`, as every version before 0006 wrote them). For the migration tests.
 */
import { type Kysely, sql } from 'kysely';
import type { Event, Market, NewMark } from '../../src/domain/index.ts';
import { MIGRATIONS, type SqlStore } from '../../src/store/index.ts';

/** Applies the migrations up to and including `version`, and records them, as an older pmref did. */
export async function migrateThrough(store: SqlStore, version: string): Promise<void> {
  const last = MIGRATIONS.findIndex((m) => m.version === version);
  if (last < 0) throw new Error(`no migration ${version}`);
  await store.db.transaction().execute(async (trx) => {
    await trx.schema
      .createTable('schema_migrations')
      .addColumn('version', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
    for (const migration of MIGRATIONS.slice(0, last + 1)) {
      await migration.up(trx as unknown as Kysely<unknown>, store.engine);
      await trx.insertInto('schema_migrations').values({ version: migration.version, applied_at: 'then' }).execute();
    }
  });
}

/** Markets as versions 0001–0005 stored them. */
export async function insertOldMarkets(store: SqlStore, markets: readonly Market[]): Promise<void> {
  for (const m of markets) {
    await sql`INSERT INTO markets (market_id, platform, platform_market_id, event_id, status, question_id, record)
      VALUES (${m.market_id}, ${m.platform}, ${m.platform_market_id}, ${m.event_id}, ${m.status}, ${m.question_id},
              ${JSON.stringify(m)})`.execute(store.db);
  }
}

/** Events as versions 0001–0005 stored them. */
export async function insertOldEvents(store: SqlStore, events: readonly Event[]): Promise<void> {
  for (const e of events) {
    await sql`INSERT INTO events (event_id, venue, category, slug, record)
      VALUES (${e.event_id}, ${e.venue}, ${e.category}, ${e.slug}, ${JSON.stringify(e)})`.execute(store.db);
  }
}

/** Marks as versions 0001–0005 stored them; returns their mark_ids in input order. */
export async function insertOldMarks(store: SqlStore, marks: readonly NewMark[]): Promise<number[]> {
  const ids: number[] = [];
  for (const m of marks) {
    const { rows } = await sql<{ mark_id: number | string }>`
      INSERT INTO marks (market_id, snapshot_date, record)
      VALUES (${m.market_id}, ${m.snapshot_date}, ${JSON.stringify(m)}) RETURNING mark_id`.execute(store.db);
    ids.push(Number(rows[0]?.mark_id));
  }
  return ids;
}

/** Staged marks as version 0004–0005 stored them on PostgreSQL. */
export async function insertOldStagedMarks(store: SqlStore, runId: number, marks: readonly NewMark[]): Promise<void> {
  for (const m of marks) {
    await sql`INSERT INTO staged_marks (run_id, market_id, snapshot_date, record)
      VALUES (${runId}, ${m.market_id}, ${m.snapshot_date}, ${JSON.stringify(m)})`.execute(store.db);
  }
}
