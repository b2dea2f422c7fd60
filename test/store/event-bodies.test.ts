// Event bodies are stored plain (codec 0), whatever their length, on both engines, and read back as written. A store
// whose event bodies were deflated before migration 0010 has them rewritten plain, and reads the same events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_DEFLATE_CHARS, packText } from '../../src/store/content-codec.ts';
import { openStore, type SqlStore } from '../../src/store/index.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { makeEvent } from './records.ts';

function eventBodySuite(engine: string, newStore: () => Promise<SqlStore>) {
  describe(`event bodies: ${engine}`, () => {
    let store: SqlStore;
    // Long enough that packText would deflate them: the question repeats to well past MIN_DEFLATE_CHARS.
    const events = Array.from({ length: 6 }, (_, i) =>
      makeEvent(i, { question: `Will the federal funds target range be cut at meeting ${i}? `.repeat(20) }),
    );
    const bodies = async () =>
      (
        await sql<{ event_id: string; body: Uint8Array }>`SELECT event_id, body FROM events ORDER BY event_id`.execute(
          store.db,
        )
      ).rows;
    beforeEach(async () => {
      store = await newStore();
      await store.migrate();
      await store.upsertEvents(events);
    });
    afterEach(async () => {
      await store.close();
    });

    it('are written plain and read back as the events written', async () => {
      expect(JSON.stringify(events[0]).length).toBeGreaterThan(MIN_DEFLATE_CHARS);
      const rows = await bodies();
      expect(rows).toHaveLength(events.length);
      for (const row of rows) expect(row.body[0]).toBe(0);
      const byId = new Map(events.map((e) => [e.event_id, e]));
      for (const e of await store.listEvents()) expect(e).toEqual(byId.get(e.event_id));
    });

    it('migration 0010 rewrites bodies stored deflated, and the events read the same', async () => {
      const before = JSON.stringify(await store.listEvents());
      for (const row of await bodies()) {
        const deflated = packText(Buffer.from(row.body).toString('utf8', 1));
        expect(deflated[0]).toBe(1);
        await sql`UPDATE events SET body = ${deflated} WHERE event_id = ${row.event_id}`.execute(store.db);
      }
      expect(JSON.stringify(await store.listEvents())).toBe(before);
      await sql`DELETE FROM schema_migrations WHERE version = '0010_plain_event_bodies'`.execute(store.db);
      expect(await store.migrate()).toEqual(['0010_plain_event_bodies']);
      for (const row of await bodies()) expect(row.body[0]).toBe(0);
      expect(JSON.stringify(await store.listEvents())).toBe(before);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'pmref-event-bodies-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
eventBodySuite('sqlite', () => openStore(`sqlite:${join(dir, `store-${n++}.sqlite`)}`));

describe('postgres', () => {
  const pg = usePostgresDatabase('event-bodies');
  if (pg === null) {
    it.skip('PMREF_TEST_POSTGRES_URL is not set', () => {});
    return;
  }
  eventBodySuite('postgres', () => pg.newStore());
});
