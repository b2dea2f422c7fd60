// Issue 18's footprint goal, pinned on a generated batch: 5,000 marks as the pipeline builds them (14 days of
// venue_a candles in both venue shapes, venue_b price points, and venue quotes of today) cost at most 150 bytes
// each in the SQLite `marks` table (dbstat pages ÷ rows; the full simulated universe measures about 90), and
// their repeated provenance is stored once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Market, NewMark } from '../../src/domain/index.ts';
import { backfillWindow, marksFromCandles, marksFromPriceHistory } from '../../src/pipeline/history-marks.ts';
import { markFromQuote } from '../../src/pipeline/marks.ts';
import { openStore } from '../../src/store/index.ts';
import { makeMarket, marketId } from './records.ts';

const BYTES_PER_MARK_GOAL = 150;
const TODAY = '2026-03-15';
const DAY_S = 86_400;

/** A small deterministic generator (mulberry32), so the batch and its size are the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function candles(rnd: () => number, fromS: number, dollars: boolean): unknown[] {
  let price = 5 + Math.floor(rnd() * 90);
  return Array.from({ length: 14 }, (_, day) => {
    price = Math.min(99, Math.max(1, price + Math.round((rnd() - 0.5) * 6)));
    const ohlc = (shift: number) => {
      const c = (x: number) => Math.min(100, Math.max(0, x + shift));
      return { open: c(price - 1), high: c(price + 2), low: c(price - 2), close: c(price) };
    };
    const volume = Math.floor(rnd() * 5_000);
    const interest = 1_000 + Math.floor(rnd() * 50_000);
    const end = fromS + (day + 1) * DAY_S;
    if (!dollars) {
      return {
        end_period_ts: end,
        open_interest: interest,
        price: { ...ohlc(0), mean: price, previous: price - 1 },
        volume,
        yes_ask: ohlc(1),
        yes_bid: ohlc(-1),
      };
    }
    const d = (o: Record<string, number>) =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [`${k}_dollars`, (v / 100).toFixed(4)]));
    return {
      end_period_ts: end,
      yes_bid: d(ohlc(-1)),
      yes_ask: d(ohlc(1)),
      price: {
        ...d(ohlc(0)),
        mean_dollars: (price / 100).toFixed(4),
        previous_dollars: ((price - 1) / 100).toFixed(4),
      },
      volume_fp: `${volume}.00`,
      open_interest_fp: `${interest}.00`,
    };
  });
}

function points(rnd: () => number, fromS: number): unknown[] {
  let p = rnd();
  return Array.from({ length: 14 * 24 }, (_, hour) => {
    p = Math.min(0.999, Math.max(0.001, p + (rnd() - 0.5) / 50));
    return { t: fromS + hour * 3_600 + 3_599, p: Math.round(p * 10_000) / 10_000 };
  });
}

/** Today's mark of a market from a venue_a quote, as the pipeline makes it. */
function quoteMark(rnd: () => number, market: Market): NewMark {
  const bid = 0.01 + Math.floor(rnd() * 97) / 100;
  const ask = Math.round((bid + 0.02) * 100) / 100;
  const raw = {
    ticker: market.platform_market_id,
    status: 'active',
    updated_time: `${TODAY}T09:00:00Z`,
    yes_bid_dollars: bid.toFixed(4),
    yes_ask_dollars: ask.toFixed(4),
    last_price_dollars: bid.toFixed(4),
    volume_fp: `${Math.floor(rnd() * 1e6)}.00`,
    open_interest_fp: `${Math.floor(rnd() * 1e5)}.00`,
    liquidity_dollars: (rnd() * 1e5).toFixed(4),
  };
  return markFromQuote(
    market,
    {
      yes_bid: bid,
      yes_ask: ask,
      no_bid: Math.round((1 - ask) * 100) / 100,
      no_ask: Math.round((1 - bid) * 100) / 100,
      yes_bid_size_usd: Math.round(rnd() * 1e6) / 100,
      yes_ask_size_usd: Math.round(rnd() * 1e6) / 100,
      no_bid_size_usd: null,
      no_ask_size_usd: null,
      last_price: bid,
      volume_24h_usd: Math.round(rnd() * 1e8) / 100,
      volume_total_usd: Math.round(rnd() * 1e10) / 100,
      open_interest_usd: Math.floor(rnd() * 1e5),
      source_updated_at: `${TODAY}T09:00:00.000Z`,
      provenance: { yes_bid: { source: 'platform_api' }, yes_ask: { source: 'platform_api' } },
      raw,
    },
    { now: `${TODAY}T10:00:00.000Z`, primaryPrice: null },
  );
}

/** 5,000 marks: 2,100 cent candles, 700 dollar candles, 2,100 venue_b points, 100 quotes. */
function realisticMarks(): { markets: Market[]; history: NewMark[]; today: NewMark[] } {
  const rnd = random(18);
  const window = backfillWindow(TODAY, 14);
  const fromS = Date.parse(`${window.from}T00:00:00Z`) / 1000 - DAY_S;
  const markets: Market[] = [];
  const history: NewMark[] = [];
  for (let i = 0; i < 350; i++) {
    const venueB = i >= 200;
    const market = makeMarket(i, venueB ? { platform: 'venue_b', platform_market_id: `0x${i.toString(16)}` } : {});
    markets.push(market);
    if (venueB) history.push(...marksFromPriceHistory(market, points(rnd, fromS + DAY_S), window));
    else history.push(...marksFromCandles(market, candles(rnd, fromS, i >= 150), window));
  }
  const today = markets.slice(0, 100).map((m) => quoteMark(rnd, m));
  return { markets, history, today };
}

describe('marks footprint (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-footprint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`stores 5,000 realistic marks in at most ${BYTES_PER_MARK_GOAL} bytes each`, async () => {
    const store = await openStore(`sqlite:${join(dir, 'pmref.sqlite')}`);
    try {
      await store.migrate();
      const { markets, history, today } = realisticMarks();
      expect(history.length + today.length).toBe(5_000);
      expect(new Set(history.map((m) => m.market_id)).has(marketId(0))).toBe(true);
      await store.upsertMarkets(markets);
      // As a first start writes them: history staged, then published with today's marks.
      const run = await store.beginRun('replay', `${TODAY}T10:00:00.000Z`, {
        host: 'test',
        pid: 1,
        process_started_at: `${TODAY}T09:59:00.000Z`,
      });
      await store.stageMarks(run.run_id, history);
      await store.publishRun(
        run.run_id,
        async (tx) => {
          await tx.upsertMarks(today);
          return tx.publishStagedMarks(run.run_id);
        },
        () => ({ status: 'ok', summary: {}, finishedAt: `${TODAY}T10:05:00.000Z` }),
      );
      await run.release();

      const { rows } = await sql<{ bytes: number; marks: number }>`
        SELECT (SELECT sum(pgsize) FROM dbstat WHERE name = 'marks') AS bytes,
               (SELECT count(*) FROM marks) AS marks`.execute(store.db);
      const { bytes, marks } = rows[0] ?? { bytes: 0, marks: 0 };
      expect(marks).toBe(5_000);
      const perMark = Number(bytes) / Number(marks);
      expect(perMark, `${bytes} bytes for ${marks} marks`).toBeLessThanOrEqual(BYTES_PER_MARK_GOAL);

      // Provenance is shared: venue_a history, venue_b history and the quotes' (one per distinct content).
      const provenance = await store.db.selectFrom('marks').select('field_provenance_id').distinct().execute();
      expect(provenance.length).toBeLessThanOrEqual(3);
      // And every mark reads back as written.
      const byKey = new Map([...history, ...today].map((m) => [`${m.market_id}|${m.snapshot_date}`, m]));
      for (const { mark_id: _id, ...mark } of await store.listMarks()) {
        expect(JSON.stringify(mark)).toBe(JSON.stringify(byKey.get(`${mark.market_id}|${mark.snapshot_date}`)));
      }
    } finally {
      await store.close();
    }
  });
});
