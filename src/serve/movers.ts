/**
 * Volume movers (served-shapes §6): compare the two latest daily marks of each market; a market qualifies when
 * its event is published, prev > 0 and now ≥ prev × min_mult. Candidates are computed once per read model and
 * sorted by multiple, so a request only filters by min_mult and slices.
 */
import type { Event, Mover } from '../domain/index.ts';

export type MoverCandidates =
  | { status: 'ok'; day: string; prior_day: string; movers: Array<Mover & { mult: number }> }
  | { status: 'degraded'; notice: string };

const MAX_GAP_DAYS = 3;

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000);
}

/** What movers need of a market (kept small: the read model holds one per market while it builds). */
export interface MoverMarket {
  platform: Mover['platform'];
  question_raw: string | null;
  event_id: string | null;
}

/** A market's mark on the latest snapshot date. */
export interface DayMark {
  volume_24h_usd: number | null;
  last_price: number | null;
}

/**
 * @param dates the latest snapshot dates, newest first (at most two are used)
 * @param now marks of dates[0], by market id
 * @param prev 24h volumes on dates[1], by market id
 */
export function moverCandidates(
  dates: readonly string[],
  now: ReadonlyMap<string, DayMark>,
  prev: ReadonlyMap<string, number | null>,
  marketById: ReadonlyMap<string, MoverMarket>,
  publishedEventById: ReadonlyMap<string, Event>,
): MoverCandidates {
  const [day, prior] = dates;
  if (day === undefined || prior === undefined) {
    return {
      status: 'degraded',
      notice: `Movers need two daily snapshots and ${dates.length} exist; the series accrues nightly.`,
    };
  }
  const gap = daysBetween(day, prior);
  if (gap > MAX_GAP_DAYS) {
    return {
      status: 'degraded',
      notice: `The prior snapshot is ${gap} days old; a day-over-day move needs near-adjacent snapshots.`,
    };
  }
  const movers: Array<Mover & { mult: number }> = [];
  for (const [marketId, cur] of now) {
    const v = cur.volume_24h_usd;
    const p = prev.get(marketId);
    if (v === null || p === null || p === undefined || p <= 0) continue;
    const market = marketById.get(marketId);
    const event = market?.event_id ? publishedEventById.get(market.event_id) : undefined;
    if (!market || !event) continue;
    const mult = v / p;
    movers.push({
      market_id: marketId,
      slug: event.slug,
      event_question: event.question,
      category: event.category,
      platform: market.platform,
      question_raw: market.question_raw,
      last_price: cur.last_price,
      volume_24h_usd: v,
      volume_24h_usd_prev: p,
      volume_mult: Math.round(mult * 100) / 100,
      volume_delta_pct: Math.round(((v - p) / p) * 1000) / 10,
      mult,
    });
  }
  movers.sort((a, b) => b.mult - a.mult || (a.market_id < b.market_id ? -1 : 1));
  return { status: 'ok', day, prior_day: prior, movers };
}
