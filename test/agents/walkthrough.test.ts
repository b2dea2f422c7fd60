// Invariant: five plain-language questions a desk asks are answered through MCP tool calls alone, and every
// answer is read from tool results (no knowledge of the dataset outside the tools).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Started, startServer } from '../e2e/rest-helpers.ts';
import { fedMarkets, NOW, seedStore, TODAY } from '../serve/seed.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

type Obj = Record<string, unknown>;
let server: Started;
let client: Client;

const QID = 'SVCX-FEDDEC4250';
const fed425 = fedMarkets[2];
// A venue_b twin of the venue_a 4.25% strike, and a venue_b geopolitics bundle with one committed and one
// placeholder-sourced market.
const fedB = makeEvent({
  native: 'fed-dec-2026-b',
  slug: 'fed-decision-december-2026',
  question: 'Fed upper bound above 4.25% after December?',
  category: 'economics',
  venue: 'venue_b',
  tags: ['fed'],
});
const fedBMarket = makeMarket({
  native: '0xfed0000000000000000000000000000000000000000000000000000000000003',
  platform: 'venue_b',
  event_id: fedB.event_id,
  question_raw: 'Will the Fed upper bound be above 4.25% after the December 2026 meeting?',
  question_id: QID,
  direction: 'above',
  threshold: 4.25,
});
const geo = makeEvent({
  native: 'ceasefire-2027',
  slug: 'ceasefire-by-march-2027',
  question: 'Ceasefire by March 2027?',
  category: 'geopolitics',
  venue: 'venue_b',
  tags: ['ceasefire'],
});
const geoVague = makeMarket({
  native: '0x9e00000000000000000000000000000000000000000000000000000000000004',
  platform: 'venue_b',
  event_id: geo.event_id,
  question_raw: 'Ceasefire announced by March 31, 2027?',
  source_commitment: 'uncommitted',
  source_commitment_subtype: 'uncommitted_placeholder',
  source_status: 'no_committed_source',
});
const geoNamed = makeMarket({
  native: '0x9e00000000000000000000000000000000000000000000000000000000000005',
  platform: 'venue_b',
  event_id: geo.event_id,
  question_raw: 'UN Security Council resolution on a ceasefire by March 31, 2027?',
  source_commitment: 'named',
  source_commitment_subtype: 'named',
  source_of_record: 'United Nations Security Council',
  source_status: 'platform_named',
});

beforeAll(async () => {
  const store = await seedStore();
  if (!fed425) throw new Error('seed ladder changed');
  const runId = await store.startRun('simulated', NOW.toISOString());
  const base = (await store.latestMarks()).find((m) => m.market_id === fed425.market_id);
  if (!base) throw new Error('seed marks changed');
  const { mark_id: _id, ...rest } = base;
  await store.transaction(async (tx) => {
    await tx.upsertEvents([fedB, { ...geo, primary_market_id: geoVague.market_id }]);
    await tx.upsertMarkets([
      { ...fed425, question_id: QID, also_on: [{ venue: 'venue_b', market_id: fedBMarket.market_id, price: 0.35 }] },
      { ...fedBMarket, also_on: [{ venue: 'venue_a', market_id: fed425.market_id, price: 0.28 }] },
      geoVague,
      geoNamed,
    ]);
    await tx.upsertMarks([
      {
        ...rest,
        market_id: fedBMarket.market_id,
        yes_last_price: 0.35,
        implied_probability: 0.35,
        snapshot_date: TODAY,
      },
    ]);
  });
  await store.finishRun(runId, 'ok', {}, NOW.toISOString(), true);
  server = await startServer({ store });
  client = new Client({ name: 'desk', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

async function tool(name: string, args: Obj): Promise<Obj> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, `${name} ${JSON.stringify(args)}`).toBeFalsy();
  return r.structuredContent as Obj;
}
const events = (list: Obj) => list.events as Obj[];
const markets = (event: Obj) => event.markets as Obj[];

describe('a desk asks five questions, answered only through MCP tools', () => {
  it('1. which venue_b geopolitics markets name no committed source?', async () => {
    const list = await tool('list_events', { category: 'geopolitics', platform: 'venue_b' });
    const answer: string[] = [];
    for (const e of events(list)) {
      const detail = await tool('get_event', { slug: e.slug as string, detail: 'full' });
      for (const m of markets(detail)) {
        const res = m.resolution as Obj;
        if (res.source_of_record === null) answer.push(`${m.market_id} (${res.source_commitment_subtype})`);
      }
    }
    expect(answer).toEqual([`${geoVague.market_id} (uncommitted_placeholder)`]);
  });

  it('2. is there a central-bank market on both venues, and what is the price gap?', async () => {
    const list = await tool('list_events', { q: 'fed', platform: 'venue_a' });
    const pairs: Array<{ a: string; b: string; gap: number }> = [];
    for (const e of events(list)) {
      for (const m of markets(await tool('get_event', { slug: e.event_id as string }))) {
        for (const twin of (m.also_on as Obj[] | null) ?? []) {
          const other = await tool('get_market', { market_id: twin.market_id as string });
          pairs.push({
            a: m.market_id as string,
            b: other.market_id as string,
            gap: Math.abs((m.last_price as number) - (other.last_price as number)),
          });
        }
      }
    }
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.a).toBe(fed425?.market_id);
    expect(pairs[0]?.b).toBe(fedBMarket.market_id);
    expect(pairs[0]?.gap).toBeCloseTo(0.07, 6);
  });

  it('3. the three clearest economics markets', async () => {
    const list = await tool('list_events', { category: 'economics', limit: 100 });
    const all: Array<{ id: string; score: number }> = [];
    for (const e of events(list)) {
      for (const m of markets(await tool('get_event', { slug: e.slug as string }))) {
        const rcg = m.rcg as Obj;
        if (typeof rcg.score === 'number') all.push({ id: m.market_id as string, score: rcg.score });
      }
    }
    const top = all.sort((x, y) => y.score - x.score || x.id.localeCompare(y.id)).slice(0, 3);
    expect(top).toHaveLength(3);
    expect(top.every((t) => fedMarkets.some((m) => m.market_id === t.id))).toBe(true);
  });

  it('4. what scheduled releases come in the next 30 days?', async () => {
    const cal = await tool('list_upcoming_catalysts', { days: 30 });
    const items = (cal.catalysts as Obj[]).map((c) => `${c.date} ${c.type}`);
    expect(items).toEqual(['2026-12-05 cpi', '2026-12-10 fomc']);
    expect(
      (cal.catalysts as Obj[]).every(
        (c) => typeof c.source_url === 'string' && (c.source_url as string).startsWith('https://'),
      ),
    ).toBe(true);
  });

  it('5. what does a given venue_a ticker resolve on?', async () => {
    const m = await tool('get_market', { market_id: fed425?.platform_market_id ?? '' });
    const res = m.resolution as Obj;
    expect([res.source_of_record, res.source_commitment_subtype, res.arbitration_model]).toEqual([
      'Federal Reserve',
      'named',
      'venue_a_staff',
    ]);
    expect((m.rcg as Obj).grade).toMatch(/^[ABC]$/);
  });
});
