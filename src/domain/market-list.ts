/**
 * Market-level listing and search (issue 17): `GET /v1/markets`, the MCP `search_markets` tool and the explorer
 * read these shapes. A row carries what decides "which market do I want": its own grade, score and caps, its
 * commitment and source of record, its price with as-of time, volume and whether it has a twin on the other venue.
 */
import { z } from 'zod';
import { EventIdSchema } from './event.ts';
import { MarketIdSchema, QuestionIdSchema } from './market.ts';
import { QuestionNoticeSchema } from './question.ts';
import { RcgCapSchema } from './rcg.ts';
import { EventListItemSchema, NoticeSchema, ServedGradeSchema } from './served.ts';
import { CategorySchema, CommitmentSubtypeSchema, MarketStatusSchema, VenueSchema } from './vocab.ts';

const dateTime = () => z.iso.datetime({ offset: true });

/** Sort orders of the market and event lists. */
export const LIST_SORTS = ['relevance', 'rcg_score', 'volume', 'close_at'] as const;
export const ListSortSchema = z.enum(LIST_SORTS);
export type ListSort = z.infer<typeof ListSortSchema>;

/** Statuses of an eligibility screen result (as in `eligibility_screens[].status`). */
export const ELIGIBILITY_STATUSES = ['eligible', 'review', 'not_eligible'] as const;

export const MarketListItemSchema = z
  .object({
    market_id: MarketIdSchema,
    event_id: EventIdSchema.nullable(),
    event_slug: z.string().nullable(),
    platform: VenueSchema,
    platform_market_id: z.string().describe('Ticker for venue_a, condition id for venue_b.'),
    question: z.string().nullable(),
    category: CategorySchema.nullable().describe("The event's category."),
    status: MarketStatusSchema,
    close_at: dateTime().nullable(),
    grade: ServedGradeSchema.describe("This market's own grade (not its event's headline grade)."),
    rcg_score: z.number().int().nullable(),
    caps: z.array(RcgCapSchema).describe('Caps that limited the grade.'),
    source_commitment_subtype: CommitmentSubtypeSchema.nullable(),
    source_of_record: z.string().nullable(),
    last_price: z.number().min(0).max(1).nullable(),
    price_as_of: dateTime().nullable().describe("The venue's time of the price; null when the venue gave none."),
    volume_24h_usd: z.number().nullable(),
    question_id: QuestionIdSchema.nullable(),
    has_twin: z.boolean().describe('True when the same question (same or complement) trades on the other venue.'),
    url: z.string().nullable().describe("Path of the event's page (`/events/{slug}`), null without an event."),
    score: z.number().optional().describe('Relevance to `q` (higher is better), present when `q` was given.'),
  })
  .describe('One market in a list: its own grade, commitment, price and twin.');
export type MarketListItem = z.infer<typeof MarketListItemSchema>;

/** Why a page is empty (or a filter value was not understood), and what to try: one shape for every list. */
export const ListNoticeSchema = QuestionNoticeSchema;
export type ListNotice = z.infer<typeof ListNoticeSchema>;

/** A page of markets (the plain data MCP, A2A and the HTML pages use). */
export const MarketPageSchema = z
  .object({
    total: z.number().int().describe('All markets matching the query and filters.'),
    count: z.number().int().describe('Markets in this page.'),
    limit: z.number().int(),
    offset: z.number().int(),
    notice: ListNoticeSchema.nullable(),
    markets: z.array(MarketListItemSchema),
  })
  .describe('Markets matching the query and filters, in the requested order.');
export type MarketPage = z.infer<typeof MarketPageSchema>;

/** `GET /v1/markets`: the page with the service notice. */
export const MarketListSchema = MarketPageSchema.extend({
  keyed: z.boolean().describe('True when the request carried a valid key.'),
  _notice: NoticeSchema,
}).describe('Markets matching the query and filters, in the requested order.');
export type MarketList = z.infer<typeof MarketListSchema>;

/** A page of events (the plain data of `findEvents`: MCP, A2A and the HTML pages). */
export const EventPageSchema = z
  .object({
    total: z.number().int().describe('All events matching the query and filters.'),
    count: z.number().int().describe('Events in this page.'),
    limit: z.number().int(),
    offset: z.number().int(),
    notice: ListNoticeSchema.nullable(),
    events: z.array(EventListItemSchema),
  })
  .describe('Events matching the query and filters, in the requested order.');
export type EventPage = z.infer<typeof EventPageSchema>;
