/**
 * What an agent tool is (MCP serves it as a tool, A2A as a skill), and the small helpers the tool definitions
 * share: the outcome type, JSON Schema of a zod schema as MCP clients validate it, and the not-found answers
 * that name the lookup forms a tool accepts.
 */
import { z } from 'zod';
import type { MarketHistoryService, QueryService } from '../serve/index.ts';

/** A tool's answer: the served object, or a not-found with the next step to try. */
export type ToolOutcome =
  | { found: true; value: Record<string, unknown> }
  | { found: false; error: string; next_step: string };

/** What a tool may read besides the read model: a market's history lives in the store, not in memory. */
export interface ToolDeps {
  /** Null where no store is at hand (the tool then says where the history is served). */
  history: MarketHistoryService | null;
}

export const NO_DEPS: ToolDeps = { history: null };

export interface AgentTool<I extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodType;
  run(qs: QueryService, args: z.infer<I>, deps: ToolDeps): ToolOutcome | Promise<ToolOutcome>;
}

export function defineTool<I extends z.ZodType>(tool: AgentTool<I>): AgentTool {
  return tool as unknown as AgentTool;
}

export const found = (value: unknown): ToolOutcome => ({ found: true, value: value as Record<string, unknown> });

/**
 * JSON Schema (draft-07, as MCP clients validate) of a zod schema; `input` mode so served objects may carry
 * additive keys. A union of object shapes (a tool with two answer forms) gets `type: "object"` at the top, which
 * MCP requires of every input and output schema.
 */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json.type === undefined ? { type: 'object', ...json } : json;
}

const MARKET_FORMS =
  'a service id (SVC-MKT- and 10 letters or digits), a venue_a ticker (e.g. KXFED-26DEC-T4.25), a venue_b condition id (0x and 64 hex digits), market slug, CLOB token id or Gamma id, or a market page URL of either venue (GET /v1/resolve?ref= takes any of these, events too)';

/** Not-found answer of a market lookup: the forms accepted, and the tool the reference looks meant for. */
export function marketNotFound(ref: string): ToolOutcome {
  const hint = /^SVC-EVT-/i.test(ref)
    ? ' That is an event id: call get_event with it.'
    : /^SVC[XRP]-/i.test(ref)
      ? ' That is a question id: call compare_question with it.'
      : /\s/.test(ref.trim())
        ? ' That looks like words: find the market with search_markets (q = those words).'
        : '';
  return {
    found: false,
    error: `No market matched "${ref}".${hint}`,
    next_step: `Pass ${MARKET_FORMS}; or find the market by topic with search_markets.`,
  };
}

/** Not-found answer of an event lookup. */
export function eventNotFound(ref: string): ToolOutcome {
  const hint = /^SVC-MKT-/i.test(ref)
    ? ' That is a market id: call get_market with it.'
    : /^SVC[XRP]-/i.test(ref)
      ? ' That is a question id: call compare_question with it.'
      : '';
  return {
    found: false,
    error: `No published event has the slug or id "${ref}".${hint}`,
    next_step:
      'Pass an event id (SVC-EVT- and 10 letters or digits) or an event slug (e.g. fed-upper-bound-december-2026), as list_events and search_markets return them; or search with list_events (q = a few words of the question).',
  };
}
