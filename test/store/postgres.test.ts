/**
 * The Store contract holds on PostgreSQL: a fresh database per test file (dropped after), a fresh
 * schema per test. Skips, saying why, when PMREF_TEST_POSTGRES_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { runStoreContract } from './contract.ts';

const adminUrl = process.env.PMREF_TEST_POSTGRES_URL;

if (!adminUrl) {
  console.warn(
    '[store/postgres] skipped: PMREF_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
  describe.skip('Store contract: postgres (PMREF_TEST_POSTGRES_URL is not set)', () => {
    it('needs PostgreSQL', () => {});
  });
} else {
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
    pool = new pg.Pool({ connectionString: testUrl, max: 2 });
  });

  afterAll(async () => {
    await pool?.end();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  runStoreContract({
    name: `postgres (${database})`,
    newStore: async () => {
      const schema = `contract_${n++}`;
      await pool?.query(`CREATE SCHEMA ${schema}`);
      return openStore(testUrl, { pgSchema: schema });
    },
  });
}
