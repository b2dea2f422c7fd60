// Twins with one question_id are flagged when their same-side prices differ by more than 5 points and the gap holds
// net of both venues' taker fees, and only then; the bulletin reports the spread gross and net and the depth check.
import { describe, expect, it } from 'vitest';
import { type Market, questionIdFor, SignalBulletinSchema } from '../../../src/domain/index.ts';
import { buildContext } from '../../../src/signals/context.ts';
import { DIVERGENCE, detectCrossVenueDivergence } from '../../../src/signals/detectors/index.ts';
import { FEE_SCHEDULES } from '../../../src/signals/net-spread.ts';
import { emptyInput, eventWithMarket, makeMark, rcgOf, TODAY } from '../builders.ts';

const QID = questionIdFor('fed|2026-07|cut');

function twins(pa: number, pb: number, b: Partial<Market> & { native?: string } = {}, a: Partial<Market> = {}) {
  const A = eventWithMarket(
    'KXFED-26JUL',
    { category: 'economics', question: 'Fed cut in July?' },
    { question_id: QID, rcg: rcgOf('A'), direction: 'above', ...a },
  );
  const B = eventWithMarket(
    'fed-july-cut',
    { category: 'economics', question: 'Fed cut in July?' },
    { platform: 'venue_b', question_id: QID, rcg: rcgOf('C'), direction: 'above', ...b },
  );
  return {
    ...emptyInput(),
    events: [A.event, B.event],
    markets: [A.market, B.market],
    marks: [makeMark(A.market, TODAY, pa), makeMark(B.market, TODAY, pb)],
  };
}

describe('cross-venue divergence', () => {
  it('fires on a 10-point gap with both prices, the gap and both grades', () => {
    const out = detectCrossVenueDivergence(buildContext(twins(0.6, 0.5)));
    expect(out).toHaveLength(1);
    const b = SignalBulletinSchema.parse(out[0]);
    expect(b.detection_path).toBe('cross_venue_divergence');
    expect(b.category_tag).toBe('CROSS_VENUE_DIVERGENCE');
    expect(b.venues).toEqual(['venue_a', 'venue_b']);
    expect(b.primary_market.grade).toBe('A');
    expect(b.related_markets[0]?.grade).toBe('C');
    const n = Object.fromEntries(b.numbers.map((x) => [x.name, x.value]));
    expect(n).toMatchObject({ venue_a_price: 0.6, venue_b_price: 0.5, venue_b_price_same_side: 0.5, price_gap: 0.1 });
    expect(b.bullets.join(' ')).toMatch(/grades differ \(A vs C\)/);
    expect(b.record_slug).toBe(`cross-venue-divergence-${QID.toLowerCase()}-${TODAY}`);
    expect(b.linked_event_ids).toHaveLength(1);
  });

  it('compares complements on the same side (p against 1 − p)', () => {
    const fires = detectCrossVenueDivergence(buildContext(twins(0.6, 0.3, { direction: 'below' })));
    expect(fires).toHaveLength(1);
    const n = Object.fromEntries((fires[0]?.numbers ?? []).map((x) => [x.name, x.value]));
    expect(n.venue_b_price_same_side).toBeCloseTo(0.7, 10);
    expect(n.price_gap).toBeCloseTo(0.1, 10);
    // 0.60 vs 1 − 0.42 = 0.58: a 2-point gap once read on the same side, though the raw prices differ by 18.
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.42, { direction: 'below' })))).toEqual([]);
  });

  it('still reports a stale quote, and says so', () => {
    const stale = twins(0.6, 0.4);
    stale.marks = stale.marks.map((m, i) => (i === 0 ? { ...m, stale_flag: true } : m));
    const out = detectCrossVenueDivergence(buildContext(stale));
    expect(out).toHaveLength(1);
    expect(out[0]?.bullets).toContain(
      'The venue_a quote is flagged stale (its source was last updated over 4 hours before the snapshot).',
    );
  });

  it('stays silent on controls', () => {
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.6 - DIVERGENCE.minGap)))).toEqual([]);
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.57)))).toEqual([]);
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.4, { question_id: null })))).toEqual([]);
    expect(
      detectCrossVenueDivergence(buildContext(twins(0.6, 0.4, { platform: 'venue_a', native: 'KXOTHER-M' }))),
    ).toEqual([]);
    const carried = twins(0.6, 0.4);
    carried.marks = carried.marks.map((m, i) =>
      i === 1 ? { ...m, mark_method: 'imputed_carry_forward' as const } : m,
    );
    expect(detectCrossVenueDivergence(buildContext(carried))).toEqual([]);
    const hidden = twins(0.6, 0.4);
    hidden.events = hidden.events.map((e) => ({ ...e, published: false }));
    expect(detectCrossVenueDivergence(buildContext(hidden))).toEqual([]);
  });

  it('reports the spread gross and net of fees, and the top-of-book depth for the stated size', () => {
    const input = twins(0.6, 0.5);
    // Buy YES on venue_b at 0.5 (100 contracts: $50) and NO on venue_a at 0.4 ($40).
    input.marks = input.marks.map((m, i) =>
      i === 0 ? { ...m, no_ask_size_usd: 400 } : { ...m, yes_ask_size_usd: 20 },
    );
    const [b] = detectCrossVenueDivergence(buildContext(input));
    const n = Object.fromEntries((b?.numbers ?? []).map((x) => [x.name, x.value]));
    expect(n).toMatchObject({ spread_gross: 0.1, fee_venue_a: 0.0168, fee_venue_b: 0, spread_size: 100, depth_ok: 0 });
    expect(n.spread_net).toBeCloseTo(0.0832, 10);
    expect(b?.bullets[1]).toMatch(
      /Net of both venues' taker fees at 100 contracts it is 8\.3 pts \(the size does not fit/,
    );
  });

  it('stays silent when the gap vanishes net of fees', () => {
    // A taker rate of 1 costs 0.24 + 0.25 per contract at these prices: more than the 10-point gap.
    const dear = {
      venue_a: { ...FEE_SCHEDULES.venue_a, taker_rate: 1 },
      venue_b: { ...FEE_SCHEDULES.venue_b, taker_rate: 1 },
    };
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.5)), { schedules: dear })).toEqual([]);
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.5)))).toHaveLength(1);
  });

  it("prices each leg by its market's own fee terms, and stays silent when a leg's fee cannot be priced", () => {
    const enabled = { taker_multiplier: null, basis: 'venue_market' as const, venue_fields: { feesEnabled: true } };
    expect(detectCrossVenueDivergence(buildContext(twins(0.6, 0.5, { fee_terms: enabled })))).toEqual([]);
    const half = { taker_multiplier: 0.5, basis: 'venue_series' as const, venue_fields: { fee_multiplier: 0.5 } };
    const [b] = detectCrossVenueDivergence(buildContext(twins(0.6, 0.5, {}, { fee_terms: half })));
    const n = Object.fromEntries((b?.numbers ?? []).map((x) => [x.name, x.value]));
    expect(n).toMatchObject({ fee_venue_a: 0.0084, fee_venue_b: 0 });
  });
});
