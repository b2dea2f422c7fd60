// Migration 0005 brings a store that already holds several keys for one address (in any case) to one claim per address: every existing key keeps working, and no further key is issued to that address, on both engines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type SqlStore } from '../../src/store/index.ts';
import { usePostgresDatabase } from './pg-database.ts';

const FIRST_NEW = MIGRATIONS.findIndex((m) => m.version === '0005_api_keys_email');

/** Brings a fresh store to the schema of the versions before 0005, as a store created by an older pmref. */
async function migrateToBefore0005(store: SqlStore): Promise<void> {
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

const key = (hash: string, email: string) => ({
  key_hash: hash.repeat(64),
  email,
  daily_limit: 10000,
  created_at: '2026-01-01T00:00:00Z',
});

function suite(engine: string, newStore: () => Promise<SqlStore>) {
  it(`${engine}: keeps legacy duplicates working and refuses any further key for their address`, async () => {
    expect(FIRST_NEW).toBeGreaterThan(0);
    const store = await newStore();
    try {
      await migrateToBefore0005(store);
      const legacy = [key('a', 'Dev@Example.com'), key('b', 'dev@example.com'), key('c', 'ops@example.com')];
      for (const k of legacy) await store.insertApiKey(k);
      expect(await store.migrate()).toEqual(MIGRATIONS.slice(FIRST_NEW).map((m) => m.version));
      for (const k of legacy) expect(await store.findApiKey(k.key_hash)).toEqual(k);
      expect(await store.issueApiKey(key('d', 'dev@example.com'))).toBe('email_taken');
      expect(await store.issueApiKey(key('e', 'ops@example.com'))).toBe('email_taken');
      expect(await store.findApiKey(key('d', '').key_hash)).toBeNull();
      expect(await store.issueApiKey(key('f', 'new@example.com'))).toBe('issued');
    } finally {
      await store.close();
    }
  });
}

describe('api key email claims (migration 0005)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-key-emails-'));
  let n = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  suite('sqlite', () => openStore(`sqlite:${join(dir, `store-${n++}.sqlite`)}`));
  const postgres = usePostgresDatabase('store/api-key-emails');
  if (postgres) suite('postgres', () => postgres.newStore());
});
