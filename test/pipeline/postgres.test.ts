// The pipeline keeps its guarantees on PostgreSQL: one transaction per run, exact log entries, idempotence, carry-forward on a failed venue.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startWorker } from '../../src/pipeline/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, memoryLogger, runOn } from './harness.ts';

const adminUrl = process.env.PMREF_TEST_POSTGRES_URL;
if (!adminUrl) {
  console.warn(
    '[pipeline/postgres] skipped: PMREF_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}

describe.skipIf(!adminUrl)('runPipeline on PostgreSQL', () => {
  const database = `pmref_test_${randomBytes(6).toString('hex')}`;
  let store: Store;
  let dbUrl = '';
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(adminUrl ?? '');
    url.pathname = `/${database}`;
    dbUrl = url.toString();
    store = await openStore(dbUrl);
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('writes day 1, logs exactly the day-2 changes once, and carries a failed venue forward', async () => {
    const first = await runOn(store, DAY1, DAY1_AT);
    expect(first).toMatchObject({ status: 'ok', log_entries: 2, marks: 7, generation: 1 });
    const second = await runOn(store, DAY2, DAY2_AT);
    // The day-2 changes of run.test.ts plus T2's derived close (past its close_at on day 2).
    expect(second.log_entries).toBe(8);
    expect((await runOn(store, DAY2, DAY2_AT)).log_entries).toBe(0);

    const markets = await store.listMarkets({ venue: 'venue_b' });
    const third = await runOn(store, DAY1, '2026-03-03T12:00:00.000Z', { faults: 'venue_b:5xx' });
    expect(third.status).toBe('partial');
    expect(await store.listMarkets({ venue: 'venue_b' })).toEqual(markets);
    const carried = await store.listMarks({
      snapshotDates: ['2026-03-03'],
      marketIds: markets.map((m) => m.market_id),
    });
    expect(carried.map((m) => m.mark_method)).toEqual(markets.map(() => 'imputed_carry_forward'));
  });

  it('lets one worker lead: a second worker on the same database runs nothing until the first stops', async () => {
    const config = loadConfig({ PMREF_DB_URL: dbUrl, PMREF_SOURCE: 'replay', PMREF_REPLAY_DIR: DAY1 });
    const later = () => new Date('2026-03-05T12:00:00Z');
    const other = await openStore(dbUrl);
    try {
      const leader = startWorker({ store, config, logger: memoryLogger(), schedule: '0 0 1 1 *', clock: later });
      expect((await leader.initial)?.runs).toHaveLength(1);
      const follower = startWorker({
        store: other,
        config,
        logger: memoryLogger(),
        schedule: '0 0 1 1 *',
        clock: later,
      });
      await follower.initial;
      expect(await follower.runNow()).toBeNull();
      await leader.stop();
      expect((await follower.runNow())?.runs).toHaveLength(1);
      await follower.stop();
    } finally {
      await other.close();
    }
  });
});
