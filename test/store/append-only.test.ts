// The resolution log is append-only in the database on both engines: every SQL form that could change or remove
// a stored entry (UPDATE, DELETE, REPLACE / INSERT OR REPLACE, upsert, MERGE, TRUNCATE) is rejected and leaves
// the log exactly as it was, while appends keep working.
import { type RawBuilder, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolutionLogEntry } from '../../src/domain/index.ts';
import { openStore, type SqlStore } from '../../src/store/index.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { makeLogEntry, makeMarket, marketId } from './records.ts';

/** One way of writing to the log; `id` is a stored entry's log_id, `all` every stored log_id. */
interface WriteForm {
  form: string;
  statement: (id: number) => RawBuilder<unknown>;
  /** What the refusal says. */
  rejected: RegExp;
  /** Runs first on the same connection (SQLite pragmas). */
  before?: RawBuilder<unknown>;
}

const APPEND_ONLY = /append-only/;
const M = marketId(0);
/** A full row over an existing key: what a rewrite would leave behind. */
const columns = sql`(log_id, market_id, event_type, occurred_at, recorded_at, record)`;
const forged = (id: number) => sql`(${id}, ${M}, 'reversed', '2026-03-02T10:00:00Z', '2026-03-02T10:00:05Z', '{}')`;
const upsert = (id: number) =>
  sql`INSERT INTO resolution_log ${columns} VALUES ${forged(id)}
      ON CONFLICT (log_id) DO UPDATE SET event_type = excluded.event_type, record = excluded.record`;

/** The forms both engines share. */
const common: WriteForm[] = [
  {
    form: 'UPDATE of one entry',
    statement: (id) => sql`UPDATE resolution_log SET record = '{}' WHERE log_id = ${id}`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'UPDATE of every entry',
    statement: () => sql`UPDATE resolution_log SET event_type = 'reversed'`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'DELETE of one entry',
    statement: (id) => sql`DELETE FROM resolution_log WHERE log_id = ${id}`,
    rejected: APPEND_ONLY,
  },
  { form: 'DELETE without WHERE', statement: () => sql`DELETE FROM resolution_log`, rejected: APPEND_ONLY },
  { form: 'upsert (INSERT … ON CONFLICT DO UPDATE)', statement: upsert, rejected: APPEND_ONLY },
];

const sqliteForms: WriteForm[] = [
  ...common,
  {
    form: 'REPLACE INTO',
    statement: (id) => sql`REPLACE INTO resolution_log ${columns} VALUES ${forged(id)}`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'INSERT OR REPLACE',
    statement: (id) => sql`INSERT OR REPLACE INTO resolution_log ${columns} VALUES ${forged(id)}`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'REPLACE INTO with recursive_triggers on',
    before: sql`PRAGMA recursive_triggers = ON`,
    statement: (id) => sql`REPLACE INTO resolution_log ${columns} VALUES ${forged(id)}`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'INSERT OR REPLACE with recursive_triggers off',
    before: sql`PRAGMA recursive_triggers = OFF`,
    statement: (id) => sql`INSERT OR REPLACE INTO resolution_log ${columns} VALUES ${forged(id)}`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'UPDATE OR REPLACE onto another entry',
    statement: (id) => sql`UPDATE OR REPLACE resolution_log SET log_id = ${id} WHERE log_id <> ${id}`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'INSERT onto an existing log_id',
    statement: (id) => sql`INSERT INTO resolution_log ${columns} VALUES ${forged(id)}`,
    rejected: APPEND_ONLY,
  },
];

const postgresForms: WriteForm[] = [
  ...common,
  { form: 'TRUNCATE', statement: () => sql`TRUNCATE resolution_log`, rejected: APPEND_ONLY },
  { form: 'TRUNCATE of markets, CASCADE', statement: () => sql`TRUNCATE markets CASCADE`, rejected: APPEND_ONLY },
  {
    form: 'MERGE … WHEN MATCHED THEN UPDATE',
    statement: (id) => sql`MERGE INTO resolution_log AS l USING (SELECT ${id}::bigint AS log_id) AS s
      ON l.log_id = s.log_id WHEN MATCHED THEN UPDATE SET record = '{}'`,
    rejected: APPEND_ONLY,
  },
  {
    form: 'MERGE … WHEN MATCHED THEN DELETE',
    statement: (id) => sql`MERGE INTO resolution_log AS l USING (SELECT ${id}::bigint AS log_id) AS s
      ON l.log_id = s.log_id WHEN MATCHED THEN DELETE`,
    rejected: APPEND_ONLY,
  },
  // PostgreSQL has no REPLACE: its rewrite-by-insert is the upsert above. Pinned so the matrix is complete.
  {
    form: 'REPLACE INTO (not PostgreSQL syntax)',
    statement: (id) => sql`REPLACE INTO resolution_log ${columns} VALUES ${forged(id)}`,
    rejected: /syntax error/,
  },
  {
    form: 'INSERT onto an existing log_id',
    statement: (id) => sql`INSERT INTO resolution_log ${columns} OVERRIDING SYSTEM VALUE VALUES ${forged(id)}`,
    rejected: /duplicate key/,
  },
];

/** The raw rows, so a rewrite the parsed records would hide (a changed column) still shows. */
async function rawLog(store: SqlStore) {
  return store.db.selectFrom('resolution_log').selectAll().orderBy('log_id').execute();
}

function appendOnlySuite(engine: string, newStore: () => Promise<SqlStore>, forms: readonly WriteForm[]): void {
  describe(`resolution_log append-only: ${engine}`, () => {
    let store: SqlStore;
    let before: ResolutionLogEntry[];

    beforeEach(async () => {
      store = await newStore();
      await store.migrate();
      await store.upsertMarkets([makeMarket(0)]);
      await store.appendLog([makeLogEntry(0), makeLogEntry(0, { event_type: 'resolved', to_value: 'YES' })]);
      before = await store.listLog();
      expect(before).toHaveLength(2);
    });
    afterEach(async () => {
      await store.close();
    });

    for (const { form, statement, rejected, before: setup } of forms) {
      it(`rejects ${form}`, async () => {
        const rows = await rawLog(store);
        if (setup) await setup.execute(store.db);
        for (const entry of before) {
          await expect(statement(entry.log_id).execute(store.db)).rejects.toThrow(rejected);
        }
        expect(await rawLog(store)).toEqual(rows);
        expect(await store.listLog()).toEqual(before);
      });
    }

    it('still appends, after its entries, with store.appendLog and with a plain INSERT', async () => {
      expect(await store.appendLog([makeLogEntry(0, { event_type: 'rule_change' })])).toBe(1);
      await sql`INSERT INTO resolution_log (market_id, event_type, occurred_at, recorded_at, record)
        VALUES (${M}, 'status_change', '2026-03-03T00:00:00Z', '2026-03-03T00:00:01Z',
                ${JSON.stringify(makeLogEntry(0, { occurred_at: '2026-03-03T00:00:00Z' }))})`.execute(store.db);
      const after = await store.listLog();
      expect(after.slice(0, 2)).toEqual(before);
      expect(after.map((e) => e.event_type)).toEqual(['status_change', 'resolved', 'rule_change', 'status_change']);
      const ids = after.map((e) => e.log_id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(4);
    });
  });
}

appendOnlySuite('sqlite', () => openStore('sqlite::memory:'), sqliteForms);

describe('sqlite: log ids stay positive, so an auto-assigned id never collides', () => {
  it('rejects an explicit log_id below 1', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      await store.migrate();
      await store.upsertMarkets([makeMarket(0)]);
      for (const id of [0, -1]) {
        await expect(sql`INSERT INTO resolution_log ${columns} VALUES ${forged(id)}`.execute(store.db)).rejects.toThrow(
          APPEND_ONLY,
        );
      }
      expect(await store.appendLog([makeLogEntry(0)])).toBe(1);
      expect((await store.listLog()).map((e) => e.log_id)).toEqual([1]);
    } finally {
      await store.close();
    }
  });
});

describe('postgres', () => {
  const postgres = usePostgresDatabase('store/append-only');
  if (postgres) appendOnlySuite('postgres', () => postgres.newStore(), postgresForms);
  else it.skip('needs PMREF_TEST_POSTGRES_URL', () => {});
});
