// Property: two markets whose claims differ in direction semantics, threshold, horizon or event definition never share a question_id, except above/below complements at one boundary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Venue } from '../../../src/domain/index.ts';
import { questionIdFor } from '../../../src/domain/index.ts';
import { claimKeyOf } from '../../../src/editorial/canon/index.ts';
import { market } from './helpers.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const COINS = ['Bitcoin', 'Ethereum', 'Solana'];
const PEOPLE = ['Vladimir Putin', 'Keir Starmer', 'Emmanuel Macron', 'JD Vance', 'Gavin Newsom'];
const PREDICATES = [
  'leave office',
  'be removed from power',
  'visit Iran',
  'meet Xi Jinping in person',
  'resign',
  'be indicted',
  'be inaugurated as President',
];

type PriceDirection = 'above' | 'below' | 'between' | 'reach' | 'dip';
interface PriceClaim {
  kind: 'price';
  coin: string;
  direction: PriceDirection;
  threshold: number;
  width: number;
  day: number;
}
interface EventClaim {
  kind: 'event';
  person: string;
  predicate: string;
  day: number;
}
type Claim = PriceClaim | EventClaim;

const dateOf = (day: number) => {
  const d = new Date(Date.UTC(2026, 0, 1) + day * 86400_000);
  return {
    text: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`,
    next: new Date(d.getTime() + 86400_000),
  };
};
const money = (n: number) => `$${n.toLocaleString('en-US')}`;

/** One claim worded the way either venue words it. */
function render(c: Claim, venue: Venue): string {
  const { text, next } = dateOf(c.day);
  if (c.kind === 'event') {
    // venue_a says "before" the next day, venue_b "by" the day: both mean the same deadline.
    const nextText = `${MONTHS[next.getUTCMonth()]} ${next.getUTCDate()}, ${next.getUTCFullYear()}`;
    return venue === 'venue_a'
      ? `Will ${c.person} ${c.predicate} before ${nextText}?`
      : `Will ${c.person} ${c.predicate} by ${text}?`;
  }
  switch (c.direction) {
    case 'above':
    case 'below':
      return `Will the price of ${c.coin} be ${c.direction} ${money(c.threshold)} on ${text} at 5pm ET?`;
    case 'between':
      return `Will the price of ${c.coin} be between ${money(c.threshold)} and ${money(c.threshold + c.width)} on ${text} at 5pm ET?`;
    case 'reach':
      return `Will ${c.coin} reach ${money(c.threshold)} by ${text}?`;
    case 'dip':
      return `Will ${c.coin} dip to ${money(c.threshold)} by ${text}?`;
  }
}

const priceArb: fc.Arbitrary<Claim> = fc.record({
  kind: fc.constant('price' as const),
  coin: fc.constantFrom(...COINS),
  direction: fc.constantFrom<PriceDirection>('above', 'below', 'between', 'reach', 'dip'),
  threshold: fc.integer({ min: 2, max: 400 }).map((n) => n * 500),
  width: fc.integer({ min: 1, max: 20 }).map((n) => n * 500),
  day: fc.integer({ min: 0, max: 700 }),
});
const eventArb: fc.Arbitrary<Claim> = fc.record({
  kind: fc.constant('event' as const),
  person: fc.constantFrom(...PEOPLE),
  predicate: fc.constantFrom(...PREDICATES),
  day: fc.integer({ min: 0, max: 700 }),
});
const claimArb = fc.oneof(priceArb, eventArb);

/** The claim's meaning: equal identities are the same bet; `between` width matters only for brackets. */
function identity(c: Claim): string {
  if (c.kind === 'event') return JSON.stringify([c.person, c.predicate, c.day]);
  return JSON.stringify([c.coin, c.direction, c.threshold, c.direction === 'between' ? c.width : 0, c.day]);
}
function complements(a: Claim, b: Claim): boolean {
  if (a.kind !== 'price' || b.kind !== 'price') return false;
  const sides = new Set([a.direction, b.direction]);
  return (
    sides.has('above') && sides.has('below') && a.coin === b.coin && a.threshold === b.threshold && a.day === b.day
  );
}

function idOf(c: Claim, venue: Venue): string | null {
  const { market: m, facts } = market(venue, `${venue}-x`, {
    question: render(c, venue),
    rules: 'Resolves from the CF Benchmarks index.',
  });
  const r = claimKeyOf(m, facts);
  return r.status === 'keyed' ? questionIdFor(r.normalized) : null;
}

describe('question_id separates different claims', () => {
  it('never shares an id between claims that differ, except complements', () => {
    fc.assert(
      fc.property(
        claimArb,
        claimArb,
        fc.constantFrom<Venue>('venue_a', 'venue_b'),
        fc.constantFrom<Venue>('venue_a', 'venue_b'),
        (a, b, va, vb) => {
          fc.pre(identity(a) !== identity(b));
          const [x, y] = [idOf(a, va), idOf(b, vb)];
          if (x === null || y === null) return true;
          return x !== y || complements(a, b);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('differs when exactly one dimension changes', () => {
    const mutate = fc.tuple(claimArb, fc.integer({ min: 1, max: 400 })).map(([c, k]): [Claim, Claim] => {
      if (c.kind === 'event') {
        const options: Claim[] = [
          { ...c, day: c.day + 1 + (k % 30) },
          {
            ...c,
            predicate:
              PREDICATES[(PREDICATES.indexOf(c.predicate) + 1 + (k % (PREDICATES.length - 1))) % PREDICATES.length] ??
              c.predicate,
          },
          {
            ...c,
            person: PEOPLE[(PEOPLE.indexOf(c.person) + 1 + (k % (PEOPLE.length - 1))) % PEOPLE.length] ?? c.person,
          },
        ];
        return [c, options[k % options.length] ?? c];
      }
      const dirs: PriceDirection[] = ['above', 'below', 'between', 'reach', 'dip'];
      const options: Claim[] = [
        { ...c, threshold: c.threshold + 500 * (1 + (k % 10)) },
        { ...c, day: c.day + 1 + (k % 30) },
        { ...c, direction: dirs[(dirs.indexOf(c.direction) + 1 + (k % 4)) % 5] ?? c.direction },
      ];
      return [c, options[k % options.length] ?? c];
    });
    fc.assert(
      fc.property(mutate, fc.constantFrom<Venue>('venue_a', 'venue_b'), ([a, b], venue) => {
        const [x, y] = [idOf(a, venue), idOf(b, venue === 'venue_a' ? 'venue_b' : 'venue_a')];
        if (x === null || y === null) return true;
        return x !== y || complements(a, b);
      }),
      { numRuns: 1500 },
    );
  });

  it('gives one id to one claim worded by both venues (the generator is not vacuous)', () => {
    fc.assert(
      fc.property(claimArb, (c) => {
        const [x, y] = [idOf(c, 'venue_a'), idOf(c, 'venue_b')];
        expect(x).not.toBeNull();
        expect(x).toBe(y);
      }),
      { numRuns: 300 },
    );
  });
});
