// Whatever stage boundary a pipeline run's process is killed at (SIGKILL), nothing of the run is ever visible, the next start marks it `aborted` and drops what it staged, and a rerun leaves the store exactly as a clean run does — on SQLite and on PostgreSQL.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  afterWriteStage,
  RUN_CHECKPOINTS,
  type RunCheckpoint,
  runPipeline,
  startWorker,
} from '../../src/pipeline/index.ts';
import type { LeaderLock } from '../../src/pipeline/leader.ts';
import { openStore, type SqlStore, type Store } from '../../src/store/index.ts';
import { startReplayServer } from '../../src/venues/index.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, memoryLogger } from './harness.ts';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pgUrl = process.env.PMREF_TEST_POSTGRES_URL;
if (!pgUrl) {
  console.warn(
    '[pipeline/kill-at-stage] PostgreSQL half skipped: PMREF_TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}

const tmp = mkdtempSync(join(tmpdir(), 'pmref-kill-'));
/** Day 1 with a spot price; day 2 with day 1's venue history, so the crashed run stages history marks. */
const day1Dir = join(tmp, 'day1');
const day2Dir = join(tmp, 'day2');
const spot = JSON.stringify({ bitcoin: { usd: 97000, last_updated_at: 1772366400 } });
cpSync(DAY1, day1Dir, { recursive: true });
writeFileSync(join(day1Dir, 'simple_price.json'), spot);
cpSync(DAY2, day2Dir, { recursive: true });
cpSync(join(DAY1, 'history'), join(day2Dir, 'history'), { recursive: true });
writeFileSync(
  join(day2Dir, 'simple_price.json'),
  JSON.stringify({ bitcoin: { usd: 99000, last_updated_at: 1772452800 } }),
);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Opened {
  store: SqlStore;
  dbUrl: string;
  pgSchema?: string;
  dispose(): Promise<void>;
}

interface Engine {
  name: 'sqlite' | 'postgres';
  open(): Promise<Opened>;
}

const sqlite: Engine = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmp, 'sqlite-'));
    const dbUrl = `sqlite:${join(dir, 'store.sqlite')}`;
    const store = await openStore(dbUrl);
    await store.migrate();
    return { store, dbUrl, dispose: () => store.close() };
  },
};

const postgres: Engine = {
  name: 'postgres',
  async open() {
    const dbUrl = pgUrl ?? '';
    const pgSchema = `pmref_kill_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${pgSchema}`);
    await admin.end();
    const store = await openStore(dbUrl, { pgSchema, poolSize: 3 });
    await store.migrate();
    return {
      store,
      dbUrl,
      pgSchema,
      async dispose() {
        await store.close();
        const drop = new pg.Client({ connectionString: dbUrl });
        await drop.connect();
        await drop.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
        await drop.end();
      },
    };
  },
};

/** Day 1, history deferred (every market pending), so day 2's run has history to stage. */
async function seedDay1(store: Store): Promise<void> {
  const logger = memoryLogger();
  const server = await startReplayServer({ dir: day1Dir, port: 0 });
  try {
    const fast = { ratePerSecond: Number.POSITIVE_INFINITY, concurrency: 8, logger };
    const summary = await runPipeline({
      store,
      source: 'replay',
      clock: () => new Date(DAY1_AT),
      logger,
      venues: {
        venue_a: { ...fast, baseUrl: server.venueAUrl },
        venue_b: { ...fast, baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl },
      },
      backfill: { maxCalls: 0 },
      afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
    });
    expect(summary.status).toBe('ok');
  } finally {
    await server.close();
  }
}

/** Everything a reader of the store can see: what read-model builds, /v1/status, the marks feed, MCP and A2A read. */
async function visible(store: Store) {
  return {
    generation: await store.generation(),
    counts: await store.counts(),
    events: await store.listEvents(),
    markets: await store.listMarkets(),
    marks: await store.listMarks(),
    log: await store.listLog(),
    catalysts: await store.listCatalysts(),
    signals: await store.listSignals(),
    spot: await store.latestSpot(),
    lastPublished: await store.lastRun({ published: true }),
  };
}
type Visible = Awaited<ReturnType<typeof visible>>;

/** The served content without what differs between any two runs by design: surrogate keys and run records. */
function content(v: Visible) {
  return {
    ...v,
    marks: v.marks.map(({ mark_id: _id, ...mark }) => mark),
    log: v.log.map(({ log_id: _id, ...entry }) => entry),
    lastPublished: v.lastPublished ? { status: v.lastPublished.status, generation: v.lastPublished.generation } : null,
  };
}

/** The rows of every served table that differ, by table: the matrix's "visible after the kill". */
function leaked(before: Visible, after: Visible): string {
  const out: string[] = [];
  for (const key of Object.keys(before) as (keyof Visible)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out.push(key);
  }
  return out.length === 0 ? 'nothing' : out.join(', ');
}

function crash(opened: Opened, stage: RunCheckpoint): Promise<{ code: number | null; signal: string | null }> {
  const args = JSON.stringify({
    dbUrl: opened.dbUrl,
    ...(opened.pgSchema ? { pgSchema: opened.pgSchema } : {}),
    replayDir: day2Dir,
    at: DAY2_AT,
    stage,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, args], { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** PostgreSQL frees a dead session's locks when it notices the closed socket: wait for that (bounded). */
async function untilRunUnlocked(store: SqlStore, runId: number): Promise<void> {
  if (store.engine !== 'postgres') return;
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND objsubid = 2 AND objid = ${runId}::int4::oid
        AND classid = hashtext(concat('pmref-run:', current_schema()))::oid`.execute(store.db);
    if (rows[0]?.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId}: its lock outlived its process by 10 s`);
}

const leader: LeaderLock = { acquire: async () => true, release: async () => {} };

/** The next start, as `pmref worker` / `pmref start` make it: abort dead runs, then refresh the stale store. */
async function nextStart(opened: Opened) {
  const config = loadConfig({
    PMREF_DB_URL: opened.dbUrl,
    PMREF_SOURCE: 'replay',
    PMREF_REPLAY_DIR: day2Dir,
    PMREF_LOG_LEVEL: 'silent',
  });
  const worker = startWorker({
    store: opened.store,
    config,
    logger: memoryLogger(),
    clock: () => new Date(DAY2_AT),
    leaderLock: leader,
  });
  const result = await worker.initial;
  await worker.stop();
  return result;
}

const matrix: string[] = [];
afterAll(() => {
  if (matrix.length > 0) {
    console.log(
      `kill-at-stage matrix (engine | stage | visible after the kill | staged rows left | after the next start)\n${matrix.sort().join('\n')}`,
    );
  }
});

for (const engine of [sqlite, postgres]) {
  const skip = engine.name === 'postgres' && !pgUrl;
  // The stages run concurrently (each on its own store): most of a stage's time is its child process starting.
  describe.skipIf(skip).concurrent(`kill at each stage on ${engine.name}`, () => {
    let clean: ReturnType<typeof content>;
    /** History marks the clean run staged and published. */
    let history = 0;
    beforeAll(async () => {
      const opened = await engine.open();
      try {
        await seedDay1(opened.store);
        const result = await nextStart(opened);
        expect(result?.runs[0]?.status).toBe('ok');
        history = result?.runs[0]?.backfill?.marks ?? 0;
        expect(history).toBeGreaterThan(1);
        clean = content(await visible(opened.store));
      } finally {
        await opened.dispose();
      }
    }, 120_000);

    it.for(RUN_CHECKPOINTS)(
      'killed at %s: nothing visible, aborted at the next start, the rerun equals a clean run',
      { timeout: 90_000 },
      async (stage, { expect }) => {
        const opened = await engine.open();
        try {
          const { store } = opened;
          await seedDay1(store);
          const before = await visible(store);

          const exit = await crash(opened, stage);
          expect(exit).toEqual({ code: null, signal: 'SIGKILL' });

          const after = await visible(store);
          const what = leaked(before, after);
          expect(after).toEqual(before);
          const [dead, ...others] = await store.runningRuns();
          expect(others).toEqual([]);
          expect(dead?.status).toBe('running');
          const runId = dead?.run_id ?? 0;
          const staged = (await store.listStagedMarks(runId)).length;
          // Killed inside the backfill, after its first batch was staged (concurrent jobs may have staged more).
          if (stage === 'mid_backfill') {
            expect(staged).toBeGreaterThan(0);
            expect(staged).toBeLessThanOrEqual(history);
          }
          if (stage === 'after_backfill' || stage === 'after_after_write' || stage === 'before_publish_commit')
            expect(staged).toBe(history);

          await untilRunUnlocked(store, runId);
          const result = await nextStart(opened);
          expect(result?.runs[0]?.status).toBe('ok');
          const record = await store.db
            .selectFrom('pipeline_runs')
            .select(['status', 'generation', 'summary'])
            .where('run_id', '=', runId)
            .executeTakeFirst();
          expect(record).toMatchObject({ status: 'aborted', generation: 0 });
          expect(JSON.parse(record?.summary ?? '{}').error).toMatch(
            /^process ended before publish; found at start by pid/,
          );
          expect(await store.listStagedMarks(runId)).toEqual([]);
          expect(await store.runningRuns()).toEqual([]);
          expect(content(await visible(store))).toEqual(clean);
          matrix.push(
            `${engine.name} | ${String(RUN_CHECKPOINTS.indexOf(stage) + 1)}. ${stage} | ${what} | ${staged} | aborted, rerun = clean run`,
          );
        } finally {
          await opened.dispose();
        }
      },
    );
  });
}
