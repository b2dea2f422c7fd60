/**
 * The six agent tools (spec §4.10), defined once: MCP serves them as tools and A2A as skills. Each tool is
 * a zod input schema, a zod output schema taken from the served shapes in src/domain, and a function over
 * the query service — the same functions the REST routes call. A face only translates.
 */
import { z } from 'zod';
import {
  CATEGORIES,
  CatalystsSchema,
  EVENT_STATUS_FILTERS,
  EventDetailSchema,
  EventListSchema,
  GRADES,
  MarketDetailSchema,
  SIGNAL_KINDS,
  SignalBulletinSchema,
  SignalIndexSchema,
  VENUES,
} from '../domain/index.ts';
import type { QueryService } from '../serve/index.ts';

/** A tool's answer: the served object, or a not-found with the next step to try. */
export type ToolOutcome =
  | { found: true; value: Record<string, unknown> }
  | { found: false; error: string; next_step: string };

export interface AgentTool<I extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodType;
  run(qs: QueryService, args: z.infer<I>): ToolOutcome;
}

function defineTool<I extends z.ZodType>(tool: AgentTool<I>): AgentTool {
  return tool as unknown as AgentTool;
}

const found = (value: unknown): ToolOutcome => ({ found: true, value: value as Record<string, unknown> });

const ListEventsInput = z
  .object({
    q: z
      .string()
      .max(200)
      .optional()
      .describe(
        'Search words, all of which must appear in the event question or tags (e.g. "fed rate", "bitcoin"). Keep it short.',
      ),
    category: z.enum(CATEGORIES).optional().describe('Only events in this category.'),
    platform: z.enum(VENUES).optional().describe('Only events from this venue.'),
    grade: z
      .enum(GRADES)
      .optional()
      .describe('Only events whose headline market has this Resolution Clarity Grade (A is clearest).'),
    status: z
      .enum(EVENT_STATUS_FILTERS)
      .optional()
      .describe('active: has an open market; resolved: has none; all (default).'),
    limit: z.number().int().min(1).max(100).optional().describe('Page size, 1–100 (default 50).'),
    offset: z.number().int().min(0).optional().describe('Rows to skip for paging (default 0).'),
  })
  .strict();

const GetEventInput = z
  .object({
    slug: z.string().min(1).describe('The event slug or its SVC-EVT- id (from list_events).'),
    detail: z.enum(['full', 'concise']).optional().describe('concise trims each market to grade, price and source.'),
  })
  .strict();

const GetMarketInput = z
  .object({
    market_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A service market id (SVC-MKT-…), a venue-native id (venue_a ticker or venue_b condition id), or a venue_a market URL.',
      ),
    market: z.string().min(1).optional().describe('Alias of market_id.'),
  })
  .strict()
  .refine((a) => a.market_id !== undefined || a.market !== undefined, 'pass market_id (or its alias market)');

const CatalystsInput = z
  .object({
    days: z.number().int().min(1).max(365).optional().describe('Look-ahead window in days, 1–365 (default 30).'),
  })
  .strict();

const ListSignalsInput = z
  .object({
    event_id: z.string().optional().describe('Only bulletins about this event (target or linked), by SVC-EVT- id.'),
    category: z.string().optional().describe('Bulletin category tag, e.g. CROSS_VENUE_DIVERGENCE or VOLUME_SPIKE.'),
    venue: z.enum(VENUES).optional().describe('Only bulletins involving this venue.'),
    kind: z
      .enum(SIGNAL_KINDS)
      .optional()
      .describe('Detection path: cross_venue_divergence, benchmark_drift, news_cycle or volume_spike.'),
    detection_path: z.enum(SIGNAL_KINDS).optional().describe('Alias of kind.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('At most this many bulletins, newest first (default 30).'),
  })
  .strict();

const GetSignalInput = z
  .object({ slug: z.string().min(1).describe('The bulletin slug (record_slug from list_signals).') })
  .strict();

/** Every tool, in the order tools/list returns them. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  defineTool({
    name: 'list_events',
    title: 'Search prediction-market events',
    description:
      "Browse or search canonical prediction-market events across both venues. Each item carries the headline market's price and its Resolution Clarity Grade (A = settles cleanly on a named authority; C = vague or contested settlement). Use it first to find an event or market for a topic; then call get_event or get_market for detail.",
    input: ListEventsInput,
    output: EventListSchema,
    run: (qs, a) =>
      found(
        qs
          .listEvents(
            {
              q: a.q,
              category: a.category,
              platform: a.platform,
              grade: a.grade,
              status: a.status,
              limit: a.limit ?? 50,
              offset: a.offset ?? 0,
            },
            false,
          )
          .value(),
      ),
  }),
  defineTool({
    name: 'get_event',
    title: 'Get one event with its markets',
    description:
      "The full graded record of one event: every market with its price, Resolution Clarity Grade, committed resolution source and provenance, cross-venue twins (also_on, with the other venue's price) and the lifecycle log. detail=concise trims each market to grade, price and source.",
    input: GetEventInput,
    output: EventDetailSchema,
    run: (qs, a) => {
      const body = qs.getEvent(a.slug, a.detail);
      return body
        ? found(body.value())
        : {
            found: false,
            error: `No event with slug or id "${a.slug}".`,
            next_step: 'Search with list_events (q=a few words of the question) and pass its slug or event_id.',
          };
    },
  }),
  defineTool({
    name: 'get_market',
    title: 'Can I trust how this market settles?',
    description:
      'Price and resolution provenance of one market: answers "can I trust how this settles?". Returns the Resolution Clarity Grade with its score, caps and the factors that decided it, the committed source of record (or why there is none), who arbitrates, the question_id shared with the same question on the other venue and also_on (the other venue\'s same, complement or related markets with their prices; a related one lists its typed differences). Accepts a service id (SVC-MKT-…), a venue-native id or venue_a ticker, or a venue_a market URL (parsed, never fetched); venue_b URLs need the condition id. The answer\'s market_id is the canonical id.',
    input: GetMarketInput,
    output: MarketDetailSchema,
    run: (qs, a) => {
      const ref = a.market_id ?? a.market ?? '';
      const body = qs.getMarket(ref);
      return body
        ? found(body.value())
        : {
            found: false,
            error: `Nothing matched "${ref}".`,
            next_step:
              'Pass a service id (SVC-MKT-…), a venue-native id or venue_a ticker, or a venue_a market URL; or find the market by topic with list_events.',
          };
    },
  }),
  defineTool({
    name: 'list_upcoming_catalysts',
    title: 'Upcoming scheduled catalysts',
    description:
      'Scheduled releases and decisions in the next N days (FOMC decisions, CPI, jobs, GDP, PPI, earnings, elections), each with its date and the authoritative source URL. Use it for "what is coming up that could move these markets?".',
    input: CatalystsInput,
    output: CatalystsSchema,
    run: (qs, a) => found(qs.upcomingCatalysts({ days: a.days ?? 30 }).value()),
  }),
  defineTool({
    name: 'list_signals',
    title: 'Browse the signal wire',
    description:
      'Analytic bulletins, newest first: cross-venue price divergence between twins, crypto threshold markets drifting from spot (benchmark drift), several markets on one entity repricing together (news cycle), and volume spikes. Filter by event_id, category tag, venue or kind.',
    input: ListSignalsInput,
    output: SignalIndexSchema,
    run: (qs, a) =>
      found(
        qs
          .listSignals({
            event_id: a.event_id,
            category: a.category,
            venue: a.venue,
            detection_path: a.kind ?? a.detection_path,
            limit: a.limit ?? 30,
          })
          .value(),
      ),
  }),
  defineTool({
    name: 'get_signal',
    title: 'Get one signal bulletin',
    description:
      'The full bulletin for a slug from list_signals: headline, bullets, the markets involved with prices and grades, and the numbers that triggered it with their provenance.',
    input: GetSignalInput,
    output: SignalBulletinSchema,
    run: (qs, a) => {
      const body = qs.getSignal(a.slug);
      return body
        ? found(body.value())
        : {
            found: false,
            error: `No bulletin with slug "${a.slug}".`,
            next_step: 'List current bulletins with list_signals and pass a record_slug from it.',
          };
    },
  }),
];

/** The tool named `name`, or undefined. */
export function toolNamed(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/** JSON Schema (draft-07, as MCP clients validate) of a zod schema; `input` mode so served objects may carry additive keys. */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

/** Plain words for agents: what the grade, the committed source, question_id and also_on mean, and which tool answers what. */
export const AGENT_INSTRUCTIONS = `pmref is a read-only reference service for prediction markets on two venues: venue_a (a CFTC-regulated exchange settling in USD) and venue_b (a token-vote-arbitrated protocol settling in USDC). Use it to judge whether a market's price can be trusted and whether the same question trades on the other venue.
- Every market has a Resolution Clarity Grade (rcg.grade): A settles on a concrete named authority with an objective trigger; B has a gap (a hedged source, a lagging or editable source, a contested fact); C is vague, disputed or names no committed source. rcg.factors says which rule decided each factor and quotes the venue's own text.
- The committed source (resolution.source_of_record) is copied verbatim from the venue's text; when it is null the market names no committed source and resolution.source_commitment_subtype says why (illustrative "for example" hedge, placeholder "consensus of credible reporting", or none). A missing source is graded, not hidden.
- question_id (SVCX-…) is shared by markets that ask the same question, on either venue; direction says the side (above/below at the same threshold is the same claim). also_on lists the other venue's markets with their current prices and a relation: same or complement (they share the question_id) or related (a near-equivalent question with another question_id; differences lists each typed difference, e.g. resolves_on, horizon, threshold, with the venue_a and venue_b values).
- Which tool: find things with list_events (q = a few words); "can I trust how this settles?" → get_market (grade, source, arbitration); the whole event → get_event; scheduled releases → list_upcoming_catalysts; unusual moves → list_signals / get_signal.
- eligibility_screens mean fit with a jurisdiction's rule set, not quality. Access is open; no key is needed. Cite results with the _provenance ids.`;
