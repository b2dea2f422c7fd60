// Bytes assembled from precomputed pieces are exactly JSON.stringify(whole, null, 2), for any JSON values; a body
// held gzip gives back exactly its identity bytes, and the cache of those stays within its byte bound.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Body,
  ByteArena,
  etagFor,
  objectWithArray,
  objectWithArrayBytes,
  prependKeys,
  prettyAt,
} from '../../src/serve/index.ts';
import { BodyCache, COMPRESS_MIN_BYTES, GzipBody, heldBody, ReusedBytes } from '../../src/serve/json-bytes.ts';

const jsonValue = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const head = fc.dictionary(
  // Integer-like keys are excluded: JS objects order them first, so no text order could match the spread.
  fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'items' && k !== '__proto__' && !/^\d+$/.test(k)),
  jsonValue,
  { minKeys: 1, maxKeys: 5 },
);

describe('objectWithArray', () => {
  it('joins a head object and pre-indented items into the pretty JSON of the whole', () => {
    fc.assert(
      fc.property(head, fc.array(jsonValue, { maxLength: 5 }), (h, items) => {
        const text = objectWithArray(
          h,
          'items',
          items.map((i) => prettyAt(i, 2)),
        );
        expect(text).toBe(JSON.stringify({ ...h, items }, null, 2));
      }),
    );
  });

  it('also places keys after the array', () => {
    fc.assert(
      fc.property(head, fc.array(jsonValue, { maxLength: 3 }), (h, items) => {
        const tail = { resolution_log: [1, { a: 2 }], _provenance: { ref: 'x' } };
        const text = objectWithArray(
          h,
          'items',
          items.map((i) => prettyAt(i, 2)),
          tail,
        );
        expect(text).toBe(JSON.stringify({ ...h, items, ...tail }, null, 2));
        const bytes = objectWithArrayBytes(
          h,
          'items',
          items.map((i) => Buffer.from(prettyAt(i, 2))),
          tail,
        );
        expect(bytes.toString('utf8')).toBe(text);
        const arena = new ByteArena(4096);
        const inArena = objectWithArrayBytes(
          h,
          'items',
          items.map((i) => arena.put(prettyAt(i, 2))),
          tail,
          arena,
        );
        expect(inArena.toString('utf8')).toBe(text);
      }),
    );
  });
});

describe('ByteArena', () => {
  it('packs small byte strings into shared chunks, each slice holding exactly its bytes', () => {
    const arena = new ByteArena(1024);
    const texts = Array.from({ length: 40 }, (_, i) => `{"n": ${i}, "é": "${'x'.repeat(i)}"}`);
    const slices = texts.map((t) => arena.put(t));
    expect(slices.map((b) => b.toString('utf8'))).toEqual(texts);
    // Several slices per chunk, and more than one chunk once the first is full.
    const chunks = new Set(slices.map((b) => b.buffer));
    expect(chunks.size).toBeGreaterThan(1);
    expect(chunks.size).toBeLessThan(texts.length / 4);
    expect(arena.put(Buffer.from('copied')).toString()).toBe('copied');
  });

  it('gives a request over an eighth of a chunk its own allocation', () => {
    const arena = new ByteArena(1024);
    const small = arena.put('small');
    const big = arena.put('y'.repeat(200));
    expect(big.toString()).toBe('y'.repeat(200));
    expect(big.buffer).not.toBe(small.buffer);
    expect(big.byteLength).toBe(200);
  });
});

describe('prependKeys', () => {
  it('puts keys first in pretty object text, exactly as if they had been there', () => {
    fc.assert(
      fc.property(head, fc.dictionary(fc.constantFrom('detail_notice', 'valid_details'), jsonValue), (obj, keys) => {
        const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => !(k in keys)));
        const text = prependKeys(JSON.stringify(rest, null, 2), keys);
        expect(text).toBe(JSON.stringify({ ...keys, ...rest }, null, 2));
      }),
    );
  });
});

describe('Body', () => {
  it('compresses once and round-trips', () => {
    const body = new Body(JSON.stringify({ a: 'x'.repeat(5000) }, null, 2), etagFor(3, 'k'));
    expect(body.encoded('gzip')).toBe(body.encoded('gzip'));
    expect(gunzipSync(body.encoded('gzip')).equals(body.bytes)).toBe(true);
    expect(brotliDecompressSync(body.encoded('br')).equals(body.bytes)).toBe(true);
    expect(body.value()).toEqual({ a: 'x'.repeat(5000) });
    expect(body.etag).toMatch(/^"g3-[A-Za-z0-9_-]{16}"$/);
    expect(etagFor(3, 'k')).toBe(body.etag);
    expect(etagFor(4, 'k')).not.toBe(body.etag);
  });
});

/** A pretty JSON document of about `n` bytes, different for each `seed`. */
function documentOf(seed: number, n: number): string {
  const rows = Array.from({ length: Math.ceil(n / 60) }, (_, i) => ({ id: `m-${seed}-${i}`, price: (i * 7) % 100 }));
  return JSON.stringify({ seed, rows }, null, 2);
}

describe('heldBody', () => {
  it('holds a large body gzip and a small one as identity, each giving back exactly its bytes', () => {
    const arena = new ByteArena(1 << 16);
    const cache = new BodyCache(1 << 20);
    const large = documentOf(1, 6000);
    const small = JSON.stringify({ a: 1 });
    const big = heldBody(large, etagFor(1, 'big'), arena, cache);
    const little = heldBody(small, etagFor(1, 'little'), arena, cache);

    expect(big).toBeInstanceOf(GzipBody);
    expect(big.heldEncoding).toBe('gzip');
    expect(big.length).toBe(Buffer.byteLength(large));
    expect(big.held.length).toBeLessThan(big.length / 3);
    expect(gunzipSync(big.held).toString()).toBe(large);
    expect(big.bytes.toString()).toBe(large);
    expect(big.encoded('gzip')).toBe(big.held); // sent as held, no second gzip form
    expect(brotliDecompressSync(big.encoded('br')).toString()).toBe(large);
    expect(big.value()).toEqual(JSON.parse(large));
    expect(big.etag).toBe(etagFor(1, 'big'));

    expect(little.heldEncoding).toBeNull();
    expect(little.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(little.bytes.toString()).toBe(small);
  });

  it('copies bytes out of a reused buffer, so the next body made in it changes nothing', () => {
    const arena = new ByteArena(1 << 16);
    const cache = new BodyCache(1 << 20);
    const scratch = new ReusedBytes();
    const texts = [documentOf(1, 3000), 'x'.repeat(100), documentOf(2, 9000), documentOf(3, 2000)];
    const bodies = texts.map((t, i) => heldBody(scratch.put(t), etagFor(1, `b${i}`), arena, cache));
    expect(bodies.map((b) => b.bytes.toString())).toEqual(texts);
  });
});

describe('BodyCache', () => {
  /** Ten gzip-held bodies of about 4 KB sharing `cache`. */
  function heldBodies(cache: BodyCache): Body[] {
    const arena = new ByteArena(1 << 20);
    return Array.from({ length: 10 }, (_, i) => heldBody(documentOf(i, 4000), etagFor(1, `c${i}`), arena, cache));
  }

  it('keeps the identity forms it makes within its byte bound, dropping the least recently used first', () => {
    const probe = heldBodies(new BodyCache(0));
    const size = Math.max(...probe.map((b) => b.length));
    const cache = new BodyCache(Math.floor(3.5 * size));
    const [b0, b1, b2, b3, ...rest] = heldBodies(cache);
    if (!b0 || !b1 || !b2 || !b3) throw new Error('no bodies');
    for (const b of [b0, b1, b2]) b.bytes;
    expect(cache.bytes).toBe(b0.length + b1.length + b2.length);
    expect(b0.bytes).toBe(b0.bytes); // read again: the cached buffer, now the most recently used
    b3.bytes; // over the bound: b1, the least recently used, goes
    expect(cache.get(b1, 'identity')).toBeUndefined();
    for (const [i, b] of [
      [0, b0],
      [2, b2],
      [3, b3],
    ] as const) {
      expect(cache.get(b, 'identity')?.toString()).toBe(documentOf(i, 4000));
    }
    expect(cache.bytes).toBe(b0.length + b2.length + b3.length);
    for (const [i, b] of rest.entries()) {
      expect(b.bytes.toString()).toBe(documentOf(i + 4, 4000));
      expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    }
    expect(cache.bytes).toBeGreaterThan(cache.maxBytes - size); // it does fill up to the bound
  });

  it('never holds a body larger than its bound (it is still served)', () => {
    const cache = new BodyCache(1000);
    const [b] = heldBodies(cache);
    expect(b?.bytes.toString()).toBe(documentOf(0, 4000));
    expect(cache.bytes).toBe(0);
  });
});
