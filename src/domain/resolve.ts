/**
 * `GET /v1/resolve` (issue 20, item 4): any identifier a client holds — a venue page URL, a ticker, a slug, a
 * condition id, a CLOB token id, a pmref id — to the canonical market or event, with every identifier it has.
 * Schemas once (STYLE.md): the route, /openapi.json and the tools take these constants.
 */
import { z } from 'zod';
import { EventIdSchema } from './event.ts';
import { MarketIdSchema, QuestionIdSchema } from './market.ts';
import { VenueSchema } from './vocab.ts';

/**
 * The identifiers the resolver indexes, and what each names: a market, an event, or (series_ticker, question_id)
 * a group of them.
 */
export const IDENTIFIER_KINDS = [
  'market_id',
  'event_id',
  'question_id',
  'ticker',
  'event_ticker',
  'series_ticker',
  'condition_id',
  'token_id',
  'venue_question_id',
  'venue_market_id',
  'venue_event_id',
  'market_slug',
  'event_slug',
] as const;
export const IdentifierKindSchema = z
  .enum(IDENTIFIER_KINDS)
  .describe(
    'market_id, event_id, question_id: pmref ids (SVC-MKT-…, SVC-EVT-…, SVCX-…). ticker, event_ticker, series_ticker: venue_a. condition_id, token_id (CLOB), venue_question_id (Gamma questionID), venue_market_id and venue_event_id (numeric Gamma ids), market_slug: venue_b. event_slug: the pmref event slug, which for venue_b is the venue’s own.',
  );
export type IdentifierKind = z.infer<typeof IdentifierKindSchema>;

/** What a reference was recognised as: a page or API URL of either venue, another URL or path, or an identifier. */
export const REF_FORMS = ['venue_a_url', 'venue_b_url', 'url', ...IDENTIFIER_KINDS] as const;
export const RefFormSchema = z
  .enum(REF_FORMS)
  .describe(
    'What the reference was recognised as: venue_a_url or venue_b_url (a page or API URL of that venue, parsed, never fetched), url (any other URL or path, e.g. a pmref one), or the identifier kind it matched as.',
  );
export type RefForm = z.infer<typeof RefFormSchema>;

/** Every identifier of one market or event. Venue keys are present only when known. */
export const RecordIdentifiersSchema = z
  .object({
    venue: VenueSchema,
    market_id: MarketIdSchema.nullable().describe('pmref market id; null for an event.'),
    event_id: EventIdSchema.nullable().describe('pmref event id (a market’s event; null for a market without one).'),
    event_slug: z.string().nullable().describe('pmref event slug (venue_b: the venue’s event slug).'),
    question_id: QuestionIdSchema.nullable().optional().describe('Markets: the cross-venue question id, if any.'),
    market_ids: z.array(MarketIdSchema).optional().describe('Events: the ids of the markets served under it.'),
    ticker: z.string().optional().describe('venue_a market ticker.'),
    event_ticker: z.string().optional().describe('venue_a event ticker.'),
    series_ticker: z
      .string()
      .optional()
      .describe(
        'venue_a series ticker (as the venue sent it when recorded, otherwise the event ticker up to its first hyphen).',
      ),
    condition_id: z.string().optional().describe('venue_b condition id.'),
    market_slug: z.string().optional().describe('venue_b market slug.'),
    token_ids: z.array(z.string()).optional().describe('venue_b CLOB token ids, in outcome order.'),
    venue_question_id: z.string().optional().describe('venue_b Gamma questionID.'),
    venue_market_id: z.string().optional().describe('venue_b numeric Gamma market id.'),
    venue_event_id: z.string().optional().describe('venue_b numeric Gamma event id.'),
    venue_urls: z
      .array(z.string())
      .describe(
        'The venue’s public pages for it: venue_a its series page, venue_b its event page and, with a market slug, the market’s page.',
      ),
  })
  .strict()
  .describe('Every identifier of one market or event, pmref’s and the venue’s.');
export type RecordIdentifiers = z.infer<typeof RecordIdentifiersSchema>;

/** One canonical record a reference leads to. */
export const ResolvedRecordSchema = z
  .object({
    match: z.enum(['market', 'event']).describe('Whether the record is a market or an event.'),
    id: z.string().describe('Its pmref id (SVC-MKT-… or SVC-EVT-…).').meta({ example: 'SVC-MKT-0A1B2C3D4E' }),
    path: z.string().describe('Its pmref resource: /v1/markets/{id} or /v1/events/{id}.'),
    page: z.string().nullable().describe('Its human page (/events/{slug}); null for a market without an event.'),
    identifiers: RecordIdentifiersSchema,
  })
  .strict()
  .describe('A canonical market or event with all its identifiers.');
export type ResolvedRecord = z.infer<typeof ResolvedRecordSchema>;

const answerHead = {
  ref: z.string().describe('The reference as received, without surrounding whitespace.'),
  kind: RefFormSchema,
  matched_on: IdentifierKindSchema.describe('The identifier of the record(s) the reference matched.'),
};

/** A reference that leads to one record. */
export const ResolvedAnswerSchema = ResolvedRecordSchema.extend(answerHead)
  .strict()
  .describe('The one market or event the reference names.');

/** How many candidates an ambiguous answer lists at most. */
export const MAX_CANDIDATES = 50;

/** A reference that leads to several records (one key shared by several, or a group such as a series). */
export const AmbiguousAnswerSchema = z
  .object({
    ...answerHead,
    match: z.literal('ambiguous'),
    total: z.number().int().min(2).describe('How many records the reference matched.'),
    candidates: z
      .array(ResolvedRecordSchema)
      .describe(`The records it matched, markets first, then by id; at most ${MAX_CANDIDATES}.`),
  })
  .strict()
  .describe('Several records share the reference: each is listed, and none is chosen.');

export const ResolveAnswerSchema = z
  .union([ResolvedAnswerSchema, AmbiguousAnswerSchema])
  .describe(
    'What a reference leads to: one market or event (match market or event) with all its identifiers, or, when several records share it, the candidates (match ambiguous).',
  );
export type ResolveAnswer = z.infer<typeof ResolveAnswerSchema>;
