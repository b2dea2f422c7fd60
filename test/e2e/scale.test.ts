// A scaled-out deployment run and broken on purpose: two `pmref worker`s and two `pmref serve` replicas as child processes on one PostgreSQL database and one Redis. One worker leads; both replicas serve the same generation; the leader is SIGKILLed mid-run three times (a fresh standby joining after each kill), the standby takes over within 30 s, marks the interrupted run aborted and redoes it, no run is ever done twice or overlaps another, both replicas swap to every new generation, 64 connections of load spread over the replicas through all of it see zero failed requests, and SIGTERM stops every process with exit code 0.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startReplayServer } from '../../src/venues/index.ts';
import { DAY1 } from '../pipeline/harness.ts';
import { killAll, type PmrefChild, spawnPmref } from '../support/children.ts';

const PG_URL = process.env.PMREF_TEST_POSTGRES_URL;
const REDIS_URL = process.env.PMREF_TEST_REDIS_URL;
if (!PG_URL || !REDIS_URL) {
  console.warn(
    '[e2e/scale] skipped: the scale test needs both PMREF_TEST_POSTGRES_URL and PMREF_TEST_REDIS_URL (e.g. postgres://postgres@127.0.0.1:5432/test and redis://127.0.0.1:6379)',
  );
}

const KILLS = 3;
/** Connections of load, spread evenly over the two replicas. */
const CONNECTIONS = 64;
/** Every venue answer is held this long, so a run lasts long enough to be killed in the middle. */
const VENUE_DELAY_MS = 250;
const FAILOVER_BOUND_MS = 30_000;
/** The workers' PMREF_LEADER_POLL_SECONDS (1 here to keep the test short; PMREF_TEST_LEADER_POLL_SECONDS=10 measures the default). */
const LEADER_POLL_SECONDS = process.env.PMREF_TEST_LEADER_POLL_SECONDS ?? '1';

interface RunRow {
  run_id: number;
  status: string;
  generation: number;
  started_at: string;
  finished_at: string | null;
  pid: number | null;
}

/** Load on the replicas: every answer that is not a 200 (or a connection error) is a failed request. */
function startLoad(urls: string[], paths: string[]) {
  const perReplica = CONNECTIONS / urls.length;
  const pools = urls.map((u) => new Pool(u, { connections: perReplica }));
  const failures: string[] = [];
  const generationsSeen = urls.map(() => new Set<number>());
  let requests = 0;
  let stopping = false;
  const loop = async (replica: number, n: number) => {
    const pool = pools[replica] as Pool;
    let i = n;
    while (!stopping) {
      const path = paths[i++ % paths.length] as string;
      try {
        const res = await pool.request({ path, method: 'GET', headers: { 'accept-encoding': 'gzip' } });
        await res.body.dump();
        requests++;
        const etag = String(res.headers.etag ?? '');
        const g = /^W?\/?"g(\d+)-/.exec(etag)?.[1];
        if (g !== undefined) generationsSeen[replica]?.add(Number(g));
        if (res.statusCode !== 200) failures.push(`${urls[replica]}${path}: ${res.statusCode}`);
      } catch (err) {
        if (!stopping) failures.push(`${urls[replica]}${path}: ${(err as Error).message}`);
      }
    }
  };
  const loops = urls.flatMap((_, r) => Array.from({ length: perReplica }, (_, n) => loop(r, n)));
  return {
    failures,
    generationsSeen,
    requests: () => requests,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      await Promise.all(pools.map((p) => p.close()));
    },
  };
}

describe.skipIf(!PG_URL || !REDIS_URL)('two workers and two replicas on one PostgreSQL database', () => {
  const database = `pmref_scale_${randomBytes(5).toString('hex')}`;
  const prefix = `pmref-test-scale-${process.pid}-${Date.now()}`;
  const children: PmrefChild[] = [];
  const dbUrl = (() => {
    const u = new URL(PG_URL ?? 'postgres://localhost/test');
    u.pathname = `/${database}`;
    return u.toString();
  })();
  let db: pg.Client | null = null;
  let replay: Awaited<ReturnType<typeof startReplayServer>> | null = null;

  afterAll(async () => {
    await killAll(children);
    await db?.end();
    await replay?.close();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(REDIS_URL ?? '');
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const runs = async (): Promise<RunRow[]> => {
    const { rows } = await (db as pg.Client).query<{
      run_id: string;
      status: string;
      generation: string;
      started_at: string;
      finished_at: string | null;
      owner: string | null;
    }>('SELECT run_id, status, generation, started_at, finished_at, owner FROM pipeline_runs ORDER BY run_id');
    return rows.map((r) => ({
      run_id: Number(r.run_id),
      status: r.status,
      generation: Number(r.generation),
      started_at: r.started_at,
      finished_at: r.finished_at,
      pid: r.owner === null ? null : (JSON.parse(r.owner) as { pid: number }).pid,
    }));
  };

  const workerEnv = (url: string): Record<string, string> => ({
    PMREF_DB_URL: dbUrl,
    PMREF_REDIS_URL: REDIS_URL ?? '',
    PMREF_REDIS_PREFIX: prefix,
    PMREF_SOURCE: 'live',
    PMREF_VENUE_A_URL: `${url}/venue_a/trade-api/v2`,
    PMREF_VENUE_B_URL: `${url}/venue_b/gamma`,
    PMREF_VENUE_B_CLOB_URL: `${url}/venue_b/clob`,
    PMREF_SPOT_URL: `${url}/spot`,
    PMREF_LEADER_POLL_SECONDS: LEADER_POLL_SECONDS,
    PMREF_LOG_LEVEL: 'info',
  });
  let workerCount = 0;
  const startWorker = (url: string): PmrefChild => {
    const child = spawnPmref(`worker-${++workerCount}`, ['worker'], workerEnv(url));
    children.push(child);
    return child;
  };
  const leads = (w: PmrefChild): boolean => {
    const last = w.logs.filter(
      (l) => l.msg === 'this worker now leads the pipeline' || l.msg?.includes('no longer leads'),
    );
    return last.at(-1)?.msg === 'this worker now leads the pipeline';
  };
  const servedGeneration = async (url: string): Promise<number> => {
    const res = await fetch(`${url}/`, { headers: { accept: 'application/json' } });
    return ((await res.json()) as { generation: number }).generation;
  };

  it('fails over, never runs twice, swaps both replicas under load with zero failed requests, stops cleanly', async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    replay = await startReplayServer({ dir: DAY1, port: 0, faults: `all:slow:delay=${VENUE_DELAY_MS}` });

    // Two workers start together on the empty store: exactly one leads and ingests.
    const workers = [startWorker(replay.url), startWorker(replay.url)];
    await vi.waitFor(
      async () => {
        expect((await runs()).filter((r) => r.status === 'ok')).toHaveLength(1);
      },
      { timeout: 90_000, interval: 200 },
    );
    expect((await runs()).map((r) => r.status)).toEqual(['ok']);

    // Two replicas serve the same generation.
    const replicaEnv = {
      PMREF_DB_URL: dbUrl,
      PMREF_REDIS_URL: REDIS_URL ?? '',
      PMREF_REDIS_PREFIX: prefix,
      PMREF_ANON_DAILY_LIMIT: '1000000000',
      PMREF_LOG_LEVEL: 'warn',
    };
    const replicas = [1, 2].map((n) => {
      const c = spawnPmref(`replica-${n}`, ['serve', '--port', '0', '--host', '127.0.0.1'], replicaEnv);
      children.push(c);
      return c;
    });
    const urls: string[] = [];
    for (const r of replicas) {
      await vi.waitFor(() => expect(r.stdout()).toMatch(/listening on (http:\/\/\S+)/), {
        timeout: 60_000,
        interval: 100,
      });
      urls.push(/listening on (http:\/\/\S+)/.exec(r.stdout())?.[1] as string);
    }
    expect(await Promise.all(urls.map(servedGeneration))).toEqual([1, 1]);

    const listing = (await (await fetch(`${urls[0]}/v1/events?limit=5`)).json()) as { events: { event_id: string }[] };
    const paths = ['/v1/events', '/v1/markets', '/v1/status', '/', '/v1/events?q=fed'].concat(
      listing.events.map((e) => `/v1/events/${e.event_id}`),
    );
    const load = startLoad(urls, paths);

    const failovers: number[] = [];
    let live = workers;
    for (let kill = 1; kill <= KILLS; kill++) {
      const leader = live.find(leads);
      const standby = live.find((w) => w !== leader);
      if (!leader || !standby) throw new Error(`kill ${kill}: no leader and standby among ${live.map((w) => w.name)}`);
      const before = await runs();
      const generation = Math.max(...before.map((r) => r.generation));

      // The leader starts a refresh; it is killed in the middle of it.
      leader.proc.kill('SIGHUP');
      await vi.waitFor(
        async () => {
          const r = (await runs()).at(-1);
          expect(r).toMatchObject({ status: 'running', pid: leader.pid });
        },
        { timeout: 30_000, interval: 50 },
      );
      await new Promise((r) => setTimeout(r, VENUE_DELAY_MS * 2));
      expect((await runs()).at(-1)?.status).toBe('running');
      const killedAt = Date.now();
      leader.proc.kill('SIGKILL');
      await leader.exited;

      // The standby takes the lead, aborts the interrupted run and redoes it.
      await vi.waitFor(
        async () => {
          const after = await runs();
          expect(after.at(-1)).toMatchObject({ status: 'ok', pid: standby.pid });
        },
        { timeout: 90_000, interval: 100 },
      );
      const after = await runs();
      const [interrupted, redone] = after.slice(before.length);
      expect(after).toHaveLength(before.length + 2);
      expect(interrupted).toMatchObject({ status: 'aborted', generation: 0, pid: leader.pid });
      expect(redone).toMatchObject({ status: 'ok', generation: generation + 1, pid: standby.pid });
      failovers.push(Date.parse(redone?.started_at ?? '') - killedAt);

      // Both replicas swap to the new generation.
      await vi.waitFor(
        async () => expect(await Promise.all(urls.map(servedGeneration))).toEqual([generation + 1, generation + 1]),
        {
          timeout: 30_000,
          interval: 100,
        },
      );
      // A fresh standby joins for the next kill.
      const joined = startWorker(replay.url);
      await vi.waitFor(() => expect(joined.logs.some((l) => String(l.msg).startsWith('worker start'))).toBe(true), {
        timeout: 60_000,
        interval: 100,
      });
      live = [standby, joined];
    }
    // Let the load run on the last generation for a moment, then stop it.
    await new Promise((r) => setTimeout(r, 500));
    await load.stop();

    console.log(
      `[e2e/scale] failover (SIGKILL of the leader to the standby's redo starting) over ${KILLS} kills (leader poll ${LEADER_POLL_SECONDS} s): ${failovers.map((ms) => `${ms} ms`).join(', ')}; ${load.requests()} requests over ${CONNECTIONS} connections, ${load.failures.length} failed`,
    );
    for (const ms of failovers) expect(ms).toBeLessThan(FAILOVER_BOUND_MS);
    expect(load.failures).toEqual([]);
    expect(load.requests()).toBeGreaterThan(0);
    for (const seen of load.generationsSeen) expect([...seen].sort()).toEqual([1, 2, 3, 4].slice(0, KILLS + 1));

    // No run done twice: one published run per generation, no two runs overlapping in time.
    const all = await runs();
    expect(all.map((r) => r.status)).toEqual(['ok', ...Array.from({ length: KILLS }, () => ['aborted', 'ok']).flat()]);
    expect(all.filter((r) => r.status === 'ok').map((r) => r.generation)).toEqual(
      Array.from({ length: KILLS + 1 }, (_, i) => i + 1),
    );
    for (let i = 1; i < all.length; i++) {
      expect(Date.parse(all[i]?.started_at ?? '')).toBeGreaterThanOrEqual(Date.parse(all[i - 1]?.finished_at ?? ''));
    }

    // SIGTERM stops every process cleanly.
    const running = children.filter((c) => c.alive());
    expect(running).toHaveLength(4);
    for (const c of running) c.proc.kill('SIGTERM');
    const exits = await Promise.all(running.map((c) => c.exited));
    expect(exits.map((e, i) => `${running[i]?.name}: ${e.code}`)).toEqual(running.map((c) => `${c.name}: 0`));
  }, 600_000);
});
