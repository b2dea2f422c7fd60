// The change feed in the store, on both engines: seqs are dense and increasing across publishes (a rolled-back publish
// leaves no hole), each change carries the generation its publish made, concurrent appenders never share or skip a
// seq, and no SQL form rewrites or removes a stored change.
import { type RawBuilder, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewChange } from '../../src/domain/index.ts';
import { openStore, type SqlStore } from '../../src/store/index.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { makeLogEntry, makeMarket, makeSignal, marketId } from './records.ts';

const AT = '2026-03-02T10:00:00.000Z';

function change(n: number, generation = 1): NewChange {
  return {
    kind: 'market_added',
    market_id: marketId(n),
    event_id: null,
    signal_slug: null,
    generation,
    published_at: AT,
    detail: { platform: 'venue_a', status: 'open', to: { grade: 'B', score: 80 + n } },
  };
}

/** Publishes `changes` as one run, stamped with the generation the publish makes; returns that generation. */
async function publish(store: SqlStore, build: (generation: number) => NewChange[]): Promise<number> {
  const run = await store.startRun('replay', AT);
  const { generation } = await store.publishRun(
    run,
    (tx, publishing) => tx.appendChanges(build(publishing)),
    () => ({ status: 'ok', summary: {}, finishedAt: AT }),
  );
  return generation;
}

const APPEND_ONLY = /append-only/;
const rewrite = (seq: number) =>
  sql`INSERT INTO changes (seq, generation, kind, record) VALUES (${seq}, 9, 'signal', '{}')`;
const commonForms: [string, (seq: number) => RawBuilder<unknown>, RegExp][] = [
  ['UPDATE', (seq) => sql`UPDATE changes SET record = '{}' WHERE seq = ${seq}`, APPEND_ONLY],
  ['DELETE', (seq) => sql`DELETE FROM changes WHERE seq = ${seq}`, APPEND_ONLY],
  ['DELETE without WHERE', () => sql`DELETE FROM changes`, APPEND_ONLY],
  [
    'upsert',
    (seq) =>
      sql`INSERT INTO changes (seq, generation, kind, record) VALUES (${seq}, 9, 'signal', '{}')
          ON CONFLICT (seq) DO UPDATE SET record = excluded.record`,
    APPEND_ONLY,
  ],
];
const sqliteForms: typeof commonForms = [
  ...commonForms,
  [
    'REPLACE INTO',
    (seq) => sql`REPLACE INTO changes (seq, generation, kind, record) VALUES (${seq}, 9, 'x', '{}')`,
    APPEND_ONLY,
  ],
  ['INSERT onto an existing seq', rewrite, APPEND_ONLY],
];
const postgresForms: typeof commonForms = [
  ...commonForms,
  ['TRUNCATE', () => sql`TRUNCATE changes`, APPEND_ONLY],
  ['INSERT onto an existing seq', rewrite, /duplicate key/],
];

function changeFeedSuite(engine: string, newStore: () => Promise<SqlStore>, forms: typeof commonForms): void {
  describe(`change feed: ${engine}`, () => {
    let store: SqlStore;
    beforeEach(async () => {
      store = await newStore();
      await store.migrate();
    });
    afterEach(async () => {
      await store.close();
    });

    it('numbers changes densely across publishes, each with the generation that published it', async () => {
      expect(await store.lastChangeSeq()).toBe(0);
      expect(await store.listChanges()).toEqual([]);
      const g1 = await publish(store, (g) => [change(0, g), change(1, g), change(2, g)]);
      const g2 = await publish(store, (g) => [change(3, g), change(4, g)]);
      expect([g1, g2]).toEqual([1, 2]);
      const all = await store.listChanges();
      expect(all.map((c) => c.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(all.map((c) => c.generation)).toEqual([1, 1, 1, 2, 2]);
      expect(all[3]).toEqual({ seq: 4, ...change(3, 2) });
      expect(await store.lastChangeSeq()).toBe(5);
      expect((await store.listChanges({ after: 2, limit: 2 })).map((c) => c.seq)).toEqual([3, 4]);
      expect(await store.listChanges({ after: 5 })).toEqual([]);
    });

    it('leaves no hole after a publish that rolled back', async () => {
      await publish(store, (g) => [change(0, g)]);
      const run = await store.startRun('replay', AT);
      await expect(
        store.publishRun(
          run,
          async (tx, g) => {
            await tx.appendChanges([change(1, g), change(2, g)]);
            throw new Error('test: the publish fails after its changes');
          },
          () => ({ status: 'ok', summary: {}, finishedAt: AT }),
        ),
      ).rejects.toThrow(/the publish fails/);
      expect(await store.lastChangeSeq()).toBe(1);
      await publish(store, (g) => [change(3, g)]);
      expect((await store.listChanges()).map((c) => [c.seq, c.market_id])).toEqual([
        [1, marketId(0)],
        [2, marketId(3)],
      ]);
    });

    it('never gives two concurrent appenders one seq, nor skips one', async () => {
      await Promise.all(Array.from({ length: 6 }, (_, i) => store.appendChanges([change(2 * i), change(2 * i + 1)])));
      const seqs = (await store.listChanges()).map((c) => c.seq);
      expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    });

    it('returns the log ids it appended and the bulletins that were new', async () => {
      await store.upsertMarkets([makeMarket(0)]);
      const logged = await store.appendLogEntries([makeLogEntry(0), makeLogEntry(0, { event_type: 'resolved' })]);
      expect(logged).toEqual(await store.listLog());
      const [a, b] = [makeSignal('a-slug'), makeSignal('b-slug')];
      expect(await store.insertNewSignals([a])).toEqual([a]);
      expect(await store.insertNewSignals([{ ...a, headline: 'rewritten' }, b])).toEqual([b]);
    });

    for (const [form, statement, rejected] of forms) {
      it(`rejects ${form} of a stored change`, async () => {
        await publish(store, (g) => [change(0, g), change(1, g)]);
        const before = await store.listChanges();
        await expect(statement(1).execute(store.db)).rejects.toThrow(rejected);
        expect(await store.listChanges()).toEqual(before);
      });
    }
  });
}

changeFeedSuite('sqlite', () => openStore('sqlite::memory:'), sqliteForms);

describe('postgres', () => {
  const postgres = usePostgresDatabase('store/changes');
  if (postgres) changeFeedSuite('postgres', () => postgres.newStore(), postgresForms);
  else it.skip('needs PMREF_TEST_POSTGRES_URL', () => {});
});
