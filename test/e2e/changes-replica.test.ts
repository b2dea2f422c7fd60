// Two serving replicas over one PostgreSQL store stream the same change feed: the same seqs with the same changes, as
// pipeline runs publish them and Redis announces the generations; a client that leaves one replica resumes on the
// other from its Last-Event-ID with no gap and no duplicate.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationChannel, type RunningServer, runServer } from '../../src/commands/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, runOn } from '../pipeline/harness.ts';
import { openSse, type SseClient } from '../support/sse.ts';

const PG_URL = process.env.PMREF_TEST_POSTGRES_URL;
const REDIS_URL = process.env.PMREF_TEST_REDIS_URL;
if (!PG_URL || !REDIS_URL) {
  console.warn(
    'changes-replica: PMREF_TEST_POSTGRES_URL or PMREF_TEST_REDIS_URL is not set; skipping the replica test',
  );
}

describe.skipIf(!PG_URL || !REDIS_URL)('change stream through two replicas on one PostgreSQL store', () => {
  const database = `pmref_test_changes_${randomBytes(5).toString('hex')}`;
  const prefix = `pmref-test-changes-${process.pid}-${Date.now()}`;
  const dbUrl = (() => {
    const url = new URL(PG_URL ?? 'postgres://x');
    url.pathname = `/${database}`;
    return url.toString();
  })();
  let writer: Store;
  let redis: Redis;
  const servers: RunningServer[] = [];
  const clients: SseClient[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    writer = await openStore(dbUrl);
    await writer.migrate();
    redis = new Redis(REDIS_URL ?? '');
    const config = loadConfig({
      PMREF_DB_URL: dbUrl,
      PMREF_REDIS_URL: REDIS_URL,
      PMREF_REDIS_PREFIX: prefix,
      PMREF_LOG_LEVEL: 'silent',
      PMREF_CHANGES_HEARTBEAT_SECONDS: '1',
    });
    for (let i = 0; i < 2; i++) servers.push(await runServer(config, { port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const s of servers) await s.close();
    await writer?.close();
    redis?.disconnect();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  /** Runs the pipeline on `dir` against the shared store and announces the generation as the worker does. */
  async function publishRun(dir: string, at: string): Promise<void> {
    const summary = await runOn(writer, dir, at);
    await redis.publish(generationChannel(prefix), String(summary.generation));
  }
  async function stream(server: RunningServer, headers: Record<string, string> = {}, query = ''): Promise<SseClient> {
    const client = await openSse(`${server.url}/v1/changes/stream${query}`, headers);
    clients.push(client);
    return client;
  }
  const seqs = (c: SseClient) => c.changes().map((f) => Number(f.id));

  it('gives both replicas one sequence, and resumes on the other replica without gap or duplicate', async () => {
    const [one, two] = servers;
    if (!one || !two) throw new Error('two replicas');
    const a = await stream(one, {}, '?after=0');
    const b = await stream(two, {}, '?after=0');
    await publishRun(DAY1, DAY1_AT);
    const day1 = await writer.lastChangeSeq();
    expect(day1).toBeGreaterThan(0);
    await a.until(() => seqs(a).length === day1, 10_000);
    await b.until(() => seqs(b).length === day1, 10_000);
    expect(seqs(a)).toEqual(Array.from({ length: day1 }, (_, i) => i + 1));
    expect(b.changes().map((f) => [f.id, f.data])).toEqual(a.changes().map((f) => [f.id, f.data]));

    // The client on replica one leaves; day 2 is published; it comes back on replica two.
    a.close();
    await a.ended;
    await publishRun(DAY2, DAY2_AT);
    const latest = await writer.lastChangeSeq();
    expect(latest).toBeGreaterThan(day1);
    const resumed = await stream(two, { 'last-event-id': String(day1) });
    await resumed.until(() => seqs(resumed).length === latest - day1, 10_000);
    await b.until(() => seqs(b).length === latest, 10_000);
    expect([...seqs(a), ...seqs(resumed)]).toEqual(Array.from({ length: latest }, (_, i) => i + 1));
    expect(resumed.changes().map((f) => f.data)).toEqual(
      b
        .changes()
        .slice(day1)
        .map((f) => f.data),
    );
    // Both replicas page the same feed too.
    const pages = await Promise.all(
      servers.map(async (s) => (await (await fetch(`${s.url}/v1/changes?after=0&limit=1000`)).json()) as object),
    );
    expect((pages[0] as { changes: unknown[] }).changes).toEqual((pages[1] as { changes: unknown[] }).changes);
    expect(pages[0]).toMatchObject({ latest_seq: latest });
  });
});
