// On SQLite a run's staged history marks live in a scratch database beside the store, never in the store file,
// and the scratch pages are given back once the run is published or aborted (issue 15; store/index.ts). The
// scratch table has the typed shape of migration 0006; one left by an older pmref is replaced when the store opens.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type SqlStore } from '../../src/store/index.ts';
import { makeMark, makeMarket } from './records.ts';

const OWNER = { host: 'test', pid: process.pid, process_started_at: new Date(0).toISOString() };
const MARKETS = 80;
const DAYS = 30;

let dir: string;
let store: SqlStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-staging-'));
  store = await openStore(`sqlite:${join(dir, 'pmref.sqlite')}`);
  await store.migrate();
  await store.upsertMarkets(Array.from({ length: MARKETS }, (_, i) => makeMarket(i)));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A month of history for every market (2,400 typed rows, about 120 bytes each with their key). */
function history() {
  const marks = [];
  for (let d = 1; d <= DAYS; d++) {
    const date = `2026-02-${String(d).padStart(2, '0')}`;
    for (let i = 0; i < MARKETS; i++) marks.push(makeMark(i, date, { raw_payload: { t: d, p: i / 100 } }));
  }
  return marks;
}
/** Well above what an empty scratch file takes, well below what the staged rows take. */
const EMPTY_SCRATCH = 64 * 1024;

const tablesOfStoreFile = async () =>
  (await sql<{ name: string }>`SELECT name FROM main.sqlite_master WHERE type = 'table'`.execute(store.db)).rows.map(
    (r) => r.name,
  );

describe('SQLite staging scratch database', () => {
  it('keeps staged marks out of the store file and releases them after the publish', async () => {
    expect(await tablesOfStoreFile()).not.toContain('staged_marks');
    const run = await store.beginRun('replay', '2026-03-01T12:00:00Z', OWNER);
    await store.stageMarks(run.run_id, history());
    const scratch = join(dir, 'pmref.sqlite.staging');
    expect(statSync(scratch).size).toBeGreaterThan(2 * EMPTY_SCRATCH);
    expect((await store.listMarks()).length).toBe(0);

    await store.publishRun(
      run.run_id,
      (tx) => tx.publishStagedMarks(run.run_id),
      () => ({ status: 'ok', summary: {}, finishedAt: '2026-03-01T12:05:00Z' }),
    );
    await run.release();
    expect((await store.listMarks()).length).toBe(MARKETS * DAYS);
    expect(await store.listStagedMarks(run.run_id)).toEqual([]);
    expect(statSync(scratch).size).toBeLessThan(EMPTY_SCRATCH);
  });

  it('drops and releases the staged marks of an aborted run', async () => {
    const run = await store.beginRun('replay', '2026-03-01T12:00:00Z', OWNER);
    await store.stageMarks(run.run_id, history());
    expect(await store.abortRun(run.run_id, { error: 'test: process ended' }, '2026-03-01T13:00:00Z')).toBe(true);
    await run.release();
    expect((await store.listMarks()).length).toBe(0);
    expect(statSync(join(dir, 'pmref.sqlite.staging')).size).toBeLessThan(EMPTY_SCRATCH);
  });

  it('replaces a scratch table of the shape before migration 0006 when the store opens', async () => {
    await store.close();
    const scratch = new Database(join(dir, 'pmref.sqlite.staging'));
    scratch.exec(`DROP TABLE staged_marks; CREATE TABLE staged_marks (run_id integer NOT NULL, market_id text NOT NULL,
      snapshot_date text NOT NULL, record text NOT NULL, PRIMARY KEY (run_id, market_id, snapshot_date));
      INSERT INTO staged_marks VALUES (999, 'x', '2026-02-01', '{}')`);
    scratch.close();
    store = await openStore(`sqlite:${join(dir, 'pmref.sqlite')}`);
    const run = await store.beginRun('replay', '2026-03-01T12:00:00Z', OWNER);
    await store.stageMarks(run.run_id, history().slice(0, 3));
    expect(await store.listStagedMarks(run.run_id)).toEqual(
      history()
        .slice(0, 3)
        .sort((a, b) => (a.market_id < b.market_id ? -1 : 1)),
    );
    expect(await store.listStagedMarks(999)).toEqual([]);
    await run.release();
  });
});
