// With its Redis unreachable the Redis meter never fails open: it counts in the process from the last count Redis gave, headers stay true, the log says so at most once a minute, and its health reports the outage.
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { OUTAGE_LOG_EVERY_MS, REDIS_COUNTER_OPTIONS, redisMeter, type Tick } from '../../src/http/index.ts';

const tick: Tick = { day: '2026-11-21', toMidnight: 3600 };

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

describe('redis meter while Redis cannot be reached', async () => {
  // lazyConnect: the client never connects, as during an outage; with no offline queue every call fails at once.
  const redis = new Redis({ ...REDIS_COUNTER_OPTIONS, port: await closedPort(), host: '127.0.0.1', lazyConnect: true });
  afterAll(() => redis.disconnect());

  it('serves exactly the limit per bucket, with RateLimit-Remaining counting down, then refuses', async () => {
    let now = Date.parse('2026-11-21T12:00:00Z');
    const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
    const meter = redisMeter(redis, {
      prefix: 'unit',
      now: () => now,
      log: (level, fields, msg) => lines.push({ level, fields, msg }),
    });
    const results = [];
    for (let i = 0; i < 80; i++) {
      results.push(await meter.consume('ip:203.0.113.1', 50, tick));
      now += 100;
    }
    expect(results.filter((r) => r.allowed)).toHaveLength(50);
    expect(results.slice(0, 50).map((r) => r.remaining)).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
    expect(results.slice(50).every((r) => !r.allowed && r.remaining === 0 && r.resetSeconds === 3600)).toBe(true);
    // Another client has its own count.
    expect(await meter.consume('ip:203.0.113.2', 50, tick)).toEqual({
      allowed: true,
      limit: 50,
      remaining: 49,
      resetSeconds: 3600,
    });
    // 81 calls over 8 s: one log line, not one per call.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { since: '2026-11-21T12:00:00.000Z' } });
    expect(lines[0]?.msg).toMatch(/Redis unreachable; per-process counters in use/);
    expect(meter.health()).toEqual({
      ok: false,
      detail: 'Redis unreachable since 2026-11-21T12:00:00.000Z; per-process counters in use',
    });
    // A minute on, the outage is logged again (once), with how many calls were counted locally meanwhile.
    now += OUTAGE_LOG_EVERY_MS;
    await meter.consume('ip:203.0.113.3', 50, tick);
    await meter.consume('ip:203.0.113.3', 50, tick);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.fields).toMatchObject({ counted_locally_since_last_line: 81 });
  });

  it('starts a new day with fresh local counters', async () => {
    const meter = redisMeter(redis, { prefix: 'unit', log: () => {} });
    for (let i = 0; i < 3; i++) await meter.consume('ip:198.51.100.7', 3, tick);
    expect((await meter.consume('ip:198.51.100.7', 3, tick)).allowed).toBe(false);
    const next = await meter.consume('ip:198.51.100.7', 3, { day: '2026-11-22', toMidnight: 86_400 });
    expect(next).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 86_400 });
  });
});
