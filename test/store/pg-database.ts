/**
 * A throwaway PostgreSQL database for one test file: created before its tests, dropped (forcefully) after,
 * one fresh schema per store. Null, with the reason printed once, when PMREF_TEST_POSTGRES_URL is unset, so the
 * caller can skip saying why.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type SqlStore } from '../../src/store/index.ts';

export interface PostgresStores {
  /** A fresh, empty, not yet migrated store in a new schema of the file's database. */
  newStore(): Promise<SqlStore>;
}

/** Call at the top of a describe block: registers the database's creation and removal around its tests. */
export function usePostgresDatabase(label: string): PostgresStores | null {
  const adminUrl = process.env.PMREF_TEST_POSTGRES_URL;
  if (!adminUrl) {
    console.warn(
      `[${label}] PostgreSQL part skipped: PMREF_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)`,
    );
    return null;
  }
  const database = `pmref_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const testUrl = url.toString();
  let pool: pg.Pool | undefined;
  let n = 0;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    pool = new pg.Pool({ connectionString: testUrl, max: 1 });
  });
  afterAll(async () => {
    if (pool) await endPool(pool);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  return {
    async newStore() {
      const schema = `s_${n++}`;
      if (!pool) throw new Error('the test database is not created yet: call newStore inside a test');
      await pool.query(`CREATE SCHEMA ${schema}`);
      return openStore(testUrl, { pgSchema: schema, poolSize: 2 });
    },
  };
}

/**
 * Ends a pool once its clients have closed. pg-pool's `end()` resolves as soon as it has told its clients to end,
 * not when they have: the `DROP DATABASE … WITH (FORCE)` after it could then terminate a client still closing,
 * whose error the pool re-emits with no listener, an uncaught exception that failed a whole test run (seen in CI
 * on 2026-11-26, from test/store/append-only.test.ts). Waiting for each client's `remove` closes that window.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      if (++closed >= open) resolve();
    });
  });
  await pool.end();
  await allClosed;
}
