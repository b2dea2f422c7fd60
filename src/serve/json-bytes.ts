/**
 * Pretty JSON (2-space, served-shapes §1) assembled from precomputed pieces. A list page is the bytes of a small
 * head object followed by the bytes of its precomputed items, so a request never re-serializes big objects.
 * Every helper here produces exactly what `JSON.stringify(whole, null, 2)` would (pinned by tests).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';

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
 * The gzip level of the bodies a read model holds compressed (`heldBody`). Measured over a third of the 81,000
 * bodies of the full simulated universe (483 MB of JSON in all), on this 2-core machine under other load:
 * level 1 compresses 4.4×, 2 4.6×, 3 4.6×, 4 4.7×, 6 5.0×, at 84–107, 82–110, 76, 62–68 and 51–58 MB/s of JSON.
 * Level 2 costs no more CPU than 1 (both are zlib's fast deflate) for 3% less; 6 would add 3–4 s of CPU to every
 * build for another 8%. Fitting the window to the body changes neither size nor speed.
 */
export const HELD_GZIP_LEVEL = 2;

/**
 * A body held gzip whose compressed form saves less than this share is held as identity instead: it would cost
 * a decompression per identity request for almost no memory.
 */
const MIN_SAVING = 0.1;

/**
 * One response body: the bytes as the model holds them, an ETag, and the other forms made on demand. A `Body`
 * holds identity bytes and keeps the compressed variants it makes (each body is compressed at most once per
 * generation); a `GzipBody` holds gzip bytes (see `heldBody`).
 */
export class Body {
  readonly etag: string;
  /** The bytes as held (identity here, gzip in a `GzipBody`): what a pack stores. */
  readonly held: Buffer;
  /** Length of the identity bytes. */
  readonly length: number;
  private gz: Buffer | undefined;
  private brotli: Buffer | undefined;

  /**
   * `shared` keeps a Buffer slice as it is instead of copying it into its own allocation: for a slice of a
   * read-model pack or of a build's ByteArena, whose few large buffers hold every body of the model and live
   * exactly as long as they do.
   */
  constructor(text: string | Buffer, etag: string, shared = false) {
    this.held = shared && typeof text !== 'string' ? text : ownBytes(text);
    this.etag = etag;
    this.length = this.held.length;
  }

  /** The content encoding of `held`: null for identity. */
  get heldEncoding(): ContentEncoding | null {
    return null;
  }

  /** The identity bytes. */
  get bytes(): Buffer {
    return this.held;
  }

  /** The bytes for a content encoding, compressing on first use. */
  encoded(encoding: ContentEncoding): Buffer {
    if (encoding === 'br') {
      this.brotli ??= brotliOf(this.held);
      return this.brotli;
    }
    this.gz ??= gzipSync(this.held, { level: 6 });
    return this.gz;
  }

  /** Parses the bytes (for faces that need the value, e.g. MCP tools). */
  value<T = unknown>(): T {
    return JSON.parse(this.bytes.toString('utf8')) as T;
  }
}

function brotliOf(bytes: Buffer): Buffer {
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

/**
 * A body held as gzip (issue 18: a read model's bodies at rest take a fifth of their identity size, in memory
 * and in its pack). A request that accepts gzip is answered with the held bytes as they are; the identity
 * bytes (and, for the rare client that takes brotli but not gzip, a brotli form) are made on demand and kept in
 * the model's `BodyCache`, a bounded LRU, so a hot body is decompressed once and a cold one costs one
 * decompression (40–60 µs for a 6 KB market, nearly all of it zlib's per-call setup).
 */
export class GzipBody extends Body {
  override readonly length: number;

  /** `gz` is kept as it is (a slice of the model's arena or pack); `length` is its identity length. */
  constructor(
    gz: Buffer,
    length: number,
    etag: string,
    private readonly cache: BodyCache,
  ) {
    super(gz, etag, true);
    this.length = length;
  }

  override get heldEncoding(): ContentEncoding {
    return 'gzip';
  }

  override get bytes(): Buffer {
    const cached = this.cache.get(this, 'identity');
    if (cached) return cached;
    // One output chunk of exactly the identity length (+1, so zlib never asks for a second chunk).
    const inflated = gunzipSync(this.held, { chunkSize: Math.max(64, this.length + 1) });
    if (inflated.length !== this.length) {
      throw new Error(`a held body inflated to ${inflated.length} bytes, not ${this.length}`);
    }
    // Small outputs come from the shared 8 KB pool: copy them out so a cached body pins no slab (see ownBytes).
    const out = inflated.buffer.byteLength > inflated.length + 1 ? ownBytes(inflated) : inflated;
    this.cache.put(this, 'identity', out);
    return out;
  }

  override encoded(encoding: ContentEncoding): Buffer {
    if (encoding === 'gzip') return this.held;
    const cached = this.cache.get(this, 'br');
    if (cached) return cached;
    const out = brotliOf(this.bytes);
    this.cache.put(this, 'br', out);
    return out;
  }
}

/** The forms of one body a `BodyCache` holds. */
interface CachedForms {
  identity?: Buffer;
  br?: Buffer;
  bytes: number;
}

/**
 * A least-recently-used cache of the forms `GzipBody`s make on demand, bounded by their total bytes. One per
 * read model (it goes with the model at a swap, so it never holds a body of an older generation).
 */
export class BodyCache {
  private readonly entries = new Map<Body, CachedForms>();
  private last: Body | undefined;
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now (at most `maxBytes`). */
  get bytes(): number {
    return this.held;
  }

  /** The cached form of `body`, marking it most recently used. */
  get(body: Body, form: 'identity' | 'br'): Buffer | undefined {
    const entry = this.entries.get(body);
    if (!entry) return undefined;
    if (this.last !== body) {
      // Map order is insertion order: re-inserting moves the body to the most recent end.
      this.entries.delete(body);
      this.entries.set(body, entry);
      this.last = body;
    }
    return entry[form];
  }

  /** Keeps a form of `body`, evicting the least recently used bodies to stay within `maxBytes`. */
  put(body: Body, form: 'identity' | 'br', bytes: Buffer): void {
    if (bytes.length > this.maxBytes) return;
    let entry = this.entries.get(body);
    if (entry) {
      this.entries.delete(body);
      this.held -= entry[form]?.length ?? 0;
      entry.bytes -= entry[form]?.length ?? 0;
    } else {
      entry = { bytes: 0 };
    }
    entry[form] = bytes;
    entry.bytes += bytes.length;
    this.held += bytes.length;
    this.entries.set(body, entry);
    this.last = body;
    for (const [oldest, old] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= old.bytes;
    }
  }
}

/** The default bound of a read model's `BodyCache` (`PMREF_BODY_CACHE_MB`). */
export const DEFAULT_BODY_CACHE_BYTES = 32 << 20;

/**
 * A read-model body written into `arena`: gzip (at `HELD_GZIP_LEVEL`) when it is large enough for compression
 * to pay, identity otherwise. `text` may be transient (a reused scratch buffer): its bytes are copied.
 */
export function heldBody(text: string | Buffer, etag: string, arena: ByteArena, cache: BodyCache): Body {
  const length = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.length;
  if (length >= COMPRESS_MIN_BYTES) {
    const gz = gzipSync(text, { level: HELD_GZIP_LEVEL });
    if (gz.length <= length * (1 - MIN_SAVING)) return new GzipBody(arena.put(gz), length, etag, cache);
  }
  return new Body(arena.put(text), etag, true);
}

/**
 * One buffer handed out again and again, grown as needed: for bytes consumed (compressed into the arena) before
 * the next are made, so a build's transient bodies cost one allocation instead of one each.
 */
export class ReusedBytes {
  private buffer: Buffer = Buffer.alloc(0);

  /** A slice of `length` bytes for the caller to fill; valid until the next call. */
  reserve(length: number): Buffer {
    if (length > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(Math.max(length, this.buffer.length * 2));
    return this.buffer.subarray(0, length);
  }

  /** UTF-8 bytes of `text` (or a copy of `bytes`), valid until the next call. */
  put(text: string | Buffer): Buffer {
    const slice = this.reserve(typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.length);
    if (typeof text === 'string') slice.write(text, 'utf8');
    else text.copy(slice);
    return slice;
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
  arena?: ByteArena | ReusedBytes,
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
