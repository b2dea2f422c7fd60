/**
 * Service identifiers (spec §2.1, §2.2, issue 2).
 *
 * event_id = `SVC-EVT-` + 9-character body in vowel-free base36 + 1 decimal check digit.
 *   - Alphabet: 0-9 and the 21 consonants B…Z (A E I O U removed, so ids never spell words), 31 symbols.
 *   - A single decimal digit cannot by itself catch every substitution among 31 symbols (pigeonhole),
 *     so the body carries its own redundancy: read as a base-31 number it is always a multiple of 37.
 *     Changing one body symbol changes that number by d·31^i with 0 < |d| ≤ 30; 37 is prime and divides
 *     neither d nor 31^i, so the corrupted body is never a multiple of 37: every single-character
 *     substitution in the body fails validation.
 *   - The check digit is Σ(symbol value × weight) mod 10 with weights 1,3,7,9 repeating over the body.
 *     A corrupted check digit no longer matches the body, so substitutions there fail too; the check also
 *     catches most adjacent transpositions.
 * market_id = `SVC-MKT-` + 10 uppercase base36 characters.
 * question_id = `SVCX-` + 10 uppercase hex characters of SHA-256 over the normalized claim key.
 *
 * Ids derive deterministically from the venue-native identity (`venue:native_id`); the store's id
 * registry records each one, so an id never changes and a hash collision is detected and salted
 * (`attempt` > 0) instead of silently shared.
 */
import { createHash } from 'node:crypto';
import type { Venue } from './vocab.ts';

export const EVENT_ALPHABET = '0123456789BCDFGHJKLMNPQRSTVWXYZ';
const BASE = BigInt(EVENT_ALPHABET.length); // 31
const BODY_LENGTH = 9;
const BODY_MODULUS = 37n;
const CHECK_WEIGHTS = [1, 3, 7, 9] as const;
const MAX_BODY = BASE ** BigInt(BODY_LENGTH); // 31^9

const EVENT_ID_RE = /^SVC-EVT-([0-9BCDFGHJKLMNPQRSTVWXYZ]{9})([0-9])$/;
const MARKET_ID_RE = /^SVC-MKT-(?:[0-9A-Z]{10}|[0-9]{6})$/;
const QUESTION_ID_RE = /^SVCX-[0-9A-F]{10}$/;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function bigFromDigest(buf: Buffer): bigint {
  return BigInt(`0x${buf.subarray(0, 16).toString('hex')}`);
}

function symbolValue(ch: string): number {
  return EVENT_ALPHABET.indexOf(ch);
}

/** The check digit of a 9-symbol event id body. */
export function eventCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    sum += symbolValue(body.charAt(i)) * (CHECK_WEIGHTS[i % CHECK_WEIGHTS.length] ?? 1);
  }
  return sum % 10;
}

function encodeBody(value: bigint): string {
  let v = value;
  let out = '';
  for (let i = 0; i < BODY_LENGTH; i++) {
    out = EVENT_ALPHABET.charAt(Number(v % BASE)) + out;
    v /= BASE;
  }
  return out;
}

function decodeBody(body: string): bigint {
  let v = 0n;
  for (const ch of body) v = v * BASE + BigInt(symbolValue(ch));
  return v;
}

/** Native identity string of a venue record: the registry key. */
export function nativeKey(venue: Venue, nativeId: string): string {
  return `${venue}:${nativeId}`;
}

/**
 * Event id for a venue-native event identity. `attempt` salts the hash after a detected collision.
 * @example eventIdFor('venue_a', 'KXFED-26APR') // 'SVC-EVT-…' (always the same)
 */
export function eventIdFor(venue: Venue, nativeEventId: string, attempt = 0): string {
  const salt = attempt === 0 ? '' : `#${attempt}`;
  const n = bigFromDigest(digest(`event|${nativeKey(venue, nativeEventId)}${salt}`));
  const body = encodeBody((n % (MAX_BODY / BODY_MODULUS)) * BODY_MODULUS);
  return `SVC-EVT-${body}${eventCheckDigit(body)}`;
}

/** Market id for a venue-native market identity (venue_a ticker, venue_b condition id). */
export function marketIdFor(venue: Venue, nativeMarketId: string, attempt = 0): string {
  const salt = attempt === 0 ? '' : `#${attempt}`;
  const n = bigFromDigest(digest(`market|${nativeKey(venue, nativeMarketId)}${salt}`));
  return `SVC-MKT-${n.toString(36).toUpperCase().padStart(10, '0').slice(-10)}`;
}

/** Question id from a normalized claim key string (see editorial/canon). */
export function questionIdFor(normalizedClaimKey: string): string {
  return `SVCX-${digest(`question|${normalizedClaimKey}`).toString('hex').slice(0, 10).toUpperCase()}`;
}

/** True when `id` is a well-formed event id whose body residue and check digit both hold. */
export function isValidEventId(id: string): boolean {
  const m = EVENT_ID_RE.exec(id);
  if (!m) return false;
  const body = m[1] ?? '';
  const check = Number(m[2]);
  return decodeBody(body) % BODY_MODULUS === 0n && eventCheckDigit(body) === check;
}

export function isValidMarketId(id: string): boolean {
  return MARKET_ID_RE.test(id);
}

export function isValidQuestionId(id: string): boolean {
  return QUESTION_ID_RE.test(id);
}
