// A serving replica picks up a new store generation announced on the Redis channel <PMREF_REDIS_PREFIX>:generation and swaps its read model without a restart; with Redis unreachable it still follows by polling the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generationChannel, runServer } from '../../src/commands/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/index.ts';
import { fed, seedStore } from '../serve/seed.ts';
import { call } from './rest-helpers.ts';

const REDIS_URL = process.env.PMREF_TEST_REDIS_URL;
if (!REDIS_URL) console.warn('rest-replica: PMREF_TEST_REDIS_URL is not set; skipping the Redis generation test');

describe.skipIf(!REDIS_URL)('generation announcements over Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-replica-'));
  const prefix = `pmref-test-replica-${process.pid}-${Date.now()}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds and swaps when a new generation is published', async () => {
    const dbUrl = `sqlite:${join(dir, 'pmref.sqlite')}`;
    await (await seedStore(dbUrl)).close();
    const config = loadConfig({
      PMREF_DB_URL: dbUrl,
      PMREF_REDIS_URL: REDIS_URL,
      PMREF_REDIS_PREFIX: prefix,
      PMREF_LOG_LEVEL: 'silent',
    });
    const server = await runServer(config, { port: 0, host: '127.0.0.1' });
    const redis = new Redis(REDIS_URL ?? '');
    const writer = await openStore(dbUrl);
    try {
      expect((await call(server.url, '/')).body).toMatchObject({ generation: 1 });
      const run = await writer.startRun('simulated', new Date().toISOString());
      await writer.upsertEvents([{ ...fed, question: 'Renamed by the worker?' }]);
      const generation = await writer.finishRun(run, 'ok', {}, new Date().toISOString(), true);
      // The replica is the one subscriber of its prefixed channel (the worker publishes there too).
      expect(await redis.publish(generationChannel(prefix), String(generation))).toBe(1);
      await vi.waitFor(() => expect(server.holder.current().generation).toBe(2), { timeout: 4000, interval: 50 });
      const got = await call(server.url, `/v1/events/${fed.slug}`);
      expect(got.body).toMatchObject({ question: 'Renamed by the worker?' });
      expect(got.headers.get('etag')).toMatch(/^"g2-/);
    } finally {
      await writer.close();
      await server.close();
      const keys = await redis.keys(`*${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

describe('a replica whose Redis is unreachable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-replica-poll-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('still follows new generations by polling the store', async () => {
    const dbUrl = `sqlite:${join(dir, 'pmref.sqlite')}`;
    await (await seedStore(dbUrl)).close();
    // Nothing listens on port 1: every connection is refused, so no announcement can ever arrive.
    const config = loadConfig({
      PMREF_DB_URL: dbUrl,
      PMREF_REDIS_URL: 'redis://127.0.0.1:1',
      PMREF_LOG_LEVEL: 'silent',
    });
    const server = await runServer(config, { port: 0, host: '127.0.0.1' });
    const writer = await openStore(dbUrl);
    try {
      expect(server.holder.current().generation).toBe(1);
      const run = await writer.startRun('simulated', new Date().toISOString());
      await writer.upsertEvents([{ ...fed, question: 'Renamed while Redis was away?' }]);
      await writer.finishRun(run, 'ok', {}, new Date().toISOString(), true);
      // The store is polled every 5 s.
      await vi.waitFor(() => expect(server.holder.current().generation).toBe(2), { timeout: 15_000, interval: 100 });
      const got = await call(server.url, `/v1/events/${fed.slug}`);
      expect(got.body).toMatchObject({ question: 'Renamed while Redis was away?' });
    } finally {
      await writer.close();
      await server.close();
    }
  }, 30_000);
});
