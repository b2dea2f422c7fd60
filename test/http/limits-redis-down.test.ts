// With the Redis that holds the rate-limit counters killed mid-run, no server process serves a client above its daily limit, RateLimit-* headers stay true, key creation stays limited, /v1/status says degraded and why, the outage is logged once (not per request), and when Redis is back it is used again.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { call, type Got } from '../e2e/rest-helpers.ts';
import { seedStore } from '../serve/seed.ts';

const LIMIT = 50;
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedisServer) console.warn('limits-redis-down: no redis-server on PATH; skipping the Redis outage test');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Waits for a child's output to match; rejects if it exits first. */
function waitForOutput(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const onData = (d: Buffer): void => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited ${code} before ready: ${out}`)));
  });
}

interface Replica {
  base: string;
  child: ChildProcess;
  /** Everything the process logged so far (pino JSON lines). */
  log(): string[];
}

describe.skipIf(!hasRedisServer)('rate limits while the counters’ Redis is down', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-redis-down-'));
  const prefix = `pmref-down-${process.pid}`;
  const children: ChildProcess[] = [];
  let redisPort = 0;

  afterAll(async () => {
    await Promise.all(children.map((c) => stop(c, 'SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
  });

  async function startRedis(): Promise<ChildProcess> {
    const child = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    await waitForOutput(child, /Ready to accept connections/, 'redis-server');
    return child;
  }

  /** Signals a child this test started, by its PID, and waits for it to exit. */
  async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(child.pid, signal);
    } catch {
      return; // already gone
    }
    await exited;
  }

  async function serve(dbUrl: string): Promise<Replica> {
    const child = spawn(process.execPath, ['bin/pmref.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: {
        ...process.env,
        PMREF_DB_URL: dbUrl,
        PMREF_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        PMREF_REDIS_PREFIX: prefix,
        PMREF_ANON_DAILY_LIMIT: String(LIMIT),
        PMREF_KEY_CREATION_DAILY_LIMIT: '3',
        PMREF_TRUST_PROXY: 'true',
        PMREF_LOG_LEVEL: 'info',
        PMREF_BASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const m = await waitForOutput(child, /listening on (http:\/\/\S+)/, 'pmref serve');
    return { base: m[1] ?? '', child, log: () => out.split('\n').filter((l) => l.startsWith('{')) };
  }

  /** `n` sequential GETs of a metered path as client `ip`. */
  async function burst(base: string, ip: string, n: number): Promise<Got[]> {
    const got: Got[] = [];
    for (let i = 0; i < n; i++) got.push(await call(base, '/v1/spot', { headers: { 'x-forwarded-for': ip } }));
    return got;
  }

  const served = (got: Got[]) => got.filter((g) => g.status === 200).length;
  const remaining = (got: Got[]) => got.map((g) => Number(g.headers.get('ratelimit-remaining')));
  const rateLimitsCheck = async (base: string, key: string) => {
    const status = await call(base, '/v1/status', { headers: { authorization: `Bearer ${key}` } });
    const body = status.body as { state: string; checks: Array<{ name: string; ok: boolean; detail: string }> };
    return { state: body.state, check: body.checks.find((c) => c.name === 'rate_limits') };
  };
  const linesMatching = (r: Replica, re: RegExp) => r.log().filter((l) => re.test(l));

  it('holds every limit per process while Redis is down, reports it, and uses Redis again when it is back', async () => {
    redisPort = await freePort();
    let redisServer = await startRedis();
    const dbUrl = `sqlite:${join(dir, 'pmref.sqlite')}`;
    await (await seedStore(dbUrl)).close();
    const [a, b] = await Promise.all([serve(dbUrl), serve(dbUrl)]);
    if (!a || !b) throw new Error('replicas did not start');
    const client = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
    try {
      // Redis up: a key for the status probes (its own, large allowance), 10 calls by client A on replica a.
      const created = await call(a.base, '/v1/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
        body: JSON.stringify({ email: 'ops@example.com' }),
      });
      expect(created.status).toBe(201);
      const key = (created.body as { key: string }).key;
      const before = await burst(a.base, '203.0.113.1', 10);
      expect(served(before)).toBe(10);
      expect(remaining(before)).toEqual([49, 48, 47, 46, 45, 44, 43, 42, 41, 40]);
      expect(await rateLimitsCheck(a.base, key)).toMatchObject({
        check: { ok: true, detail: 'daily counters in Redis, shared by every replica' },
      });

      await stop(redisServer);

      // Client A goes on where Redis left it (40 left); a new client B gets exactly the limit from each replica.
      const downStarted = Date.now();
      const aDown = await burst(a.base, '203.0.113.1', 70);
      const downMs = Date.now() - downStarted;
      const bOnA = await burst(a.base, '203.0.113.2', 70);
      const bOnB = await burst(b.base, '203.0.113.2', 70);
      console.log(
        `redis down: client A on replica a served ${served(aDown)} of 70 (10 before the outage); ` +
          `client B served ${served(bOnA)} of 70 on replica a and ${served(bOnB)} of 70 on replica b (limit ${LIMIT}); ` +
          `client A's 70 sequential calls took ${downMs} ms`,
      );
      expect(served(aDown)).toBe(40);
      expect(served(bOnA)).toBe(LIMIT);
      expect(served(bOnB)).toBe(LIMIT);
      expect(remaining(aDown).slice(0, 41)).toEqual([...Array.from({ length: 40 }, (_, i) => 39 - i), 0]);
      expect(remaining(bOnA).slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));
      const refused = aDown[aDown.length - 1];
      expect(refused?.status).toBe(429);
      expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused?.body).toMatchObject({ code: 'rate_limited', request_id: expect.any(String) });
      // The order of served and refused is honest: every 200 precedes every 429.
      expect(aDown.slice(0, 40).every((g) => g.status === 200) && aDown.slice(40).every((g) => g.status === 429)).toBe(
        true,
      );

      // Key creation is limited too (3 per IP per day), duplicates aside.
      const keyStatuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await call(b.base, '/v1/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
          body: JSON.stringify({ email: `down${i}@example.com` }),
        });
        keyStatuses.push(r.status);
      }
      expect(keyStatuses).toEqual([201, 201, 201, 429, 429]);

      for (const r of [a, b]) {
        const { state, check } = await rateLimitsCheck(r.base, key);
        console.log(`redis down: /v1/status on ${r.base} said state=${state}, rate_limits=${JSON.stringify(check)}`);
        expect(state).toBe('degraded');
        expect(check?.ok).toBe(false);
        expect(check?.detail).toMatch(
          /^Redis unreachable since \d{4}-\d\d-\d\dT[\d:.]+Z; per-process counters in use$/,
        );
      }
      // 140+ calls on replica a during the outage: one line says so (the next could come a minute later).
      expect(linesMatching(a, /rate limits: Redis unreachable/)).toHaveLength(1);
      expect(linesMatching(a, /redis \(rate-limit counters\): connection failing/).length).toBeLessThanOrEqual(1);

      // Redis back (empty: this one keeps nothing on disk). The replicas reconnect on their own.
      redisServer = await startRedis();
      await vi.waitFor(async () => expect((await rateLimitsCheck(a.base, key)).check?.ok).toBe(true), {
        timeout: 20_000,
        interval: 250,
      });
      const { state } = await rateLimitsCheck(a.base, key);
      expect(state).not.toBe('degraded');
      expect(linesMatching(a, /rate limits: Redis reachable again/)).toHaveLength(1);
      // Shared counters again: a new client's calls on both replicas land in one Redis count.
      const c1 = await burst(a.base, '203.0.113.3', 3);
      const c2 = await burst(b.base, '203.0.113.3', 3);
      expect(remaining([...c1, ...c2])).toEqual([49, 48, 47, 46, 45, 44]);
      await client.connect();
      const keys = await client.keys(`${prefix}:rl:${LIMIT}:*:ip:203.0.113.3`);
      expect(keys).toHaveLength(1);
      expect(await client.get(keys[0] ?? '')).toBe('6');
      // The 40 calls replica a served client A during the outage were added to Redis with A's next call.
      const nextA = await burst(a.base, '203.0.113.1', 1);
      expect(nextA[0]?.status).toBe(200);
      const aKey = await client.keys(`${prefix}:rl:${LIMIT}:*:ip:203.0.113.1`);
      expect(await client.get(aKey[0] ?? '')).toBe('41');
    } finally {
      client.disconnect();
      await Promise.all([stop(a.child, 'SIGTERM'), stop(b.child, 'SIGTERM'), stop(redisServer)]);
    }
  }, 60_000);
});
