// Pins the simulated dynamics behind the signals: one entity's markets reprice together at one hour, some crypto ladders drift away from spot while most track it, venue_b twins follow their venue_a partner within the planted gap, and the fast history writer matches JSON.stringify.
import { describe, expect, it } from 'vitest';
import { parseDay } from '../../../src/venues/simulate/calendar.ts';
import { COINS, spotAboveProb } from '../../../src/venues/simulate/families/crypto-coins.ts';
import { planUniverse } from '../../../src/venues/simulate/plan.ts';
import { pricesHistoryB, pricesHistoryJsonB } from '../../../src/venues/simulate/render-venue-b.ts';
import { buildRuntime } from '../../../src/venues/simulate/runtime.ts';
import { type MarketRt, makeClock, spotAt } from '../../../src/venues/simulate/timeline.ts';

const asOfMs = parseDay('2026-11-22');
const clock = makeClock(asOfMs, 14);
const plan = planUniverse(5, asOfMs, 0.08);
const rt = buildRuntime(plan, 5, clock);
const markets = rt.events.flatMap((e) => e.markets);
const H = clock.hours;

describe('simulated market dynamics', () => {
  it('reprices several markets of one entity sharply at the same hour (news cycle)', () => {
    expect(rt.shocks.length).toBeGreaterThanOrEqual(3);
    let entitiesWithMoves = 0;
    for (const shock of rt.shocks) {
      const moved = markets.filter((m) => {
        if (
          m.event.draft.entity !== shock.entity ||
          m.draft.link ||
          m.closeMs <= clock.windowStart + shock.hour * 3_600_000
        )
          return false;
        const before = m.path[shock.hour - 1] ?? 0;
        const after = m.path[shock.hour] ?? 0;
        return Math.sign(after - before) === Math.sign(shock.size) && Math.abs(after - before) > 0.05;
      });
      const events = new Set(moved.map((m) => m.event));
      if (moved.length >= 3 && events.size >= 2) entitiesWithMoves++;
    }
    expect(entitiesWithMoves).toBeGreaterThanOrEqual(1);
  });

  it('prices most open crypto threshold markets from spot, and a few far from it (benchmark drift)', () => {
    const open = markets.filter(
      (m): m is MarketRt & { draft: { spot: NonNullable<MarketRt['draft']['spot']> } } =>
        m.draft.spot !== undefined &&
        m.draft.spot.direction === 'above' &&
        m.draft.spot.atMs > asOfMs + 86_400_000 &&
        !m.draft.link,
    );
    expect(open.length).toBeGreaterThan(20);
    const gapsByEvent = new Map<unknown, number[]>();
    for (const m of open) {
      const s = spotAt(rt.spots, clock, m.draft.spot.coin, asOfMs);
      const years = (m.draft.spot.atMs - asOfMs) / (365 * 86_400_000);
      const fair = spotAboveProb(s, m.draft.spot.threshold, COINS[m.draft.spot.coin].vol, years);
      gapsByEvent.set(m.event, [...(gapsByEvent.get(m.event) ?? []), Math.abs((m.path[H] ?? 0) - fair)]);
    }
    const worst = [...gapsByEvent.values()].map((g) => Math.max(...g));
    expect(worst.filter((g) => g < 0.06).length / worst.length).toBeGreaterThan(0.7);
    expect(worst.filter((g) => g > 0.15).length).toBeGreaterThan(0);
  });

  it('keeps venue_b twins within their planted gap of the venue_a partner, complements mirrored', () => {
    const linked = markets.filter((m) => m.draft.link && !m.draft.spot);
    expect(linked.length).toBeGreaterThan(10);
    for (const m of linked) {
      const link = m.draft.link;
      const partner = link ? rt.byDraft.get(link.to) : undefined;
      if (!link || !partner || m.closeMs <= asOfMs) continue;
      const base = link.mode === 'same' ? (partner.path[H] ?? 0) : 1 - (partner.path[H] ?? 0);
      const expected = Math.min(0.995, Math.max(0.005, base + link.gap));
      expect(Math.abs((m.path[H] ?? 0) - expected)).toBeLessThan(0.05);
    }
  });

  it('gives every market a coherent lifecycle', () => {
    for (const m of markets) {
      expect(m.settleMs).toBeGreaterThanOrEqual(m.closeMs);
      if (m.draft.occurredMs !== undefined && m.draft.occurredMs < m.draft.deadlineMs) expect(m.result).toBe('yes');
      if (m.editMs !== null) expect(m.editMs).toBeGreaterThan(asOfMs - 86_400_000);
      expect(m.path.length).toBe(H + 1);
      expect(m.path.every((p) => p > 0 && p < 1)).toBe(true);
    }
  });
});

describe('prices history serialization', () => {
  it('writes the same bytes as JSON.stringify of the point objects', () => {
    for (const m of markets.filter((x) => x.venue === 'venue_b').slice(0, 200)) {
      expect(pricesHistoryJsonB(m, clock)).toBe(JSON.stringify(pricesHistoryB(m, clock)));
    }
  });
});
