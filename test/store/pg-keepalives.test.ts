// Every PostgreSQL connection of a store asks the server for TCP keepalives, so the run lock of a host that vanished mid-run is freed within about a minute, not the kernel's default two hours.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePostgresDatabase } from './pg-database.ts';

describe('PostgreSQL store connections', () => {
  const pg = usePostgresDatabase('store/pg-keepalives');
  it.skipIf(!pg)('set server-side TCP keepalives (20 s idle, 10 s interval, 3 probes), schema included', async () => {
    const store = await pg?.newStore();
    if (!store) return;
    try {
      const show = async (name: string) =>
        (await sql<Record<string, string>>`SHOW ${sql.raw(name)}`.execute(store.db)).rows[0]?.[name];
      expect(await show('tcp_keepalives_idle')).toBe('20');
      expect(await show('tcp_keepalives_interval')).toBe('10');
      expect(await show('tcp_keepalives_count')).toBe('3');
      expect(await show('search_path')).toMatch(/^"?s_\d+"?$/);
    } finally {
      await store.close();
    }
  });
});
