// Exactly the daily allowance succeeds and the next request is 429 with Retry-After: in one process on memory counters, and across two server processes sharing Redis.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { seedStore } from '../serve/seed.ts';
import { call, startServer } from './rest-helpers.ts';

/** Sends `n` GETs with bounded concurrency; returns the status codes in completion order. */
async function burst(urls: () => string, n: number, concurrency = 16): Promise<number[]> {
  const statuses: number[] = [];
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left--;
        const res = await fetch(urls());
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    }),
  );
  return statuses;
}

describe('anonymous daily limit (default 1,000, memory counters)', () => {
  it('lets exactly 1,000 requests through, then answers 429 with Retry-After and a hint', async () => {
    const s = await startServer();
    try {
      const statuses = await burst(() => `${s.base}/v1/events?limit=1`, 1000);
      expect(statuses.filter((x) => x === 200)).toHaveLength(1000);
      const over = await call(s.base, '/v1/spot');
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe(String(11.5 * 3600));
      expect(over.headers.get('ratelimit-limit')).toBe('1000');
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
      expect(over.body).toEqual({
        error: 'Daily rate limit exceeded: anonymous access allows 1000 requests/day per IP',
        code: 'rate_limited',
        hint: 'Get a free key for 10,000/day: POST /v1/keys {"email": …}. The count resets at 00:00 UTC.',
        request_id: expect.any(String),
      });
      // Discovery documents stay free.
      expect((await call(s.base, '/llms.txt')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

const REDIS_URL = process.env.PMREF_TEST_REDIS_URL;
if (!REDIS_URL) {
  console.warn('rest-limits: PMREF_TEST_REDIS_URL is not set; skipping the two-process Redis limit test');
}

describe.skipIf(!REDIS_URL)('anonymous daily limit shared through Redis by two server processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-limits-'));
  const prefix = `pmref-test-${process.pid}-${Date.now()}`;
  const children: ChildProcess[] = [];

  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    const redis = new Redis(REDIS_URL ?? '');
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  function serve(dbUrl: string): Promise<string> {
    const child = spawn(process.execPath, ['bin/pmref.js', 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: {
        ...process.env,
        PMREF_DB_URL: dbUrl,
        PMREF_REDIS_URL: REDIS_URL,
        PMREF_REDIS_PREFIX: prefix,
        PMREF_LOG_LEVEL: 'warn',
        PMREF_BASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
  }

  it('counts both replicas against one allowance: 1,000 succeed in total, then both answer 429', async () => {
    const dbUrl = `sqlite:${join(dir, 'pmref.sqlite')}`;
    const store = await seedStore(dbUrl);
    await store.close();
    const [a, b] = await Promise.all([serve(dbUrl), serve(dbUrl)]);
    let i = 0;
    const statuses = await burst(() => `${i++ % 2 === 0 ? a : b}/v1/events?limit=1`, 1000);
    expect(statuses.filter((x) => x === 200)).toHaveLength(1000);
    for (const base of [a, b]) {
      const over = await call(base, '/v1/markets/movers');
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.body).toMatchObject({ code: 'rate_limited' });
    }
  });
});
