// The replay server finds every venue shape in a folder, keeps the newest copy of each record, and answers under each venue's own paths and paging like the venue would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReplayData, type ReplayServer, startReplayServer } from '../../src/venues/index.ts';
import { BASIC_DIR } from './helpers.ts';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ dir: BASIC_DIR });
});
afterAll(async () => {
  await server.close();
});

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('loading', () => {
  it('recognizes each file by shape and reports what it took or why it ignored it', () => {
    const files = Object.fromEntries(loadReplayData(BASIC_DIR).files.map((f) => [f.file, f]));
    expect(files['venue_a/events_page_2026-04-20.json']).toMatchObject({ venue_a_events: 5, venue_a_markets: 5 });
    expect(files['venue_a/markets_flat_2026-04-19.json']).toMatchObject({ venue_a_markets: 2 });
    expect(files['venue_a/series_by_ticker_2026-04-20.json']).toMatchObject({ venue_a_series: 2 });
    expect(files['venue_b/events_2026-04-20.json']).toMatchObject({ venue_b_events: 3, venue_b_markets: 5 });
    expect(files['venue_b/markets_2026-04-19.json']).toMatchObject({ venue_b_markets: 1 });
    expect(files['venue_b/clob_book_111.json']).toMatchObject({ books: 1 });
    expect(files['reference/coingecko_simple_price.json']).toMatchObject({ spot: 2, ignored: null });
    expect(files['reference/fomc_calendar.json']?.ignored).toMatch(/not a venue response/);
    expect(files['history/venue_a/candlesticks.json']).toMatchObject({ candles: 1 });
    expect(files['history/venue_b/prices-history.json']).toMatchObject({ price_histories: 1 });
  });

  it('keeps the newest copy of a record seen in two files and synthesizes missing parents', () => {
    const d = loadReplayData(BASIC_DIR);
    expect(d.venueA.markets.get('KXFEDT-26APR-T4.00')?.title).not.toMatch(/OLDER COPY/);
    expect(d.origin.get('venue_a:KXFEDT-26APR-T4.00')).toBe('venue_a/events_page_2026-04-20.json');
    const gdp = d.venueA.events.find((e) => e.event_ticker === 'KXGDPT-26Q1');
    expect(gdp).toMatchObject({ series_ticker: 'KXGDPT', title: 'US GDP growth', category: 'Economics' });
    const iran = d.venueB.events.find((e) => e.id === '9100');
    expect(iran).toMatchObject({ title: 'US strikes Iran by...?' });
    expect(iran?.markets).toHaveLength(1);
  });

  it('says which folder is missing', () => {
    expect(() => loadReplayData(`${BASIC_DIR}/nope`)).toThrow(
      /basic\/nope is not a folder; pass a folder of recorded venue responses/,
    );
  });

  it('reads several folders as one', () => {
    const d = loadReplayData([`${BASIC_DIR}/venue_a`, `${BASIC_DIR}/venue_b`]);
    expect(d.venueA.markets.size).toBe(6);
    expect(d.venueB.markets).toHaveLength(6);
  });
});

describe('venue_a paths', () => {
  it('pages /events by cursor within a status', async () => {
    const p1 = (await get(`${server.venueAUrl}/events?with_nested_markets=true&status=open&limit=3`)).body as {
      events: Array<{ event_ticker: string; markets?: unknown[] }>;
      cursor: string;
    };
    expect(p1.events).toHaveLength(3);
    expect(p1.events[0]?.markets).toBeDefined();
    expect(p1.cursor).not.toBe('');
    const p2 = (
      await get(`${server.venueAUrl}/events?with_nested_markets=true&status=open&limit=3&cursor=${p1.cursor}`)
    ).body as { events: Array<{ event_ticker: string }>; cursor: string };
    expect(p2.cursor).toBe('');
    const all = [...p1.events, ...p2.events].map((e) => e.event_ticker);
    expect(all).toEqual(['KXFEDT-26APR', 'KXMVECOMBO-26APR20', 'KXNBAGAME-26APR20LALBOS', 'KXROBOTMARS-35']);
    const settled = (await get(`${server.venueAUrl}/events?status=settled`)).body as {
      events: Array<Record<string, unknown>>;
    };
    expect(settled.events.map((e) => e.event_ticker)).toEqual(['KXCPIT-26MAR']);
    expect(settled.events[0]?.markets).toBeUndefined(); // with_nested_markets not asked
  });

  it('serves series, single markets, markets pages and batch candlesticks', async () => {
    expect((await get(`${server.venueAUrl}/series/KXFEDT`)).body).toMatchObject({ series: { ticker: 'KXFEDT' } });
    expect((await get(`${server.venueAUrl}/series/NOPE`)).status).toBe(404);
    expect((await get(`${server.venueAUrl}/markets/KXGDPT-26Q1-T2.0`)).body).toMatchObject({
      market: { ticker: 'KXGDPT-26Q1-T2.0' },
    });
    const closed = (await get(`${server.venueAUrl}/markets?status=closed`)).body as {
      markets: Array<{ ticker: string }>;
    };
    expect(closed.markets.map((m) => m.ticker)).toEqual(['KXGDPT-26Q1-T2.0']);
    const candles = (
      await get(
        `${server.venueAUrl}/markets/candlesticks?market_tickers=KXFEDT-26APR-T4.00,NOPE&start_ts=1776650000&end_ts=1776700000&period_interval=1440`,
      )
    ).body;
    expect(candles).toEqual({
      markets: [
        {
          market_ticker: 'KXFEDT-26APR-T4.00',
          candlesticks: [
            {
              end_period_ts: 1776686400,
              price: { close_dollars: '0.4300' },
              yes_bid: { close_dollars: '0.4200' },
              yes_ask: { close_dollars: '0.4400' },
              volume: 12,
              open_interest: 500,
            },
          ],
        },
        { market_ticker: 'NOPE', candlesticks: [] },
      ],
    });
  });
});

describe('venue_b and spot paths', () => {
  it('pages Gamma /events by offset and filters closed', async () => {
    const open = (await get(`${server.venueBUrl}/events?closed=false&limit=2&offset=2`)).body as Array<{ id: string }>;
    expect(open.map((e) => e.id)).toEqual(['9003', '9100']);
    const closed = (await get(`${server.venueBUrl}/events?closed=true`)).body as unknown[];
    expect(closed).toEqual([]);
    const markets = (await get(`${server.venueBUrl}/markets?limit=10`)).body as Array<{
      conditionId: string;
      events: Array<{ id: string }>;
    }>;
    expect(markets).toHaveLength(6);
    expect(markets.find((m) => m.conditionId === '0xddd1')?.events[0]?.id).toBe('9100');
  });

  it('serves CLOB books (404 when absent), price history and simple prices', async () => {
    expect((await get(`${server.clobUrl}/book?token_id=111`)).body).toMatchObject({ asset_id: '111' });
    expect((await get(`${server.clobUrl}/book?token_id=999`)).status).toBe(404);
    expect(
      (await get(`${server.clobUrl}/prices-history?market=111&startTs=1776640000&endTs=1776690000&fidelity=60`)).body,
    ).toEqual({
      history: [
        { t: 1776643200, p: 0.19 },
        { t: 1776686400, p: 0.2 },
      ],
    });
    expect(
      (await get(`${server.spotUrl}/simple/price?ids=bitcoin,dogecoin&vs_currencies=usd&include_last_updated_at=true`))
        .body,
    ).toEqual({
      bitcoin: { usd: 95000, last_updated_at: 1776686400 },
    });
    expect((await get(`${server.url}/nowhere`)).status).toBe(404);
  });
});

describe('releaseCatalog', () => {
  it('lets go of the catalog and says so with 410, while histories and spot prices are still served', async () => {
    const own = await startReplayServer({ dir: BASIC_DIR });
    try {
      const kept = [
        `${own.venueAUrl}/markets/candlesticks?market_tickers=KXFEDT-26APR-T4.00&start_ts=0&end_ts=1776700000`,
        `${own.clobUrl}/prices-history?market=111&startTs=0&endTs=1776690000`,
        `${own.spotUrl}/simple/price?ids=bitcoin&vs_currencies=usd`,
      ];
      const before = await Promise.all(kept.map(get));
      expect(own.data.venueA.markets.size).toBe(6);
      own.releaseCatalog();
      expect(own.data.venueA.markets.size).toBe(0);
      expect(own.data.venueB.events).toEqual([]);
      for (const url of [
        `${own.venueAUrl}/events?with_nested_markets=true`,
        `${own.venueAUrl}/markets/KXGDPT-26Q1-T2.0`,
        `${own.venueAUrl}/series/KXFEDT`,
        `${own.venueBUrl}/events?closed=false`,
        `${own.clobUrl}/book?token_id=111`,
      ]) {
        const answer = await get(url);
        expect(answer.status, url).toBe(410);
        expect((answer.body as { error: string }).error).toMatch(/catalog was released after the run pulled it/);
      }
      const after = await Promise.all(kept.map(get));
      expect(after).toEqual(before);
      expect(after.map((a) => a.status)).toEqual([200, 200, 200]);
      const candles = after[0]?.body as { markets: Array<{ candlesticks: unknown[] }> } | undefined;
      expect(candles?.markets[0]?.candlesticks.length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });
});
