/**
 * Gives every drafted market a life over the simulated window: native ids, an hourly price path
 * ending at the as-of snapshot, daily volumes (with spikes), and a lifecycle (close, proposal,
 * dispute, resolution, rule edit) that the two snapshots observe at different points.
 *
 * Time axis: snapshot instants are the snapshot dates at 00:00 UTC (the pipeline's run clock for a
 * bare as-of date). Hour k of the path is `windowStart + k h`, k = 0 … days·24; the last point is
 * the as-of snapshot and index days·24 − 24 is yesterday's.
 */
import type { Venue } from '../../domain/index.ts';
import { DAY_MS, HOUR_MS } from './calendar.ts';
import { COINS, spotAboveProb } from './families/crypto-coins.ts';
import type { CoinId, EventDraft, MarketDraft } from './model.ts';
import { Rng } from './prng.ts';

export interface EventRt {
  draft: EventDraft;
  /** venue_a event ticker or venue_b slug, unique in its venue. */
  ticker: string;
  /** venue_b numeric event id. */
  numericId: string;
  negRiskMarketId: string;
  markets: MarketRt[];
}

export interface MarketRt {
  draft: MarketDraft;
  event: EventRt;
  venue: Venue;
  /** venue_a ticker or venue_b conditionId: the native id truth.json uses. */
  id: string;
  numericId: string;
  slug: string;
  questionId: string;
  tokens: [string, string];
  closeMs: number;
  result: 'yes' | 'no';
  settleMs: number;
  proposeMs: number;
  disputeMs: number | null;
  /** Rule edit instant (between the snapshots) or null. */
  editMs: number | null;
  /**
   * venue_a: a settled result corrected between the snapshots (the lifecycle log's `reversed`):
   * before this instant the market shows the opposite result.
   */
  reverseMs: number | null;
  /** venue_a records in the newer dollars/fp-only schema. */
  dollarsOnly: boolean;
  /** venue_b: bestBid / bestAsk missing on this record (as on about a quarter of real ones). */
  noBestBid: boolean;
  path: Float32Array;
  /** Daily volume, index d covers (windowStart + d days, windowStart + (d+1) days]. */
  volumes: Float64Array;
  priorVolume: number;
  openInterest: number;
  liquidity: number;
  spread: number;
}

export interface Clock {
  asOfMs: number;
  days: number;
  windowStart: number;
  hours: number;
  yesterdayIndex: number;
}

/** The window for an as-of day and a number of days of history. */
export function makeClock(asOfMs: number, days: number): Clock {
  return { asOfMs, days, windowStart: asOfMs - days * DAY_MS, hours: days * 24, yesterdayIndex: days * 24 - 24 };
}

/** Log-odds: prices move as random walks in logit space so they stay inside (0, 1). */
export const logit = (p: number): number => Math.log(p / (1 - p));
export const expit = (x: number): number => 1 / (1 + Math.exp(-x));

/** Hourly spot path per coin over the window plus one day before it, ending at the world spot. */
export function spotPaths(seed: number, clock: Clock, spot: Record<CoinId, number>): Record<CoinId, Float64Array> {
  const out = {} as Record<CoinId, Float64Array>;
  const n = clock.hours + 25;
  for (const coin of Object.keys(COINS) as CoinId[]) {
    const rng = new Rng(`pmref-sim:${seed}/spot-path/${coin}`);
    const sigmaH = COINS[coin].vol / Math.sqrt(365 * 24);
    const w = new Float64Array(n);
    for (let i = 1; i < n; i++) w[i] = (w[i - 1] ?? 0) + sigmaH * rng.normal();
    const last = w[n - 1] ?? 0;
    const path = new Float64Array(n);
    for (let i = 0; i < n; i++) path[i] = spot[coin] * Math.exp((w[i] ?? 0) - last);
    out[coin] = path;
  }
  return out;
}

/** Spot at instant `ms` (clamped to the simulated range; index 0 is one day before the window). */
export function spotAt(paths: Record<CoinId, Float64Array>, clock: Clock, coin: CoinId, ms: number): number {
  const p = paths[coin];
  const i = Math.round((ms - clock.windowStart) / HOUR_MS) + 24;
  return p[Math.max(0, Math.min(p.length - 1, i))] ?? 0;
}

export interface Shock {
  entity: string;
  hour: number;
  size: number;
}

/** Builds each market's lifecycle and hourly path. Linked twins are computed after their partner. */
export function simulateMarket(
  m: MarketRt,
  clock: Clock,
  spots: Record<CoinId, Float64Array>,
  shocks: ReadonlyMap<string, Shock>,
  mispriced: boolean,
  partner: MarketRt | undefined,
  seed: number,
): void {
  const rng = new Rng(`pmref-sim:${seed}/market/${m.id}`);
  const d = m.draft;
  const H = clock.hours;
  const path = new Float32Array(H + 1);
  const t = (k: number): number => clock.windowStart + k * HOUR_MS;
  // Outcome first: spot-linked markets settle on the simulated spot; the rest on their odds.
  if (d.occurredMs !== undefined && d.occurredMs <= d.deadlineMs) m.result = 'yes';
  else if (d.spot && d.spot.atMs <= clock.asOfMs) {
    const s = spotAt(spots, clock, d.spot.coin, d.spot.atMs);
    const above = s > d.spot.threshold;
    m.result =
      d.spot.direction === 'between'
        ? s >= d.spot.threshold && s < (d.spot.cap ?? Number.POSITIVE_INFINITY)
          ? 'yes'
          : 'no'
        : (d.spot.direction === 'above') === above
          ? 'yes'
          : 'no';
  } else if (partner && d.link) {
    m.result = d.link.mode === 'same' ? partner.result : partner.result === 'yes' ? 'no' : 'yes';
  } else m.result = rng.chance(d.prob) ? 'yes' : 'no';

  if (partner && d.link) {
    const link = d.link;
    for (let k = 0; k <= H; k++) {
      const base = partner.path[k] ?? 0.5;
      const v = (link.mode === 'same' ? base : 1 - base) + link.gap + 0.01 * rng.normal();
      path[k] = clamp(v, 0.005, 0.995);
    }
  } else if (d.spot) {
    const spot = d.spot;
    const vol = COINS[spot.coin].vol;
    for (let k = 0; k <= H; k++) {
      const s = spotAt(spots, clock, spot.coin, t(k));
      const years = (spot.atMs - t(k)) / (365 * DAY_MS);
      let p: number;
      if (years <= 0) p = m.result === 'yes' ? 0.99 : 0.01;
      else if (spot.direction === 'between')
        p = spotAboveProb(s, spot.threshold, vol, years) - spotAboveProb(s, spot.cap ?? spot.threshold, vol, years);
      else {
        const above = spotAboveProb(s, spot.threshold, vol, years);
        p = spot.direction === 'above' ? above : 1 - above;
      }
      path[k] = clamp(p + 0.008 * rng.normal(), 0.005, 0.995);
    }
  } else {
    // A logit Brownian bridge from a drifted start to today's fair value.
    const end = logit(clamp(d.prob, 0.01, 0.99));
    const start = end + 0.5 * rng.normal();
    const steps = new Float64Array(H + 1);
    for (let k = 1; k <= H; k++) steps[k] = (steps[k - 1] ?? 0) + 0.045 * rng.normal();
    const last = steps[H] ?? 0;
    for (let k = 0; k <= H; k++) {
      const bridge = (steps[k] ?? 0) - (last * k) / H;
      path[k] = expit(start + ((end - start) * k) / H + bridge);
    }
  }
  // News-cycle shock: every market of the entity reprices at the same hour.
  const shock = m.event.draft.entity ? shocks.get(m.event.draft.entity) : undefined;
  if (shock && !(partner && d.link)) {
    for (let k = shock.hour; k <= H; k++) path[k] = expit(logit(clamp(path[k] ?? 0.5, 0.01, 0.99)) + shock.size);
  }
  // Benchmark drift: the venue's price wanders away from what spot implies over the last day.
  if (mispriced) {
    // One direction and size for the whole ladder: the event drifts, not each strike on its own.
    const eventRng = new Rng(`pmref-sim:${seed}/drift/${m.event.ticker}`);
    const off = (eventRng.chance(0.5) ? 1 : -1) * eventRng.float(0.18, 0.35);
    for (let k = H - 30; k <= H; k++) path[k] = clamp((path[k] ?? 0.5) + (off * (k - (H - 30))) / 30, 0.02, 0.98);
  }
  // After the close the price converges to the outcome.
  for (let k = 0; k <= H; k++) {
    if (t(k) >= m.closeMs) path[k] = m.result === 'yes' ? 0.99 : 0.01;
  }
  m.path = path;

  // Volumes: a base level, log-normal days, a few mid-window spikes, and today's spike if chosen.
  const base = rng.logNormal(m.venue === 'venue_a' ? 900 : 3500, 1.3);
  const vols = new Float64Array(clock.days);
  for (let i = 0; i < clock.days; i++) {
    const dayEnd = clock.windowStart + (i + 1) * DAY_MS;
    const open = dayEnd > m.event.draft.openMs && dayEnd - DAY_MS < m.closeMs;
    vols[i] = open ? base * rng.logNormal(1, 0.45) * (rng.chance(0.02) ? rng.float(3, 8) : 1) : 0;
  }
  m.volumes = vols;
  const ageDays = Math.max(1, (clock.windowStart - m.event.draft.openMs) / DAY_MS);
  m.priorVolume = base * ageDays * rng.float(0.4, 1.1);
  m.openInterest = Math.round(base * rng.float(0.5, 12));
  m.liquidity = base * rng.float(2, 40);
  m.spread = rng.weighted([
    [0.01, 50],
    [0.02, 25],
    [0.03, 12],
    [0.05, 8],
    [0.1, 5],
  ]);
}

/** Today's volume-spike multiplier applied to the last day of the window. */
export function applySpike(m: MarketRt, factor: number): void {
  const last = m.volumes.length - 1;
  const prev = m.volumes[last - 1] ?? 0;
  m.volumes[last] = Math.max(prev, m.volumes[last] ?? 0, 50) * factor;
}

/** `x` limited to [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
