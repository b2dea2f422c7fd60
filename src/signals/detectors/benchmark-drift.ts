/**
 * Benchmark drift: crypto threshold markets whose price disagrees with what the current spot price,
 * the distance to the threshold and the time left imply under a lognormal model (lognormal.ts) with a
 * documented per-coin volatility (coins.ts). Flags when |market − model| > DRIFT.band.
 */
import type { Market, SignalBulletin, SpotRow } from '../../domain/index.ts';
import { makeBulletin } from '../bulletin.ts';
import { coinOf, coinSpec } from '../coins.ts';
import { markOn, markPrice, publishableEvent, type SignalContext } from '../context.ts';
import { pct, pts, round, usd } from '../format.ts';
import { marketSource } from '../sources.ts';
import { probTerminalAbove, probTouch } from './lognormal.ts';

export const DRIFT = {
  /** |market − model| in probability points that must be exceeded. */
  band: 0.25,
  /** Spot rows older than this (relative to the run) are not a benchmark. */
  maxSpotAgeHours: 24,
  /** Markets closing sooner than this are skipped: the model is degenerate at the close. */
  minHoursToClose: 1,
} as const;

const YEAR_MS = 365.25 * 86_400_000;
const HOUR_MS = 3_600_000;

export type SettlementModel = 'terminal' | 'touch';

/** How a crypto threshold market settles: touch for `reach` or touch-style markets, terminal otherwise. */
export function settlementModel(market: Market): SettlementModel | null {
  if (market.direction === 'reach' || market.settlement_style === 'touch') return 'touch';
  if (market.direction === 'above' || market.direction === 'below') return 'terminal';
  return null;
}

/** The model probability that the market resolves YES. */
export function modelProbability(market: Market, spot: number, sigma: number, years: number): number | null {
  const k = market.threshold;
  const style = settlementModel(market);
  if (k === null || k <= 0 || !style) return null;
  if (style === 'touch') {
    // `above`/`reach` touch markets ask for the high side when the strike is above spot, and vice versa.
    if (market.direction === 'below' && k > spot) return 1;
    if (market.direction === 'above' && k < spot) return 1;
    return probTouch(spot, k, sigma, years);
  }
  const above = probTerminalAbove(spot, k, sigma, years);
  return market.direction === 'above' ? above : 1 - above;
}

function freshSpot(ctx: SignalContext, coin: string): SpotRow | undefined {
  const nowMs = Date.parse(ctx.now);
  return ctx.spot
    .filter(
      (r) =>
        r.coin === coin &&
        Date.parse(r.as_of) <= nowMs &&
        nowMs - Date.parse(r.as_of) <= DRIFT.maxSpotAgeHours * HOUR_MS,
    )
    .sort((a, b) => b.as_of.localeCompare(a.as_of))[0];
}

interface Drift {
  market: Market;
  price: number;
  model: number;
  gap: number;
}

/**
 * One bulletin per event with a crypto threshold market outside the model band: the widest gap is the
 * primary market, the event's other flagged strikes are related markets.
 */
export function detectBenchmarkDrift(ctx: SignalContext): SignalBulletin[] {
  const out: SignalBulletin[] = [];
  const flagged = new Map<string, Drift[]>();
  const nowMs = Date.parse(ctx.now);
  // The open threshold markets about a coin, kept before they are sorted into market_id order (a sort of every
  // market by localeCompare was most of this detector's cost on the full universe, issue 18).
  const candidates: { market: Market; coin: string; closeAt: string }[] = [];
  for (const market of ctx.markets) {
    if (market.status !== 'open' || market.threshold === null || !market.close_at) continue;
    const coin = coinOf(market);
    if (coin !== null) candidates.push({ market, coin, closeAt: market.close_at });
  }
  candidates.sort((a, b) => a.market.market_id.localeCompare(b.market.market_id));
  for (const { market, coin, closeAt } of candidates) {
    const style = settlementModel(market);
    const spec = coinSpec(coin);
    if (!style || !spec) continue;
    const hoursLeft = (Date.parse(closeAt) - nowMs) / HOUR_MS;
    if (hoursLeft < DRIFT.minHoursToClose) continue;
    const spot = freshSpot(ctx, coin);
    const mark = markOn(ctx, market.market_id, ctx.latestDate);
    const price = markPrice(mark);
    const event = publishableEvent(ctx, market);
    if (!spot || !mark || price === null || mark.mark_method === 'imputed_carry_forward' || !event) continue;
    const years = (hoursLeft * HOUR_MS) / YEAR_MS;
    const model = modelProbability(market, spot.price_usd, spec.annualVol, years);
    if (model === null) continue;
    const gap = price - model;
    if (Math.abs(gap) <= DRIFT.band + 1e-12) continue;
    const list = flagged.get(event.event_id) ?? [];
    list.push({ market, price, model, gap });
    flagged.set(event.event_id, list);
  }
  for (const [eventId, drifts] of [...flagged].sort(([a], [b]) => a.localeCompare(b))) {
    const ranked = [...drifts].sort(
      (x, y) => Math.abs(y.gap) - Math.abs(x.gap) || x.market.market_id.localeCompare(y.market.market_id),
    );
    const top = ranked[0];
    const event = ctx.eventById.get(eventId);
    if (!top || !event) continue;
    const { market, price, model, gap } = top;
    const coin = coinOf(market) ?? '';
    const spec = coinSpec(coin);
    const spot = freshSpot(ctx, coin);
    const mark = markOn(ctx, market.market_id, ctx.latestDate);
    const style = settlementModel(market);
    if (!spec || !spot || !mark || !style || market.threshold === null || !market.close_at) continue;
    const hoursLeft = (Date.parse(market.close_at) - nowMs) / HOUR_MS;
    const distance = market.threshold / spot.price_usd - 1;
    const daysLeft = hoursLeft / 24;
    const side = market.direction === 'below' ? 'below' : market.direction === 'reach' ? 'reach' : 'above';
    const rich = gap > 0 ? 'above' : 'below';
    out.push(
      makeBulletin({
        kind: 'benchmark_drift',
        categoryTag: 'VS_BENCHMARK_DRIFT',
        target: event.slug,
        event,
        linkedEvents: [],
        primary: { market, price },
        related: ranked.slice(1, 6).map((d) => ({ market: d.market, price: d.price })),
        headline: `${spec.symbol} ${side} ${usd(market.threshold)} priced at ${pct(price)} vs ${pct(model)} modelled from spot ${usd(spot.price_usd)}`,
        bullets: [
          `The market prices ${spec.symbol} ${side === 'reach' ? 'reaching' : `settling ${side}`} ${usd(market.threshold)} by ${market.close_at.slice(0, 10)} at ${pct(price)} (${mark.snapshot_date} mark).`,
          `Spot is ${usd(spot.price_usd)} (as of ${spot.as_of}); the threshold is ${(distance * 100).toFixed(1)}% away with ${daysLeft.toFixed(1)} days left.`,
          `A lognormal ${style} model at ${(spec.annualVol * 100).toFixed(0)}% annualized volatility gives ${pct(model)}.`,
          `The market sits ${pts(gap)} ${rich} the model, outside the ±${pts(DRIFT.band)} band${ranked.length > 1 ? `; ${ranked.length - 1} more strike(s) of this event are outside it too` : ''}.`,
          ...(mark.stale_flag
            ? ['The market quote is flagged stale (its source was last updated over 4 hours before the snapshot).']
            : []),
        ],
        numbers: [
          {
            name: 'market_probability',
            value: round(price),
            unit: 'probability',
            provenance: 'direct',
            source: `${market.market_id}@${mark.snapshot_date}`,
          },
          {
            name: 'spot_price',
            value: spot.price_usd,
            unit: 'USD',
            provenance: 'mediated',
            source: `spot:${coin}@${spot.as_of}`,
          },
          {
            name: 'threshold',
            value: market.threshold,
            unit: 'USD',
            provenance: 'direct',
            source: `${market.market_id}.threshold`,
          },
          {
            name: 'distance_to_threshold',
            value: round(distance),
            unit: 'fraction_of_spot',
            provenance: 'derived',
            source: 'threshold / spot_price - 1',
          },
          {
            name: 'days_to_close',
            value: round(daysLeft, 2),
            unit: 'days',
            provenance: 'derived',
            source: `${market.market_id}.close_at`,
          },
          {
            name: 'annualized_volatility',
            value: spec.annualVol,
            unit: 'fraction',
            provenance: 'editorial',
            source: 'METHODOLOGY.md#signals',
          },
          {
            name: 'model_probability',
            value: round(model),
            unit: 'probability',
            provenance: 'derived',
            source: `lognormal_${style}`,
          },
          {
            name: 'model_gap',
            value: round(gap),
            unit: 'probability_points',
            provenance: 'derived',
            source: 'market_probability - model_probability',
          },
        ],
        sources: [
          marketSource(market),
          { label: `Spot ${coin} (CoinGecko simple price)`, url: `https://www.coingecko.com/en/coins/${coin}` },
        ],
        secondaryTags: [event.category, coin, style],
        now: ctx.now,
        today: ctx.today,
      }),
    );
  }
  return out;
}
