/**
 * `pmref bench --history` (issue 18): writes N days of synthetic daily marks for every market of a store, back
 * from each market's oldest stored mark, so that the footprint of a year of history (store size, bytes per
 * mark, feed and per-market history query times) can be measured before a year has passed.
 *
 * The marks are built by the pipeline's own history functions (`marksFromCandles` for venue_a,
 * `marksFromPriceHistory` for venue_b) from a synthesized venue history, so they have exactly the shape,
 * `mark_method` and per-venue provenance of real history marks; `raw_payload` is null (there is no venue
 * record behind a synthetic walk). Prices are a seeded random walk in log-odds, walked backwards from the
 * market's oldest stored mark so that each series joins its stored history without a jump; the same seed and
 * the same store give the same marks.
 *
 * Write order matters for what is measured afterwards. Markets are taken in groups (by market id) and each
 * group is written a day at a time, newest generated day first: a market's marks then land on a different
 * table page each day, as they do when history accrues for real (one run a day), rather than side by side
 * (which would flatter the per-market history query); both indexes still see local inserts. Memory is one
 * group of market records and one batch of marks, whatever N is: 14 million marks never sit in memory.
 *
 * Only the Store interface is used (listMarkets, listMarks, markDates, transaction + upsertMarks), so this runs
 * on any store adapter. A mark is only written for a date before the market's oldest mark, so no stored mark
 * is ever replaced.
 */
import type { Mark, Market, NewMark } from '../domain/index.ts';
import { marksFromCandles, marksFromPriceHistory } from '../pipeline/index.ts';
import type { Store } from '../store/index.ts';

export interface HistoryOptions {
  /** Days of history to write per market (the year: 365). */
  days: number;
  /** Seed of the random walks. */
  seed: number;
  /** Marks per transaction (default 20,000). */
  batchMarks?: number;
  /** Markets walked together, a day at a time (default 2,000). */
  groupMarkets?: number;
  /** Called after every committed batch. */
  onProgress?: (progress: HistoryProgress) => void;
  /** Monotonic milliseconds (injected so tests need no timing). */
  now?: () => number;
}

export interface HistoryProgress {
  marks: number;
  /** Marks this run will write in all (markets × days). */
  total: number;
  elapsedMs: number;
}

export interface HistoryResult {
  markets: number;
  marks: number;
  days: number;
  seed: number;
  /** Oldest and newest date written (null when nothing was written). */
  from: string | null;
  to: string | null;
  transactions: number;
  seconds: number;
  marks_per_s: number;
}

export const HISTORY_DEFAULTS = { batchMarks: 20_000, groupMarkets: 2_000 } as const;

const DAY_MS = 86_400_000;

/** The UTC date `n` days before `date` (YYYY-MM-DD). */
export function daysBefore(date: string, n: number): string {
  return dateOfDay(dayOf(date) - n);
}

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

// Dates by day number: a run asks for the same few hundred dates millions of times.
const dates = new Map<number, string>();
function dateOfDay(day: number): string {
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dates.set(day, date);
  }
  return date;
}

/** 32-bit FNV-1a: a market's walk is seeded by the run's seed and its own id, not by the order it is met. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and good enough for a price walk; the state is one integer per market. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const dollars = (p: number) => p.toFixed(4);

/**
 * One market's walk, stepping back a day per call from the day before `end`. Its state is a few numbers, so a
 * group of thousands of markets can be walked a day at a time.
 */
export class MarketWalk {
  private readonly rand: () => number;
  private x: number;
  private readonly sigma: number;
  private readonly halfSpread: number;
  private readonly volumeScale: number;
  private openInterest: number;
  private step = 0;
  private readonly endDay: number;

  constructor(
    readonly market: Market,
    /** The first date this walk must not write (the market's oldest stored mark, or the store's). */
    readonly end: string,
    anchor: Mark | null,
    seed: number,
  ) {
    this.endDay = dayOf(end);
    this.rand = mulberry32(hash32(`${seed}:${market.market_id}`));
    const price = anchor?.yes_last_price ?? anchor?.mid ?? anchor?.implied_probability ?? 0.05 + 0.9 * this.rand();
    this.x = logit(clamp(price, 0.01, 0.99));
    // Daily log-odds volatility: quiet markets to busy ones.
    this.sigma = 0.03 + 0.12 * this.rand();
    const spread = anchor?.spread ?? (1 + Math.floor(this.rand() * 4)) / 100;
    this.halfSpread = clamp(Math.round((spread / 2) * 100) / 100, 0.01, 0.05);
    this.volumeScale = Math.log(50 + this.rand() * 5_000);
    const oiContracts = anchor?.open_interest_usd ?? Math.round(100 + this.rand() * 20_000);
    this.openInterest = Math.max(0, oiContracts / (market.contract_multiplier ?? 1));
  }

  /** The next (older) day's mark, or null once `days` marks were written. */
  next(days: number): NewMark | null {
    if (this.step >= days) return null;
    this.step += 1;
    this.x = clamp(this.x + this.sigma * gaussian(this.rand), -4.6, 4.6);
    const day = this.endDay - this.step;
    const date = dateOfDay(day);
    const window = { from: date, toExclusive: dateOfDay(day + 1) };
    const dayStart = day * 86_400;
    const marks =
      this.market.platform === 'venue_a'
        ? marksFromCandles(this.market, [this.candle(dayStart)], window)
        : this.point(dayStart, window);
    const mark = marks[0];
    if (mark === undefined) throw new Error(`history: no mark built for ${this.market.market_id} on ${date}`);
    mark.raw_payload = null;
    return mark;
  }

  /** A venue_a daily candle (`GET /markets/candlesticks`, period 1440) closing at 00:00 UTC of the date. */
  private candle(dayStart: number): Record<string, unknown> {
    const cents = clamp(Math.round(sigmoid(this.x) * 100), 1, 99);
    const price = cents / 100;
    const bid = clamp(price - this.halfSpread, 0.01, 0.99);
    const ask = clamp(price + this.halfSpread, 0.01, 0.99);
    const contracts = Math.round(Math.exp(this.volumeScale + gaussian(this.rand)));
    this.openInterest = Math.max(0, Math.round(this.openInterest * (1 + 0.03 * gaussian(this.rand))));
    return {
      end_period_ts: dayStart,
      price: { close_dollars: dollars(price) },
      yes_bid: { close_dollars: dollars(bid) },
      yes_ask: { close_dollars: dollars(ask) },
      volume_fp: contracts.toFixed(2),
      open_interest_fp: this.openInterest.toFixed(2),
    };
  }

  /** A venue_b CLOB `prices-history` point at 23:00 UTC of the date (the last point of the day). */
  private point(dayStart: number, window: { from: string; toExclusive: string }): NewMark[] {
    const p = Math.round(clamp(sigmoid(this.x), 0.001, 0.999) * 10_000) / 10_000;
    return marksFromPriceHistory(this.market, [{ t: dayStart + 23 * 3600, p }], window);
  }
}

/**
 * The oldest stored mark of each market in `ids` (absent when a market has none), reading at most one mark per
 * market: `datesAscending` are tried oldest first, each only for the markets not yet found.
 */
export async function oldestMarks(
  store: Store,
  ids: readonly string[],
  datesAscending: readonly string[],
): Promise<Map<string, Mark>> {
  const found = new Map<string, Mark>();
  let rest = [...ids];
  for (const date of datesAscending) {
    if (rest.length === 0) break;
    for (const mark of await store.listMarks({ marketIds: rest, snapshotDates: [date] }))
      found.set(mark.market_id, mark);
    rest = rest.filter((id) => !found.has(id));
  }
  return found;
}

/**
 * Writes `days` synthetic daily marks for every market of `store`, back from each market's oldest mark (a
 * market with no mark at all: back from the store's oldest mark date). Throws when the store holds no mark.
 */
export async function writeHistory(store: Store, opts: HistoryOptions): Promise<HistoryResult> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const batchMarks = opts.batchMarks ?? HISTORY_DEFAULTS.batchMarks;
  const groupMarkets = opts.groupMarkets ?? HISTORY_DEFAULTS.groupMarkets;
  const datesAscending = (await store.markDates()).reverse();
  const storeOldest = datesAscending[0];
  if (storeOldest === undefined) throw new Error('the store holds no marks: ingest first');
  const total = (await store.counts()).markets * opts.days;
  let written = 0;
  let transactions = 0;
  let markets = 0;
  let from: string | null = null;
  let to: string | null = null;
  let batch: NewMark[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const marks = batch;
    batch = [];
    await store.transaction((tx) => tx.upsertMarks(marks));
    written += marks.length;
    transactions += 1;
    opts.onProgress?.({ marks: written, total, elapsedMs: now() - started });
  };

  let after: string | undefined;
  for (;;) {
    const group = await store.listMarkets({ limit: groupMarkets, ...(after === undefined ? {} : { after }) });
    const last = group[group.length - 1];
    if (last === undefined) break;
    after = last.market_id;
    markets += group.length;
    const anchors = await oldestMarks(
      store,
      group.map((m) => m.market_id),
      datesAscending,
    );
    const walks = group.map((market) => {
      const anchor = anchors.get(market.market_id) ?? null;
      return new MarketWalk(market, anchor?.snapshot_date ?? storeOldest, anchor, opts.seed);
    });
    for (let day = 0; day < opts.days; day++) {
      for (const walk of walks) {
        const mark = walk.next(opts.days);
        if (mark === null) continue;
        if (from === null || mark.snapshot_date < from) from = mark.snapshot_date;
        if (to === null || mark.snapshot_date > to) to = mark.snapshot_date;
        batch.push(mark);
      }
      if (batch.length >= batchMarks) await flush();
    }
  }
  await flush();
  const seconds = (now() - started) / 1000;
  return {
    markets,
    marks: written,
    days: opts.days,
    seed: opts.seed,
    from,
    to,
    transactions,
    seconds: Math.round(seconds * 10) / 10,
    marks_per_s: seconds > 0 ? Math.round(written / seconds) : 0,
  };
}

/** A progress line for stderr: done, rate and time left. */
export function historyProgressLine(p: HistoryProgress): string {
  const rate = p.elapsedMs > 0 ? (p.marks / p.elapsedMs) * 1000 : 0;
  const left = rate > 0 ? (p.total - p.marks) / rate : 0;
  const pct = p.total > 0 ? ((p.marks / p.total) * 100).toFixed(1) : '100.0';
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return `history: ${n(p.marks)} / ${n(p.total)} marks (${pct}%), ${n(rate)} marks/s, ${formatSeconds(left)} left`;
}

function formatSeconds(s: number): string {
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m ${Math.round(s % 60)}s` : `${Math.round(s)}s`;
}
