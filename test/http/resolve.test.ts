// GET /v1/resolve reads any identifier of either venue or of pmref — page and API URLs, tickers, slugs, condition ids, CLOB token ids, Gamma ids, pmref ids — and answers with the one market or event it names and all its identifiers, lists the candidates when several share it, and refuses a missing or over-long ref (400) and an unknown one (404, naming the accepted kinds, quoting nothing back); GET /v1/markets/{id} and get_market take the same references.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TOOLS, NO_DEPS } from '../../src/agents/index.ts';
import { type Market, type MarketVenueRefs, type ResolveAnswer, ResolveAnswerSchema } from '../../src/domain/index.ts';
import { buildApp } from '../../src/http/index.ts';
import { QueryService, ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { runOn, tempStore } from '../pipeline/harness.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURES = fileURLToPath(new URL('./resolve-fixtures/', import.meta.url));

type Rec = Record<string, unknown>;
type App = Awaited<ReturnType<typeof buildApp>>;

const TOKEN_A1 = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const CONDITION_A1 = `0x${'a1'.repeat(32)}`;

/**
 * The venue identifiers the fixtures hold beyond tickers and condition ids, by native id: what the venue
 * normalizers are to record in a Market's `venue_refs` (venue_b slug, CLOB tokens, questionID, id; venue_a event
 * series_ticker). The test gives them to the stored records, so that the serving side is checked whether or not
 * the normalizers record them yet.
 */
function fixtureVenueRefs(): Map<string, MarketVenueRefs> {
  const out = new Map<string, MarketVenueRefs>();
  const a = JSON.parse(readFileSync(`${FIXTURES}venue_a_events.json`, 'utf8')) as { events: Rec[] };
  for (const e of a.events) {
    for (const m of e.markets as Rec[]) out.set(String(m.ticker), { series_ticker: String(e.series_ticker) });
  }
  const b = JSON.parse(readFileSync(`${FIXTURES}venue_b_events.json`, 'utf8')) as Rec[];
  for (const e of b) {
    for (const m of e.markets as Rec[]) {
      out.set(String(m.conditionId), {
        market_slug: String(m.slug),
        token_ids: JSON.parse(String(m.clobTokenIds)) as string[],
        venue_question_id: String(m.questionID),
        venue_market_id: String(m.id),
      });
    }
  }
  return out;
}

let store: Store;
let dispose: () => Promise<void>;
let app: App;
let holder: ReadModelHolder;
const byNative = new Map<string, Market>();

beforeAll(async () => {
  ({ store, dispose } = await tempStore());
  await runOn(store, FIXTURES, NOW);
  const refs = fixtureVenueRefs();
  const markets = (await store.listMarkets()).map((m) =>
    Object.assign({}, m, { venue_refs: refs.get(m.platform_market_id) ?? null }),
  );
  await store.transaction((tx) => tx.upsertMarkets(markets));
  for (const m of markets) byNative.set(m.platform_market_id, m);
  holder = await ReadModelHolder.create(store, { origin: 'http://pmref.test', clock: () => new Date(NOW) });
  app = await buildApp({
    store,
    readModel: holder,
    config: { origin: 'http://pmref.test', trustProxy: false, refreshMinutes: 60 },
    clock: () => new Date(NOW),
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await dispose();
});

function market(native: string): Market {
  const m = byNative.get(native);
  if (!m) throw new Error(`no stored market ${native}`);
  return m;
}

async function resolve(ref: string) {
  return app.inject({ method: 'GET', url: `/v1/resolve?ref=${encodeURIComponent(ref)}` });
}

async function answerOf(ref: string): Promise<ResolveAnswer> {
  const res = await resolve(ref);
  expect(res.statusCode, `${ref}: ${res.body}`).toBe(200);
  const parsed = ResolveAnswerSchema.safeParse(res.json());
  expect(parsed.error, `${ref}: the answer is not in its documented shape`).toBeUndefined();
  return res.json() as ResolveAnswer;
}

/** `match id` of an answer, or `ambiguous: match id, …` of its candidates. */
function gist(a: ResolveAnswer): string {
  if (a.match === 'ambiguous') return `ambiguous: ${a.candidates.map((c) => `${c.match} ${c.id}`).join(', ')}`;
  return `${a.match} ${a.id}`;
}

describe('GET /v1/resolve', () => {
  it('answers a venue_b market page with the market and every identifier it has', async () => {
    const m = market(CONDITION_A1);
    const ref = 'https://polymarket.com/event/fed-decision-in-april/fed-cuts-25-bps-april';
    expect(await answerOf(ref)).toEqual({
      ref,
      kind: 'venue_b_url',
      matched_on: 'market_slug',
      match: 'market',
      id: m.market_id,
      path: `/v1/markets/${m.market_id}`,
      page: '/events/fed-decision-in-april',
      identifiers: {
        venue: 'venue_b',
        market_id: m.market_id,
        event_id: m.event_id,
        event_slug: 'fed-decision-in-april',
        question_id: m.question_id,
        condition_id: CONDITION_A1,
        market_slug: 'fed-cuts-25-bps-april',
        token_ids: [TOKEN_A1, '48331043336612883890938759509493159234755048973500640148014422747788308965732'],
        venue_question_id: `0x${'b1'.repeat(32)}`,
        venue_market_id: '700101',
        venue_event_id: '900101',
        venue_urls: [
          'https://polymarket.com/event/fed-decision-in-april',
          'https://polymarket.com/event/fed-decision-in-april/fed-cuts-25-bps-april',
        ],
      },
    });
  });

  it('answers a venue_a event page with the event, its markets and its recorded series', async () => {
    const t400 = market('KXFED-26APR-T4.00');
    const t425 = market('KXFED-26APR-T4.25');
    const ref = 'https://kalshi.com/markets/kxfed/fed-decision/kxfed-26apr';
    const a = await answerOf(ref);
    expect(a).toEqual({
      ref,
      kind: 'venue_a_url',
      matched_on: 'event_ticker',
      match: 'event',
      id: t400.event_id,
      path: `/v1/events/${t400.event_id}`,
      page: '/events/fed-decision-in-april-2026-kxfed-26apr',
      identifiers: {
        venue: 'venue_a',
        market_id: null,
        event_id: t400.event_id,
        event_slug: 'fed-decision-in-april-2026-kxfed-26apr',
        market_ids: [t400.market_id, t425.market_id].sort(),
        event_ticker: 'KXFED-26APR',
        series_ticker: 'KXFED',
        venue_urls: ['https://kalshi.com/markets/kxfed'],
      },
    });
  });

  it('reads every kind of identifier, in any case, to its record', async () => {
    const a1 = market(CONDITION_A1);
    const chair = market('FEDCHAIR-26-KW');
    const t425 = market('KXFED-26APR-T4.25');
    const cases: Array<[ref: string, kind: string, want: string]> = [
      [a1.market_id, 'market_id', `market ${a1.market_id}`],
      [a1.market_id.toLowerCase(), 'market_id', `market ${a1.market_id}`],
      [String(a1.event_id), 'event_id', `event ${a1.event_id}`],
      [String(a1.question_id), 'question_id', `market ${a1.market_id}`],
      ['kxfed-26apr-t4.25', 'ticker', `market ${t425.market_id}`],
      ['KXFED-26APR', 'event_ticker', `event ${t425.event_id}`],
      ['KXFEDCHAIR', 'series_ticker', `event ${chair.event_id}`],
      [CONDITION_A1.toUpperCase().replace('0X', '0x'), 'condition_id', `market ${a1.market_id}`],
      [TOKEN_A1, 'token_id', `market ${a1.market_id}`],
      [`0x${'B1'.repeat(32)}`, 'venue_question_id', `market ${a1.market_id}`],
      ['700101', 'venue_market_id', `market ${a1.market_id}`],
      ['900101', 'venue_event_id', `event ${a1.event_id}`],
      ['Fed-Cuts-25-BPS-April', 'market_slug', `market ${a1.market_id}`],
      ['fed-decision-in-april', 'event_slug', `event ${a1.event_id}`],
      ['who-will-chair-the-fed-on-june-1-2026-fedchair-26', 'event_slug', `event ${chair.event_id}`],
      ['www.polymarket.com/es/event/fed-decision-in-april/?tid=1', 'venue_b_url', `event ${a1.event_id}`],
      ['https://polymarket.com/market/fed-cuts-25-bps-april', 'venue_b_url', `market ${a1.market_id}`],
      ['https://kalshi.com/markets/kxfedchair', 'venue_a_url', `event ${chair.event_id}`],
      [`https://clob.polymarket.com/book?token_id=${TOKEN_A1}`, 'venue_b_url', `market ${a1.market_id}`],
      [
        'https://api.elections.kalshi.com/trade-api/v2/markets/KXFED-26APR-T4.25',
        'venue_a_url',
        `market ${t425.market_id}`,
      ],
      [`http://pmref.test/v1/markets/${t425.market_id}`, 'url', `market ${t425.market_id}`],
      ['/events/fed-decision-in-april', 'url', `event ${a1.event_id}`],
    ];
    for (const [ref, kind, want] of cases) {
      const a = await answerOf(ref);
      expect({ ref, kind: a.kind, got: gist(a) }).toEqual({ ref, kind, got: want });
    }
  });

  it('lists the candidates when records share a reference, markets first, and picks none', async () => {
    const cut = market('KXRATECUT-26');
    const june = market(`0x${'a3'.repeat(32)}`);
    // venue_a: the one market of an event carries the event's ticker.
    const byTicker = await answerOf('KXRATECUT-26');
    expect(gist(byTicker)).toBe(`ambiguous: market ${cut.market_id}, event ${cut.event_id}`);
    expect(byTicker).toMatchObject({ kind: 'ticker', matched_on: 'ticker', total: 2 });
    // venue_b: a one-market event and its market share the slug.
    expect(gist(await answerOf('will-the-fed-cut-in-june'))).toBe(
      `ambiguous: market ${june.market_id}, event ${june.event_id}`,
    );
    // A venue page says what it shows: the event's page is the event.
    expect(gist(await answerOf('https://polymarket.com/event/will-the-fed-cut-in-june'))).toBe(
      `event ${june.event_id}`,
    );
    expect(gist(await answerOf('https://kalshi.com/markets/kxratecut/fed-cut/kxratecut-26'))).toBe(
      `event ${cut.event_id}`,
    );
  });

  it('does not read a venue URL as the other venue’s identifier', async () => {
    expect((await resolve('https://kalshi.com/markets/fed-decision-in-april')).statusCode).toBe(404);
    expect((await resolve('https://polymarket.com/event/kxfed-26apr')).statusCode).toBe(404);
  });

  it('answers 404 in the one error shape, naming the accepted kinds and quoting nothing back', async () => {
    const res = await resolve('no-such-market-anywhere-2099');
    expect(res.statusCode).toBe(404);
    const body = res.json() as { error: string; code: string; hint: string; request_id: string };
    expect(body).toEqual({
      error: 'No market or event matches this reference',
      code: 'not_found',
      hint: expect.stringContaining('CLOB token id') as unknown as string,
      request_id: res.headers['x-request-id'],
    });
    for (const kind of ['URL', 'ticker', 'slug', 'condition id', 'SVC-MKT-', 'SVC-EVT-'])
      expect(body.hint).toContain(kind);
    expect(res.body).not.toContain('no-such-market-anywhere-2099');
  });

  it('answers 400 for a missing, empty, repeated or over-long ref', async () => {
    for (const url of [
      '/v1/resolve',
      '/v1/resolve?ref=',
      '/v1/resolve?ref=%20%20',
      '/v1/resolve?ref=a&ref=b',
      `/v1/resolve?ref=${'k'.repeat(2049)}`,
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect((res.json() as { code: string }).code).toBe('invalid_request');
    }
  });

  it('is metered and cacheable like the other data routes (RateLimit headers, ETag, 304)', async () => {
    const first = await resolve('KXFED-26APR');
    expect(first.headers['ratelimit-limit']).toBeDefined();
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = String(first.headers.etag);
    const again = await app.inject({
      method: 'GET',
      url: `/v1/resolve?ref=KXFED-26APR`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(String((await resolve('KXFED-26APR-T4.00')).headers.etag)).not.toBe(etag);
  });

  it('is in /openapi.json with its answer schema', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get?: { operationId?: string; responses?: Record<string, unknown> } }>;
    };
    const op = doc.paths['/v1/resolve']?.get;
    expect(op?.operationId).toBe('resolveRef');
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '404', '429']));
  });
});

describe('GET /v1/markets/{id} and get_market with any reference', () => {
  it('answer with the market a slug, token id, Gamma id or venue page names (200, the market body)', async () => {
    const a1 = market(CONDITION_A1);
    const june = market(`0x${'a3'.repeat(32)}`);
    const cut = market('KXRATECUT-26');
    const cases: Array<[string, string]> = [
      ['fed-cuts-25-bps-april', a1.market_id],
      [TOKEN_A1, a1.market_id],
      ['700101', a1.market_id],
      ['https://polymarket.com/event/fed-decision-in-april/fed-cuts-25-bps-april', a1.market_id],
      // A one-market event's page or slug names its market.
      ['https://polymarket.com/event/will-the-fed-cut-in-june', june.market_id],
      ['will-the-fed-cut-in-june', june.market_id],
      ['https://kalshi.com/markets/kxratecut/fed-cut/kxratecut-26', cut.market_id],
    ];
    for (const [ref, id] of cases) {
      const res = await app.inject({ method: 'GET', url: `/v1/markets/${encodeURIComponent(ref)}` });
      expect(res.statusCode, ref).toBe(200);
      expect((res.json() as { market_id: string }).market_id, ref).toBe(id);
      const canonical = await app.inject({ method: 'GET', url: `/v1/markets/${id}` });
      expect(res.headers.etag, ref).toBe(canonical.headers.etag);
    }
  });

  it('answer 404 for an event of several markets, a pmref event id and what names nothing', async () => {
    const june = market(`0x${'a3'.repeat(32)}`);
    for (const ref of [
      'https://kalshi.com/markets/kxfed/fed-decision/kxfed-26apr',
      // An event id names the event, even one of a single market: the client is pointed to the event instead.
      String(june.event_id),
      'fed-decision-in-april',
      'nope-0',
    ]) {
      const res = await app.inject({ method: 'GET', url: `/v1/markets/${encodeURIComponent(ref)}` });
      expect(res.statusCode, ref).toBe(404);
      expect((res.json() as { code: string }).code).toBe('market_not_found');
    }
  });

  it('lets get_market and compare_question take the same references', async () => {
    const a1 = market(CONDITION_A1);
    const qs = new QueryService(holder, () => new Date(NOW));
    const tool = (name: string) => {
      const t = AGENT_TOOLS.find((x) => x.name === name);
      if (!t) throw new Error(name);
      return t;
    };
    const got = await tool('get_market').run(
      qs,
      { market_id: 'https://polymarket.com/market/fed-cuts-25-bps-april' },
      NO_DEPS,
    );
    expect(got.found && got.value.market_id).toBe(a1.market_id);
    const miss = await tool('get_market').run(qs, { market_id: 'fed-decision-in-april' }, NO_DEPS);
    expect(miss.found).toBe(false);
    const compared = await tool('compare_question').run(qs, { market_id: TOKEN_A1 }, NO_DEPS);
    // No twin in these fixtures: the answer names the market the token id led to.
    expect(compared.found ? '' : compared.error).toContain(a1.market_id);
  });
});
