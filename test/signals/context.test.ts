// Invariant: the detectors' index of marks holds, per market, one mark per date (the last given for that market and
// date), in date order, whatever order the marks come in; marks dated after today are left out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarkFigures } from '../../src/domain/index.ts';
import { buildContext } from '../../src/signals/context.ts';

const NOW = '2026-11-27T12:00:00.000Z';

/** What the index must hold, built the plain way: a map per market, then sorted. */
function reference(marks: readonly MarkFigures[]): Map<string, MarkFigures[]> {
  const grouped = new Map<string, Map<string, MarkFigures>>();
  for (const m of marks) {
    if (m.snapshot_date > NOW.slice(0, 10)) continue;
    const byDate = grouped.get(m.market_id) ?? new Map<string, MarkFigures>();
    byDate.set(m.snapshot_date, m);
    grouped.set(m.market_id, byDate);
  }
  return new Map(
    [...grouped].map(([id, byDate]) => [
      id,
      [...byDate.values()].sort((a, b) => (a.snapshot_date < b.snapshot_date ? -1 : 1)),
    ]),
  );
}

const markArb = fc.record({
  market_id: fc.constantFrom('m1', 'm2', 'm3'),
  snapshot_date: fc.constantFrom('2026-11-20', '2026-11-24', '2026-11-26', '2026-11-27', '2026-11-28'),
  yes_last_price: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
});

function figures(m: { market_id: string; snapshot_date: string; yes_last_price: number }): MarkFigures {
  return {
    ...m,
    implied_probability: null,
    volume_24h_usd: null,
    yes_ask_size_usd: null,
    no_ask_size_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
  };
}

describe('buildContext: marks by market', () => {
  it('agrees with a map per market for marks in any order, sorted or not, with repeats', () => {
    fc.assert(
      fc.property(fc.array(markArb, { maxLength: 40 }), fc.boolean(), (raw, sorted) => {
        const marks = raw.map(figures);
        if (sorted)
          marks.sort((a, b) => (a.snapshot_date < b.snapshot_date ? -1 : a.snapshot_date > b.snapshot_date ? 1 : 0));
        const ctx = buildContext({ events: [], markets: [], marks, spot: [], catalysts: [], now: NOW });
        const got = new Map([...ctx.marksByMarket].map(([id, list]) => [id, [...list]]));
        expect(got).toEqual(reference(marks));
        // The very objects given, not copies.
        for (const list of ctx.marksByMarket.values()) for (const m of list) expect(marks).toContain(m);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the later of two marks of one market and date, appended or inserted', () => {
    const a = figures({ market_id: 'm1', snapshot_date: '2026-11-26', yes_last_price: 0.1 });
    const b = figures({ market_id: 'm1', snapshot_date: '2026-11-24', yes_last_price: 0.2 });
    const c = figures({ market_id: 'm1', snapshot_date: '2026-11-24', yes_last_price: 0.3 });
    const ctx = buildContext({ events: [], markets: [], marks: [a, b, c], spot: [], catalysts: [], now: NOW });
    expect(ctx.marksByMarket.get('m1')).toEqual([c, a]);
    expect([ctx.latestDate, ctx.priorDate]).toEqual(['2026-11-26', '2026-11-24']);
  });
});
