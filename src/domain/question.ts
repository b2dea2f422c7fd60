/**
 * Cross-venue questions (issue 17, item 3): every pair of markets linked across the two venues, served as one
 * row with both legs side by side. Schemas once (STYLE.md): the REST routes, /openapi.json and the MCP tool
 * output schemas all take these constants.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { LinkDifferenceSchema, LinkRelationSchema, MarketIdSchema } from './market.ts';
import { NoticeSchema, ServedGradeSchema } from './served.ts';
import { ArbitrationModelSchema, CategorySchema, DirectionSchema, MarketStatusSchema, VenueSchema } from './vocab.ts';

/**
 * Id of a linked pair. `same` and `complement` pairs are served under their shared question_id (`SVCX-…`);
 * a `related` pair has two question_ids, so it gets `SVCR-` + the first 10 hex digits of
 * SHA-256(`related|<venue_a market_id>|<venue_b market_id>`): deterministic, stable across generations for as
 * long as the two markets stay linked. When one question_id holds more than one cross-venue pair (a venue
 * with both the "above" and the "below" market of one boundary, or two markets of one question), each such pair is `SVCP-` +
 * SHA-256(`pair|<a>|<b>`), and the question_id itself opens one of them: a `same` pair first, then the lowest
 * market ids (`QuestionComparisonSchema.other_pairs` lists the rest).
 */
export const QUESTION_PAIR_ID_PATTERN = /^SVC[XRP]-[0-9A-F]{10}$/;
export const QuestionPairIdSchema = z
  .string()
  .regex(QUESTION_PAIR_ID_PATTERN)
  .describe(
    'Id of a cross-venue pair: the shared question_id (SVCX-…) for same and complement pairs; SVCR-… (a hash of both market ids) for related pairs; SVCP-… for one of several pairs sharing a question_id.',
  );

/**
 * The id of a pair that has no question_id of its own: `SVCR-` for a related pair, `SVCP-` for one of several
 * pairs sharing a question_id (see `QuestionPairIdSchema`). Pure: the same two markets give the same id.
 * @example pairIdFor('related', 'SVC-MKT-0000000001', 'SVC-MKT-0000000002') // 'SVCR-…' (always the same)
 */
export function pairIdFor(kind: 'related' | 'pair', venueAMarketId: string, venueBMarketId: string): string {
  const hex = createHash('sha256').update(`${kind}|${venueAMarketId}|${venueBMarketId}`, 'utf8').digest('hex');
  return `${kind === 'related' ? 'SVCR' : 'SVCP'}-${hex.slice(0, 10).toUpperCase()}`;
}

const dateTime = () => z.iso.datetime({ offset: true });

/** One market of a linked pair, as it trades on its venue. */
export const QuestionLegSchema = z
  .object({
    venue: VenueSchema,
    market_id: MarketIdSchema,
    platform_market_id: z.string().describe('Ticker for venue_a, condition id for venue_b.'),
    event_id: z.string().nullable(),
    event_slug: z.string().nullable().describe('Slug of the market’s event: /v1/events/{slug}, /events/{slug}.'),
    category: CategorySchema.nullable().describe("The market's event category."),
    question: z.string().nullable().describe('The venue’s own question text.'),
    subject: z
      .string()
      .nullable()
      .describe(
        'The market’s own subject within a multi-outcome event (its group_item_title, e.g. the candidate), where the venue’s question is the event’s ("Who will win …?"); null for a single-question market.',
      ),
    direction: DirectionSchema.nullable().describe('Which side of the boundary YES is on.'),
    price: z.number().min(0).max(1).nullable().describe('Last YES price (0–1) from the latest mark; null without one.'),
    price_as_of: dateTime()
      .nullable()
      .describe('When the venue quoted that price; null when the venue gave no time (never our pull time).'),
    status: MarketStatusSchema.describe('Served market status.'),
    grade: ServedGradeSchema,
    score: z.number().int().min(0).max(100).nullable().describe('RCG score 0–100; null until graded.'),
    arbiter: ArbitrationModelSchema.nullable().describe('Who decides the outcome (arbitration_model).'),
    source_of_record: z.string().nullable().describe('The committed resolution source; null when none is committed.'),
    url: z.string().describe('The market record: /v1/markets/{market_id}.'),
  })
  .describe('One leg of a cross-venue pair.');
export type QuestionLeg = z.infer<typeof QuestionLegSchema>;

/** A linked pair in the `/v1/questions` list. */
export const QuestionSummarySchema = z
  .object({
    id: QuestionPairIdSchema,
    question_id: z
      .string()
      .nullable()
      .describe('The shared question_id for same and complement pairs; null for related pairs (they have two).'),
    relation: LinkRelationSchema,
    category: CategorySchema.nullable().describe("The venue_a leg's event category (else venue_b's)."),
    divergence_points: z
      .number()
      .min(0)
      .nullable()
      .describe(
        'How far apart the venues price it, in percentage points (0–100, one decimal): |p_a − p_b| × 100 for same and related, |p_a − (1 − p_b)| × 100 for complement (the other side of one boundary). Null when either price is missing or either market is no longer open (a closed or resolved market has no live quote). For related pairs the questions differ (see differences), so a gap is not a spread.',
      ),
    divergence_note: z
      .string()
      .nullable()
      .describe('Why divergence_points is null, or what it compares when the legs are not the same bet.'),
    spread_gross_points: z
      .number()
      .min(0)
      .nullable()
      .optional()
      .describe(
        'The spread a trader could lock in per $1 contract before costs, in percentage points: buy YES where it is cheaper and NO where it is dearer (same prices as divergence_points, two decimals). Null when divergence_points is null and for related pairs (not the same bet).',
      ),
    spread_net_points: z
      .number()
      .nullable()
      .optional()
      .describe(
        "spread_gross_points less both venues' taker fees per contract at spread_size_contracts (fee schedules: data/fees/, each market's own fee_terms over its venue's schedule; METHODOLOGY.md). Zero or less: the divergence does not survive fees. Null as spread_gross_points, and when either leg's fee cannot be priced (spread_note says which).",
      ),
    spread_fees: z
      .object({
        venue_a: z
          .number()
          .min(0)
          .nullable()
          .describe(
            'Taker fee per contract (USD) of the venue_a leg; null when the market charges a fee pmref cannot price.',
          ),
        venue_b: z
          .number()
          .min(0)
          .nullable()
          .describe(
            'Taker fee per contract (USD) of the venue_b leg; null when the market charges a fee pmref cannot price.',
          ),
      })
      .nullable()
      .optional()
      .describe('Each leg’s taker fee per contract at the stated size; null as spread_gross_points.'),
    spread_size_contracts: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe(
        'The stated size the fees and depth are computed for (100 contracts, a $100 payout); null as spread_gross_points.',
      ),
    spread_note: z
      .string()
      .nullable()
      .optional()
      .describe("Why spread_net_points is null though spread_gross_points is not: which leg's fee cannot be priced."),
    depth_ok: z
      .boolean()
      .nullable()
      .optional()
      .describe(
        'Whether the stated size fits at the best ask of both legs (only top-of-book sizes are kept); null when either size is unknown or there is no spread.',
      ),
    differences: z
      .array(LinkDifferenceSchema)
      .describe('For related pairs, the typed parts in which the two questions differ; empty otherwise.'),
    venue_a: QuestionLegSchema,
    venue_b: QuestionLegSchema,
    url: z.string().describe('The side-by-side view: /v1/questions/{id}.'),
  })
  .describe('A question traded on both venues (or a near-equivalent pair), with both legs and their divergence.');
export type QuestionSummary = z.infer<typeof QuestionSummarySchema>;

/** Why a list is empty or a filter value was not understood, and what to try (issue 17: every empty answer says why). */
export const QuestionNoticeSchema = z
  .object({
    reason: z.string(),
    try: z.array(z.string()).describe('Values or requests to try instead.'),
  })
  .describe('Why the page is empty or a filter was not understood, and what to try.');

/** A page of cross-venue questions (the plain data MCP, A2A and the HTML pages use). */
export const QuestionPageSchema = z
  .object({
    total: z.number().int().describe('All pairs matching the filters.'),
    count: z.number().int().describe('Pairs in this page.'),
    limit: z.number().int(),
    offset: z.number().int(),
    notice: QuestionNoticeSchema.nullable(),
    limit_notice: z.string().optional().describe('Set when limit was over 100 and was capped.'),
    questions: z.array(QuestionSummarySchema),
  })
  .describe('Cross-venue questions, largest divergence first (pairs without a divergence last).');
export type QuestionPage = z.infer<typeof QuestionPageSchema>;

/** `GET /v1/questions`: the page with the service notice. */
export const QuestionListSchema = QuestionPageSchema.extend({ _notice: NoticeSchema }).describe(
  'Cross-venue questions, largest divergence first (pairs without a divergence last).',
);
export type QuestionList = z.infer<typeof QuestionListSchema>;

/** One segment of a word-level diff: words both texts share, or words only venue_a's (`a`) or venue_b's (`b`) has. */
export const DiffSegmentSchema = z
  .object({
    op: z.enum(['same', 'a', 'b']).describe("same: in both texts; a: only in venue_a's; b: only in venue_b's."),
    text: z.string().describe('The words of the segment, separated by single spaces.'),
  })
  .strict();
export type DiffSegment = z.infer<typeof DiffSegmentSchema>;

/** The word diff of the two legs' rule texts. */
export const RulesDiffSchema = z
  .object({
    segments: z.array(DiffSegmentSchema).describe('Both texts in reading order: same, then a before b in a change.'),
    words_a: z.number().int().describe("Words in venue_a's rules."),
    words_b: z.number().int().describe("Words in venue_b's rules."),
    same_words: z.number().int().describe('Words matched in both (longest common subsequence).'),
    exact: z
      .boolean()
      .describe(
        'False when the texts were too long for an exact alignment: the common start and end are matched, and the middle is shown as removed and added.',
      ),
  })
  .describe('Word-level diff of the two rule texts (whitespace normalized); null when a leg has no rules text.');
export type RulesDiff = z.infer<typeof RulesDiffSchema>;

/** A cross-venue pair side by side (plain data): both legs, the rule texts and their word diff. */
export const QuestionComparisonSchema = QuestionSummarySchema.extend({
  rules: z
    .object({ venue_a: z.string().nullable(), venue_b: z.string().nullable() })
    .describe('Each leg’s resolution rules as the venue wrote them.'),
  rules_diff: RulesDiffSchema.nullable(),
  other_pairs: z
    .array(QuestionPairIdSchema)
    .describe(
      'Other pairs sharing this question_id (e.g. the same venue_a market against a venue_b above and below market); usually empty.',
    ),
}).describe('A cross-venue pair side by side, with a word-level diff of the two rule texts.');
export type QuestionComparison = z.infer<typeof QuestionComparisonSchema>;

/** `GET /v1/questions/{id}`: the comparison with the service notice. */
export const QuestionDetailSchema = QuestionComparisonSchema.extend({ _notice: NoticeSchema }).describe(
  'A cross-venue pair side by side, with a word-level diff of the two rule texts.',
);
export type QuestionDetail = z.infer<typeof QuestionDetailSchema>;
