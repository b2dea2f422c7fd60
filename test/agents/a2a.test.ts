// Invariant: the A2A interface serves an agent card with skills mirroring the tools, answers v1.0
// SendMessage and v0.3 message/send (text routed, also to compare_question, get_stats and glossary; data parts
// run the named skill) with a completed task
// holding a one-sentence summary and a data part, and gives clear JSON-RPC errors for everything else.
import { type AgentCard, type Message, type Part, Role, type Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TOOLS } from '../../src/agents/index.ts';
import { call, ORIGIN, type Started, startServer } from '../e2e/rest-helpers.ts';
import { btcMarketA, fed } from '../serve/seed.ts';

let server: Started;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});
let seq = 0;
function message(parts: Part[]): Message {
  return {
    messageId: `m-${++seq}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
function resultOf(task: Task): { summary: string; payload: Record<string, unknown> } {
  const parts = task.artifacts[0]?.parts ?? [];
  const summary = parts.find((p) => p.content?.$case === 'text')?.content?.value as string;
  const payload = parts.find((p) => p.content?.$case === 'data')?.content?.value as Record<string, unknown>;
  return { summary, payload };
}

/** The SDK client built from our card; the card names the configured public origin, so point it at the test server. */
async function v1Client() {
  const card = (await call(server.base, '/.well-known/agent-card.json')).text.replaceAll(ORIGIN, server.base);
  return new ClientFactory().createFromAgentCard(JSON.parse(card) as AgentCard);
}

async function rpc(body: unknown, headers: Record<string, string> = {}) {
  return call(server.base, '/a2a', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('agent card', () => {
  it('is served at the well-known path and on GET /a2a with skills mirroring the tools', async () => {
    const card = await call(server.base, '/.well-known/agent-card.json');
    expect(card.status).toBe(200);
    const body = card.body as {
      protocolVersion: string;
      url: string;
      capabilities: Record<string, unknown>;
      skills: Array<{ id: string }>;
    };
    expect(body.protocolVersion).toBe('1.0');
    expect(body.url).toMatch(/\/a2a$/);
    expect(body.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    expect(body.skills.map((s) => s.id)).toEqual(AGENT_TOOLS.map((t) => t.name));
    expect(body.skills.map((s) => s.id)).toEqual(expect.arrayContaining(['compare_question', 'get_stats', 'glossary']));
    expect((await call(server.base, '/a2a')).body).toEqual(card.body);
  });
});

describe('v1.0 SendMessage with the SDK client', () => {
  it('routes a ticker to the market and summarizes it in one sentence', async () => {
    const client = await v1Client();
    const result = (await client.sendMessage({
      tenant: '',
      message: message([text(`Can I trust how ${btcMarketA.platform_market_id} settles?`)]),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(result.status?.state).toBe(3); // TASK_STATE_COMPLETED
    const { summary, payload } = resultOf(result);
    expect(payload.market_id).toBe(btcMarketA.market_id);
    expect(summary).toMatch(new RegExp(`^Market ${btcMarketA.market_id}: grade A, status open, last price`));
    expect(summary.split('. ').length).toBe(1);
  });

  it('routes event ids, calendar words and searches; runs data parts directly', async () => {
    const client = await v1Client();
    const send = async (parts: Part[]) =>
      resultOf(
        (await client.sendMessage({
          tenant: '',
          message: message(parts),
          configuration: undefined,
          metadata: undefined,
        })) as Task,
      );
    expect((await send([text(`tell me about ${fed.event_id}`)])).payload.event_id).toBe(fed.event_id);
    expect((await send([text(fed.slug)])).payload.event_id).toBe(fed.event_id);
    const cal = await send([text('upcoming catalysts in the next 45 days')]);
    expect(cal.payload.window_days).toBe(45);
    const search = await send([text('what is the price of the fed upper bound market?')]);
    expect((search.payload.markets as Array<{ event_id: string }>)[0]?.event_id).toBe(fed.event_id);
    const direct = await send([data({ skill: 'get_market', args: { market_id: btcMarketA.market_id } })]);
    expect(direct.payload.market_id).toBe(btcMarketA.market_id);
    const history = await send([data({ skill: 'get_market_history', args: { market_id: btcMarketA.market_id } })]);
    expect(history.payload).toMatchObject({ market_id: btcMarketA.market_id, interval: 'day', count: 2 });
    const usage = await send([text('??')]);
    expect(usage.payload.skills).toHaveLength(AGENT_TOOLS.length);
  });

  it('routes comparisons, stats and glossary questions to the new skills, by text and by data part', async () => {
    const client = await v1Client();
    const send = async (parts: Part[]) => {
      const task = (await client.sendMessage({
        tenant: '',
        message: message(parts),
        configuration: undefined,
        metadata: undefined,
      })) as Task;
      return { ...resultOf(task), skill: (task.metadata as { skill?: string } | undefined)?.skill };
    };
    const compare = await send([text(`Is ${btcMarketA.platform_market_id} the same bet on the other venue?`)]);
    expect(compare.skill).toBe('compare_question');
    expect((compare.payload.venue_a as { market_id: string }).market_id).toBe(btcMarketA.market_id);
    expect(compare.summary).toMatch(
      /^same pair SVCX-0123456789: venue_a 0\.19 \(grade A\) vs venue_b 0\.22 \(grade B\)/,
    );
    const stats = await send([text('How common is it that a venue_b market commits to no source?')]);
    expect(stats.skill).toBe('get_stats');
    expect(stats.payload.selection).toMatchObject({ filter: { venue: 'venue_b', source_commitment_subtype: 'none' } });
    expect(stats.summary).toMatch(/^\d+ of \d+ venue_b markets have commitment none/);
    const gloss = await send([text('What does commitment_none mean?')]);
    expect(gloss.skill).toBe('glossary');
    expect(gloss.summary).toMatch(
      /^commitment_none: The rules name no resolution source at all\. Caps the grade at C\.$/,
    );
    const direct = await send([data({ skill: 'glossary', args: { kind: 'relation' } })]);
    expect((direct.payload.entries as Array<{ term: string }>).map((e) => e.term)).toEqual([
      'same',
      'complement',
      'related',
    ]);
    const market = await send([
      data({ skill: 'get_market', args: { market_id: btcMarketA.market_id, detail: 'full' } }),
    ]);
    expect(market.payload.description).toBeDefined();
  });
});

describe('v0.3 message/send with the legacy transport', () => {
  it('answers a legacy client with a completed task', async () => {
    const legacy = new LegacyJsonRpcTransport({ endpoint: `${server.base}/a2a` });
    const result = (await legacy.sendMessage({
      tenant: '',
      message: message([text(btcMarketA.market_id)]),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(resultOf(result).payload.market_id).toBe(btcMarketA.market_id);
  });
  it('accepts a raw v0.3 request with kind-tagged parts', async () => {
    const r = await rpc({
      jsonrpc: '2.0',
      id: 7,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: 'x1',
          role: 'user',
          parts: [{ kind: 'data', data: { skill: 'list_upcoming_catalysts', args: { days: 10 } } }],
        },
      },
    });
    const res = r.body as {
      id: number;
      result: { kind: string; status: { state: string }; artifacts: Array<{ parts: Array<{ kind: string }> }> };
    };
    expect(res.id).toBe(7);
    expect(res.result.kind).toBe('task');
    expect(res.result.status.state).toBe('completed');
    expect(res.result.artifacts[0]?.parts.map((p) => p.kind)).toEqual(['text', 'data']);
  });
});

describe('errors', () => {
  const send = (method: string, parts: unknown[] = [{ kind: 'text', text: 'hi' }]) =>
    rpc({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { message: { kind: 'message', messageId: 'e', role: 'user', parts } },
    });
  it('rejects streaming and task methods with their codes', async () => {
    expect((await send('message/stream')).body).toMatchObject({ error: { code: -32004 } });
    expect((await send('SendStreamingMessage')).body).toMatchObject({ error: { code: -32004 } });
    expect((await rpc({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: 't' } })).body).toMatchObject({
      error: { code: -32001 },
    });
    expect((await rpc({ jsonrpc: '2.0', id: 3, method: 'CancelTask', params: { id: 't' } })).body).toMatchObject({
      error: { code: -32001 },
    });
  });
  it('rejects unknown methods, bad JSON, empty or unsupported parts and bad skills', async () => {
    expect((await rpc({ jsonrpc: '2.0', id: 4, method: 'nope/nope', params: {} })).body).toMatchObject({
      error: { code: -32601 },
    });
    expect((await rpc('{not json')).body).toMatchObject({ error: { code: -32700 } });
    expect((await send('message/send', [])).body).toMatchObject({ error: { code: -32602 } });
    expect((await send('message/send', [{ kind: 'file', file: { uri: 'https://x' } }])).body).toMatchObject({
      error: { code: -32005 },
    });
    const bad = await send('message/send', [{ kind: 'data', data: { skill: 'rm_rf', args: {} } }]);
    expect(bad.body).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/Unknown skill/) } });
    const badArgs = await send('message/send', [
      { kind: 'data', data: { skill: 'list_events', args: { limit: 'many' } } },
    ]);
    expect(badArgs.body).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/limit/) } });
  });
  it('answers a notification with 202 and no body', async () => {
    const r = await rpc({
      jsonrpc: '2.0',
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'n', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
    });
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
  });
});
