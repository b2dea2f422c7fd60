/**
 * How a JSON text is kept on disk (issue 18): the bytes of a `content` row and of a market's or event's `body`.
 * The first byte names the codec, so a stored row always says how to read it back:
 *
 * - `0`: the UTF-8 text as is, for short texts (see MIN_DEFLATE_CHARS) and event bodies (`packPlain`).
 * - `1`: deflate-raw against the preset dictionary in `content-dictionary.json` (records of the simulated
 *   universe; keys, vocabulary and phrasing repeat across every record). On the full simulated universe a
 *   market's body goes from 4.9 KB to about 0.55 KB (1.65 KB without the dictionary), a venue quote's raw
 *   payload from 0.54 KB to about 0.1 KB.
 *
 * Pure and deterministic: the same text always packs to the same bytes (within one zlib version), which the
 * content table's dedup relies on only as a shortcut (it compares unpacked texts).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import dictionaryJson from './content-dictionary.json' with { type: 'json' };

const PLAIN = 0;
const DEFLATE_DICT_1 = 1;

/** Codec 1's preset dictionary. Frozen: rows were compressed against exactly these bytes. */
const DICTIONARY_1 = Buffer.from(dictionaryJson.parts.join('\n'), 'utf8');

/**
 * Texts shorter than this stay plain. Deflate would shrink them too, but a deflate costs about 100 µs here (a zlib
 * stream and its dictionary set up per call) and every read would inflate: raw payloads of price history (a
 * `{t, p}` point, a daily candle: 27–450 characters, half a million of them in a first start) stay plain; venue
 * quotes (about 700), provenance and market bodies are compressed.
 */
export const MIN_DEFLATE_CHARS = 512;

/**
 * zlib's level for codec 1. Measured on the 39,200 market bodies of the full simulated universe (202 MB of JSON):
 * level 6 (zlib's default) 4.0 s and 27.3 MB, level 3 2.6 s and 29.2 MB (about 40 µs of each call is the preset
 * dictionary's set-up, whatever the level). A first start writes every body and venue quote once, so 3 it is. Any
 * level inflates with the same codec: rows written at another level read back unchanged.
 */
const DEFLATE_LEVEL = 3;

/**
 * The stored bytes of a JSON text: plain below MIN_DEFLATE_CHARS (or when deflate does not shrink it), else
 * deflated against the dictionary.
 * @example unpackText(packText('{"t":1,"p":0.5}')) // '{"t":1,"p":0.5}'
 */
export function packText(text: string): Buffer {
  const plain = Buffer.from(text, 'utf8');
  if (text.length >= MIN_DEFLATE_CHARS) {
    const deflated = deflateRawSync(plain, { dictionary: DICTIONARY_1, level: DEFLATE_LEVEL });
    if (deflated.length < plain.length) return Buffer.concat([Buffer.of(DEFLATE_DICT_1), deflated]);
  }
  return Buffer.concat([Buffer.of(PLAIN), plain]);
}

/**
 * The stored bytes of a JSON text kept plain whatever its length (codec 0): for records read and written whole
 * every run, where a deflate's and an inflate's set-up cost more than their bytes save (event bodies: record-codec.ts).
 * @example unpackText(packPlain('{"a":1}')) // '{"a":1}'
 */
export function packPlain(text: string): Buffer {
  return Buffer.concat([Buffer.of(PLAIN), Buffer.from(text, 'utf8')]);
}

/**
 * The text `packText` or `packPlain` was given. Throws on a codec byte it does not know (a store written by a newer
 * version).
 */
export function unpackText(bytes: Uint8Array): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const codec = buf[0];
  if (codec === PLAIN) return buf.toString('utf8', 1);
  if (codec === DEFLATE_DICT_1) return inflateRawSync(buf.subarray(1), { dictionary: DICTIONARY_1 }).toString('utf8');
  throw new Error(`stored content has unknown codec ${String(codec)}: written by a newer pmref?`);
}

/**
 * The content table's lookup key: a 53-bit hash of the text (cyrb53, a public-domain string hash), a safe integer
 * on both engines. It only narrows the lookup; two texts sharing it are told apart by comparing them, so a
 * collision costs a row, never a wrong answer. Not cryptographic on purpose: it runs for every raw payload written
 * (half a million in a first start's history) and costs a tenth of a SHA-256 here.
 */
export function contentHash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4_294_967_296 * (2_097_151 & h2) + (h1 >>> 0);
}
