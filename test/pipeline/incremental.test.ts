// A run that reuses the last run's work for unchanged events (issue 18) re-derives only what changed and leaves the store exactly as a full run does.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deriveEvent, linkAcrossVenues, type RepriceEventInput, repriceEvent } from '../../src/editorial/index.ts';
import { afterWriteStage } from '../../src/pipeline/after-write.ts';
import type { EditorialFunctions } from '../../src/pipeline/editorial-stage.ts';
import { recordedState } from '../../src/pipeline/incremental.ts';
import { windowFigures } from '../../src/pipeline/marks-window.ts';
import { type RunPipelineOptions, runPipeline } from '../../src/pipeline/run.ts';
import type { RunSummary } from '../../src/pipeline/types.ts';
import { openStore, SqlStore, type Store } from '../../src/store/index.ts';
import { SqlTx } from '../../src/store/sql-tx.ts';
import { startReplayServer } from '../../src/venues/index.ts';
import { usePostgresDatabase } from '../store/pg-database.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, memoryLogger, tempStore, venueOptions } from './harness.ts';

type Rec = Record<string, unknown>;

const hoursAfter = (at: string, h: number) => new Date(Date.parse(at) + h * 3_600_000).toISOString();
const T1 = DAY1_AT; // 2026-03-01T12:00Z; venue_a's open markets close at 20:00Z that day
const T2 = hoursAfter(T1, 1);
const T3 = hoursAfter(T1, 2);

/** The run summary's event counts of a run in which one of the five fixture events was requoted (requote.ts). */
const ONE_REQUOTED = {
  pulled: 5,
  normalized: 0,
  derived: 0,
  reused: 4,
  repriced: 1,
  reused_unnormalized: 4,
  requoted: 1,
};

let dirs: string[] = [];
let disposers: (() => Promise<void>)[] = [];
beforeEach(() => {
  dirs = [];
  disposers = [];
});
afterEach(async () => {
  for (const d of disposers) await d();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function newStore(): Promise<Store> {
  const { store, dispose } = await tempStore();
  disposers.push(dispose);
  return store;
}

/** A copy of the day-1 venue folder that a test may edit. */
function day1Copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-incremental-'));
  dirs.push(dir);
  cpSync(DAY1, dir, { recursive: true });
  return dir;
}

/** Edits one market of a venue file in place. */
function editMarket(dir: string, venue: 'venue_a' | 'venue_b', nativeId: string, edit: (m: Rec) => void): void {
  const file = join(dir, `${venue}_events.json`);
  const json = JSON.parse(readFileSync(file, 'utf8')) as Rec | Rec[];
  const events = (Array.isArray(json) ? json : json.events) as Rec[];
  const market = events
    .flatMap((e) => e.markets as Rec[])
    .find((m) => (venue === 'venue_a' ? m.ticker : m.conditionId) === nativeId);
  if (!market) throw new Error(`no market ${nativeId} in ${file}`);
  edit(market);
  writeFileSync(file, JSON.stringify(json));
}

/** deriveEvent and repriceEvent (unless `reprice` is false), listing the events each is called on. */
function countingEditorial(reprice = true): EditorialFunctions & { calls: string[]; repriced: string[] } {
  const calls: string[] = [];
  const repriced: string[] = [];
  return {
    calls,
    repriced,
    deriveEvent: (input) => {
      calls.push(input.event.platform_event_id ?? '?');
      return deriveEvent(input);
    },
    linkAcrossVenues,
    ...(reprice
      ? {
          repriceEvent: (input: RepriceEventInput) => {
            repriced.push(input.event.platform_event_id ?? '?');
            return repriceEvent(input);
          },
        }
      : {}),
  };
}

async function run(
  store: Store,
  dir: string,
  at: string,
  opts: Partial<Pick<RunPipelineOptions, 'incremental' | 'editorialVersion' | 'editorial'>> & {
    faults?: string;
    /** venue_b order books to fetch (default none). */
    maxBookCalls?: number;
  } = {},
): Promise<RunSummary> {
  const logger = memoryLogger();
  const server = await startReplayServer({ dir, port: 0, ...(opts.faults ? { faults: opts.faults } : {}) });
  try {
    const { faults: _faults, maxBookCalls, ...rest } = opts;
    const venues = venueOptions(server, logger);
    if (maxBookCalls !== undefined) venues.venue_b.maxBookCalls = maxBookCalls;
    return await runPipeline({
      store,
      source: 'replay',
      clock: () => new Date(at),
      logger,
      venues,
      backfill: { maxCalls: null },
      afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
      ...rest,
    });
  } finally {
    await server.close();
  }
}

/** Everything a run leaves that is served. */
async function served(store: Store) {
  return {
    events: await store.listEvents(),
    markets: await store.listMarkets(),
    marks: await store.listMarks(),
    log: await store.listLog(),
    signals: await store.listSignals(),
    catalysts: await store.listCatalysts(),
    spot: await store.latestSpot(),
  };
}

/** Runs the same sequence of (folder, clock) on a store that reuses and one that does not; returns both. */
async function incrementalAndFull(
  steps: { dir: string; at: string }[],
  editorial = countingEditorial(),
  makeStore: () => Promise<Store> = newStore,
) {
  const inc = await makeStore();
  const full = await makeStore();
  const summaries: RunSummary[] = [];
  for (const [i, step] of steps.entries()) {
    if (i === steps.length - 1) {
      editorial.calls.length = 0;
      editorial.repriced.length = 0;
    }
    summaries.push(await run(inc, step.dir, step.at, { editorial }));
    await run(full, step.dir, step.at, { incremental: false });
  }
  return { inc, full, summaries, calls: editorial.calls, repriced: editorial.repriced };
}

describe('incremental runs', () => {
  it('reprices only the event whose quotes changed and stores what a full run stores', async () => {
    const before = day1Copy();
    const after = day1Copy();
    editMarket(after, 'venue_a', 'PMGOLD-26MAR01-3000', (m) => {
      m.last_price_dollars = '0.7500';
      m.yes_bid_dollars = '0.7400';
      m.yes_ask_dollars = '0.7600';
    });
    const { inc, full, summaries, calls, repriced } = await incrementalAndFull([
      { dir: before, at: T1 },
      { dir: after, at: T2 },
    ]);
    expect(calls).toEqual([]);
    expect(repriced).toEqual(['PMGOLD-26MAR01']);
    // Its raw markets changed in their quote parts alone: repriced from the memo, not normalized (requote.ts).
    expect(summaries[1]?.events).toEqual(ONE_REQUOTED);
    expect(await served(inc)).toEqual(await served(full));
    // The stored markets were read by their catalog entries; repricing left every one standing, none read whole.
    expect(summaries[1]?.stored_markets).toEqual({ read: (await inc.listMarketIds()).length, read_whole: 0 });
    // Today's marks of the unchanged markets were re-timed to this run, like the changed one.
    expect((await inc.listMarks({ snapshotDates: ['2026-03-01'] })).map((m) => m.snapshot_at)).toEqual(
      Array(7).fill(T2),
    );
    expect(summaries[1]?.cpu_ms_by_stage).toMatchObject({
      pull: expect.any(Number),
      normalize: expect.any(Number),
      'normalize.requote': expect.any(Number),
      editorial: expect.any(Number),
      publish: expect.any(Number),
    });
  });

  it('moves the primary market and the ladder of a repriced event, and its updated_at, as a full run does', async () => {
    const before = day1Copy();
    const after = day1Copy();
    // PMCPI-26FEB's cheapest strike becomes its most traded market (24 h volume) and its prices move.
    editMarket(after, 'venue_a', 'PMCPI-26FEB-T2', (m) => {
      m.volume_24h_fp = '990000.00';
      m.volume_24h = 990000;
      m.last_price_dollars = '0.0300';
    });
    const { inc, full, summaries, calls, repriced } = await incrementalAndFull([
      { dir: before, at: T1 },
      { dir: after, at: T2 },
    ]);
    expect(calls).toEqual([]);
    expect(repriced).toEqual(['PMCPI-26FEB']);
    expect(summaries[1]?.events_written).toBe(1);
    const event = (await inc.listEvents()).find((e) => e.platform_event_id === 'PMCPI-26FEB');
    const primary = (await inc.listMarkets()).find((m) => m.market_id === event?.primary_market_id);
    expect(primary?.platform_market_id).toBe('PMCPI-26FEB-T2');
    expect(event?.updated_at).toBe(T2);
    expect(await served(inc)).toEqual(await served(full));
  });

  it("moves today's marks of a changed event's unchanged markets in place, as a full run stores them", async () => {
    const before = day1Copy();
    const after = day1Copy();
    // One strike of the PMCPI-26FEB ladder moves its bid only: its last price, the event's primary and every other
    // market's quote stay, and so their raw payloads (the memo's hashes) and their marks but for the time.
    editMarket(after, 'venue_a', 'PMCPI-26FEB-T2', (m) => {
      m.yes_bid_dollars = '0.0100';
    });
    const moved = vi.spyOn(SqlTx.prototype, 'retimeMarks');
    try {
      const { inc, full, summaries } = await incrementalAndFull([
        { dir: before, at: T1 },
        { dir: after, at: T2 },
      ]);
      // The event's raw input changed in a quote (requoted, not normalized); what deriveEvent reads did not (a bid).
      expect(summaries[1]?.events).toMatchObject({ normalized: 0, requoted: 1, derived: 0, repriced: 0 });
      expect(await served(inc)).toEqual(await served(full));
      const markets = await inc.listMarkets();
      const changed = markets.find((m) => m.platform_market_id === 'PMCPI-26FEB-T2')?.market_id;
      const siblings = markets.filter((m) => m.platform_event_id === 'PMCPI-26FEB' && m.market_id !== changed);
      expect(siblings.length).toBeGreaterThan(0);
      // Publishes in order: incremental T1, full T1, incremental T2, full T2. Only the incremental T2 moves marks:
      // every market's but the changed one's (a full run reuses nothing and moves nothing).
      const lists = moved.mock.calls.map(([marks]) => marks.map((m) => m.market_id).sort());
      expect(lists.map((l) => l.length)).toEqual([0, 0, markets.length - 1, 0]);
      expect(lists[2]).toEqual(
        markets
          .map((m) => m.market_id)
          .filter((id) => id !== changed)
          .sort(),
      );
    } finally {
      moved.mockRestore();
    }
  });

  it("takes the signals' earlier days from the last run's window, and they are the store's, over a new day too", async () => {
    const after = day1Copy();
    editMarket(after, 'venue_a', 'PMCPI-26FEB-T2', (m) => {
      m.yes_bid_dollars = '0.0100';
    });
    const listed = vi.spyOn(SqlStore.prototype, 'listMarks');
    try {
      const steps = [
        { dir: DAY1, at: T1 },
        { dir: after, at: T2 },
        { dir: DAY2, at: DAY2_AT },
        { dir: DAY2, at: hoursAfter(DAY2_AT, 1) },
      ];
      const { inc, full } = await incrementalAndFull(steps);
      // The window left by each run equals the store's figures: the incremental store's signals are the full one's,
      // and so is everything else served but the marks' surrogate keys (rows are inserted in another order).
      const withoutIds = async (store: Store) => {
        const all = await served(store);
        return { ...all, marks: all.marks.map(({ mark_id: _id, ...m }) => m) };
      };
      expect(await withoutIds(inc)).toEqual(await withoutIds(full));
      // Runs alternate, incremental then full: the earlier days (a list of dates) are read from the store by every
      // full run, and by the first incremental run only (no window yet).
      const byDates = listed.mock.calls.filter(([q]) => q?.snapshotDates !== undefined && q.figuresOnly === true);
      expect(byDates.length).toBe(steps.length + 1);
      // The last run's window is the store's figures from its first day, mark for mark.
      const window = recordedState(inc)?.marksWindow;
      if (!window) throw new Error('the last incremental run left no window');
      const stored = await inc.listMarks({ since: window.from, figuresOnly: true });
      expect(new Set(stored.map((m) => m.snapshot_date)).size).toBeGreaterThan(1);
      expect(windowFigures(window, window.from, '9999-12-31')).toEqual(stored);
    } finally {
      listed.mockRestore();
    }
  });

  it('derives an event whose quotes changed when the editorial functions cannot reprice', async () => {
    const before = day1Copy();
    const after = day1Copy();
    editMarket(after, 'venue_a', 'PMGOLD-26MAR01-3000', (m) => {
      m.last_price_dollars = '0.7500';
    });
    const { inc, full, summaries, calls } = await incrementalAndFull(
      [
        { dir: before, at: T1 },
        { dir: after, at: T2 },
      ],
      countingEditorial(false),
    );
    expect(calls).toEqual(['PMGOLD-26MAR01']);
    expect(summaries[1]?.events).toMatchObject({ derived: 1, repriced: 0 });
    expect(await served(inc)).toEqual(await served(full));
    // The derived event's markets were compared with their stored records whole; the other events' were not read.
    const derivedMarkets = (await inc.listMarkets()).filter((m) => m.platform_event_id === 'PMGOLD-26MAR01').length;
    expect(summaries[1]?.stored_markets?.read_whole).toBe(derivedMarkets);
  });

  it('logs a rule change found on a reused run exactly as a full run does', async () => {
    const before = day1Copy();
    const after = day1Copy();
    editMarket(after, 'venue_b', '0xbbb1', (m) => {
      m.description = `${String(m.description)} Clarification: the first published figure counts.`;
    });
    const { inc, full, summaries, calls } = await incrementalAndFull([
      { dir: before, at: T1 },
      { dir: after, at: T2 },
    ]);
    expect(calls).toEqual(['900002']);
    expect(summaries[1]?.log_entries).toBe(1);
    expect(await served(inc)).toEqual(await served(full));
  });

  it('does not derive an event whose raw input changed where deriveEvent does not read', async () => {
    const before = day1Copy();
    const after = day1Copy();
    // The venue's total volume reaches the mark only; the editorial layer reads the last price and 24 h volume.
    editMarket(after, 'venue_b', '0xaaa1', (m) => {
      m.volume = '123456.5';
      m.volumeNum = 123456.5;
    });
    const { inc, full, summaries, calls } = await incrementalAndFull([
      { dir: before, at: T1 },
      { dir: after, at: T2 },
    ]);
    expect(calls).toEqual([]);
    expect(summaries[1]?.events).toEqual({
      pulled: 5,
      normalized: 0,
      derived: 0,
      reused: 5,
      repriced: 0,
      reused_unnormalized: 4,
      requoted: 1,
    });
    expect(await served(inc)).toEqual(await served(full));
  });

  it("requotes a venue_b market's price move without normalizing its event, hour after hour, as a full run stores", async () => {
    const before = day1Copy();
    const moved = day1Copy();
    const again = day1Copy();
    // An open market's prices (its outcomePrices are a quote while it is open), last trade, bid and 24 h volume.
    const priced = (price: string, volume: number) => (m: Rec) => {
      m.outcomePrices = JSON.stringify([price, String(Math.round((1 - Number(price)) * 100) / 100)]);
      m.lastTradePrice = Number(price);
      m.bestBid = Number(price) - 0.01;
      m.volume24hr = volume;
    };
    editMarket(moved, 'venue_b', '0xaaa2', priced('0.45', 990000));
    // The next hour moves it again: the memo carries the first move's quotes and keys.
    editMarket(again, 'venue_b', '0xaaa2', priced('0.35', 1000));
    const { inc, full, summaries, calls, repriced } = await incrementalAndFull([
      { dir: before, at: T1 },
      { dir: moved, at: T2 },
      { dir: again, at: T3 },
    ]);
    expect(calls).toEqual([]);
    // Repriced by the requoter, from the memo's inputs (the last step's calls).
    expect(repriced).toEqual(['900001']);
    for (const summary of summaries.slice(1)) {
      expect(summary.events).toEqual(ONE_REQUOTED);
    }
    expect(await served(inc)).toEqual(await served(full));
    // The most traded market of the event became its primary at T2 and gave it back at T3, as in the full runs.
    const event = (await inc.listEvents()).find((e) => e.platform_event_id === '900001');
    const primary = (await inc.listMarkets()).find((m) => m.market_id === event?.primary_market_id);
    expect(primary?.platform_market_id).toBe('0xaaa1');
    const mark = (await inc.listMarks({ marketIds: [primary?.market_id ?? ''] })).at(-1);
    expect(mark?.snapshot_at).toBe(T3);
  });

  it("requotes a market whose order book moved, and its mark takes the book's new best bid, as a full run stores", async () => {
    // 0xaaa2's YES token (121): a CLOB book whose best bid moves from 0.04 to 0.05 between the two hours.
    const book = (bid: string) => ({
      market: '0xaaa2',
      asset_id: '121',
      timestamp: Date.parse(T1),
      bids: [{ price: bid, size: '500' }],
      asks: [{ price: '0.06', size: '400' }],
    });
    const before = day1Copy();
    const after = day1Copy();
    writeFileSync(join(before, 'venue_b_book_121.json'), JSON.stringify(book('0.04')));
    writeFileSync(join(after, 'venue_b_book_121.json'), JSON.stringify(book('0.05')));
    const inc = await newStore();
    const full = await newStore();
    await run(inc, before, T1, { maxBookCalls: 10 });
    await run(full, before, T1, { incremental: false, maxBookCalls: 10 });
    const summary = await run(inc, after, T2, { maxBookCalls: 10 });
    await run(full, after, T2, { incremental: false, maxBookCalls: 10 });
    // The book is the market's quote part: requoted, not normalized; the editorial layer reads no bid (reused).
    expect(summary.events).toMatchObject({ normalized: 0, requoted: 1, repriced: 0, derived: 0 });
    expect(await served(inc)).toEqual(await served(full));
    const id = (await inc.listMarkets()).find((m) => m.platform_market_id === '0xaaa2')?.market_id ?? '';
    const mark = (await inc.listMarks({ marketIds: [id] })).at(-1);
    expect(mark).toMatchObject({ snapshot_at: T2, yes_bid: 0.05 });
  });

  it('normalizes an event whose rules changed with its quote, and one whose reprice the editorial layer declines', async () => {
    const before = day1Copy();
    const after = day1Copy();
    editMarket(after, 'venue_a', 'PMGOLD-26MAR01-3000', (m) => {
      m.last_price_dollars = '0.7500';
      m.rules_secondary = `${String(m.rules_secondary ?? '')} Clarified.`;
    });
    editMarket(after, 'venue_a', 'PMCPI-26FEB-T2', (m) => {
      m.last_price_dollars = '0.2500';
      m.volume_24h = 990000;
    });
    const declining = countingEditorial();
    declining.repriceEvent = () => null;
    const { inc, full, summaries, calls } = await incrementalAndFull(
      [
        { dir: before, at: T1 },
        { dir: after, at: T2 },
      ],
      declining,
    );
    // Both normalized and derived: the rules are shape, and a declined reprice is derived as before requoting.
    expect([...calls].sort()).toEqual(['PMCPI-26FEB', 'PMGOLD-26MAR01']);
    expect(summaries[1]?.events).toMatchObject({ normalized: 2, requoted: 0, derived: 2, repriced: 0 });
    expect(await served(inc)).toEqual(await served(full));
  });

  it('normalizes again the events whose markets pass their close time, and nothing before the last clock', async () => {
    const dir = day1Copy();
    const late = hoursAfter(T1, 9); // 21:00Z: venue_a's open markets closed at 20:00Z
    const { inc, full, summaries } = await incrementalAndFull([
      { dir, at: T1 },
      { dir, at: late },
    ]);
    // Two venue_a events have open markets past their close; the settled one and venue_b's two are reused.
    expect(summaries[1]?.events).toMatchObject({ normalized: 2, reused_unnormalized: 3 });
    expect(await served(inc)).toEqual(await served(full));
    const closed = (await inc.listMarkets()).filter((m) => m.status === 'closed').map((m) => m.platform_market_id);
    expect(closed.sort()).toEqual(['PMCPI-26FEB-T1', 'PMCPI-26FEB-T2', 'PMGOLD-26MAR01-3000']);
    // A clock before the run that recorded the memo reuses nothing.
    expect((await run(inc, dir, T2)).events).toMatchObject({ normalized: 5, reused: 0 });
  });

  it('re-derives everything under another editorial version, and nothing under the same one', async () => {
    const dir = day1Copy();
    const store = await newStore();
    const editorial = countingEditorial();
    await run(store, dir, T1, { editorial, editorialVersion: 'v1' });
    editorial.calls.length = 0;
    expect((await run(store, dir, T2, { editorial, editorialVersion: 'v1' })).events).toMatchObject({ derived: 0 });
    expect(editorial.calls).toEqual([]);
    expect((await run(store, dir, T3, { editorial, editorialVersion: 'v2' })).events).toMatchObject({ derived: 5 });
    expect(editorial.calls).toHaveLength(5);
  });

  it('keeps the memo across a run that published nothing and drops it once another run published', async () => {
    const dir = day1Copy();
    const store = await newStore();
    await run(store, dir, T1);
    const failed = await run(store, dir, T2, { faults: 'all:5xx' });
    expect(failed.status).toBe('failed');
    expect((await run(store, dir, T3)).events).toMatchObject({ reused: 5, derived: 0 });
    // Another process (a second connection) publishes: this one's memo no longer says what is stored.
    const path = mkdtempSync(join(tmpdir(), 'pmref-incremental-db-'));
    dirs.push(path);
    const a = await openStore(`sqlite:${join(path, 'shared.sqlite')}`);
    await a.migrate();
    const b = await openStore(`sqlite:${join(path, 'shared.sqlite')}`);
    disposers.push(
      () => a.close(),
      () => b.close(),
    );
    await run(a, dir, T1);
    await run(b, dir, T2);
    expect((await run(a, dir, T3)).events).toMatchObject({ reused: 0, derived: 5 });
  });

  it('rewrites no event on unchanged input, though the after-write stage binds catalyst dates to them', async () => {
    const dir = day1Copy();
    const store = await newStore();
    await run(store, dir, T1);
    const bound = (await store.listEvents()).filter((e) => e.catalyst_dates.length > 0);
    expect(bound.length).toBeGreaterThan(0);
    const again = await run(store, dir, T2, { incremental: false });
    expect(again).toMatchObject({ events_written: 0, markets_written: 0 });
    expect(again.after_write).toMatchObject({ events_with_new_catalyst_dates: 0 });
  });

  it('with incremental off, normalizes and derives every event', async () => {
    const dir = day1Copy();
    const store = await newStore();
    await run(store, dir, T1);
    const again = await run(store, dir, T2, { incremental: false });
    expect(again.events).toEqual({
      pulled: 5,
      normalized: 5,
      derived: 5,
      reused: 0,
      repriced: 0,
      reused_unnormalized: 0,
      requoted: 0,
    });
    // With no memo to trust, every stored market is read whole.
    const count = (await store.listMarketIds()).length;
    expect(again.stored_markets).toEqual({ read: count, read_whole: count });
  });
});

describe('incremental runs on PostgreSQL', () => {
  const pg = usePostgresDatabase('pipeline/incremental');
  it.skipIf(!pg)('reuse what did not change and store what a full run stores', async () => {
    const makeStore = async () => {
      const store = await (pg as NonNullable<typeof pg>).newStore();
      await store.migrate();
      disposers.push(() => store.close());
      return store;
    };
    const before = day1Copy();
    const after = day1Copy();
    editMarket(after, 'venue_b', '0xaaa2', (m) => {
      m.question = `${String(m.question)} (amended)`;
    });
    const { inc, full, summaries, calls } = await incrementalAndFull(
      [
        { dir: before, at: T1 },
        { dir: after, at: T2 },
      ],
      countingEditorial(),
      makeStore,
    );
    expect(calls).toEqual(['900001']);
    expect(summaries[1]?.events).toMatchObject({ normalized: 1, derived: 1, reused: 4 });
    expect(await served(inc)).toEqual(await served(full));
  });
});
