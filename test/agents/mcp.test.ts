// Invariant: the MCP tool server answers the official SDK client over streamable HTTP (JSON and SSE), lists
// its tools with input and output schemas, answers every tool from the same data as REST, returns
// not-found as an isError tool result with a next step, and treats unknown tools and bad arguments as
// protocol errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Started, startServer } from '../e2e/rest-helpers.ts';
import { btcMarketA, fed, signal } from '../serve/seed.ts';

let server: Started;
const TOOL_NAMES = [
  'list_events',
  'search_markets',
  'get_event',
  'get_market',
  'compare_question',
  'get_stats',
  'glossary',
  'list_upcoming_catalysts',
  'list_signals',
  'get_signal',
  'get_market_history',
];

async function connect(mode: 'json' | 'sse'): Promise<{ client: Client; seen: string[] }> {
  const seen: string[] = [];
  const fetchImpl = async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (mode === 'sse') headers.set('accept', 'text/event-stream, application/json;q=0.5');
    const res = await fetch(url, { ...init, headers });
    if (res.status === 200) seen.push(res.headers.get('content-type') ?? '');
    return res;
  };
  const transport = new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), { fetch: fetchImpl });
  const client = new Client({ name: 'pmref-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, seen };
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('MCP over streamable HTTP', () => {
  it('initializes, states its instructions and lists the tools with schemas (JSON mode)', async () => {
    const { client, seen } = await connect('json');
    expect(client.getServerVersion()).toEqual({ name: 'pmref', version: '0.2.0' });
    expect(client.getInstructions()).toMatch(/Resolution Clarity Grade/);
    expect(client.getInstructions()).toMatch(/question_id/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description?.length ?? 0).toBeGreaterThan(40);
    }
    expect(tools.find((t) => t.name === 'get_market')?.description).toMatch(/trust how this settles/);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((ct) => ct.startsWith('application/json'))).toBe(true);
    await client.close();
  });

  it('answers every tool with structured content equal to the REST body', async () => {
    const { client } = await connect('json');
    const list = await client.callTool({ name: 'list_events', arguments: { q: 'fed', limit: 5 } });
    const rest = await call(server.base, '/v1/events?q=fed&limit=5');
    expect(list.isError).toBeFalsy();
    expect(list.structuredContent).toEqual(rest.body);
    expect(JSON.parse((list.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(rest.body);

    const event = await client.callTool({ name: 'get_event', arguments: { slug: fed.slug, detail: 'concise' } });
    expect(event.structuredContent).toEqual((await call(server.base, `/v1/events/${fed.slug}?detail=concise`)).body);

    const market = await client.callTool({
      name: 'get_market',
      arguments: { market_id: btcMarketA.platform_market_id },
    });
    const sc = market.structuredContent as { market_id: string; rcg: { grade: string }; also_on: unknown[] };
    expect(sc.market_id).toBe(btcMarketA.market_id);
    expect(sc.rcg.grade).toBe('A');
    expect(sc.also_on).toHaveLength(1);
    const alias = await client.callTool({ name: 'get_market', arguments: { market: btcMarketA.market_id } });
    expect(alias.structuredContent).toEqual(market.structuredContent);

    const cats = await client.callTool({ name: 'list_upcoming_catalysts', arguments: { days: 60 } });
    expect(cats.structuredContent).toEqual((await call(server.base, '/v1/catalysts/upcoming?days=60')).body);

    const sigs = await client.callTool({ name: 'list_signals', arguments: { kind: signal.detection_path } });
    expect((sigs.structuredContent as { count: number }).count).toBe(1);
    const one = await client.callTool({ name: 'get_signal', arguments: { slug: signal.record_slug } });
    expect((one.structuredContent as { record_slug: string }).record_slug).toBe(signal.record_slug);

    // A market's history, read from the store: the same body as REST, by any reference.
    const history = await client.callTool({
      name: 'get_market_history',
      arguments: { market_id: btcMarketA.platform_market_id },
    });
    const restHistory = await call(server.base, `/v1/markets/${btcMarketA.market_id}/history`);
    expect(history.isError).toBeFalsy();
    expect(history.structuredContent).toEqual(restHistory.body);
    const points = (history.structuredContent as { points: Array<{ yes_last_price: number; obtained: string }> })
      .points;
    expect(points.map((p) => p.yes_last_price)).toEqual([0.18, 0.19]);
    expect(points.every((p) => p.obtained === 'venue_snapshot')).toBe(true);
    const badRange = await client.callTool({
      name: 'get_market_history',
      arguments: { market_id: btcMarketA.market_id, from: '2026-12-01', to: '2026-01-01' },
    });
    expect(badRange.isError).toBe(true);
    expect(JSON.parse((badRange.content as Array<{ text: string }>)[0]?.text ?? '')).toMatchObject({
      error: 'from is after to',
    });
    await client.close();
  });

  it('returns not-found as an isError result with the next step', async () => {
    const { client } = await connect('json');
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['get_event', { slug: 'no-such-event' }, /list_events/],
      ['get_market', { market_id: 'NOPE-1' }, /SVC-MKT-/],
      ['get_signal', { slug: 'nope' }, /list_signals/],
    ];
    for (const [name, args, next] of cases) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      const body = JSON.parse((r.content as Array<{ text: string }>)[0]?.text ?? '{}') as {
        error: string;
        next_step: string;
      };
      expect(body.next_step).toMatch(next);
    }
    await client.close();
  });

  it('treats an unknown tool and invalid arguments as protocol errors (-32602)', async () => {
    const { client } = await connect('json');
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'list_events', arguments: { limit: 500 } })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.callTool({ name: 'get_market', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'list_events', arguments: { bogus: 1 } })).rejects.toMatchObject({
      code: -32602,
    });
    await client.close();
  });

  it('streams SSE when the client prefers text/event-stream', async () => {
    const { client, seen } = await connect('sse');
    const r = await client.callTool({ name: 'get_event', arguments: { slug: fed.event_id } });
    expect((r.structuredContent as { event_id: string }).event_id).toBe(fed.event_id);
    expect(seen.some((ct) => ct.startsWith('text/event-stream'))).toBe(true);
    await client.close();
  });

  it('answers plain application/json requests, bad JSON and other methods clearly', async () => {
    const ok = await call(server.base, '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(ok.status).toBe(200);
    expect((ok.body as { result: { tools: unknown[] } }).result.tools).toHaveLength(TOOL_NAMES.length);
    const bad = await call(server.base, '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(bad.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const get = await call(server.base, '/mcp');
    expect(get.status).toBe(405);
    expect(get.body).toMatchObject({ error: { code: -32600 } });
  });
});
