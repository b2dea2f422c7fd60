/**
 * Service ids are pure functions of the venue-native identity: valid by construction, stable, distinct
 * across venues, and an event id with any one character changed never validates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EVENT_ALPHABET,
  EventIdSchema,
  eventCheckDigit,
  eventIdFor,
  isValidEventId,
  isValidMarketId,
  isValidQuestionId,
  MarketIdSchema,
  marketIdFor,
  nativeKey,
  QuestionIdSchema,
  questionIdFor,
  VENUES,
} from '../../src/domain/index.ts';

const venue = fc.constantFrom(...VENUES);
/** Native ids as the venues write them (tickers, condition ids, slugs) plus arbitrary unicode text. */
const nativeId = fc.oneof(
  fc.stringMatching(/^KX[A-Z]{3,8}-\d{2}[A-Z]{3}\d{2}(-[A-Z0-9]{1,4})?$/),
  fc.stringMatching(/^0x[0-9a-f]{64}$/),
  fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+){0,6}$/),
  fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' }),
);
const attempt = fc.integer({ min: 0, max: 50 });

const EVENT_ID = /^SVC-EVT-[0-9BCDFGHJKLMNPQRSTVWXYZ]{9}[0-9]$/;
const MARKET_ID = /^SVC-MKT-[0-9A-Z]{10}$/;
const QUESTION_ID = /^SVCX-[0-9A-F]{10}$/;

/** Characters that are never an event-id symbol: lowercase, vowels, punctuation, space, look-alikes, non-ASCII. */
const FOREIGN = [...'abcdefghijklmnopqrstuvwxyz', ...'AEIOU', ...'-_ .:/#+?*', 'Ø', 'é', 'İ', '０', '\u0000'];

/** Every id that differs from `id` in exactly one character, over the alphabet and the foreign characters. */
function singleCharacterCorruptions(id: string): string[] {
  const out: string[] = [];
  const replacements = [...new Set([...EVENT_ALPHABET, ...FOREIGN])];
  for (let i = 0; i < id.length; i++) {
    for (const ch of replacements) {
      if (ch === id[i]) continue;
      out.push(id.slice(0, i) + ch + id.slice(i + 1));
    }
  }
  return out;
}

describe('event ids', () => {
  it('are valid by construction and match the spec pattern', () => {
    fc.assert(
      fc.property(venue, nativeId, attempt, (v, id, a) => {
        const eventId = eventIdFor(v, id, a);
        expect(eventId).toMatch(EVENT_ID);
        expect(isValidEventId(eventId)).toBe(true);
        expect(EventIdSchema.safeParse(eventId).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('are stable for the same native identity', () => {
    fc.assert(
      fc.property(venue, nativeId, attempt, (v, id, a) => {
        expect(eventIdFor(v, id, a)).toBe(eventIdFor(v, id, a));
        expect(eventIdFor(v, id)).toBe(eventIdFor(v, id, 0));
      }),
    );
  });

  it('differ across venues, native ids and salting attempts', () => {
    fc.assert(
      fc.property(nativeId, nativeId, (a, b) => {
        expect(eventIdFor('venue_a', a)).not.toBe(eventIdFor('venue_b', a));
        expect(eventIdFor('venue_a', a, 0)).not.toBe(eventIdFor('venue_a', a, 1));
        if (a !== b) expect(eventIdFor('venue_a', a)).not.toBe(eventIdFor('venue_a', b));
      }),
      { numRuns: 300 },
    );
  });

  it('fail validation after any single-character substitution (every position × every other symbol)', () => {
    fc.assert(
      fc.property(venue, nativeId, attempt, (v, id, a) => {
        const eventId = eventIdFor(v, id, a);
        const corrupted = singleCharacterCorruptions(eventId);
        // 18 positions × (31 alphabet + 45 foreign characters − the one already there)
        expect(corrupted.length).toBe(eventId.length * (new Set([...EVENT_ALPHABET, ...FOREIGN]).size - 1));
        const accepted = corrupted.filter(isValidEventId);
        expect(accepted).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('catch each body/check substitution for its own reason: body residue mod 37, or the check digit', () => {
    const eventId = eventIdFor('venue_a', 'KXFEDDECISION-26APR');
    const body = eventId.slice(8, 17);
    const check = Number(eventId.slice(17));
    expect(eventCheckDigit(body)).toBe(check);
    for (let i = 0; i < 9; i++) {
      for (const ch of EVENT_ALPHABET) {
        if (ch === body[i]) continue;
        const bad = body.slice(0, i) + ch + body.slice(i + 1);
        // Even when the corruption happens to keep the check digit, the residue catches it.
        expect(isValidEventId(`SVC-EVT-${bad}${eventCheckDigit(bad)}`)).toBe(false);
      }
    }
    for (let d = 0; d <= 9; d++) {
      if (d !== check) expect(isValidEventId(`SVC-EVT-${body}${d}`)).toBe(false);
    }
  });

  it('fail validation when a character is dropped, added, or the id is lowercased', () => {
    fc.assert(
      fc.property(venue, nativeId, (v, id) => {
        const eventId = eventIdFor(v, id);
        for (let i = 0; i < eventId.length; i++) {
          expect(isValidEventId(eventId.slice(0, i) + eventId.slice(i + 1))).toBe(false);
          expect(isValidEventId(`${eventId.slice(0, i)}0${eventId.slice(i)}`)).toBe(false);
        }
        expect(isValidEventId(`${eventId}0`)).toBe(false);
        expect(isValidEventId(eventId.toLowerCase())).toBe(false);
        expect(isValidEventId(` ${eventId}`)).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});

describe('market ids', () => {
  it('are SVC-MKT- plus 10 uppercase alphanumerics, valid, stable and distinct across venues', () => {
    fc.assert(
      fc.property(venue, nativeId, attempt, (v, id, a) => {
        const marketId = marketIdFor(v, id, a);
        expect(marketId).toMatch(MARKET_ID);
        expect(isValidMarketId(marketId)).toBe(true);
        expect(MarketIdSchema.safeParse(marketId).success).toBe(true);
        expect(marketIdFor(v, id, a)).toBe(marketId);
        expect(marketIdFor(v === 'venue_a' ? 'venue_b' : 'venue_a', id, a)).not.toBe(marketId);
        expect(marketIdFor(v, id, a + 1)).not.toBe(marketId);
      }),
      { numRuns: 500 },
    );
  });

  it('never equal an event id of the same native identity, and validation rejects malformed ones', () => {
    expect(marketIdFor('venue_a', 'X').slice(8)).not.toBe(eventIdFor('venue_a', 'X').slice(8));
    for (const bad of [
      'SVC-MKT-abcdefghij',
      'SVC-MKT-ABCDEFGHI',
      'SVC-MKT-ABCDEFGHIJK',
      'SVC-EVT-ABCDEFGHIJ',
      'SVC-MKT-ABCDE-GHIJ',
    ]) {
      expect(isValidMarketId(bad)).toBe(false);
    }
    // The spec's legacy six-digit form is accepted by validation too (clients accept both).
    expect(isValidMarketId('SVC-MKT-000123')).toBe(true);
  });
});

describe('question ids', () => {
  it('are SVCX- plus 10 uppercase hex, valid, stable, and distinct for distinct claim keys', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.string({ minLength: 1, maxLength: 80 }), (a, b) => {
        const q = questionIdFor(a);
        expect(q).toMatch(QUESTION_ID);
        expect(isValidQuestionId(q)).toBe(true);
        expect(QuestionIdSchema.safeParse(q).success).toBe(true);
        expect(questionIdFor(a)).toBe(q);
        if (a !== b) expect(questionIdFor(b)).not.toBe(q);
      }),
      { numRuns: 500 },
    );
    for (const bad of ['SVCX-abcdef0123', 'SVCX-ABCDEG0123', 'SVCX-ABCDEF012', 'SVC-ABCDEF0123']) {
      expect(isValidQuestionId(bad)).toBe(false);
    }
  });
});

describe('native keys', () => {
  it('name the venue so the registry never confuses two venues', () => {
    expect(nativeKey('venue_a', 'KXFED-26APR')).toBe('venue_a:KXFED-26APR');
    expect(nativeKey('venue_b', 'KXFED-26APR')).not.toBe(nativeKey('venue_a', 'KXFED-26APR'));
  });
});
