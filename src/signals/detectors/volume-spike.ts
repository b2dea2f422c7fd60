/**
 * Volume spike: a market's 24 h volume on the latest daily snapshot at a multiple of its trailing
 * daily average. Only venue snapshots count (carried-forward marks repeat yesterday's volume).
 */
import type { Event, Market, MarkFigures, SignalBulletin } from '../../domain/index.ts';
import { makeBulletin } from '../bulletin.ts';
import { addDays, markOn, markPrice, publishableEvent, type SignalContext } from '../context.ts';
import { mult, pct, round, usd } from '../format.ts';
import { marketSource } from '../sources.ts';

export const VOLUME_SPIKE = {
  /** Latest 24 h volume ÷ trailing average that must be reached. */
  minMultiple: 3,
  /** Trailing window: daily marks dated in the previous N days. */
  windowDays: 7,
  /** Venue-snapshot marks with a volume needed in the window. */
  minHistory: 3,
  /** Latest 24 h volume below this (USD) is noise, whatever its multiple. */
  minVolumeUsd: 1000,
  /** Related markets listed on the bulletin, at most. */
  maxRelated: 5,
} as const;

interface Spike {
  market: Market;
  event: Event;
  mark: MarkFigures;
  volume: number;
  average: number;
  history: number;
  multiple: number;
}

/** `from`: the first date of the trailing window before `date` (`addDays(date, -windowDays)`, once per run). */
function spikeOf(ctx: SignalContext, market: Market, date: string, from: string): Spike | null {
  if (market.status !== 'open') return null;
  const event = publishableEvent(ctx, market);
  const mark = markOn(ctx, market.market_id, date);
  if (!event || !mark || mark.mark_method !== 'venue_snapshot' || mark.volume_24h_usd === null) return null;
  // Too small a volume spikes at no average: decided before the trailing marks are read.
  if (mark.volume_24h_usd < VOLUME_SPIKE.minVolumeUsd) return null;
  const trailing = (ctx.marksByMarket.get(market.market_id) ?? []).filter(
    (m) =>
      m.snapshot_date >= from &&
      m.snapshot_date < date &&
      m.mark_method === 'venue_snapshot' &&
      m.volume_24h_usd !== null,
  );
  if (trailing.length < VOLUME_SPIKE.minHistory) return null;
  const average = trailing.reduce((s, m) => s + (m.volume_24h_usd ?? 0), 0) / trailing.length;
  const volume = mark.volume_24h_usd;
  if (average <= 0 || volume < VOLUME_SPIKE.minVolumeUsd) return null;
  const multiple = volume / average;
  if (multiple + 1e-12 < VOLUME_SPIKE.minMultiple) return null;
  return { market, event, mark, volume, average, history: trailing.length, multiple };
}

/** One bulletin per event with a spiking market: the largest multiple is primary, other spikes related. */
export function detectVolumeSpike(ctx: SignalContext): SignalBulletin[] {
  const date = ctx.latestDate;
  if (!date) return [];
  const byEvent = new Map<string, Spike[]>();
  const from = addDays(date, -VOLUME_SPIKE.windowDays);
  for (const market of ctx.markets) {
    const spike = spikeOf(ctx, market, date, from);
    if (!spike) continue;
    const list = byEvent.get(spike.event.event_id);
    if (list) list.push(spike);
    else byEvent.set(spike.event.event_id, [spike]);
  }
  const out: SignalBulletin[] = [];
  for (const [, spikes] of [...byEvent].sort(([a], [b]) => a.localeCompare(b))) {
    const ranked = [...spikes].sort(
      (x, y) => y.multiple - x.multiple || x.market.market_id.localeCompare(y.market.market_id),
    );
    const top = ranked[0];
    if (!top) continue;
    const price = markPrice(top.mark);
    const bullets = [
      `24 h volume on "${top.market.question_raw ?? top.market.market_id}" reached ${usd(top.volume)} on ${date}, ${mult(top.multiple)} its trailing average of ${usd(top.average)}.`,
      `The trailing average covers ${top.history} daily venue snapshots from the previous ${VOLUME_SPIKE.windowDays} days.`,
      `The market is priced at ${price === null ? 'no quoted price' : pct(price)} on the same mark.`,
    ];
    if (ranked.length > 1)
      bullets.push(
        `${ranked.length - 1} other market(s) in this event also traded at ${mult(VOLUME_SPIKE.minMultiple)} or more of their average.`,
      );
    out.push(
      makeBulletin({
        kind: 'volume_spike',
        categoryTag: 'VOLUME_SPIKE',
        target: top.event.slug,
        event: top.event,
        linkedEvents: [],
        primary: { market: top.market, price },
        related: ranked
          .slice(1, 1 + VOLUME_SPIKE.maxRelated)
          .map((s) => ({ market: s.market, price: markPrice(s.mark) })),
        headline: `Volume ${mult(top.multiple)} its trailing average: ${top.event.question}`,
        bullets,
        numbers: [
          {
            name: 'volume_24h_usd',
            value: round(top.volume, 2),
            unit: 'USD',
            provenance: 'direct',
            source: `${top.market.market_id}@${date}`,
          },
          {
            name: 'trailing_avg_volume_24h_usd',
            value: round(top.average, 2),
            unit: 'USD',
            provenance: 'derived',
            source: `${top.market.market_id} marks ${addDays(date, -VOLUME_SPIKE.windowDays)}..${addDays(date, -1)}`,
          },
          {
            name: 'volume_multiple',
            value: round(top.multiple, 2),
            unit: 'ratio',
            provenance: 'derived',
            source: 'volume_24h_usd / trailing_avg_volume_24h_usd',
          },
          {
            name: 'history_days',
            value: top.history,
            unit: 'days',
            provenance: 'derived',
            source: `${top.market.market_id} marks`,
          },
          {
            name: 'min_multiple',
            value: VOLUME_SPIKE.minMultiple,
            unit: 'ratio',
            provenance: 'editorial',
            source: 'METHODOLOGY.md#signals',
          },
          {
            name: 'price',
            value: price === null ? null : round(price),
            unit: 'probability',
            provenance: 'direct',
            source: `${top.market.market_id}@${date}`,
          },
        ],
        sources: [marketSource(top.market)],
        secondaryTags: [top.event.category, top.market.platform],
        now: ctx.now,
        today: ctx.today,
      }),
    );
  }
  return out;
}
