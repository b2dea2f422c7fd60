// GET /v1/changes pages the change feed by seq and answers malformed input with a 400; GET /v1/changes/stream pushes
// it as server-sent events: a client that disconnects and reconnects with Last-Event-ID gets exactly the changes it
// missed, in order, then the live ones; heartbeats keep an idle stream alive; a client too far behind (or ahead of
// this store) is told where to resume and the stream ends; a closed client leaves nothing behind; shutdown ends
// open streams; nothing compresses or buffers the stream, and it is metered once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangesPageSchema, type NewChange } from '../../src/domain/index.ts';
import { type App, buildApp } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { allMarkets, NOW, seedStore } from '../serve/seed.ts';
import { openSse, type SseClient } from '../support/sse.ts';

const ORIGIN = 'http://pmref.test';

/** Publishes `count` changes as one generation (what a pipeline run's publish does), returns their seqs. */
async function publish(store: Store, count: number): Promise<number[]> {
  const run = await store.startRun('simulated', NOW.toISOString());
  const before = await store.lastChangeSeq();
  await store.publishRun(
    run,
    (tx, generation) =>
      tx.appendChanges(
        Array.from(
          { length: count },
          (_, i): NewChange => ({
            kind: 'grade_changed',
            market_id: allMarkets[(before + i) % allMarkets.length]?.market_id ?? null,
            event_id: null,
            signal_slug: null,
            generation,
            published_at: NOW.toISOString(),
            detail: { from: { grade: 'B', score: 70 }, to: { grade: 'A', score: 90 } },
          }),
        ),
      ),
    () => ({ status: 'ok', summary: {}, finishedAt: NOW.toISOString() }),
  );
  return Array.from({ length: count }, (_, i) => before + i + 1);
}

const ids = (client: SseClient) => client.changes().map((f) => Number(f.id));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('change feed over HTTP', () => {
  let store: Store;
  let holder: ReadModelHolder;
  let app: App;
  let base: string;
  const clients: SseClient[] = [];

  async function start(changes: { heartbeatMs?: number; replayBound?: number } = {}): Promise<void> {
    app = await buildApp({
      store,
      readModel: holder,
      config: { origin: ORIGIN, trustProxy: false, refreshMinutes: 60 },
      clock: () => NOW,
      changes: { heartbeatMs: 60_000, ...changes },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }
  async function stream(path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = await openSse(`${base}${path}`, headers);
    clients.push(client);
    return client;
  }
  /** What the poll tick or a Redis announcement does on a serving replica. */
  const announce = () => holder.refresh();

  beforeEach(async () => {
    store = await seedStore();
    holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await app.close();
    await store.close();
  });

  it('pages by seq: default 100, next_after and latest_seq, clamped limit with a notice', async () => {
    await start();
    await publish(store, 150);
    await publish(store, 100);
    const first = await app.inject('/v1/changes');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const page = ChangesPageSchema.parse(first.json());
    expect(page).toMatchObject({ after: 0, count: 100, next_after: 100, latest_seq: 250 });
    expect(page.changes.map((c) => c.seq)).toEqual(range(1, 100));
    expect(page.changes[0]).toEqual({
      seq: 1,
      kind: 'grade_changed',
      market_id: allMarkets[0]?.market_id,
      event_id: null,
      signal_slug: null,
      generation: 2,
      published_at: NOW.toISOString(),
      detail: { from: { grade: 'B', score: 70 }, to: { grade: 'A', score: 90 } },
    });
    const last = (await app.inject('/v1/changes?after=200&limit=1000')).json();
    expect(last).toMatchObject({ after: 200, count: 50, next_after: 250, latest_seq: 250 });
    expect(last.changes.map((c: { generation: number }) => c.generation)).toEqual(Array(50).fill(3));
    const caughtUp = (await app.inject('/v1/changes?after=250')).json();
    expect(caughtUp).toMatchObject({ after: 250, count: 0, next_after: 250, latest_seq: 250, changes: [] });
    const clamped = (await app.inject('/v1/changes?limit=5000')).json();
    expect(clamped).toMatchObject({ count: 250, limit_notice: 'limit 5000 is over the maximum 1000; capped at 1000.' });
  });

  it('answers malformed after and limit, and an after past the end, with a 400 in the one error shape', async () => {
    await start();
    await publish(store, 3);
    for (const query of ['after=-1', 'after=abc', 'after=1.5', 'limit=0', 'limit=ten', 'limit=-4', 'after=4']) {
      const res = await app.inject(`/v1/changes?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({
        error: expect.any(String),
        code: 'invalid_request',
        hint: expect.any(String),
        request_id: expect.any(String),
      });
    }
    expect((await app.inject('/v1/changes?after=4')).json().hint).toContain('The newest seq is 3');
    const badHeader = await app.inject({ url: '/v1/changes/stream', headers: { 'last-event-id': 'x1' } });
    expect(badHeader.statusCode).toBe(400);
    expect(badHeader.json()).toMatchObject({
      code: 'invalid_request',
      error: 'Last-Event-ID is not a sequence number',
    });
  });

  it('resumes from Last-Event-ID after a disconnect with no gap and no duplicate, then streams live', async () => {
    await start();
    await publish(store, 3);
    const a = await stream('/v1/changes/stream?after=0', { 'accept-encoding': 'gzip, br' });
    expect(a.response.status).toBe(200);
    expect(a.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(a.response.headers.get('content-encoding')).toBeNull();
    expect(a.response.headers.get('cache-control')).toBe('no-store');
    expect(a.response.headers.get('ratelimit-remaining')).toBe('999');
    await a.until(() => ids(a).length === 3);
    await publish(store, 2);
    await announce();
    await a.until(() => ids(a).length === 5);
    expect(ids(a)).toEqual([1, 2, 3, 4, 5]);
    const frame = a.changes()[4];
    expect(JSON.parse(frame?.data ?? '')).toMatchObject({ seq: 5, kind: 'grade_changed', generation: 3 });

    a.close();
    await a.ended;
    await expect.poll(() => app.changeStreams.size()).toBe(0);
    // Published while the client was away, over two generations.
    await publish(store, 2);
    await publish(store, 1);
    await announce();

    const b = await stream('/v1/changes/stream', { 'last-event-id': a.changes().at(-1)?.id ?? '' });
    await b.until(() => ids(b).length === 3);
    await publish(store, 1);
    await announce();
    await b.until(() => ids(b).length === 4);
    expect(ids(b)).toEqual([6, 7, 8, 9]);
    expect([...ids(a), ...ids(b)]).toEqual(range(1, 9));
    // Last-Event-ID wins over after.
    const c = await stream('/v1/changes/stream?after=1', { 'last-event-id': '8' });
    await c.until(() => ids(c).length === 1);
    expect(ids(c)).toEqual([9]);
    // Each stream was one metered request, however long it stayed open: 3 streams, then this one.
    const page = await app.inject('/v1/changes?after=8');
    expect(page.headers['ratelimit-remaining']).toBe('996');
    const head = await app.inject({ method: 'HEAD', url: '/v1/changes/stream' });
    expect([head.statusCode, head.headers['content-type'], head.body]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
      '',
    ]);
    expect(app.changeStreams.size()).toBe(2);
  });

  it('starts at the newest change without after or Last-Event-ID, and sends heartbeats while idle', async () => {
    await start({ heartbeatMs: 40 });
    await publish(store, 4);
    const s = await stream('/v1/changes/stream');
    await s.until((frames) => frames.filter((f) => f.comments.includes('heartbeat')).length >= 2);
    expect(ids(s)).toEqual([]);
    expect(s.frames[0]?.comments).toEqual(['changes after 4']);
    await publish(store, 1);
    await announce();
    await s.until(() => ids(s).length === 1);
    expect(ids(s)).toEqual([5]);
  });

  it('tells a client too far behind, or holding a seq this store never issued, where to resume, and ends', async () => {
    await start({ replayBound: 5 });
    await publish(store, 8);
    const behind = await stream('/v1/changes/stream?after=2');
    await behind.ended;
    expect(behind.frames.map((f) => f.event).filter(Boolean)).toEqual(['reset']);
    expect(JSON.parse(behind.frames.find((f) => f.event === 'reset')?.data ?? '')).toEqual({
      reason: 'more than 5 changes behind: page through /v1/changes, then stream again',
      after: 2,
      latest_seq: 8,
      resume: '/v1/changes?after=2&limit=1000',
    });
    const ahead = await stream('/v1/changes/stream', { 'last-event-id': '99' });
    await ahead.ended;
    expect(JSON.parse(ahead.frames.find((f) => f.event === 'reset')?.data ?? '')).toMatchObject({
      after: 99,
      latest_seq: 8,
      resume: '/v1/changes?after=0&limit=1000',
    });
    // Live: a publish larger than the bound while connected.
    const live = await stream('/v1/changes/stream?after=5');
    await live.until(() => ids(live).length === 3);
    await publish(store, 6);
    await announce();
    await live.ended;
    expect(ids(live)).toEqual([6, 7, 8]);
    expect(JSON.parse(live.frames.find((f) => f.event === 'reset')?.data ?? '')).toMatchObject({
      after: 8,
      latest_seq: 14,
    });
    await expect.poll(() => app.changeStreams.size()).toBe(0);
  });

  it('ends open streams when the app closes, without waiting for them', async () => {
    await start();
    const s = await stream('/v1/changes/stream?after=0');
    await s.until((frames) => frames.length >= 1);
    expect(app.changeStreams.size()).toBe(1);
    const started = Date.now();
    await app.close();
    await s.ended;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(app.changeStreams.size()).toBe(0);
  });
});
