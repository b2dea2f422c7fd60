// Invariant: on a store holding one daily snapshot and no bulletins, the MCP tools say why lists are empty (signals need the prior day's snapshot) and point to what works from one snapshot, and A2A says the same in its summary.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewMark } from '../../src/domain/index.ts';
import { openStore } from '../../src/store/index.ts';
import { call, type Started, startServer } from '../e2e/rest-helpers.ts';
import { NOW, TODAY } from '../serve/seed.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

type Obj = Record<string, unknown>;
let server: Started;
let client: Client;

const event = makeEvent({ native: 'KXCPI-26DEC', slug: 'cpi-december-2026', question: 'CPI in December 2026?' });
const market = makeMarket({ native: 'KXCPI-26DEC-T3.0', event_id: event.event_id, question_raw: 'CPI above 3.0%?' });

function mark(marketId: string): NewMark {
  return {
    market_id: marketId,
    snapshot_date: TODAY,
    snapshot_at: `${TODAY}T12:00:00.000Z`,
    source_updated_at: `${TODAY}T11:59:00.000Z`,
    yes_bid: 0.4,
    yes_ask: 0.42,
    no_bid: 0.58,
    no_ask: 0.6,
    yes_bid_size_usd: 100,
    yes_ask_size_usd: 100,
    no_bid_size_usd: 100,
    no_ask_size_usd: 100,
    yes_last_price: 0.41,
    implied_probability: 0.41,
    volume_24h_usd: 1000,
    volume_total_usd: 10000,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: null,
    spread: 0.02,
    mid: 0.41,
    divergence_from_primary: null,
    hours_since_source_update: 0.02,
    field_provenance: {},
  };
}

beforeAll(async () => {
  const store = await openStore('sqlite::memory:', { now: () => NOW });
  await store.migrate();
  const runId = await store.startRun('simulated', NOW.toISOString());
  await store.transaction(async (tx) => {
    await tx.upsertEvents([{ ...event, primary_market_id: market.market_id }]);
    await tx.upsertMarkets([market]);
    await tx.upsertMarks([mark(market.market_id)]);
  });
  await store.finishRun(runId, 'ok', {}, NOW.toISOString(), true);
  server = await startServer({ store });
  client = new Client({ name: 'first', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

async function tool(name: string, args: Obj): Promise<Obj> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError).toBeFalsy();
  return r.structuredContent as Obj;
}

describe('a one-snapshot store', () => {
  it('list_signals says no bulletin is on the wire, why (one daily snapshot), and what to try', async () => {
    const body = await tool('list_signals', {});
    expect(body.count).toBe(0);
    const notice = body.notice as { reason: string; try: string[] };
    expect(notice.reason).toMatch(/^No bulletin is on the wire this generation\./);
    expect(notice.reason).toMatch(/Movers need two daily snapshots and 1 exist/);
    expect(notice.try[0]).toMatch(/^compare_question with no arguments/);
    // A filter on an empty wire is not blamed: the reason is the wire, not the filter.
    expect(((await tool('list_signals', { kind: 'volume_spike' })).notice as { reason: string }).reason).toMatch(
      /^No bulletin is on the wire/,
    );
  });

  it('A2A puts the reason in its one-line summary', async () => {
    const res = await call(server.base, '/a2a', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm1',
            role: 'user',
            parts: [{ kind: 'data', data: { skill: 'list_signals', args: {} } }],
          },
        },
      }),
    });
    const parts = (res.body as { result: { artifacts: Array<{ parts: Array<{ kind: string; text?: string }> }> } })
      .result.artifacts[0]?.parts;
    expect(parts?.find((p) => p.kind === 'text')?.text).toMatch(
      /^0 signal bulletin\(s\) match\. No bulletin is on the wire/,
    );
  });
});
