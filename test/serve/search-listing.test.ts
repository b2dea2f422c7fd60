// Market-level listing and search filter on each market's own fields (grade, commitment, twin, close), sort as asked, and answer an empty or malformed request with a reason and what to try (unknown values: an empty page; malformed numbers and dates: MarketQueryError, a 400 over REST).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketQueryError, QueryService, ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { btcA, btcMarketA, btcMarketB, fed, fedMarkets, NOW, seedStore, treaty, treatyMarket } from './seed.ts';

let store: Store;
let query: QueryService;
beforeAll(async () => {
  store = await seedStore();
  const holder = await ReadModelHolder.create(store, { origin: 'http://pmref.test', clock: () => NOW });
  query = new QueryService(holder, () => NOW);
});
afterAll(async () => {
  await store.close();
});

const ids = (page: { markets: Array<{ market_id: string }> }) => page.markets.map((m) => m.market_id).sort();

describe('findMarkets', () => {
  it("filters on the market's own grade, not its event's headline grade", () => {
    const a = query.findMarkets({ grade: 'A' });
    expect(ids(a)).toEqual([...fedMarkets.slice(0, 3).map((m) => m.market_id), btcMarketA.market_id].sort());
    expect(a.markets.every((m) => m.grade === 'A')).toBe(true);
    expect(ids(query.findMarkets({ grade: 'pending' }))).toEqual([fedMarkets[3]?.market_id]);
  });

  it('filters on commitment subtype, twin, platform, status and close window', () => {
    expect(ids(query.findMarkets({ source_commitment_subtype: 'uncommitted_illustrative' }))).toEqual([
      btcMarketB.market_id,
    ]);
    expect(ids(query.findMarkets({ has_twin: 'true' }))).toEqual([btcMarketA.market_id, btcMarketB.market_id].sort());
    expect(ids(query.findMarkets({ status: 'resolved' }))).toEqual([treatyMarket.market_id]);
    const december = query.findMarkets({
      closes_after: '2026-12-01',
      closes_before: '2026-12-31',
      platform: 'venue_a',
    });
    expect(ids(december)).toEqual(fedMarkets.map((m) => m.market_id).sort());
  });

  it('finds markets through synonyms, a typo and a ticker prefix, with a relevance score', () => {
    const funds = query.findMarkets({ q: 'federal funds' });
    expect(ids(funds)).toEqual(fedMarkets.map((m) => m.market_id).sort());
    expect(funds.markets.every((m) => typeof m.score === 'number' && m.score > 0)).toBe(true);
    expect(ids(query.findMarkets({ q: 'bitcon' }))).toEqual([btcMarketA.market_id, btcMarketB.market_id].sort());
    expect(ids(query.findMarkets({ q: 'KXFED' }))).toEqual(fedMarkets.map((m) => m.market_id).sort());
    expect(query.findMarkets({ q: 'KXFED-26DEC-T4.25' }).markets[0]?.platform_market_id).toBe('KXFED-26DEC-T4.25');
  });

  it('sorts by score, volume and close time, missing values last', () => {
    const byScore = query.findMarkets({ sort: 'rcg_score' }).markets.map((m) => m.rcg_score);
    expect(byScore).toEqual([90, 89, 88, 88, 71, 40, null]);
    const byVolume = query.findMarkets({ sort: 'volume' }).markets.map((m) => m.volume_24h_usd);
    expect(byVolume.slice(0, 3)).toEqual([6000, 2500, 1200]);
    const byClose = query.findMarkets({ sort: 'close_at', status: 'resolved' });
    expect(byClose.markets.map((m) => m.market_id)).toEqual([treatyMarket.market_id]);
  });

  it('answers an unknown value with an empty page naming the valid set, and a malformed one with an error', () => {
    const page = query.findMarkets({ grade: 'Z' });
    expect(page).toMatchObject({ total: 0, count: 0, markets: [] });
    expect(page.notice?.reason).toMatch(/grade "Z" is not known; valid: A, B, C, pending/);
    expect(page.notice?.try).toContain('grade=A');
    expect(() => query.findMarkets({ closes_after: 'tomorrow' })).toThrow(MarketQueryError);
    expect(() => query.findMarkets({ limit: 'ten' })).toThrow(MarketQueryError);
    const capped = query.findMarkets({ limit: '500' });
    expect(capped.limit).toBe(100);
    expect(capped.notice?.reason).toMatch(/capped/);
  });

  it('says why a search came back empty and what to try', () => {
    const none = query.findMarkets({ q: 'zzzqqq' });
    expect(none.total).toBe(0);
    expect(none.notice?.reason).toMatch(/No markets match "zzzqqq"/);
    expect(none.notice?.try.length).toBeGreaterThan(0);
    const filtered = query.findMarkets({ q: 'bitcoin', grade: 'C' });
    expect(filtered.notice?.reason).toMatch(/2 markets match q="bitcoin", none with grade=C/);
  });

  it('says that a q of words the search leaves out has nothing to search, not that the filters match nothing', () => {
    const stopwords = query.findMarkets({ q: 'will the', platform: 'venue_a' });
    expect(stopwords.total).toBe(0);
    expect(stopwords.notice?.reason).toMatch(/^q has no searchable word .*so no markets match it\.$/);
    expect(stopwords.notice?.reason).not.toMatch(/filters/);
    expect(stopwords.notice?.try).toContain('no q, to list every market the other filters keep');
  });
});

describe('findEvents', () => {
  it('filters grade_any on any market of the event, grade on the headline market', () => {
    const anyC = query.findEvents({ grade_any: 'C' }).events.map((e) => e.event_id);
    expect(anyC).toEqual([treaty.event_id]);
    const anyPending = query.findEvents({ grade_any: 'pending' }).events.map((e) => e.event_id);
    expect(anyPending).toEqual([fed.event_id]);
    const unknown = query.findEvents({ grade_any: 'Q' });
    expect(unknown.total).toBe(0);
    expect(unknown.notice?.reason).toMatch(/not a grade/);
  });

  it('finds the Fed event by FOMC synonyms and sorts by headline score', () => {
    expect(query.findEvents({ q: 'interest rates' }).events.map((e) => e.event_id)).toEqual([fed.event_id]);
    const byScore = query.findEvents({ sort: 'rcg_score' }).events.map((e) => e.rcg_score);
    expect(byScore).toEqual([...byScore].sort((a, b) => (b ?? -1) - (a ?? -1)));
    expect(query.findEvents({ sort: 'volume' }).events[0]?.event_id).not.toBe(btcA.event_id);
  });

  it('serves the REST list with sort, grade_any and a notice on an empty search', () => {
    const body = query.listEvents({ q: 'zzzqqq' }, false).value<{ total: number; notice: { reason: string } }>();
    expect(body.total).toBe(0);
    expect(body.notice.reason).toMatch(/No events match/);
    const stopwords = query
      .listEvents({ q: 'will' }, false)
      .value<{ total: number; notice: { reason: string; try: string[] } }>();
    expect(stopwords.total).toBe(0);
    expect(stopwords.notice.reason).toMatch(/^q has no searchable word .*so no events match it\.$/);
    expect(stopwords.notice.try).toContain('no q, to list every event the other filters keep');
    const sorted = query.listEvents({ sort: 'bogus' }, false).value<{ sort_notice: string }>();
    expect(sorted.sort_notice).toMatch(/not known/);
    const markets = query.listMarkets({ q: 'fed', limit: '2' }, true);
    const value = markets.value<{ count: number; total: number; keyed: boolean; markets: unknown[] }>();
    expect(value).toMatchObject({ count: 2, total: 4, keyed: true });
    expect(query.listMarkets({ q: 'fed', limit: '2' }, true).etag).toBe(markets.etag);
  });
});
