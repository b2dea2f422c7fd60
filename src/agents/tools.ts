/**
 * The agent tools (spec §4.10, issue 17), defined once: MCP serves them as tools and A2A as skills. Each tool is
 * a zod input schema (tool-inputs.ts), a zod output schema taken from the served shapes in src/domain, and a
 * function over the query service — the same functions the REST routes call. A face only translates.
 *
 * Answers are lean by default (issue 17): `get_market` and `get_event` answer concise unless asked for
 * `detail: full`, and a list that comes back empty says why and what to try (`notice`).
 */
import { z } from 'zod';
import {
  CatalystsSchema,
  EventDetailSchema,
  EventListSchema,
  MarketConciseSchema,
  MarketDetailSchema,
  MarketHistorySchema,
  MarketPageSchema,
  QuestionComparisonSchema,
  QuestionPageSchema,
  SignalBulletinSchema,
  SignalIndexSchema,
} from '../domain/index.ts';
import { HistoryQueryError, MarketQueryError, marketIdForRef, type QueryService } from '../serve/index.ts';
import { compareQuestion } from './compare.ts';
import { catalystsEmptyNotice, eventsEmptyNotice, signalsEmptyNotice } from './empty-notices.ts';
import { GlossaryAnswerSchema, lookupGlossary } from './glossary.ts';
import { AgentStatsSchema, selectStats } from './stats-selection.ts';
import {
  CatalystsInput,
  CompareQuestionInput,
  GetEventInput,
  GetMarketHistoryInput,
  GetMarketInput,
  GetSignalInput,
  GetStatsInput,
  GlossaryInput,
  ListEventsInput,
  ListSignalsInput,
  SearchMarketsInput,
} from './tool-inputs.ts';
import { type AgentTool, defineTool, eventNotFound, found, marketNotFound } from './tool-kit.ts';

const EmptyNoticeSchema = z
  .object({ reason: z.string(), try: z.array(z.string()) })
  .describe('Present when the list is empty: why, and what to try.');
const withNotice = <T extends z.ZodObject>(schema: T) => schema.extend({ notice: EmptyNoticeSchema.optional() });

/**
 * The market a reference `getMarket` does not read names (issue 20, item 4: a venue_b market slug, a CLOB token id,
 * a venue page URL…), or null.
 */
function marketByAnyRef(qs: QueryService, ref: string, detail: string) {
  const id = marketIdForRef(qs.model(), ref);
  return id === null ? null : qs.getMarket(id, detail);
}

/** A market reference as `getMarket` reads it: itself when it does, else the id of the one market it names. */
function canonicalRef(qs: QueryService, ref: string): string {
  return qs.getMarket(ref) ? ref : (marketIdForRef(qs.model(), ref) ?? ref);
}

/** Every tool, in the order tools/list returns them: find, look up, compare, count, explain, then the wire. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  defineTool({
    name: 'list_events',
    title: 'Browse or search events',
    description:
      'Browse or search canonical prediction-market events across both venues; answers "what events are there on this topic?". Each item carries the headline market\'s price and its Resolution Clarity Grade (A = settles cleanly on a named authority; C = vague or contested settlement). q matches event questions and tags only: to find a market by its own question, rules text or ticker, use search_markets. Then call get_event or get_market for detail.',
    input: ListEventsInput,
    output: withNotice(EventListSchema),
    run: (qs, a) => {
      const body = qs
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
        .value() as { total: number };
      return found(body.total === 0 ? { ...body, notice: eventsEmptyNotice(qs, a) } : body);
    },
  }),
  defineTool({
    name: 'search_markets',
    title: 'Find markets',
    description:
      'Search and filter individual markets on both venues: answers "which markets are about this?" and "which markets are graded A / commit to no source / trade on both venues?". q matches market and event questions, rules text, venue tickers, series and tags (with stemming, synonyms and one typo); filters on the market\'s own grade, source commitment, venue, category, status, whether it has a twin on the other venue, eligibility, and close time. Each row has the grade, score, caps, committed source, price with its as-of time, volume and question_id; an empty page says why in notice.',
    input: SearchMarketsInput,
    output: MarketPageSchema,
    run: (qs, a) => {
      try {
        return found(
          qs.findMarkets({
            ...a,
            has_twin: a.has_twin === undefined ? undefined : String(a.has_twin),
            limit: a.limit ?? 20,
            offset: a.offset ?? 0,
          }),
        );
      } catch (err) {
        if (!(err instanceof MarketQueryError)) throw err;
        return { found: false, error: err.message, next_step: err.hint };
      }
    },
  }),
  defineTool({
    name: 'get_event',
    title: 'Get one event with its markets',
    description:
      'One event with all its markets: answers "what are the markets of this event and how do they compare?". Each market has its price, Resolution Clarity Grade, source and cross-venue twins (also_on), with the lifecycle log. detail=concise (default) trims each market to grade, price and source; detail=full adds every field and the rules texts.',
    input: GetEventInput,
    output: EventDetailSchema,
    run: (qs, a) => {
      const body = qs.getEvent(a.slug, a.detail ?? 'concise');
      return body ? found(body.value()) : eventNotFound(a.slug);
    },
  }),
  defineTool({
    name: 'get_market',
    title: 'Can I trust how this market settles?',
    description:
      "One market's price and resolution provenance: answers \"can I trust how this settles?\". concise (default): the Resolution Clarity Grade with its score, its caps and the factors that cost points (each with its rule id, what it means and the venue's own words), the committed source of record (or why there is none) and who arbitrates, the price with its as-of time, the question_id and also_on (the other venue's same, complement or related markets with their prices and price times), the event, and the rules text once. detail=full gives every served field. Accepts any market reference: a service id (SVC-MKT-…), a venue_a ticker, a venue_b condition id, market slug or CLOB token id, or a venue market or event page URL of either venue (parsed, never fetched).",
    input: GetMarketInput,
    output: z.union([MarketConciseSchema, MarketDetailSchema]),
    run: (qs, a) => {
      const ref = a.market_id ?? a.market ?? '';
      const body = qs.getMarket(ref, a.detail ?? 'concise') ?? marketByAnyRef(qs, ref, a.detail ?? 'concise');
      return body ? found(body.value()) : marketNotFound(ref);
    },
  }),
  defineTool({
    name: 'compare_question',
    title: 'Is this the same bet on the other venue?',
    description:
      'Cross-venue questions: answers "is this the same bet on the other venue?" and "where do the venues price one question differently?". With question_id (SVCX-…, or a pair id) or market_id: both legs side by side (venue, question, price with its as-of time, grade, arbiter, source of record), the relation (same, complement, related), the divergence in percentage points (complement-adjusted), the typed differences and a word diff of the two rule texts. With neither: every linked pair, largest divergence first, filtered by category, relation or min_divergence.',
    input: CompareQuestionInput,
    output: z.union([QuestionComparisonSchema, QuestionPageSchema]),
    run: (qs, a) =>
      compareQuestion(qs, a.market_id === undefined ? a : { ...a, market_id: canonicalRef(qs, a.market_id) }),
  }),
  defineTool({
    name: 'get_stats',
    title: 'How common is it?',
    description:
      'Catalog counts: answers "how common is X?" (e.g. how many venue_b markets commit to no source, what share of economics markets grade A). Markets per venue, grade, commitment subtype and category; linked cross-venue questions by relation; venue_b dispute rates by grade. Give filters to get one count and its share: venue and category choose the population, grade and source_commitment_subtype what is counted in it.',
    input: GetStatsInput,
    output: AgentStatsSchema,
    run: (qs, a) => found(selectStats(qs.statsData(), a)),
  }),
  defineTool({
    name: 'glossary',
    title: 'What does this code mean?',
    description:
      'Plain-word meanings of the codes in answers: answers "what does X mean?". Grades, RCG factors and their weights, rule ids (rcg.factors[].rule, e.g. clarity.no_committed_source), caps (with the grade each allows), commitment subtypes, link relations and difference types, eligibility-screen regimes and their reason codes. Pass a code or a word as term, or a kind, or nothing for all.',
    input: GlossaryInput,
    output: GlossaryAnswerSchema,
    run: (_qs, a) => found(lookupGlossary(a)),
  }),
  defineTool({
    name: 'list_upcoming_catalysts',
    title: 'Upcoming scheduled catalysts',
    description:
      'Scheduled releases and decisions in the next N days (FOMC decisions, CPI, jobs, GDP, PPI, earnings, elections), each with its date and the authoritative source URL. Answers "what is coming up that could move these markets?".',
    input: CatalystsInput,
    output: withNotice(CatalystsSchema),
    run: (qs, a) => {
      const days = a.days ?? 30;
      const body = qs.upcomingCatalysts({ days }).value() as { count: number };
      return found(body.count === 0 ? { ...body, notice: catalystsEmptyNotice(days) } : body);
    },
  }),
  defineTool({
    name: 'list_signals',
    title: 'Browse the signal wire',
    description:
      'Analytic bulletins, newest first: answers "what moved unusually?". Cross-venue price divergence between twins, crypto threshold markets drifting from spot (benchmark drift), several markets on one entity repricing together (news cycle), and volume spikes. Filter by event_id, category tag, venue or kind.',
    input: ListSignalsInput,
    output: withNotice(SignalIndexSchema),
    run: (qs, a) => {
      const kind = a.kind ?? a.detection_path;
      const body = qs
        .listSignals({
          event_id: a.event_id,
          category: a.category,
          venue: a.venue,
          detection_path: kind,
          limit: a.limit ?? 30,
        })
        .value() as { count: number };
      const filtered = [a.event_id, a.category, a.venue, kind].some((x) => x !== undefined);
      return found(body.count === 0 ? { ...body, notice: signalsEmptyNotice(qs, filtered) } : body);
    },
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
  defineTool({
    name: 'get_market_history',
    title: 'How has this market traded?',
    description:
      "One market's daily marks over a date range (REST GET /v1/markets/{id}/history): per UTC date the bid/ask prices and sizes, last price, implied probability, volume and open interest, price_as_of (the venue's time of the quote) and how the mark was obtained (venue_snapshot, venue_history from the venue's price-history backfill, carried_forward when a venue failed, editorial_override). Defaults to the 365 days up to the newest mark. interval hour: the quote at each hourly refresh (one point per hour a refresh ran; carried_forward when its venue failed), kept for the last 7 days and today by default.",
    input: GetMarketHistoryInput,
    output: MarketHistorySchema,
    run: async (_qs, a, deps) => {
      if (!deps.history) {
        return {
          found: false,
          error: 'Market history is read from the store, which this tool server was started without.',
          next_step: `Ask GET /v1/markets/${encodeURIComponent(a.market_id)}/history on the REST API.`,
        };
      }
      let plan: Awaited<ReturnType<typeof deps.history.plan>>;
      try {
        plan = await deps.history.plan(a.market_id, { from: a.from, to: a.to, interval: a.interval });
      } catch (err) {
        if (err instanceof HistoryQueryError) return { found: false, error: err.message, next_step: err.hint };
        throw err;
      }
      return plan ? found(await deps.history.history(plan)) : marketNotFound(a.market_id);
    },
  }),
];

/** The tool named `name`, or undefined. */
export function toolNamed(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/** Plain words for agents: what the grade, the committed source, question_id and also_on mean, and which tool answers what. */
export const AGENT_INSTRUCTIONS = `pmref is a read-only reference service for prediction markets on two venues: venue_a (a CFTC-regulated exchange settling in USD) and venue_b (a token-vote-arbitrated protocol settling in USDC). Use it to judge whether a market's price can be trusted and whether the same question trades on the other venue.
- Every market has a Resolution Clarity Grade (rcg.grade): A settles on a concrete named authority with an objective trigger; B has a gap (a hedged source, a lagging or editable source, a contested fact); C is vague, disputed or names no committed source. get_market lists the factors that cost points with the rule that decided each and the venue's own words.
- The committed source (resolution.source_of_record) is copied verbatim from the venue's text; when it is null the market names no committed source and resolution.source_commitment_subtype says why (illustrative "for example" hedge, placeholder "consensus of credible reporting", or none). A missing source is graded, not hidden.
- question_id (SVCX-…) is shared by markets that ask the same question, on either venue; direction says the side (above/below at the same threshold is the same claim). also_on lists the other venue's markets with their current prices and a relation: same or complement (they share the question_id) or related (a near-equivalent question with another question_id; differences lists each typed difference).
- Which tool: find markets with search_markets (q = a few words, a ticker or a topic; filters on the market's own grade, commitment, venue, twin) or events with list_events; "can I trust how this settles?" → get_market; the whole event → get_event; "is this the same bet on the other venue?" → compare_question; "how common is X?" → get_stats; "what does this code mean?" → glossary; scheduled releases → list_upcoming_catalysts; unusual moves → list_signals / get_signal.
- get_market and get_event answer concise by default; pass detail=full for every field. An empty list carries notice.reason and notice.try.
- eligibility_screens mean fit with a jurisdiction's rule set, not quality. Access is open; no key is needed. Cite results with the _provenance ids.`;
