/**
 * The Store contract holds on PostgreSQL: a fresh database per test file (dropped after), a fresh
 * schema per test. Skips, saying why, when PMREF_TEST_POSTGRES_URL is unset.
 */
import { describe, it } from 'vitest';
import { runStoreContract } from './contract.ts';
import { usePostgresDatabase } from './pg-database.ts';

const pg = usePostgresDatabase('store/postgres');

if (!pg) {
  describe.skip('Store contract: postgres (PMREF_TEST_POSTGRES_URL is not set)', () => {
    it('needs PostgreSQL', () => {});
  });
} else {
  runStoreContract({ name: 'postgres', newStore: () => pg.newStore() });
}
