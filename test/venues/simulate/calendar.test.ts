// Pins the generator's date arithmetic: trading-day periods skip weekends and never collide, US Eastern time follows daylight saving, and period offsets keep the two venues' daily slots apart.
import { describe, expect, it } from 'vitest';
import { easternTime, isoZ, parseDay, shortDate, tickerDate } from '../../../src/venues/simulate/calendar.ts';
import * as F from '../../../src/venues/simulate/families/catalog-financials.ts';
import { periodOffset, tradingDay } from '../../../src/venues/simulate/families/indicator.ts';
import { Rng } from '../../../src/venues/simulate/prng.ts';

describe('calendar', () => {
  it('maps offsets onto distinct weekdays around the as-of', () => {
    const asOf = parseDay('2026-11-22'); // a Sunday
    const days = Array.from({ length: 40 }, (_, i) => tradingDay(asOf, i - 20));
    for (const d of days) expect([1, 2, 3, 4, 5]).toContain(new Date(d).getUTCDay());
    expect(new Set(days).size).toBe(days.length);
    expect(isoZ(tradingDay(asOf, 0))).toBe('2026-11-23T00:00:00Z');
    expect(isoZ(tradingDay(asOf, -1))).toBe('2026-11-20T00:00:00Z');
  });

  it('writes Eastern time with daylight saving and the venues’ date formats', () => {
    expect(isoZ(easternTime(parseDay('2026-07-01'), 17))).toBe('2026-07-01T21:00:00Z');
    expect(isoZ(easternTime(parseDay('2026-12-01'), 17))).toBe('2026-12-01T22:00:00Z');
    expect(shortDate(parseDay('2026-03-05'))).toBe('Mar 5, 2026');
    expect(tickerDate(parseDay('2026-03-05'))).toBe('26MAR05');
    expect(() => parseDay('2026-02-30')).toThrow();
  });

  it('gives venue_a even and venue_b odd daily offsets, each covering past and future days', () => {
    const a = Array.from({ length: 12 }, (_, s) => periodOffset(F.SP500, 2 * s));
    const b = Array.from({ length: 12 }, (_, s) => periodOffset(F.SP500, 2 * s + 1));
    expect(a.filter((x) => b.includes(x))).toEqual([]);
    expect(a.some((x) => x < 0) && a.some((x) => x > 0)).toBe(true);
    expect(b).toContain(-1);
  });

  it('replays the same stream for the same label', () => {
    const x = new Rng('seed/1');
    const y = new Rng('seed/1');
    const draws = Array.from({ length: 5 }, () => [x.next(), y.next()]);
    for (const [p, q] of draws) expect(p).toBe(q);
    expect(new Rng('seed/2').next()).not.toBe(new Rng('seed/1').next());
  });
});
