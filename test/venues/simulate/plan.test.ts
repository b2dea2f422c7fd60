// Pins the universe's calibration at full scale: event and market counts within ±2% of the targets, about half per venue, every category and bundle type present, and twins on about 6% of events.
import { describe, expect, it } from 'vitest';
import { BUNDLE_TYPES, CATEGORIES } from '../../../src/domain/index.ts';
import { parseDay } from '../../../src/venues/simulate/calendar.ts';
import { planUniverse } from '../../../src/venues/simulate/plan.ts';

describe('planUniverse at full scale', () => {
  const plan = planUniverse(42, parseDay('2026-11-22'), 1);
  const events = plan.events;
  const markets = events.reduce((s, e) => s + e.markets.length, 0);

  it('hits about 3,860 events and 39,200 markets (±2%), about half on each venue', () => {
    expect(Math.abs(events.length - 3860) / 3860).toBeLessThanOrEqual(0.02);
    expect(Math.abs(markets - 39_200) / 39_200).toBeLessThanOrEqual(0.02);
    const a = events.filter((e) => e.venue === 'venue_a');
    expect(a.length / events.length).toBeGreaterThan(0.4);
    expect(a.length / events.length).toBeLessThan(0.6);
    expect(markets / events.length).toBeGreaterThan(8);
    expect(markets / events.length).toBeLessThan(12);
  });

  it('covers every category and bundle type, with ladders and categoricals carrying most markets', () => {
    for (const c of CATEGORIES) expect(events.filter((e) => e.category === c).length, c).toBeGreaterThan(100);
    for (const b of BUNDLE_TYPES) expect(events.filter((e) => e.bundle === b).length, b).toBeGreaterThan(20);
    const inBundles = events.filter((e) => e.bundle !== 'singleton').reduce((s, e) => s + e.markets.length, 0);
    expect(inBundles / markets).toBeGreaterThan(0.9);
    expect(
      events
        .filter((e) => e.bundle === 'augmented_negrisk')
        .every((e) => e.venue === 'venue_b' && e.negRisk && e.augmented),
    ).toBe(true);
  });

  it('puts about 6% of events in cross-venue twin groups, with complements and every trap kind', () => {
    const twinEvents = new Set<unknown>();
    const draftEvent = new Map(events.flatMap((e) => e.markets.map((m) => [m, e] as const)));
    for (const p of plan.pairs) {
      twinEvents.add(draftEvent.get(p.a));
      twinEvents.add(draftEvent.get(p.b));
    }
    const share = twinEvents.size / events.length;
    expect(share).toBeGreaterThan(0.045);
    expect(share).toBeLessThan(0.08);
    expect(plan.pairs.filter((p) => p.label === 'complement').length).toBeGreaterThan(5);
    for (const k of ['deadline', 'threshold', 'window', 'price_source', 'event_definition'] as const) {
      expect(plan.pairs.filter((p) => p.trapKind === k).length, k).toBeGreaterThan(3);
    }
    for (const p of plan.pairs) {
      expect(draftEvent.get(p.a)?.venue).toBe('venue_a');
      expect(draftEvent.get(p.b)?.venue).toBe('venue_b');
    }
  });

  it('names an authority on nearly every venue_a series and placeholder language on most venue_b markets', () => {
    const a = events.filter((e) => e.venue === 'venue_a');
    const named = a.filter((e) => ['named', 'ordered_fallback', 'quorum', 'secondhand'].includes(e.profile.commitment));
    expect(named.length / a.length).toBeGreaterThan(0.93);
    const bMarkets = events
      .filter((e) => e.venue === 'venue_b')
      .flatMap((e) => e.markets.map(() => e.profile.commitment));
    const placeholder = bMarkets.filter((c) => c === 'consensus' || c === 'primary_fallback' || c === 'menu');
    expect(placeholder.length / bMarkets.length).toBeGreaterThan(0.85);
  });
});

describe('accidental twins', () => {
  it.each([
    [42, '2026-11-22', 1],
    [9, '2026-06-15', 0.25],
  ])(
    'lists every cross-venue pair that asks the same question as a "same" truth pair (seed %i, %s, scale %d)',
    (seed, asOf, scale) => {
      // The claim is the canonical underlying question a builder wrote; matching claims across venues are twins.
      const plan = planUniverse(seed, parseDay(asOf), scale);
      const byClaim = new Map<string, { a: unknown[]; b: unknown[] }>();
      for (const e of plan.events) {
        for (const m of e.markets) {
          const slot = byClaim.get(m.claim) ?? { a: [], b: [] };
          (e.venue === 'venue_a' ? slot.a : slot.b).push(m);
          byClaim.set(m.claim, slot);
        }
      }
      const listed = new Set(plan.pairs.filter((p) => p.label === 'same').map((p) => `${p.a.claim}`));
      const shared = [...byClaim.entries()].filter(([, v]) => v.a.length > 0 && v.b.length > 0).map(([k]) => k);
      expect(shared.length).toBeGreaterThan(50);
      expect(shared.filter((k) => !listed.has(k))).toEqual([]);
      // No question is listed twice on one venue.
      const dupes = [...byClaim.entries()].filter(([, v]) => v.a.length > 1 || v.b.length > 1).map(([k]) => k);
      expect(dupes.slice(0, 5)).toEqual([]);
    },
  );
});
