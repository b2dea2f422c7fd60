// The history backfill stays within its call budget, stages its marks under the run (none visible before the publish), hands what it could not reach to the next run, and skips a venue without history cleanly.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BackfillTarget, backfillHistory } from '../../src/pipeline/backfill.ts';
import type { Store } from '../../src/store/index.ts';
import { VenueFetchError, type VenueHttp } from '../../src/venues/index.ts';
import { makeMarket } from '../support/records.ts';
import { memoryLogger, tempStore } from './harness.ts';

let store: Store;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
});
afterEach(async () => {
  await dispose();
});

const TODAY = '2026-03-05';
/** The run the marks are staged under (staged_marks has no key to pipeline_runs). */
const RUN = 1;
const ts = (date: string) => Date.parse(`${date}T12:00:00Z`) / 1000;

function fakeHttp(answer: (url: string) => unknown): VenueHttp & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    async getJson(url) {
      urls.push(url);
      const body = answer(url);
      if (body instanceof Error) throw body;
      return body;
    },
    stats: () => ({ requests: urls.length, retries: 0 }),
  };
}

const notFound = (url: string) =>
  new VenueFetchError('HTTP 404', { venue: 'venue_b', url, status: 404, retry: false, kind: 'http' });

async function seed(targets: BackfillTarget[]): Promise<void> {
  await store.transaction((tx) => tx.upsertMarkets(targets.map((t) => t.market)));
}

const venueB = (n: number): BackfillTarget[] =>
  Array.from({ length: n }, (_, i) => ({
    market: makeMarket({ platform: 'venue_b', native: `0xb${i}` }),
    yesToken: `tok${i}`,
  }));

describe('backfillHistory', () => {
  it('stops at the call budget and hands the rest over as pending', async () => {
    const targets = venueB(5);
    await seed(targets);
    const http = fakeHttp(() => ({ history: [{ t: ts('2026-03-03'), p: 0.4 }] }));
    const summary = await backfillHistory(targets, {
      store,
      runId: RUN,
      today: TODAY,
      days: 14,
      maxCalls: 2,
      venues: { venue_b: { http, baseUrl: 'http://clob.test', concurrency: 1 } },
      logger: memoryLogger(),
    });
    expect(http.urls).toHaveLength(2);
    expect(summary).toMatchObject({ calls: 2, marks: 2, markets_with_history: 2 });
    expect(summary.pending_market_ids).toHaveLength(3);
    expect((await store.listStagedMarks(RUN)).map((m) => m.snapshot_date)).toEqual(['2026-03-03', '2026-03-03']);
    expect(await store.listMarks()).toEqual([]);
    expect(http.urls[0]).toContain('/prices-history?market=tok0&startTs=');
  });

  it('a deferred backfill (budget 0) calls nothing and pends every market that has a history request', async () => {
    const targets = [
      ...venueB(3),
      { market: makeMarket({ platform: 'venue_b', native: '0xnotoken' }), yesToken: null },
    ];
    await seed(targets);
    const http = fakeHttp(() => ({ history: [] }));
    const summary = await backfillHistory(targets, {
      store,
      runId: RUN,
      today: TODAY,
      days: 14,
      maxCalls: 0,
      venues: { venue_b: { http, baseUrl: 'http://clob.test', concurrency: 1 } },
      logger: memoryLogger(),
    });
    expect(http.urls).toEqual([]);
    expect(summary).toEqual({
      targets: 4,
      calls: 0,
      marks: 0,
      markets_with_history: 0,
      skipped: {},
      failed: [],
      pending_market_ids: targets
        .slice(0, 3)
        .map((t) => t.market.market_id)
        .sort(),
    });
  });

  it('skips a venue whose history endpoint answers 404 before any success, without pending anything', async () => {
    const targets = venueB(3);
    await seed(targets);
    const http = fakeHttp((url) => notFound(url));
    const summary = await backfillHistory(targets, {
      store,
      runId: RUN,
      today: TODAY,
      days: 14,
      maxCalls: null,
      venues: { venue_b: { http, baseUrl: 'http://clob.test', concurrency: 1 } },
      logger: memoryLogger(),
    });
    expect(http.urls).toHaveLength(1);
    expect(summary.skipped.venue_b).toMatch(/no price history/);
    expect(summary.failed).toEqual([]);
    expect(summary.pending_market_ids).toEqual([]);
  });

  it('stops a venue after an error and leaves its unreached markets pending', async () => {
    const targets = venueB(3);
    await seed(targets);
    const http = fakeHttp((url) =>
      url.includes('tok1')
        ? new VenueFetchError('HTTP 503', { venue: 'venue_b', url, status: 503, retry: true, kind: 'http' })
        : { history: [] },
    );
    const summary = await backfillHistory(targets, {
      store,
      runId: RUN,
      today: TODAY,
      days: 14,
      maxCalls: null,
      venues: { venue_b: { http, baseUrl: 'http://clob.test', concurrency: 1 } },
      logger: memoryLogger(),
    });
    expect(summary.skipped.venue_b).toMatch(/HTTP 503/);
    expect(summary.failed).toEqual(['venue_b']);
    expect(summary.pending_market_ids.sort()).toEqual(
      [targets[1]?.market.market_id, targets[2]?.market.market_id].sort(),
    );
  });

  it('asks venue_a for candlesticks in batches of at most 100 tickers and never overwrites a date already marked', async () => {
    const targets: BackfillTarget[] = Array.from({ length: 150 }, (_, i) => ({
      market: makeMarket({ native: `PM-${i}` }),
      yesToken: null,
    }));
    await seed(targets);
    const first = targets[0]?.market.market_id ?? '';
    const http = fakeHttp((url) => {
      const tickers = new URL(url).searchParams.get('market_tickers')?.split(',') ?? [];
      return {
        markets: tickers.map((t) => ({
          market_ticker: t,
          candlesticks: [{ end_period_ts: ts('2026-03-03'), price: { close_dollars: '0.5000' } }],
        })),
      };
    });
    const summary = await backfillHistory(targets, {
      store,
      runId: RUN,
      today: TODAY,
      days: 14,
      maxCalls: null,
      venues: { venue_a: { http, baseUrl: 'http://a.test', concurrency: 2 } },
      logger: memoryLogger(),
      existingDates: new Map([[first, new Set(['2026-03-03'])]]),
    });
    expect(http.urls.map((u) => new URL(u).searchParams.get('market_tickers')?.split(',').length)).toEqual([100, 50]);
    expect(new URL(http.urls[0] ?? '').searchParams.get('period_interval')).toBe('1440');
    expect(summary.marks).toBe(149);
  });
});
