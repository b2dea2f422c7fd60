/**
 * A2A interface (spec §4.11, issue 8) with @a2a-js/sdk: the agent card at `/.well-known/agent-card.json`
 * (and `GET /a2a`), and JSON-RPC at `POST /a2a` accepting v1.0 `SendMessage` and v0.3 `message/send`.
 * Every answer is a completed task with a one-sentence text summary and a data part. pmref answers in one
 * step and keeps no tasks, so task and streaming methods get clear JSON-RPC errors.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type AgentCard, type Part, type Task, TaskState } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  type ExecutionEventBus,
  JsonRpcTransportHandler,
  type RequestContext,
  type ServerCallContext,
  type TaskStore,
  UnauthenticatedUser,
} from '@a2a-js/sdk/server';
import type { MarketHistoryService, QueryService } from '../serve/index.ts';
import { type Route, routeText } from './a2a-routing.ts';
import { summarize } from './a2a-summary.ts';
import type { ToolDeps } from './tool-kit.ts';
import { AGENT_TOOLS, toolNamed } from './tools.ts';

export interface A2aOptions {
  serviceName: string;
  baseUrl: string;
  /** The store-backed history of markets (`get_market_history`); absent: that skill says where to ask instead. */
  history?: MarketHistoryService;
  clock?: () => Date;
}

/** JSON-RPC methods answered before the SDK: pmref keeps no tasks and does not stream. */
const UNSUPPORTED: Record<string, { code: number; message: string }> = {
  'message/stream': {
    code: -32004,
    message: 'Streaming is not supported: send message/send (v0.3) or SendMessage (v1.0).',
  },
  SendStreamingMessage: { code: -32004, message: 'Streaming is not supported: send SendMessage.' },
  'tasks/resubscribe': { code: -32004, message: 'Streaming is not supported.' },
  SubscribeToTask: { code: -32004, message: 'Streaming is not supported.' },
  'tasks/get': {
    code: -32001,
    message: 'Task not found: pmref answers in one step and keeps no tasks; send the message again.',
  },
  GetTask: {
    code: -32001,
    message: 'Task not found: pmref answers in one step and keeps no tasks; send the message again.',
  },
  'tasks/cancel': { code: -32001, message: 'Task not found: every pmref task is already completed.' },
  CancelTask: { code: -32001, message: 'Task not found: every pmref task is already completed.' },
  ListTasks: { code: -32004, message: 'Listing tasks is not supported: pmref keeps no tasks.' },
};

/** The agent card: v1.0 fields plus the v0.3 `url`/`preferredTransport`/`protocolVersion`, so both client generations read it. */
export function agentCard(opts: A2aOptions): AgentCard & Record<string, unknown> {
  const url = `${opts.baseUrl}/a2a`;
  return {
    protocolVersion: '1.0',
    name: opts.serviceName,
    description:
      'Reference data for prediction markets on venue_a and venue_b: canonical events, cross-venue question identity (question_id, also_on), Resolution Clarity Grades with their evidence, committed resolution sources, catalysts and signals. Read-only and open.',
    url,
    preferredTransport: 'JSONRPC',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'pmref', url: opts.baseUrl },
    version: '1.0.0',
    documentationUrl: `${opts.baseUrl}/docs`,
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: AGENT_TOOLS.map((t) => ({
      id: t.name,
      name: t.title,
      description: `${t.description} Send a data part {"skill": "${t.name}", "args": {…}} to call it directly.`,
      tags: ['prediction-markets', 'reference-data'],
      examples: SKILL_EXAMPLES[t.name] ?? [],
      inputModes: ['text/plain', 'application/json'],
      outputModes: ['text/plain', 'application/json'],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

const SKILL_EXAMPLES: Record<string, string[]> = {
  list_events: ['fed rate decision', 'bitcoin above 100k'],
  get_event: ['SVC-EVT-… or an event slug'],
  get_market: ['Can I trust how KXFED-26APR-T4.25 settles?', 'SVC-MKT-…'],
  search_markets: [
    'fomc rate cut markets graded A',
    '{"skill": "search_markets", "args": {"q": "bitcoin", "has_twin": true}}',
  ],
  compare_question: [
    'Is KXFED-26APR-T4.25 the same bet on the other venue?',
    'compare cross-venue questions in economics',
    'SVCX-…',
  ],
  get_stats: ['How common is it that a venue_b market commits to no source?', 'stats for economics grade A'],
  glossary: ['What does clarity.no_committed_source mean?', 'glossary caps'],
  list_upcoming_catalysts: ['upcoming catalysts in the next 14 days'],
  list_signals: ['{"skill": "list_signals", "args": {"kind": "cross_venue_divergence"}}'],
  get_signal: ['{"skill": "get_signal", "args": {"slug": "…"}}'],
  get_market_history: [
    '{"skill": "get_market_history", "args": {"market_id": "KXFED-26APR-T4.25", "from": "2026-01-01"}}',
  ],
};

/** A bounded task store: the SDK saves each completed task; nothing is ever read back by clients. */
class RecentTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Task>();
  async save(task: Task): Promise<void> {
    this.tasks.set(task.id, task);
    if (this.tasks.size > 256) {
      const oldest = this.tasks.keys().next();
      if (!oldest.done) this.tasks.delete(oldest.value);
    }
  }
  async load(taskId: string): Promise<Task | undefined> {
    return this.tasks.get(taskId);
  }
  async list(): Promise<never> {
    throw new Error('listing tasks is not supported');
  }
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

class PmrefExecutor implements AgentExecutor {
  constructor(
    private readonly qs: QueryService,
    private readonly opts: A2aOptions,
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const parts = ctx.userMessage.parts;
    const data = parts.find((p) => p.content?.$case === 'data')?.content?.value as
      | { skill?: unknown; args?: unknown }
      | undefined;
    const text = parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join(' ')
      .trim();
    let result: { skill: string; payload: Record<string, unknown> };
    if (data !== undefined) {
      result = await this.runData(data);
    } else {
      result = await this.runRoute(routeText(text, (s) => this.qs.getEvent(s) !== null));
    }
    const now = (this.opts.clock ?? (() => new Date()))().toISOString();
    const task: Task = {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now },
      artifacts: [
        {
          artifactId: `${ctx.taskId}-result`,
          name: `${this.opts.serviceName}-reference-data`,
          description: `Result of ${result.skill}`,
          parts: [textPart(summarize(result.skill, result.payload)), dataPart(result.payload)],
          metadata: undefined,
          extensions: [],
        },
      ],
      history: [ctx.userMessage],
      metadata: { source: this.opts.baseUrl, terms: `Attribution required. ${this.opts.baseUrl}`, skill: result.skill },
    };
    bus.publish(AgentEvent.task(task));
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    // Every task completes within execute(); there is nothing to cancel.
  }

  private deps(): ToolDeps {
    return { history: this.opts.history ?? null };
  }

  private async runData(data: {
    skill?: unknown;
    args?: unknown;
  }): Promise<{ skill: string; payload: Record<string, unknown> }> {
    // The handler validated the skill and args before the SDK ran this (checkMessageParts).
    const name = typeof data.skill === 'string' ? data.skill : '';
    const tool = toolNamed(name);
    const parsed = tool?.input.safeParse(data.args ?? {});
    if (!tool || !parsed?.success) return { skill: 'usage', payload: usage() };
    const outcome = await tool.run(this.qs, parsed.data, this.deps());
    return {
      skill: name,
      payload: outcome.found ? outcome.value : { error: outcome.error, next_step: outcome.next_step },
    };
  }

  private async runRoute(route: Route): Promise<{ skill: string; payload: Record<string, unknown> }> {
    if (route.skill === 'usage') return { skill: 'usage', payload: usage() };
    const tool = toolNamed(route.skill);
    const outcome = await tool?.run(this.qs, route.args as never, this.deps());
    const empty =
      outcome?.found === true &&
      (route.skill === 'list_events' || route.skill === 'search_markets') &&
      outcome.value.total === 0;
    const fallback = 'fallback' in route ? route.fallback : undefined;
    if ((!outcome?.found || empty) && fallback) return this.runRoute(fallback);
    if (!outcome) return { skill: 'usage', payload: usage() };
    return {
      skill: route.skill,
      payload: outcome.found ? outcome.value : { error: outcome.error, next_step: outcome.next_step },
    };
  }
}

function usage(): Record<string, unknown> {
  return {
    usage:
      'Send a market id (SVC-MKT-…), a venue_a ticker or market URL, an event id or slug, "compare <market or question id>", "how common is …", "what does <code> mean", words like "upcoming catalysts in 14 days", or search words; or a data part {"skill", "args"} naming one of the skills.',
    skills: AGENT_TOOLS.map((t) => t.name),
  };
}

export interface A2aHandler {
  card: Record<string, unknown>;
  /** Handles one JSON-RPC request body (already parsed); returns the JSON-RPC response, or null for a notification. */
  handle(body: unknown, headers: IncomingHttpHeaders): Promise<Record<string, unknown> | null>;
}

/**
 * Checks a message's parts before the SDK runs it, so a bad call is a clear JSON-RPC error rather than a
 * failed task: no parts → -32602; only unsupported part kinds → -32005; a data part naming an unknown skill
 * or bad args → -32602.
 */
function checkMessageParts(params: unknown): { code: number; message: string } | null {
  const parts = (params as { message?: { parts?: unknown } } | undefined)?.message?.parts;
  if (!Array.isArray(parts) || parts.length === 0) {
    return {
      code: -32602,
      message: 'Invalid params: params.message.parts must be a non-empty array of text or data parts.',
    };
  }
  const usable = parts.filter((p) => typeof p === 'object' && p !== null && ('text' in p || 'data' in p));
  if (usable.length === 0) {
    return { code: -32005, message: 'Only text parts and data parts {"skill", "args"} are supported.' };
  }
  for (const part of usable) {
    if (!('data' in part)) continue;
    const data = (part as { data?: { skill?: unknown; args?: unknown } }).data ?? {};
    const name = typeof data.skill === 'string' ? data.skill : '';
    const tool = toolNamed(name);
    if (!tool)
      return {
        code: -32602,
        message: `Unknown skill "${name}". Skills: ${AGENT_TOOLS.map((t) => t.name).join(', ')}.`,
      };
    const parsed = tool.input.safeParse(data.args ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ');
      return { code: -32602, message: `Invalid args for ${name}: ${issues}` };
    }
  }
  return null;
}

function rpcError(id: unknown, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message } };
}

/** Builds the A2A JSON-RPC handler over the query service. */
export function createA2aHandler(qs: QueryService, opts: A2aOptions): A2aHandler {
  const card = agentCard(opts);
  const requestHandler = new DefaultRequestHandler(card, new RecentTaskStore(), new PmrefExecutor(qs, opts));
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);
  return {
    card,
    async handle(body, headers) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return rpcError(null, -32600, 'Invalid request: send one JSON-RPC 2.0 request object.');
      }
      const req = body as { id?: unknown; method?: unknown; params?: unknown };
      const isNotification = !('id' in req);
      const method = typeof req.method === 'string' ? req.method : '';
      const unsupported = UNSUPPORTED[method];
      if (unsupported) return isNotification ? null : rpcError(req.id, unsupported.code, unsupported.message);
      if (method.includes('PushNotification') || method.startsWith('tasks/pushNotificationConfig')) {
        return isNotification ? null : rpcError(req.id, -32003, 'Push notifications are not supported.');
      }
      if (method === 'SendMessage' || method === 'message/send') {
        const problem = checkMessageParts(req.params);
        if (problem) return isNotification ? null : rpcError(req.id, problem.code, problem.message);
      }
      const isLegacy = method.includes('/');
      const context: ServerCallContext = defaultServerCallContextBuilder({
        extensions: undefined,
        user: new UnauthenticatedUser(),
        headers,
        requestedVersion: isLegacy ? '0.3' : '1.0',
      });
      const response = await (isLegacy ? legacy : v1).handle(body as Record<string, unknown>, context);
      if (typeof (response as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
        return rpcError(req.id, -32004, 'Streaming is not supported.');
      }
      return isNotification ? null : (response as unknown as Record<string, unknown>);
    },
  };
}
