// Invariant: when screensStand says a market's stored screens stand at a later clock, screening the same record
// against the same event at that clock gives them back unchanged (what the editorial stage then skips); and it says
// so for most markets an hour later, but not across a maturity threshold or a change of regimes in scope.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Market, MarketStatus, Venue } from '../../src/domain/index.ts';
import { sameRecord } from '../../src/pipeline/editorial-stage.ts';
import { screensFor, screensStand } from '../../src/pipeline/screens.ts';
import { REGIMES } from '../../src/signals/screens/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

const T0 = Date.parse('2026-11-22T00:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const minDays = Math.max(...REGIMES.map((r) => r.min_days_to_resolution));

const events = [
  makeEvent({ category: 'economics', question: 'CPI in June 2027?' }),
  makeEvent({ category: 'economics', question: 'Will Trump raise the tariff on steel?' }),
  makeEvent({ category: 'geopolitics', question: 'Terrorist attack in Paris by June?' }),
  makeEvent({ category: 'politics', question: 'Who wins the election?' }),
];

/** A market screened at `at`, as the store holds it. */
function screenedAt(market: Market, eventAt: number, at: number): Market {
  const event = events[eventAt] ?? null;
  return { ...market, eligibility_screens: screensFor(market, event, iso(at)) };
}

const marketArb = fc.record({
  platform: fc.constantFrom<Venue>('venue_a', 'venue_b'),
  status: fc.constantFrom<MarketStatus>('open', 'closed', 'resolved'),
  // Resolving from just before to well past the largest minimum maturity, by the hour; or no date at all.
  resolveInHours: fc.option(fc.integer({ min: -48, max: (minDays + 3) * 24 }), { nil: null }),
  committedSource: fc.boolean(),
  eventAt: fc.integer({ min: 0, max: events.length - 1 }),
});

type MarketCase = typeof marketArb extends fc.Arbitrary<infer T> ? T : never;

function marketOf(m: MarketCase): Market {
  const resolve = m.resolveInHours === null ? null : iso(T0 + m.resolveInHours * HOUR);
  return makeMarket({
    platform: m.platform,
    ...(m.platform === 'venue_b' ? { native: '0xabc' } : {}),
    status: m.status,
    resolve_at: resolve,
    close_at: resolve,
    ...(m.committedSource ? {} : { source_of_record: null }),
  });
}

describe('screensStand', () => {
  it('never says stored screens stand where screening would change them', () => {
    fc.assert(
      fc.property(marketArb, fc.integer({ min: 0, max: 10 * 24 }), (m, laterHours) => {
        const stored = screenedAt(marketOf(m), m.eventAt, T0);
        const later = iso(T0 + laterHours * HOUR);
        const fresh = screensFor(stored, events[m.eventAt] ?? null, later);
        if (screensStand(stored, later)) expect(sameRecord(fresh, stored.eligibility_screens)).toBe(true);
        // The converse is the part that saves work: it holds wherever no result crossed the maturity step.
        else expect(sameRecord(fresh, stored.eligibility_screens) && !crossesMaturity(stored, laterHours)).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('lets an hour later stand, but not the hour a market passes under the minimum maturity', () => {
    const ciro = REGIMES.find((r) => r.regime === 'ciro-26-0076');
    expect(ciro?.min_days_to_resolution).toBeGreaterThan(0);
    const days = ciro?.min_days_to_resolution ?? 0;
    // Resolves half an hour after the threshold is crossed at T0 + 1 h.
    const market = makeMarket({ resolve_at: iso(T0 + days * DAY + HOUR - 1), close_at: null });
    const stored = screenedAt(market, 0, T0);
    expect(stored.eligibility_screens?.find((r) => r.regime === 'ciro-26-0076')?.status).toBe('eligible');
    expect(screensStand(stored, iso(T0 + HOUR - 2))).toBe(true);
    expect(screensStand(stored, iso(T0 + HOUR))).toBe(false);
    const rescreened = screenedAt(market, 0, T0 + HOUR);
    expect(rescreened.eligibility_screens?.find((r) => r.regime === 'ciro-26-0076')?.reasons).toEqual([
      'under_min_maturity',
    ]);
    // Once under, it stays under: the later hours stand.
    expect(screensStand(rescreened, iso(T0 + 5 * DAY))).toBe(true);
  });

  it('does not stand when the regimes in scope are not the stored ones', () => {
    const stored = screenedAt(makeMarket(), 0, T0);
    expect(screensStand(stored, iso(T0 + HOUR))).toBe(true);
    // The market's status moved it out of a regime's scope (or into one): the stored list no longer fits.
    const resolved = { ...stored, status: 'resolved' as const };
    expect(sameRecord(screensFor(resolved, events[0] ?? null, iso(T0 + HOUR)), stored.eligibility_screens)).toBe(false);
    expect(screensStand(resolved, iso(T0 + HOUR))).toBe(false);
    const [first] = stored.eligibility_screens ?? [];
    if (first === undefined) throw new Error('an open market has screens');
    expect(screensStand({ ...stored, eligibility_screens: [{ ...first, screen_version: '0.9.0' }] }, iso(T0))).toBe(
      false,
    );
    expect(screensStand({ ...stored, eligibility_screens: [] }, iso(T0))).toBe(false);
  });
});

/** Whether any regime's maturity step gives another answer `laterHours` after T0 for this record. */
function crossesMaturity(market: Market, laterHours: number): boolean {
  const resolve = market.resolve_at ?? market.close_at;
  if (resolve === null) return false;
  return REGIMES.some((r) => {
    if (r.min_days_to_resolution <= 0) return false;
    const threshold = Date.parse(resolve) - r.min_days_to_resolution * DAY;
    return threshold > T0 && threshold <= T0 + laterHours * HOUR;
  });
}
