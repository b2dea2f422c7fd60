/**
 * MCP tool server (spec §4.10, issue 8): streamable HTTP at `POST /mcp`, stateless (a fresh server and
 * transport per request), no authentication. Replies are JSON by default and an SSE stream when the client
 * prefers `text/event-stream` in its Accept header.
 *
 * Built on the SDK's low-level `Server` so that the protocol rules are ours: an unknown tool or invalid
 * arguments is a JSON-RPC protocol error (-32602, as in the MCP 2025-06-18 tools spec); a record that is
 * not found is a normal tool result with `isError: true` and the next step to try.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { z } from 'zod';
import { SCHEMA_VERSION } from '../domain/index.ts';
import type { MarketHistoryService, QueryService } from '../serve/index.ts';
import { toolJsonSchema } from './tool-kit.ts';
import { AGENT_INSTRUCTIONS, AGENT_TOOLS, toolNamed } from './tools.ts';

export interface McpOptions {
  serviceName: string;
  /** The store-backed history of markets (`get_market_history`); absent: that tool says where to ask instead. */
  history?: MarketHistoryService;
  logger?: { warn(obj: object, msg?: string): void };
}

const TOOL_LIST = AGENT_TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: toolJsonSchema(t.input) as { type: 'object'; [k: string]: unknown },
  outputSchema: toolJsonSchema(t.output) as { type: 'object'; [k: string]: unknown },
  annotations: { title: t.title, readOnlyHint: true, openWorldHint: false, idempotentHint: true },
}));

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
}

/** The parts of the MCP SDK this server uses. */
interface McpSdk {
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
  types: typeof import('@modelcontextprotocol/sdk/types.js');
}

let sdkLoading: Promise<McpSdk> | null = null;

/**
 * The MCP SDK, imported on the first /mcp request rather than at start (issue 18): its modules took about 0.14 s of
 * every start on the 2-core machine, in a process that may never be asked.
 */
function mcpSdk(): Promise<McpSdk> {
  sdkLoading ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(
    ([server, transport, types]) => ({
      Server: server.Server,
      StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
      types,
    }),
    (err: unknown) => {
      sdkLoading = null; // the next request tries again
      throw err;
    },
  );
  return sdkLoading;
}

/** One MCP server over the query service (created per request: the service is stateless). */
export async function createMcpServer(qs: QueryService, opts: McpOptions): Promise<Server> {
  const { Server, types } = await mcpSdk();
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = types;
  const server = new Server(
    { name: opts.serviceName, version: SCHEMA_VERSION },
    { capabilities: { tools: {} }, instructions: AGENT_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolNamed(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. Available tools: ${AGENT_TOOLS.map((t) => t.name).join(', ')}.`,
      );
    }
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${issuesText(parsed.error)}`);
    }
    const outcome = await tool.run(qs, parsed.data, { history: opts.history ?? null });
    if (!outcome.found) {
      const text = JSON.stringify({ error: outcome.error, next_step: outcome.next_step });
      return { content: [{ type: 'text' as const, text }], isError: true };
    }
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(outcome.value) }],
      structuredContent: outcome.value,
    };
  });
  return server;
}

interface AcceptEntry {
  type: string;
  q: number;
  index: number;
}

function parseAccept(header: string | undefined): AcceptEntry[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type: type.trim().toLowerCase(), q: Number.isFinite(q) ? q : 1, index };
    })
    .filter((e) => e.type.length > 0);
}

/**
 * SSE only when the client prefers it: `text/event-stream` is acceptable and `application/json` is absent,
 * ranked lower, or listed after it at the same rank. The SDK's own clients send
 * `application/json, text/event-stream` and so get JSON.
 */
export function prefersEventStream(accept: string | undefined): boolean {
  const entries = parseAccept(accept);
  const sse = entries.find((e) => e.type === 'text/event-stream');
  if (!sse || sse.q === 0) return false;
  const json = entries.find((e) => e.type === 'application/json' || e.type === '*/*' || e.type === 'application/*');
  if (!json || json.q === 0) return true;
  return sse.q > json.q || (sse.q === json.q && sse.index < json.index);
}

function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
}

/**
 * Handles one HTTP request to /mcp. `bodyText` is the raw request body (the route defers JSON parsing so a
 * malformed body can be answered with a JSON-RPC parse error, -32700).
 */
export async function handleMcpHttp(
  qs: QueryService,
  opts: McpOptions,
  req: IncomingMessage,
  res: ServerResponse,
  bodyText: string | undefined,
): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST, OPTIONS');
    writeJsonRpcError(
      res,
      405,
      -32600,
      'Method not allowed: this stateless server answers POST /mcp only (no GET stream, no sessions).',
    );
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(bodyText ?? '');
  } catch {
    writeJsonRpcError(res, 400, -32700, 'Parse error: the request body must be a JSON-RPC 2.0 message in JSON.');
    return;
  }
  const sse = prefersEventStream(req.headers.accept);
  // Spec §4.10: `application/json` alone is sufficient. The SDK transport insists on both, so complete it.
  req.headers.accept = 'application/json, text/event-stream';
  let server: Server;
  let transport: InstanceType<McpSdk['StreamableHTTPServerTransport']>;
  try {
    const { StreamableHTTPServerTransport } = await mcpSdk();
    server = await createMcpServer(qs, opts);
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !sse });
  } catch (err) {
    opts.logger?.warn({ err }, 'mcp request failed: the MCP SDK could not be loaded');
    if (!res.headersSent) writeJsonRpcError(res, 500, -32603, 'Internal error');
    return;
  }
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (err) {
    opts.logger?.warn({ err }, 'mcp request failed');
    if (!res.headersSent) writeJsonRpcError(res, 500, -32603, 'Internal error');
  }
}
