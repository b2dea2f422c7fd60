import { z } from 'zod';
import { LinkRelationSchema, MarketIdSchema } from './market.ts';
import { NoticeSchema } from './served.ts';
import { GradeSchema, LogEventTypeSchema, MarketStatusSchema, VenueSchema } from './vocab.ts';

/**
 * What a change-feed entry reports (issue 20). There is no `market_removed`: the pipeline never deletes a
 * market (a market a venue stops listing keeps its record and has its marks carried forward), so a removal
 * never happens to be reported.
 */
export const CHANGE_KINDS = [
  'lifecycle',
  'grade_changed',
  'market_added',
  'link_added',
  'link_changed',
  'signal',
] as const;
export const ChangeKindSchema = z
  .enum(CHANGE_KINDS)
  .describe(
    'lifecycle: a resolution-log entry (status_change, rule_change, resolution_proposed, disputed, resolved, amended, reversed). grade_changed: the Resolution Clarity Grade letter moved. market_added: a market pmref had not stored before. link_added: a market gained its first cross-venue link (a twin in also_on). link_changed: its twins changed or went, or its question_id changed while it had twins (a question_id alone is no link). signal: a new signal bulletin.',
  );
export type ChangeKind = z.infer<typeof ChangeKindSchema>;

/** A market's cross-venue link as the feed compares it: its question_id and its twins with their relation. */
export const ChangeLinkSchema = z
  .object({
    question_id: z.string().nullable(),
    also_on: z
      .array(z.object({ market_id: MarketIdSchema, relation: LinkRelationSchema.nullable() }))
      .describe('The twins on the other venue, by market_id (prices are not part of the link).'),
  })
  .describe("A market's cross-venue link: question_id and twins.");
export type ChangeLink = z.infer<typeof ChangeLinkSchema>;

const GradeValueSchema = z.object({ grade: GradeSchema.nullable(), score: z.number().int().nullable() });

/**
 * The little a client needs to act on a change without fetching the record: before and after values, and for a
 * lifecycle entry which log entry it is. Fields not meaningful for a kind are absent.
 */
export const ChangeDetailSchema = z
  .object({
    event_type: LogEventTypeSchema.optional().describe('lifecycle: the log entry event_type.'),
    log_id: z.number().int().optional().describe('lifecycle: the log entry id (see the event resolution_log).'),
    occurred_at: z.iso.datetime({ offset: true }).optional().describe('lifecycle: when it happened.'),
    platform: VenueSchema.optional().describe('market_added: the venue.'),
    status: MarketStatusSchema.optional().describe('market_added: the market status.'),
    headline: z.string().optional().describe('signal: the bulletin headline.'),
    from: z
      .union([z.string(), GradeValueSchema, ChangeLinkSchema])
      .nullable()
      .optional()
      .describe('The value before: lifecycle from_value, grade {grade, score}, link {question_id, also_on}.'),
    to: z
      .union([z.string(), GradeValueSchema, ChangeLinkSchema])
      .nullable()
      .optional()
      .describe('The value after, same forms as from (market_added: its grade).'),
  })
  .describe('Before/after values of the change.');
export type ChangeDetail = z.infer<typeof ChangeDetailSchema>;

/**
 * One entry of the sequenced change feed (issue 20): every change a publish makes visible, numbered by the store
 * in publish order. `seq` is dense (1, 2, 3… with no holes), so a client that holds seq n and next sees n + 2
 * knows it missed one.
 */
export const ChangeSchema = z
  .object({
    seq: z.number().int().min(1).describe('Position in the feed: dense, increasing, the same on every replica.'),
    kind: ChangeKindSchema,
    market_id: MarketIdSchema.nullable().describe('The market changed; null for a signal.'),
    event_id: z.string().nullable().describe('Its event (a signal: the target event).'),
    signal_slug: z.string().nullable().describe('signal: the bulletin slug (GET /v1/signals/{slug}).'),
    generation: z.number().int().min(1).describe('The generation whose publish made the change.'),
    published_at: z.iso.datetime({ offset: true }).describe('When that generation was published.'),
    detail: ChangeDetailSchema,
  })
  .describe('One entry of the sequenced change feed.');
export type Change = z.infer<typeof ChangeSchema>;
/** A change before the store numbers it. */
export type NewChange = Omit<Change, 'seq'>;

/**
 * `GET /v1/changes` (issue 20): one page of the feed, in the marks feed's shape (served-shapes §17) with a
 * sequence number in place of the cursor: a feed has no last page, so `next_after` is always a number.
 */
export const ChangesPageSchema = z
  .object({
    as_of: z.iso.datetime({ offset: true }),
    schema_version: z.string(),
    after: z.number().int().describe('The after asked for: changes with a greater seq are on this page.'),
    count: z.number().int().describe('Changes on this page.'),
    next_after: z
      .number()
      .int()
      .describe('Pass as after for the next page: the last seq on this page (after itself when it is empty).'),
    latest_seq: z.number().int().describe('The newest seq published; next_after = latest_seq means caught up.'),
    docs: z.string(),
    limit_notice: z.string().optional(),
    _notice: NoticeSchema,
    changes: z.array(ChangeSchema),
  })
  .describe('Changes with seq greater than after, in seq order. Not cached.');
export type ChangesPage = z.infer<typeof ChangesPageSchema>;
