/**
 * History backfill: markets that have no past marks get one mark per past UTC date from the venue's own
 * price history, so movers and signals have data from the first run. The marks are staged under the run
 * (`staged_marks`, in batches: a full backfill is far too many to hold in memory) and become visible only
 * when the run publishes (run.ts). Calls are bounded per run; markets not reached are handed to the next run
 * (`pending`). A venue whose history endpoint answers 404 before any success has no history to give: it is
 * skipped, and the summary says so.
 */
import type { Market, NewMark, Venue } from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import type { VenueHttp } from '../venues/index.ts';
import { backfillWindow, marksFromCandles, marksFromPriceHistory } from './history-marks.ts';
import type { PipelineLogger, ProgressListener } from './types.ts';

/** venue_a batch candlesticks accepts up to 100 tickers per request. */
const VENUE_A_TICKERS_PER_CALL = 100;
const MARKS_PER_BATCH = 5_000;

export interface BackfillTarget {
  market: Market;
  /** venue_b: the YES outcome's CLOB token id (prices-history is keyed by token). */
  yesToken: string | null;
}

export interface BackfillVenue {
  http: VenueHttp;
  /** venue_a: the trade-api root; venue_b: the CLOB root. */
  baseUrl: string;
  concurrency: number;
}

export interface BackfillOptions {
  store: Store;
  /** The run the marks are staged under. */
  runId: number;
  /** Marks staged per statement batch (default 5,000). */
  batchSize?: number;
  /** Called after each staged batch (the kill-at-stage test ends the process at the first). */
  afterBatch?: () => Promise<void> | void;
  today: string;
  days: number;
  /** Upper bound on history requests this run; null for no bound. */
  maxCalls: number | null;
  venues: Partial<Record<Venue, BackfillVenue>>;
  logger: PipelineLogger;
  onProgress?: ProgressListener;
  /** Dates already marked per market (only looked up for markets handed over by an earlier run). */
  existingDates?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface BackfillSummary {
  targets: number;
  calls: number;
  marks: number;
  markets_with_history: number;
  /** Per venue: null when fine, else why its history was skipped or cut short. */
  skipped: Partial<Record<Venue, string>>;
  /** Venues whose history stopped on an error (not a 404 "no history", not the call budget). */
  failed: Venue[];
  /** Markets not reached within the call budget or because of an error; the next run tries them. */
  pending_market_ids: string[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 404;
}

interface Job {
  venue: Venue;
  targets: BackfillTarget[];
  url: string;
}

function jobsOf(targets: readonly BackfillTarget[], opts: BackfillOptions): Job[] {
  const { from, toExclusive } = backfillWindow(opts.today, opts.days);
  const startTs = Math.floor(Date.parse(`${from}T00:00:00Z`) / 1000);
  const endTs = Math.floor(Date.parse(`${toExclusive}T00:00:00Z`) / 1000);
  const jobs: Job[] = [];
  const a = opts.venues.venue_a;
  if (a) {
    const mine = targets.filter((t) => t.market.platform === 'venue_a');
    for (const group of chunks(mine, VENUE_A_TICKERS_PER_CALL)) {
      const tickers = group.map((t) => t.market.platform_market_id).join(',');
      const q = new URLSearchParams({
        market_tickers: tickers,
        start_ts: String(startTs),
        end_ts: String(endTs),
        period_interval: '1440',
      });
      jobs.push({ venue: 'venue_a', targets: group, url: `${a.baseUrl}/markets/candlesticks?${q}` });
    }
  }
  const b = opts.venues.venue_b;
  if (b) {
    for (const t of targets) {
      if (t.market.platform !== 'venue_b' || t.yesToken === null) continue;
      const q = new URLSearchParams({
        market: t.yesToken,
        startTs: String(startTs),
        endTs: String(endTs),
        fidelity: '1440',
      });
      jobs.push({ venue: 'venue_b', targets: [t], url: `${b.baseUrl}/prices-history?${q}` });
    }
  }
  return jobs;
}

function marksOfResponse(job: Job, body: unknown, window: { from: string; toExclusive: string }): NewMark[] {
  const out: NewMark[] = [];
  const obj = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (job.venue === 'venue_a') {
    const byTicker = new Map<string, unknown[]>();
    for (const entry of Array.isArray(obj.markets) ? obj.markets : []) {
      const e = entry as { market_ticker?: unknown; ticker?: unknown; candlesticks?: unknown };
      const ticker = typeof e.market_ticker === 'string' ? e.market_ticker : e.ticker;
      if (typeof ticker === 'string' && Array.isArray(e.candlesticks)) byTicker.set(ticker, e.candlesticks);
    }
    for (const t of job.targets) {
      out.push(...marksFromCandles(t.market, byTicker.get(t.market.platform_market_id) ?? [], window));
    }
  } else {
    const target = job.targets[0];
    if (target)
      out.push(...marksFromPriceHistory(target.market, Array.isArray(obj.history) ? obj.history : [], window));
  }
  return out;
}

/**
 * Fetches venue history for `targets` and stages the marks under the run (in batches of 5,000). Marks on a
 * date the market already has are not staged, and the publish never lets one replace a stored mark: a real
 * snapshot is never replaced by history.
 */
export async function backfillHistory(
  targets: readonly BackfillTarget[],
  opts: BackfillOptions,
): Promise<BackfillSummary> {
  const window = backfillWindow(opts.today, opts.days);
  const budget = opts.maxCalls ?? Number.POSITIVE_INFINITY;
  const summary: BackfillSummary = {
    targets: targets.length,
    calls: 0,
    marks: 0,
    markets_with_history: 0,
    skipped: {},
    failed: [],
    pending_market_ids: [],
  };
  if (budget <= 0) {
    // A deferred backfill (no budget): every market that has a history request waits for the next run.
    summary.pending_market_ids = targets
      .filter((t) => opts.venues[t.market.platform] && (t.market.platform === 'venue_a' || t.yesToken !== null))
      .map((t) => t.market.market_id)
      .sort();
    return summary;
  }
  const jobs = jobsOf(targets, opts);
  for (const t of targets) {
    if (t.market.platform === 'venue_b' && t.yesToken === null && opts.venues.venue_b) {
      opts.logger.debug?.({ market_id: t.market.market_id }, 'backfill: venue_b market without a YES token id');
    }
  }
  const stopped = new Map<Venue, { reason: string; retryLater: boolean }>();
  const succeeded = new Set<Venue>();
  const pending = new Set<string>();
  const withHistory = new Set<string>();
  let buffer: NewMark[] = [];
  let done = 0;
  const flush = async () => {
    const batch = buffer;
    buffer = [];
    if (batch.length === 0) return;
    await opts.store.stageMarks(opts.runId, batch);
    summary.marks += batch.length;
    await opts.afterBatch?.();
  };
  const batchSize = opts.batchSize ?? MARKS_PER_BATCH;

  const byVenue = new Map<Venue, Job[]>();
  for (const job of jobs) {
    const list = byVenue.get(job.venue);
    if (list) list.push(job);
    else byVenue.set(job.venue, [job]);
  }
  opts.onProgress?.({ stage: 'backfill', done: 0, total: Math.min(jobs.length, budget) });

  await Promise.all(
    [...byVenue].map(async ([venue, venueJobs]) => {
      const v = opts.venues[venue];
      if (!v) return;
      await forEachBounded(venueJobs, v.concurrency, async (job) => {
        const stop = stopped.get(venue);
        if (stop !== undefined || summary.calls >= budget) {
          if (stop === undefined || stop.retryLater) for (const t of job.targets) pending.add(t.market.market_id);
          return;
        }
        summary.calls++;
        try {
          const body = await v.http.getJson(job.url);
          succeeded.add(venue);
          for (const mark of marksOfResponse(job, body, window)) {
            if (opts.existingDates?.get(mark.market_id)?.has(mark.snapshot_date)) continue;
            buffer.push(mark);
            withHistory.add(mark.market_id);
          }
          if (buffer.length >= batchSize) await flush();
        } catch (err) {
          if (isNotFound(err) && !succeeded.has(venue)) {
            stopped.set(venue, {
              reason: 'the venue has no price history to give (404); history skipped',
              retryLater: false,
            });
          } else if (isNotFound(err)) {
            // One market without history among others that have it: nothing to backfill for it.
          } else {
            const message = err instanceof Error ? err.message : String(err);
            stopped.set(venue, { reason: `history stopped after an error: ${message}`, retryLater: true });
            for (const t of job.targets) pending.add(t.market.market_id);
          }
        }
        done++;
        opts.onProgress?.({ stage: 'backfill', done, total: Math.min(jobs.length, budget) });
      });
    }),
  );
  await flush();

  for (const [venue, { reason, retryLater }] of stopped) {
    summary.skipped[venue] = reason;
    if (retryLater) summary.failed.push(venue);
    opts.logger.warn({ venue, reason }, `backfill: ${venue}: ${reason}`);
  }
  summary.markets_with_history = withHistory.size;
  summary.pending_market_ids = [...pending].sort();
  return summary;
}
