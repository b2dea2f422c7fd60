// Bytes assembled from precomputed pieces are exactly JSON.stringify(whole, null, 2), for any JSON values.
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
  it('compresses once and round-trips', async () => {
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
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
