// Invariant: a packed window gives back exactly the marks it was given for any date range, in order; a mark it could
// not give back exactly makes no window at all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byMarkDateThenMarket, MARK_METHODS, type MarkFigures } from '../../src/domain/index.ts';
import { packWindow, windowCovers, windowFigures } from '../../src/pipeline/marks-window.ts';

const DATES = ['2026-11-19', '2026-11-20', '2026-11-24', '2026-11-26', '2026-11-27'];
const figure = fc.option(fc.double({ min: 0, max: 1e9, noNaN: true, noDefaultInfinity: true }), { nil: null });
const markArb = fc.record({
  market_id: fc.constantFrom('SVC-MKT-A', 'SVC-MKT-B', 'SVC-MKT-C'),
  snapshot_date: fc.constantFrom(...DATES),
  yes_last_price: figure,
  implied_probability: figure,
  volume_24h_usd: figure,
  yes_ask_size_usd: figure,
  no_ask_size_usd: figure,
  mark_method: fc.constantFrom(...MARK_METHODS),
  stale_flag: fc.boolean(),
});

describe('marks window', () => {
  it('gives back the marks of any date range, equal and in order', () => {
    fc.assert(
      fc.property(
        fc.array(markArb, { maxLength: 60 }),
        fc.constantFrom(...DATES),
        fc.constantFrom(...DATES, '2026-11-28'),
        (marks, from, until) => {
          const sorted = [...marks].sort(byMarkDateThenMarket);
          const w = packWindow(sorted, DATES[0] as string, DATES[DATES.length - 1] as string);
          if (w === null) throw new Error('plain marks always pack');
          expect(windowFigures(w, from, until)).toEqual(
            sorted.filter((m) => m.snapshot_date >= from && m.snapshot_date < until),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps null figures and flags apart from every number', () => {
    const mark = {
      market_id: 'SVC-MKT-A',
      snapshot_date: '2026-11-27',
      yes_last_price: 0,
      implied_probability: null,
      volume_24h_usd: 1e-9,
      yes_ask_size_usd: 123456789.01,
      no_ask_size_usd: null,
      mark_method: null,
      stale_flag: null,
    } as unknown as MarkFigures;
    const w = packWindow([mark], '2026-11-27', '2026-11-27');
    expect(w && windowFigures(w, '2026-11-27', '2026-11-28')).toEqual([mark]);
  });

  it('makes no window of a mark it could not give back exactly, or one outside its dates', () => {
    const base = {
      market_id: 'SVC-MKT-A',
      snapshot_date: '2026-11-27',
      yes_last_price: 0.5,
      implied_probability: null,
      volume_24h_usd: null,
      yes_ask_size_usd: null,
      no_ask_size_usd: null,
      mark_method: 'venue_snapshot',
      stale_flag: false,
    } as MarkFigures;
    expect(packWindow([base], '2026-11-20', '2026-11-27')).not.toBeNull();
    for (const odd of [-0, Number.POSITIVE_INFINITY, Number.NaN, '0.5', true]) {
      expect(packWindow([{ ...base, yes_last_price: odd as number }], '2026-11-20', '2026-11-27')).toBeNull();
    }
    expect(packWindow([{ ...base, stale_flag: 1 as unknown as boolean }], '2026-11-20', '2026-11-27')).toBeNull();
    expect(packWindow([base], '2026-11-20', '2026-11-26')).toBeNull();
    expect(packWindow([base], '2026-11-28', '2026-11-30')).toBeNull();
  });

  it('covers a later run from its first day on, not one that reaches further back or runs earlier', () => {
    const w = packWindow([], '2026-11-19', '2026-11-27');
    if (w === null) throw new Error('an empty window packs');
    expect(windowCovers(w, '2026-11-19', '2026-11-27')).toBe(true);
    expect(windowCovers(w, '2026-11-20', '2026-11-28')).toBe(true);
    expect(windowCovers(w, '2026-11-18', '2026-11-27')).toBe(false);
    expect(windowCovers(w, '2026-11-19', '2026-11-26')).toBe(false);
  });
});
