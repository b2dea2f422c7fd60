// Migration 0006 converts a store an older pmref left at version 0005 (whole JSON records) to typed marks and
// content-stored parts, on both engines, so that every Store method returns exactly what the old store returned:
// each mark under its own mark_id, each market and event, each staged mark; and mark ids keep counting from
// where the old table left off, never reusing one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event, Mark, NewMark } from '../../src/domain/index.ts';
import { MIGRATIONS, openStore, type SqlStore } from '../../src/store/index.ts';
import { oddMarks } from './contract-typed.ts';
import {
  insertOldEvents,
  insertOldMarkets,
  insertOldMarks,
  insertOldStagedMarks,
  migrateThrough,
} from './old-shape.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { makeEvent, makeMark, makeMarket } from './records.ts';

const BEFORE = '0005_api_keys_email';
const order = (a: Mark, b: Mark) =>
  a.snapshot_date !== b.snapshot_date
    ? a.snapshot_date < b.snapshot_date
      ? -1
      : 1
    : a.market_id < b.market_id
      ? -1
      : a.market_id > b.market_id
        ? 1
        : 0;

/** What the old store returned for a stored record: its JSON parsed again. */
const reread = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

async function columnsOf(store: SqlStore, table: string): Promise<string[]> {
  const query =
    store.engine === 'sqlite'
      ? sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`
      : sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table}`;
  return (await query.execute(store.db)).rows.map((r) => r.name);
}

function migrationSuite(engine: string, newStore: () => Promise<SqlStore>) {
  describe(`migration 0006: ${engine}`, () => {
    let store: SqlStore;
    beforeEach(async () => {
      store = await newStore();
      await migrateThrough(store, BEFORE);
    });
    afterEach(async () => {
      await store.close();
    });

    it('converts marks, markets, events and staged marks; every record reads back as before', async () => {
      const markets = [
        ...Array.from({ length: 8 }, (_, i) => makeMarket(i)),
        makeMarket(8, { field_provenance: {}, eligibility_screens: [] }),
      ];
      const { field_provenance: _p, ...withoutProvenance } = makeEvent(2);
      const events = [makeEvent(0), makeEvent(1, { field_provenance: {} }), withoutProvenance];
      await insertOldMarkets(store, markets);
      await insertOldEvents(store, events as Event[]);
      const history = Array.from({ length: 3_000 }, (_, i) =>
        makeMark(i % 8, `2026-01-${String(1 + (Math.floor(i / 8) % 28)).padStart(2, '0')}`, {
          snapshot_at: `2026-01-${String(1 + (Math.floor(i / 8) % 28)).padStart(2, '0')}T00:00:00.000Z`,
          raw_payload: { t: Math.floor(i / 8), p: (i % 97) / 100 },
          yes_last_price: (i % 97) / 100,
        }),
      );
      const unique = new Map<string, NewMark>();
      for (const m of [...history, ...oddMarks()]) unique.set(`${m.market_id}|${m.snapshot_date}`, m);
      const marks = [...unique.values()];
      const ids = await insertOldMarks(store, marks);
      // The newest mark removed: its id stays used.
      const top = Math.max(...ids);
      await sql`DELETE FROM marks WHERE mark_id = ${top}`.execute(store.db);
      const expected = marks
        .map((m, i) => ({ mark_id: ids[i] as number, ...reread(m) }))
        .filter((m) => m.mark_id !== top)
        .sort(order);
      const staged = oddMarks().map((m) => ({ ...m, snapshot_date: '2026-02-27' }));
      if (engine === 'postgres') await insertOldStagedMarks(store, 7, staged);

      expect(await store.migrate()).toEqual(
        MIGRATIONS.slice(MIGRATIONS.findIndex((m) => m.version === '0006_typed_marks_content')).map((m) => m.version),
      );

      const listed = await store.listMarks();
      expect(listed).toHaveLength(expected.length);
      expect(JSON.stringify(listed)).toBe(JSON.stringify(expected));
      const byMarketId = [...markets].sort((a, b) => (a.market_id < b.market_id ? -1 : 1));
      expect(await store.listMarkets()).toEqual(reread(byMarketId));
      expect(JSON.stringify(await store.listMarkets())).toBe(JSON.stringify(byMarketId));
      for (const m of markets) expect(JSON.stringify(await store.getMarket(m.market_id))).toBe(JSON.stringify(m));
      const byEventId = [...events].sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
      expect(JSON.stringify(await store.listEvents())).toBe(JSON.stringify(byEventId));
      if (engine === 'postgres') {
        expect(JSON.stringify(await store.listStagedMarks(7))).toBe(
          JSON.stringify(staged.map(reread).sort((a, b) => (a.market_id < b.market_id ? -1 : 1))),
        );
      }
      // A new mark continues after the highest id ever handed out.
      await store.upsertMarks([makeMark(0, '2026-03-31')]);
      const [fresh] = await store.listMarks({ snapshotDates: ['2026-03-31'] });
      expect(fresh?.mark_id).toBe(top + 1);

      for (const table of ['marks', 'markets', 'events', 'staged_marks']) {
        if (table === 'staged_marks' && engine === 'sqlite') continue;
        expect(await columnsOf(store, table)).not.toContain('record');
      }
      expect(await columnsOf(store, 'marks')).toContain('yes_bid');
      // The repeated parts went to content once each: 9 markets share 2 provenance texts.
      const provenance = await store.db.selectFrom('markets').select('field_provenance_id').distinct().execute();
      expect(provenance).toHaveLength(2);
      // The unique (market, date) rule and the feed order index are back.
      await expect(store.upsertMarks([makeMark(0, '2026-03-31')])).resolves.toBeUndefined();
      expect((await store.counts()).marks).toBe(expected.length + 1);
    });

    it('migrates an empty store', async () => {
      expect((await store.migrate())[0]).toBe('0006_typed_marks_content');
      await store.upsertMarkets([makeMarket(0)]);
      await store.upsertMarks([makeMark(0)]);
      expect((await store.listMarks())[0]?.mark_id).toBe(1);
    });
  });
}

describe('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-migration-'));
  let n = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  migrationSuite('sqlite', () => openStore(`sqlite:${join(dir, `store-${n++}.sqlite`)}`));
});

describe('postgres', () => {
  const postgres = usePostgresDatabase('store/migration-0006');
  if (postgres) migrationSuite('postgres', () => postgres.newStore());
  else it.skip('needs PMREF_TEST_POSTGRES_URL', () => {});
});
