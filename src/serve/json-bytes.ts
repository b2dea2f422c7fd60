/**
 * Pretty JSON (2-space, served-shapes §1) assembled from precomputed pieces. A list page is the bytes of a small
 * head object followed by the bytes of its precomputed items, so a request never re-serializes big objects.
 * Every helper here produces exactly what `JSON.stringify(whole, null, 2)` would (pinned by tests).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Pretty JSON of `value` re-indented to sit at `depth` (each depth is 2 spaces), without leading indent. */
export function prettyAt(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2);
  if (depth === 0) return text;
  return text.replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

/**
 * Text of `{...head, [arrayKey]: items, ...tail}` where `items` are pretty JSON strings already indented for
 * depth 2 (see `prettyAt(item, 2)`). `head` must be non-empty.
 */
export function objectWithArray(
  head: Record<string, unknown>,
  arrayKey: string,
  items: readonly string[],
  tail: Record<string, unknown> = {},
): string {
  const headText = JSON.stringify(head, null, 2);
  const open = headText.slice(0, -2); // drop "\n}"
  const array = items.length === 0 ? '[]' : `[\n    ${items.join(',\n    ')}\n  ]`;
  const rest = Object.keys(tail).length === 0 ? '' : `,\n${JSON.stringify(tail, null, 2).slice(2, -2)}`;
  return `${open},\n  ${JSON.stringify(arrayKey)}: ${array}${rest}\n}`;
}

/** Inserts top-level keys at the start of pretty object text (used for per-request notices). */
export function prependKeys(objectText: string, keys: Record<string, unknown>): string {
  const entries = Object.keys(keys);
  if (entries.length === 0) return objectText;
  const inner = JSON.stringify(keys, null, 2).slice(2, -2); // "  \"k\": v,\n  ..." without braces
  if (objectText === '{}') return `{\n${inner}\n}`;
  return `{\n${inner},\n${objectText.slice(2)}`;
}

export type ContentEncoding = 'br' | 'gzip';

/**
 * UTF-8 bytes in their own allocation. `Buffer.from` puts small buffers in shared 8 KB pool slabs; a read model
 * keeps tens of thousands of small bodies for an hour, and one live body in a slab pins the whole slab (and the
 * build's dead intermediates beside it) in memory.
 */
export function ownBytes(text: string | Buffer): Buffer {
  if (typeof text !== 'string') {
    if (text.byteOffset === 0 && text.buffer.byteLength === text.length) return text;
    const copy = Buffer.allocUnsafeSlow(text.length);
    text.copy(copy);
    return copy;
  }
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}

/**
 * Bytes packed into large chunks: a read model's tens of thousands of bodies (and a build's transient pieces)
 * live in a few 64 MB allocations instead of as many small ones. A chunk is larger than glibc's largest
 * dynamic mmap threshold (32 MB), so it is always its own mapping: pages never written are never resident,
 * and when a model (or a build's scratch) is dropped its memory goes back to the system whole, instead of
 * leaving holes among the next model's bodies in the allocator's heap. Measured on the full simulated
 * universe: serving RSS 980 MB with one allocation per body, under 800 MB with the arena.
 */
export class ByteArena {
  private chunk: Buffer = Buffer.alloc(0);
  private used = 0;

  constructor(private readonly chunkSize = 64 << 20) {}

  /** A slice of the arena holding `length` bytes, for the caller to fill. Large requests get their own allocation. */
  reserve(length: number): Buffer {
    if (length > this.chunkSize >> 3) return Buffer.allocUnsafeSlow(length);
    if (this.used + length > this.chunk.length) {
      this.chunk = Buffer.allocUnsafeSlow(this.chunkSize);
      this.used = 0;
    }
    const slice = this.chunk.subarray(this.used, this.used + length);
    this.used += length;
    return slice;
  }

  /** UTF-8 bytes of `text` (or a copy of `bytes`) in the arena. */
  put(text: string | Buffer): Buffer {
    if (typeof text !== 'string') {
      const slice = this.reserve(text.length);
      text.copy(slice);
      return slice;
    }
    const slice = this.reserve(Buffer.byteLength(text, 'utf8'));
    slice.write(text, 'utf8');
    return slice;
  }
}

/** Below this size compression does not pay for its CPU. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * One response body: the identity bytes, an ETag, and compressed variants made once on first use and kept
 * for the life of the read model (so each body is compressed at most once per generation).
 */
export class Body {
  readonly bytes: Buffer;
  readonly etag: string;
  private gz: Buffer | undefined;
  private brotli: Buffer | undefined;

  /**
   * `shared` keeps a Buffer slice as it is instead of copying it into its own allocation: for a slice of a
   * read-model pack or of a build's ByteArena, whose few large buffers hold every body of the model and live
   * exactly as long as they do.
   */
  constructor(text: string | Buffer, etag: string, shared = false) {
    this.bytes = shared && typeof text !== 'string' ? text : ownBytes(text);
    this.etag = etag;
  }

  /** The bytes for a content encoding, compressing on first use. */
  encoded(encoding: ContentEncoding): Buffer {
    if (encoding === 'br') {
      this.brotli ??= brotliCompressSync(this.bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.bytes.length },
      });
      return this.brotli;
    }
    this.gz ??= gzipSync(this.bytes, { level: 6 });
    return this.gz;
  }

  /** Parses the bytes (for faces that need the value, e.g. MCP tools). */
  value<T = unknown>(): T {
    return JSON.parse(this.bytes.toString('utf8')) as T;
  }
}

/** A short, stable ETag for (generation, key): the key is hashed so any request key fits in a header. */
export function etagFor(generation: number, key: string): string {
  const digest = createHash('sha1').update(key).digest('base64url').slice(0, 16);
  return `"g${generation}-${digest}"`;
}

/**
 * Byte form of `objectWithArray` for big arrays: the items are UTF-8 buffers (kept off the JS heap while a
 * read model builds), joined without ever forming the whole document as a string.
 */
export function objectWithArrayBytes(
  head: Record<string, unknown>,
  arrayKey: string,
  items: readonly Buffer[],
  tail: Record<string, unknown> = {},
  arena?: ByteArena,
): Buffer {
  const headText = JSON.stringify(head, null, 2).slice(0, -2);
  const rest = Object.keys(tail).length === 0 ? '' : `,\n${JSON.stringify(tail, null, 2).slice(2, -2)}`;
  if (items.length === 0) {
    const text = `${headText},\n  ${JSON.stringify(arrayKey)}: []${rest}\n}`;
    return arena ? arena.put(text) : Buffer.from(text);
  }
  const parts: Buffer[] = [Buffer.from(`${headText},\n  ${JSON.stringify(arrayKey)}: [\n    `)];
  const sep = Buffer.from(',\n    ');
  items.forEach((item, i) => {
    if (i > 0) parts.push(sep);
    parts.push(item);
  });
  parts.push(Buffer.from(`\n  ]${rest}\n}`));
  if (!arena) return Buffer.concat(parts);
  const out = arena.reserve(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) at += p.copy(out, at);
  return out;
}
