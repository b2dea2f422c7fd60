/**
 * Turns the plan into runtime markets: unique native ids (venue_a tickers, venue_b condition ids,
 * token ids, numeric ids, slugs), lifecycle instants, rule edits, volume spikes, news-cycle shocks
 * and benchmark mispricing; then simulates every path (venue_a first, so venue_b twins can follow).
 */
import { DAY_MS, HOUR_MS, slugify } from './calendar.ts';
import type { CoinId, EventDraft, MarketDraft } from './model.ts';
import type { UniversePlan } from './plan.ts';
import { hash32, Rng } from './prng.ts';
import {
  applySpike,
  type Clock,
  type EventRt,
  type MarketRt,
  type Shock,
  simulateMarket,
  spotPaths,
} from './timeline.ts';

export interface Runtime {
  events: EventRt[];
  byDraft: Map<MarketDraft, MarketRt>;
  spots: Record<CoinId, Float64Array>;
  shocks: Shock[];
}

function unique(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** Assigns ids and lifecycles and simulates every market of the plan. */
export function buildRuntime(plan: UniversePlan, seed: number, clock: Clock): Runtime {
  const rng = new Rng(`pmref-sim:${seed}/runtime`);
  const takenA = new Set<string>();
  const takenB = new Set<string>();
  const takenSlugs = new Set<string>();
  const events: EventRt[] = [];
  const byDraft = new Map<MarketDraft, MarketRt>();
  let eventNo = 0;
  let marketNo = 0;
  const snapY = clock.asOfMs - DAY_MS;
  for (const draft of plan.events) {
    const a = draft.venue === 'venue_a';
    const slugLike = draft.eventTicker === draft.eventTicker.toLowerCase() && !draft.eventTicker.startsWith('kx');
    const ticker = a
      ? unique(draft.eventTicker.toUpperCase(), takenA)
      : unique((slugLike ? draft.eventTicker : slugify(draft.title)) || 'event', takenB);
    const ev: EventRt = {
      draft,
      ticker,
      numericId: String(a ? 0 : 40_000 + eventNo * 3 + (hash32(ticker) % 3)),
      negRiskMarketId: `0x${rng.hex(62)}00`,
      markets: [],
    };
    eventNo++;
    const dollarsOnly = a && rng.chance(0.3);
    for (const d of draft.markets) {
      const id = a ? unique(`${ticker}-${d.key.toUpperCase()}`, takenA) : `0x${rng.hex(64)}`;
      const closeMs =
        d.occurredMs !== undefined && d.occurredMs < d.deadlineMs
          ? Math.max(d.occurredMs, draft.openMs + HOUR_MS)
          : d.deadlineMs;
      const proposeMs = d.automatic ? closeMs + 5 * 60_000 : closeMs + rng.int(20, 240) * 60_000;
      const disputed = !a && !d.automatic && rng.chance(0.05);
      const settleMs = a
        ? closeMs + (rng.chance(0.1) ? rng.int(24, 60) * HOUR_MS : rng.int(10, 300) * 60_000)
        : disputed
          ? proposeMs + rng.int(48, 120) * HOUR_MS
          : proposeMs + 2 * HOUR_MS;
      const openBoth = closeMs > clock.asOfMs && draft.openMs < snapY;
      const m: MarketRt = {
        draft: d,
        event: ev,
        venue: draft.venue,
        id,
        numericId: String(a ? 0 : 500_000 + marketNo * 7 + (hash32(id) % 7)),
        slug: a ? '' : unique(slugify(d.title) || 'market', takenSlugs),
        questionId: `0x${rng.hex(64)}`,
        tokens: [rng.digits(77), rng.digits(rng.chance(0.5) ? 77 : 76)],
        closeMs,
        result: 'no',
        settleMs,
        proposeMs,
        disputeMs: disputed ? proposeMs + HOUR_MS : null,
        editMs: openBoth && rng.chance(0.012) ? snapY + rng.int(1, 23) * HOUR_MS : null,
        reverseMs: a && settleMs < snapY && rng.chance(0.004) ? snapY + rng.int(1, 23) * HOUR_MS : null,
        dollarsOnly,
        noBestBid: !a && rng.chance(0.25),
        path: new Float32Array(0),
        volumes: new Float64Array(0),
        priorVolume: 0,
        openInterest: 0,
        liquidity: 0,
        spread: 0.01,
      };
      marketNo++;
      ev.markets.push(m);
      byDraft.set(d, m);
    }
    events.push(ev);
  }

  // News-cycle shocks: entities with several markets across at least two events reprice together.
  const entityEvents = new Map<string, EventDraft[]>();
  for (const e of plan.events) if (e.entity) entityEvents.set(e.entity, [...(entityEvents.get(e.entity) ?? []), e]);
  const candidates = [...entityEvents.entries()]
    .filter(([, evs]) => evs.length >= 2 && evs.reduce((s, e) => s + e.markets.length, 0) >= 4)
    .map(([name]) => name)
    .sort();
  const shocks: Shock[] = rng.sample(candidates, Math.max(3, Math.round(candidates.length * 0.04))).map((entity) => ({
    entity,
    hour: clock.hours - rng.int(2, 20),
    size: (rng.chance(0.5) ? 1 : -1) * rng.float(1.0, 1.8),
  }));
  const shockMap = new Map(shocks.map((s) => [s.entity, s] as const));

  // Benchmark drift: some crypto ladders trade away from what spot implies.
  const driftable = events.filter(
    (ev) =>
      !ev.markets.some((m) => m.draft.link) &&
      ev.markets.some((m) => m.draft.spot && m.draft.spot.atMs > clock.asOfMs + DAY_MS),
  );
  const mispricedEvents = new Set<EventRt>(rng.sample(driftable, Math.max(1, Math.round(driftable.length * 0.08))));

  const spots = spotPaths(seed, clock, plan.world.spot);
  const ordered = [
    ...events.filter((e) => e.draft.venue === 'venue_a'),
    ...events.filter((e) => e.draft.venue === 'venue_b'),
  ];
  for (const ev of ordered) {
    for (const m of ev.markets) {
      const partner = m.draft.link ? byDraft.get(m.draft.link.to) : undefined;
      simulateMarket(m, clock, spots, shockMap, mispricedEvents.has(ev), partner, seed);
      if (m.closeMs > clock.asOfMs && ev.draft.openMs < snapY && rng.chance(0.02)) applySpike(m, rng.float(4, 10));
    }
  }
  return { events, byDraft, spots, shocks };
}
