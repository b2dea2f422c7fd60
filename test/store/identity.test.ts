// Every store has an identity written once, when it is created or first migrated to version 0003, that never
// changes, is never shared by two stores, and that the database refuses to rewrite, on both engines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type SqlStore } from '../../src/store/index.ts';
import { insertOldMarkets } from './old-shape.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { makeLogEntry, makeMarket } from './records.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WRITE_ONCE = /write-once/;
const FIRST_NEW = MIGRATIONS.findIndex((m) => m.version === '0003_store_identity_log_guards');

/** Brings a fresh store to the schema of the versions before 0003, as a store created by an older pmref. */
async function migrateToBeforeIdentity(store: SqlStore): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await trx.schema
      .createTable('schema_migrations')
      .addColumn('version', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
    for (const migration of MIGRATIONS.slice(0, FIRST_NEW)) {
      await migration.up(trx as unknown as Kysely<unknown>, store.engine);
      await trx.insertInto('schema_migrations').values({ version: migration.version, applied_at: 'then' }).execute();
    }
  });
}

function identitySuite(
  engine: string,
  newStore: () => Promise<SqlStore>,
  rewrites: Array<[string, RawBuilder<unknown>]>,
) {
  describe(`store identity: ${engine}`, () => {
    let store: SqlStore;
    beforeEach(async () => {
      store = await newStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('is a random UUID written at creation, the same on every read, and another for another store', async () => {
      expect(FIRST_NEW).toBe(2);
      await expect(store.identity()).rejects.toThrow();
      await store.migrate();
      const id = await store.identity();
      expect(id).toMatch(UUID);
      expect(await store.identity()).toBe(id);
      expect(await store.migrate()).toEqual([]);
      expect(await store.identity()).toBe(id);
      const other = await newStore();
      try {
        await other.migrate();
        expect(await other.identity()).toMatch(UUID);
        expect(await other.identity()).not.toBe(id);
      } finally {
        await other.close();
      }
    });

    it('refuses a store a newer pmref migrated (migrations only go forward), naming the unknown versions', async () => {
      await store.migrate();
      await store.db
        .insertInto('schema_migrations' as never)
        .values({ version: '9999_from_a_newer_pmref', applied_at: 'later' } as never)
        .execute();
      await expect(store.migrate()).rejects.toThrow(
        /migrated by a newer pmref \(migrations 9999_from_a_newer_pmref are unknown to this version\)/,
      );
    });

    it('is written for a store created before version 0003, whose data and log guards are kept', async () => {
      await migrateToBeforeIdentity(store);
      // The market as that version stored it (a whole JSON record): today's store writes a later shape.
      await insertOldMarkets(store, [makeMarket(0)]);
      await store.appendLog([makeLogEntry(0)]);
      const log = await store.listLog();
      expect(await store.migrate()).toEqual(MIGRATIONS.slice(FIRST_NEW).map((m) => m.version));
      expect(await store.identity()).toMatch(UUID);
      expect(await store.listLog()).toEqual(log);
      expect(await store.getMarket(makeMarket(0).market_id)).toEqual(makeMarket(0));
      const [entry] = log;
      await expect(
        sql`UPDATE resolution_log SET record = '{}' WHERE log_id = ${entry?.log_id ?? 0}`.execute(store.db),
      ).rejects.toThrow(/append-only/);
      if (store.engine === 'sqlite') {
        await expect(
          sql`REPLACE INTO resolution_log (log_id, market_id, event_type, occurred_at, recorded_at, record)
              VALUES (${entry?.log_id ?? 0}, ${entry?.market_id ?? ''}, 'reversed', 'x', 'x', '{}')`.execute(store.db),
        ).rejects.toThrow(/append-only/);
      }
      expect(await store.listLog()).toEqual(log);
    });

    for (const [form, statement] of rewrites) {
      it(`refuses ${form} of the identity`, async () => {
        await store.migrate();
        const id = await store.identity();
        await expect(statement.execute(store.db)).rejects.toThrow(WRITE_ONCE);
        expect(await store.identity()).toBe(id);
        expect(await store.db.selectFrom('store_meta').selectAll().execute()).toEqual([{ key: 'store_id', value: id }]);
      });
    }
  });
}

const forged = sql`('store_id', 'another-store')`;
const common: Array<[string, RawBuilder<unknown>]> = [
  ['UPDATE', sql`UPDATE store_meta SET value = 'another-store'`],
  ['DELETE', sql`DELETE FROM store_meta`],
  [
    'upsert',
    sql`INSERT INTO store_meta (key, value) VALUES ${forged} ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ],
];

describe('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-identity-'));
  let n = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  identitySuite('sqlite', () => openStore(`sqlite:${join(dir, `store-${n++}.sqlite`)}`), [
    ...common,
    ['REPLACE INTO', sql`REPLACE INTO store_meta (key, value) VALUES ${forged}`],
    ['INSERT OR REPLACE', sql`INSERT OR REPLACE INTO store_meta (key, value) VALUES ${forged}`],
  ]);

  it('survives closing and reopening the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = await openStore(`sqlite:${file}`);
    await first.migrate();
    const id = await first.identity();
    await first.close();
    const again = await openStore(`sqlite:${file}`);
    try {
      expect(await again.migrate()).toEqual([]);
      expect(await again.identity()).toBe(id);
    } finally {
      await again.close();
    }
  });
});

describe('postgres', () => {
  const postgres = usePostgresDatabase('store/identity');
  if (postgres)
    identitySuite('postgres', () => postgres.newStore(), [...common, ['TRUNCATE', sql`TRUNCATE store_meta`]]);
  else it.skip('needs PMREF_TEST_POSTGRES_URL', () => {});
});
