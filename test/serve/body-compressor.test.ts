// A build's bodies compressed on the worker thread are byte for byte those compressed on the caller's thread (a
// small build, a body larger than a batch, or a thread that fails): every body is delivered once, with its ETag
// and identity length.
import { describe, expect, it } from 'vitest';
import { BodyCompressor } from '../../src/serve/body-compressor.ts';
import { type Body, BodyCache, ByteArena, etagFor, ReusedBytes } from '../../src/serve/json-bytes.ts';

/** Texts of varied sizes: small ones (held identity), 1–30 KB ones, and one larger than a batch. */
function texts(): string[] {
  return Array.from({ length: 60 }, (_, i) => {
    const rows = i % 7 === 0 ? 2 : (i * 37) % 500;
    const doc = { i, rows: Array.from({ length: rows }, (_, j) => ({ id: `m-${i}-${j}`, price: (i * j) % 97 })) };
    return JSON.stringify(i === 30 ? { ...doc, big: 'x'.repeat(70_000) } : doc, null, 2);
  });
}

/** Holds every text (half through a reused scratch buffer) and returns the bodies once `finish` resolves. */
async function holdAll(opts: {
  batchBytes?: number;
  maxInFlight?: number;
  threadSource?: string;
  onFallback?: (why: string) => void;
}) {
  const compressor = new BodyCompressor({ arena: new ByteArena(1 << 20), cache: new BodyCache(1 << 20), ...opts });
  const scratch = new ReusedBytes();
  const bodies: Array<Body | undefined> = [];
  const calls: number[] = [];
  const all = texts();
  for (const [i, text] of all.entries()) {
    compressor.hold(i % 2 ? scratch.put(text) : text, etagFor(1, `b${i}`), (body) => {
      bodies[i] = body;
      calls.push(i);
    });
    if (i % 10 === 9) await compressor.settle();
  }
  await compressor.finish();
  expect(calls.sort((a, b) => a - b)).toEqual(all.map((_, i) => i)); // each exactly once
  return { bodies: bodies as Body[], ...compressor.counts };
}

const form = (b: Body) => [b.etag, b.heldEncoding, b.length, b.held.toString('base64')];

describe('BodyCompressor', () => {
  it('compresses a build too small for one batch on the caller thread, giving back every text exactly', async () => {
    const { bodies, onThread, here, threads } = await holdAll({});
    expect([threads, onThread]).toEqual([0, 0]);
    expect(here).toBeGreaterThan(40);
    expect(bodies.map((b) => b.bytes.toString())).toEqual(texts());
    expect(bodies.filter((b) => b.heldEncoding === 'gzip').length).toBe(here);
  });

  it('gives the same bytes when a thread compresses the batches', async () => {
    const here = await holdAll({});
    const threaded = await holdAll({ batchBytes: 64 * 1024, maxInFlight: 2 });
    expect(threaded.threads).toBe(1);
    expect(threaded.onThread).toBeGreaterThan(here.here / 2); // the rest: the body larger than a batch, no free slot
    expect(threaded.onThread + threaded.here).toBe(here.here);
    expect(threaded.bodies.map(form)).toEqual(here.bodies.map(form));
  });

  it('compresses on the caller thread what a failing thread held', async () => {
    const here = await holdAll({});
    const told: string[] = [];
    const exits = await holdAll({
      batchBytes: 16 * 1024,
      threadSource: "require('node:worker_threads').parentPort.on('message', () => process.exit(3));",
      onFallback: (why) => told.push(why),
    });
    // The fallback says so, once: the build goes on with the same bytes.
    expect(told).toEqual([
      "read-model build: the compressing thread exited with code 3; compressing bodies on the build's own thread (same bytes, slower build)",
    ]);
    expect(exits.onThread).toBe(0);
    expect(exits.threads).toBe(1); // a thread that failed is not started again
    expect(exits.bodies.map(form)).toEqual(here.bodies.map(form));
    const throws = await holdAll({
      batchBytes: 16 * 1024,
      threadSource: "throw new Error('no zlib here');",
      onFallback: (why) => told.push(why),
    });
    expect(told[1]).toMatch(/the compressing thread failed: no zlib here/);
    expect(throws.bodies.map(form)).toEqual(here.bodies.map(form));
  });
});
