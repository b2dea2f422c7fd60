// Invariant: through the real MCP SDK client, get_market answers concise by default (grade, caps with ceilings, the factors that cost points with rule, meaning and quoted evidence, source, price with as-of, twins with their price time, the event, the rules text once) and full on request (equal to REST); compare_question, get_stats and glossary answer from the query service; and every empty or not-found answer says why and what to try.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market, Rcg } from '../../src/domain/index.ts';
import { call, type Started, startServer } from '../e2e/rest-helpers.ts';
import { btcA, btcB, btcMarketA, btcMarketB, fed, fedMarkets, NOW, seedStore } from '../serve/seed.ts';
import { makeMarket } from '../support/records.ts';

type Obj = Record<string, unknown>;
let server: Started;
let client: Client;

const RULES =
  'This market will resolve to "Yes" if Bitcoin reaches $150,000 by December 31, 2026. The resolution source will be a consensus of credible reporting, such as Binance.';

/** A grade as the rubric writes it: two factors cost points, one passed, with quoted evidence. */
const vagueRcg: Rcg = {
  grade: 'C',
  score: 62,
  caps: ['commitment_uncommitted_placeholder'],
  applied_factors: 6,
  rubric_version: 'rcg-1.1.0',
  factors: [
    {
      factor: 'trigger_objectivity',
      weight: 28,
      rating: 'pass',
      points: 28,
      rule: 'trigger.numeric_threshold',
      evidence: [{ field: 'question_raw', quote: '$150k', start: 21, end: 26 }],
    },
    {
      factor: 'source_mutability',
      weight: 5,
      rating: 'partial',
      points: 2.5,
      rule: 'mutability.reporting_revisable',
      evidence: [{ field: 'description_raw', quote: 'a consensus of credible reporting', start: 110, end: 143 }],
    },
    {
      factor: 'arbiter_incentive',
      weight: 12,
      rating: 'fail',
      points: 0,
      rule: 'arbiter.permissionless_oracle',
      evidence: [{ field: 'resolved_by', quote: null, start: null, end: null, value: '0x2F5e' }],
    },
  ],
};

/** venue_b as the normalizer stores it: the rules in description_raw, copied to resolution_rules_raw and underlying_reference. */
const vagueB: Market = {
  ...btcMarketB,
  description_raw: RULES,
  resolution_rules_raw: RULES,
  underlying_reference: `${RULES} Outcome: Yes.`,
  source_commitment_subtype: 'uncommitted_placeholder',
  source_hedge_text: 'a consensus of credible reporting',
  rcg: vagueRcg,
  also_on: [{ venue: 'venue_a', market_id: btcMarketA.market_id, price: 0.19, relation: 'same' }],
};

/** A related pair (two question_ids): the fed ladder's 4.50% strike and a venue_b market deciding on another event. */
const fed450 = fedMarkets[3];
const relatedB = makeMarket({
  native: '0xfed0000000000000000000000000000000000000000000000000000000000450',
  platform: 'venue_b',
  event_id: btcB.event_id,
  question_raw: 'Will the Fed upper bound be above 4.50% after the December 2026 FOMC statement?',
  question_id: 'SVCX-FEDB450000',
});
const related = (venue: 'venue_a' | 'venue_b', market_id: string): NonNullable<Market['also_on']>[number] => ({
  venue,
  market_id,
  price: null,
  relation: 'related',
  differences: [{ type: 'resolves_on', venue_a: 'meeting', venue_b: 'statement' }],
});

beforeAll(async () => {
  if (!fed450) throw new Error('seed ladder changed');
  const store = await seedStore();
  const runId = await store.startRun('simulated', NOW.toISOString());
  await store.transaction(async (tx) => {
    await tx.upsertMarkets([
      vagueB,
      { ...fed450, also_on: [related('venue_b', relatedB.market_id)] },
      { ...relatedB, also_on: [related('venue_a', fed450.market_id)] },
    ]);
  });
  await store.finishRun(runId, 'ok', {}, NOW.toISOString(), true);
  server = await startServer({ store });
  client = new Client({ name: 'lean', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

async function tool(name: string, args: Obj): Promise<{ value: Obj; text: string }> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ text: string }>)[0]?.text ?? '';
  expect(r.isError, `${name} ${JSON.stringify(args)}: ${text}`).toBeFalsy();
  expect(JSON.parse(text)).toEqual(r.structuredContent);
  return { value: r.structuredContent as Obj, text };
}
async function failure(name: string, args: Obj): Promise<{ error: string; next_step: string }> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError).toBe(true);
  return JSON.parse((r.content as Array<{ text: string }>)[0]?.text ?? '{}') as { error: string; next_step: string };
}
const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe('tool descriptions', () => {
  it('say in plain words what each new tool answers', async () => {
    const { tools } = await client.listTools();
    const described = (name: string) => tools.find((t) => t.name === name)?.description ?? '';
    expect(described('get_market')).toMatch(/"can I trust how this settles\?"/);
    expect(described('compare_question')).toMatch(/"is this the same bet on the other venue\?"/);
    expect(described('get_stats')).toMatch(/"how common is X\?"/);
    expect(described('glossary')).toMatch(/"what does X mean\?"/);
    for (const t of tools) expect([t.name, t.outputSchema?.type]).toEqual([t.name, 'object']);
  });
});

describe('get_market: concise by default, full on request', () => {
  it('answers concise with the deciding factors, caps, source, price time, twins and the rules once', async () => {
    const { value, text } = await tool('get_market', { market_id: vagueB.platform_market_id });
    expect(value.detail).toBe('concise');
    expect(value.rcg).toEqual({
      grade: 'C',
      score: 62,
      caps: [
        {
          cap: 'commitment_uncommitted_placeholder',
          ceiling: 'C',
          meaning: expect.stringMatching(/consensus of credible reporting/),
        },
      ],
      deciding_factors: [
        {
          factor: 'arbiter_incentive',
          rating: 'fail',
          points_lost: 12,
          rule: 'arbiter.permissionless_oracle',
          meaning: expect.stringMatching(/permissionless oracle/),
          evidence: [{ field: 'resolved_by', value: '0x2F5e' }],
        },
        {
          factor: 'source_mutability',
          rating: 'partial',
          points_lost: 2.5,
          rule: 'mutability.reporting_revisable',
          meaning: expect.stringMatching(/placeholder reporting/),
          evidence: [{ field: 'description_raw', quote: 'a consensus of credible reporting' }],
        },
      ],
    });
    expect(value.resolution).toMatchObject({
      source_of_record: null,
      source_commitment_subtype: 'uncommitted_placeholder',
      source_hedge_text: 'a consensus of credible reporting',
      rules: RULES,
    });
    expect(value.price_as_of).toBe('2026-11-21T11:59:00.000Z');
    expect(value.also_on).toEqual([
      {
        venue: 'venue_a',
        market_id: btcMarketA.market_id,
        price: 0.19,
        relation: 'same',
        price_as_of: '2026-11-21T11:59:00.000Z',
      },
    ]);
    expect(value.event).toMatchObject({ event_id: btcMarketB.event_id, slug: 'bitcoin-150k-by-dec-31' });
    expect(occurrences(text, JSON.stringify(RULES).slice(1, -1))).toBe(1);
  });

  it('answers full on request, equal to REST, where the rules text appears three times', async () => {
    const { value, text } = await tool('get_market', { market_id: vagueB.market_id, detail: 'full' });
    expect(value).toEqual((await call(server.base, `/v1/markets/${vagueB.market_id}`)).body);
    expect(occurrences(text, JSON.stringify(RULES).slice(1, -1))).toBe(3);
    const concise = await tool('get_market', { market_id: vagueB.market_id });
    expect(concise.text.length).toBeLessThan(text.length);
  });

  it('answers get_event concise by default, as REST detail=concise', async () => {
    const { value } = await tool('get_event', { slug: fed.slug });
    expect(value).toEqual((await call(server.base, `/v1/events/${fed.slug}?detail=concise`)).body);
    const full = await tool('get_event', { slug: fed.slug, detail: 'full' });
    expect(full.value).toEqual((await call(server.base, `/v1/events/${fed.slug}`)).body);
  });
});

describe('search_markets', () => {
  it('finds markets by words and filters, as REST /v1/markets does', async () => {
    const { value } = await tool('search_markets', { q: 'bitcoin', limit: 20 });
    const rest = (await call(server.base, '/v1/markets?q=bitcoin&limit=20')).body as Obj;
    expect(value.markets).toEqual(rest.markets);
    expect((value.markets as Obj[]).map((m) => m.market_id)).toEqual(
      expect.arrayContaining([btcMarketA.market_id, vagueB.market_id]),
    );
    const placeholder = await tool('search_markets', {
      platform: 'venue_b',
      source_commitment_subtype: 'uncommitted_placeholder',
    });
    expect((placeholder.value.markets as Obj[]).map((m) => m.market_id)).toEqual([vagueB.market_id]);
    const twins = await tool('search_markets', { has_twin: true, platform: 'venue_a' });
    expect((twins.value.markets as Obj[]).map((m) => m.market_id)).toContain(btcMarketA.market_id);
  });

  it('says why a search found nothing; a malformed date is a protocol error', async () => {
    const { value } = await tool('search_markets', { q: 'zzyzx qwvx' });
    expect(value.total).toBe(0);
    expect(value.notice).toEqual({ reason: expect.any(String), try: expect.any(Array) });
    await expect(
      client.callTool({ name: 'search_markets', arguments: { closes_after: 'next week' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe('compare_question, get_stats, glossary', () => {
  it('compares a pair by question id and by either market, and lists pairs', async () => {
    const byId = await tool('compare_question', { question_id: 'SVCX-0123456789' });
    expect(byId.value).toMatchObject({
      question_id: 'SVCX-0123456789',
      venue_a: { market_id: btcMarketA.market_id },
      venue_b: { market_id: btcMarketB.market_id },
    });
    expect((await tool('compare_question', { market_id: btcMarketA.platform_market_id })).value).toEqual(byId.value);
    expect((await tool('compare_question', { market_id: btcMarketB.market_id })).value).toEqual(byId.value);
    const list = await tool('compare_question', {});
    expect((list.value.questions as Obj[]).map((q) => q.question_id)).toContain('SVCX-0123456789');
  });

  it('finds a related pair from either market through its also_on link', async () => {
    const fromA = await tool('compare_question', { market_id: fed450?.market_id ?? '' });
    expect(fromA.value).toMatchObject({
      id: expect.stringMatching(/^SVCR-/),
      relation: 'related',
      venue_a: { market_id: fed450?.market_id },
      venue_b: { market_id: relatedB.market_id },
    });
    expect((await tool('compare_question', { market_id: relatedB.market_id })).value).toEqual(fromA.value);
    expect((await tool('compare_question', { question_id: fromA.value.id as string })).value).toEqual(fromA.value);
  });

  it('says when a market or id has no pair, and what to try', async () => {
    const lone = await failure('compare_question', { market_id: fed.primary_market_id ?? '' });
    expect(lone.error).toMatch(/no linked market on the other venue/);
    expect(lone.next_step).toMatch(/search_markets/);
    const unknown = await failure('compare_question', { question_id: 'SVCX-FFFFFFFFFF' });
    expect(unknown.error).toMatch(/No cross-venue pair/);
  });

  it('answers "how common" with a count and a share, from the same statistics as REST', async () => {
    const rest = (await call(server.base, '/v1/stats')).body as { by_venue: Record<string, number> };
    const { value } = await tool('get_stats', {
      venue: 'venue_b',
      source_commitment_subtype: 'uncommitted_placeholder',
    });
    const sel = value.selection as { markets: number; out_of: number; share: number; sentence: string };
    expect(sel.out_of).toBe(rest.by_venue.venue_b);
    expect(sel.markets).toBe(1);
    expect(sel.share).toBeCloseTo(1 / (rest.by_venue.venue_b ?? 1), 4);
    expect(sel.sentence).toMatch(/^1 of \d+ venue_b markets have commitment uncommitted_placeholder/);
    expect(value.cells).toBeUndefined();
    const plain = await tool('get_stats', {});
    expect(plain.value.selection).toBeNull();
    expect(plain.value.by_venue).toEqual(rest.by_venue);
  });

  it('explains a code, and says why an unknown one has no entry', async () => {
    const { value } = await tool('glossary', { term: 'clarity.no_committed_source' });
    expect(value.entries).toEqual([
      {
        term: 'clarity.no_committed_source',
        kind: 'rule',
        meaning: expect.stringMatching(/^Fail: no committed source/),
      },
    ]);
    const none = await tool('glossary', { term: 'florp' });
    expect(none.value.count).toBe(0);
    expect((none.value.notice as { reason: string }).reason).toMatch(/florp/);
  });
});

describe('empty and not-found answers say why and what to try', () => {
  it('list_events: words no event has, and filters that exclude the matches', async () => {
    const noWords = (await tool('list_events', { q: 'zzyzx' })).value;
    expect(noWords.total).toBe(0);
    expect(noWords.notice).toEqual({
      reason: expect.stringMatching(/No event question or tag contains every word of "zzyzx"/),
      try: expect.arrayContaining([expect.stringMatching(/^search_markets/)]),
    });
    const filtered = (await tool('list_events', { q: 'bitcoin', category: 'health' })).value;
    expect(filtered.notice).toEqual({
      reason: expect.stringMatching(/^2 event\(s\) match "bitcoin", but none with category=health/),
      try: ['drop category'],
    });
    const found = (await tool('list_events', { q: 'bitcoin' })).value;
    expect(found.notice).toBeUndefined();
  });

  it('list_signals and catalysts: filters that match nothing, a window with nothing in it', async () => {
    const signals = (await tool('list_signals', { kind: 'volume_spike' })).value;
    expect(signals.notice).toEqual({
      reason: '1 bulletin(s) are on the wire, but none match these filters.',
      try: expect.arrayContaining(['list_signals with no filters']),
    });
    const cats = (await tool('list_upcoming_catalysts', { days: 1 })).value;
    expect(cats.notice).toEqual({ reason: 'No scheduled catalyst is dated in the next 1 day(s).', try: ['days=90'] });
  });

  it('an unknown id names the lookup forms accepted and the tool it looks meant for', async () => {
    const market = await failure('get_market', { market_id: 'KXNOPE-1' });
    expect(market.next_step).toMatch(/SVC-MKT- and 10 letters or digits.*venue_a ticker.*condition id.*URL/);
    expect((await failure('get_market', { market_id: btcA.event_id })).error).toMatch(/event id: call get_event/);
    expect((await failure('get_market', { market_id: 'SVCX-0123456789' })).error).toMatch(/compare_question/);
    const event = await failure('get_event', { slug: btcMarketA.market_id });
    expect(event.error).toMatch(/market id: call get_market/);
    expect(event.next_step).toMatch(/SVC-EVT-.*slug/);
  });
});
