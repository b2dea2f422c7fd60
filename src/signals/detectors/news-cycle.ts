/**
 * News cycle: several markets about the same entity (a shared tag) repricing sharply between the two
 * latest daily snapshots, reported with the nearest catalyst bound to any of their events.
 */
import type { Catalyst, Event, Market, SignalBulletin } from '../../domain/index.ts';
import { CATEGORIES } from '../../domain/index.ts';
import { makeBulletin } from '../bulletin.ts';
import { daysBetween, markOn, markPrice, publishableEvent, type SignalContext } from '../context.ts';
import { pct, pts, round, signedPts } from '../format.ts';
import { marketSource } from '../sources.ts';

export const NEWS_CYCLE = {
  /** Absolute day-over-day move, in probability points, that counts as sharp. */
  minMove: 0.1,
  /** Sharp movers sharing a tag needed for a bulletin… */
  minMarkets: 3,
  /** …spread over at least this many events (one ladder moving together is not a news cycle). */
  minEvents: 2,
  /** The two snapshots compared may be at most this many days apart. */
  maxGapDays: 3,
  /** A catalyst is reported when it is dated within this many days of the move. */
  catalystWindowDays: 14,
  /** Related markets listed on the bulletin, at most. */
  maxRelated: 5,
} as const;

interface Move {
  market: Market;
  event: Event;
  before: number;
  after: number;
  delta: number;
}

const GENERIC_TAGS = new Set<string>(CATEGORIES);

function entityTags(market: Market, event: Event): string[] {
  const tags = new Set<string>();
  for (const t of [...market.tags, ...event.tags]) {
    const tag = t.trim().toLowerCase();
    if (tag && !GENERIC_TAGS.has(tag)) tags.add(tag);
  }
  return [...tags];
}

function sharpMoves(ctx: SignalContext, before: string, after: string): Move[] {
  const moves: Move[] = [];
  for (const market of ctx.markets) {
    if (market.status !== 'open') continue;
    const event = publishableEvent(ctx, market);
    const p1 = markPrice(markOn(ctx, market.market_id, after));
    const p0 = markPrice(markOn(ctx, market.market_id, before));
    if (!event || p0 === null || p1 === null) continue;
    const delta = p1 - p0;
    if (Math.abs(delta) + 1e-12 >= NEWS_CYCLE.minMove) moves.push({ market, event, before: p0, after: p1, delta });
  }
  return moves;
}

/** The catalyst of the group's events dated nearest the move (earlier wins a tie), within the window. */
export function nearestCatalyst(
  catalysts: readonly Catalyst[],
  eventIds: ReadonlySet<string>,
  date: string,
): Catalyst | null {
  let best: { c: Catalyst; d: number } | null = null;
  for (const c of catalysts) {
    if (!c.event_ids.some((id) => eventIds.has(id))) continue;
    const d = Math.abs(daysBetween(date, c.date));
    if (d > NEWS_CYCLE.catalystWindowDays) continue;
    if (!best || d < best.d || (d === best.d && c.date < best.c.date)) best = { c, d };
  }
  return best?.c ?? null;
}

/** One bulletin per entity tag whose sharp movers are not already covered by a larger group. */
export function detectNewsCycle(ctx: SignalContext): SignalBulletin[] {
  const { latestDate: after, priorDate: before } = ctx;
  if (!after || !before || daysBetween(before, after) > NEWS_CYCLE.maxGapDays) return [];
  const groups = new Map<string, Move[]>();
  for (const move of sharpMoves(ctx, before, after)) {
    for (const tag of entityTags(move.market, move.event)) {
      const list = groups.get(tag);
      if (list) list.push(move);
      else groups.set(tag, [move]);
    }
  }
  const qualifying = [...groups]
    .filter(
      ([, ms]) =>
        ms.length >= NEWS_CYCLE.minMarkets && new Set(ms.map((m) => m.event.event_id)).size >= NEWS_CYCLE.minEvents,
    )
    .sort(([ta, a], [tb, b]) => b.length - a.length || ta.localeCompare(tb));
  const covered: Set<string>[] = [];
  const out: SignalBulletin[] = [];
  for (const [tag, moves] of qualifying) {
    const ids = new Set(moves.map((m) => m.market.market_id));
    if (covered.some((c) => [...ids].every((id) => c.has(id)))) continue;
    covered.push(ids);
    const ranked = [...moves].sort(
      (x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.market.market_id.localeCompare(y.market.market_id),
    );
    const top = ranked[0];
    if (!top) continue;
    const eventIds = new Set(moves.map((m) => m.event.event_id));
    const linked = [...eventIds].map((id) => ctx.eventById.get(id)).filter((e): e is Event => e !== undefined);
    const catalyst = nearestCatalyst(ctx.catalysts, eventIds, after);
    const up = moves.filter((m) => m.delta > 0).length;
    const catalystDays = catalyst ? daysBetween(after, catalyst.date) : null;
    const preNews =
      catalystDays === null
        ? 'concurrent'
        : catalystDays > 0
          ? 'pre_news'
          : catalystDays === 0
            ? 'concurrent'
            : 'lagging';
    const magnitudes = moves.map((m) => Math.abs(m.delta)).sort((a, b) => a - b);
    const median = magnitudes[Math.floor((magnitudes.length - 1) / 2)] ?? 0;
    out.push(
      makeBulletin({
        kind: 'news_cycle',
        categoryTag: 'MOMENTUM_REPRICING',
        target: tag,
        event: top.event,
        linkedEvents: linked,
        primary: { market: top.market, price: top.after },
        related: ranked.slice(1, 1 + NEWS_CYCLE.maxRelated).map((m) => ({ market: m.market, price: m.after })),
        headline: `${moves.length} "${tag}" markets across ${eventIds.size} events repriced by ${pts(NEWS_CYCLE.minMove)} or more`,
        bullets: [
          `${moves.length} markets tagged "${tag}" across ${eventIds.size} events moved at least ${pts(NEWS_CYCLE.minMove)} between the ${before} and ${after} marks (${up} up, ${moves.length - up} down).`,
          `Largest: ${top.market.question_raw ?? top.market.market_id} went from ${pct(top.before)} to ${pct(top.after)} (${signedPts(top.delta)}).`,
          `The median absolute move in the group is ${pts(median)}.`,
          catalyst
            ? `Nearest catalyst: ${catalyst.label} on ${catalyst.date} (${catalystDays === 0 ? 'the day of the move' : `${Math.abs(catalystDays ?? 0)} days ${(catalystDays ?? 0) > 0 ? 'after' : 'before'} the move`}).`
            : `No catalyst bound to these events falls within ${NEWS_CYCLE.catalystWindowDays} days of the move.`,
        ],
        numbers: [
          {
            name: 'markets_repriced',
            value: moves.length,
            unit: 'markets',
            provenance: 'derived',
            source: `tag:${tag}`,
          },
          {
            name: 'events_repriced',
            value: eventIds.size,
            unit: 'events',
            provenance: 'derived',
            source: `tag:${tag}`,
          },
          {
            name: 'primary_price_before',
            value: round(top.before),
            unit: 'probability',
            provenance: 'direct',
            source: `${top.market.market_id}@${before}`,
          },
          {
            name: 'primary_price_after',
            value: round(top.after),
            unit: 'probability',
            provenance: 'direct',
            source: `${top.market.market_id}@${after}`,
          },
          {
            name: 'primary_price_change',
            value: round(top.delta),
            unit: 'probability_points',
            provenance: 'derived',
            source: 'primary_price_after - primary_price_before',
          },
          {
            name: 'median_abs_price_change',
            value: round(median),
            unit: 'probability_points',
            provenance: 'derived',
            source: `tag:${tag}`,
          },
          {
            name: 'move_threshold',
            value: NEWS_CYCLE.minMove,
            unit: 'probability_points',
            provenance: 'editorial',
            source: 'METHODOLOGY.md#signals',
          },
          ...(catalyst
            ? [
                {
                  name: 'catalyst_days_from_move',
                  value: catalystDays,
                  unit: 'days',
                  provenance: 'derived' as const,
                  source: `catalyst:${catalyst.type}@${catalyst.date}`,
                },
              ]
            : []),
        ],
        sources: [
          ...ranked.slice(0, 3).map((m) => marketSource(m.market)),
          ...(catalyst ? [{ label: catalyst.label, url: catalyst.source_url }] : []),
        ],
        secondaryTags: [top.event.category, tag, ...(catalyst ? [catalyst.type] : [])],
        preNews,
        now: ctx.now,
        today: ctx.today,
      }),
    );
  }
  return out;
}
