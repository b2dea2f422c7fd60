/**
 * Served shapes (spec §2 and §4; served-shapes.md where the spec says "not shown"). These are what clients
 * receive over REST, MCP and A2A: the canonical records of this folder re-shaped at serve time. Key order in
 * every object here is the served key order. Route schemas, /openapi.json and the MCP tool output schemas
 * import these constants.
 */
import { z } from 'zod';
import { EventIdSchema, LadderDistributionSchema } from './event.ts';
import { MarkSchema } from './mark.ts';
import { AlsoOnSchema, EligibilityScreenResultSchema, MarketIdSchema, ResolutionSourceSchema } from './market.ts';
import { FieldProvenanceEntrySchema } from './provenance.ts';
import { RcgCapSchema, RcgFactorSchema } from './rcg.ts';
import { ServedLogEntrySchema } from './resolution-log.ts';
import { SpotRowSchema } from './spot.ts';
import {
  ArbitrationModelSchema,
  CategorySchema,
  CommitmentSubtypeSchema,
  ContractTypeSchema,
  DataSourceSchema,
  DirectionSchema,
  GradeSchema,
  MarketStatusSchema,
  ProposerSchema,
  ServedSourceStatusSchema,
  SettlementCurrencySchema,
  SettlementStyleSchema,
  SignalCategoryTagSchema,
  SignalKindSchema,
  SourceCommitmentSchema,
  SourceMechanismSchema,
  SourceTypeSchema,
  VenueSchema,
} from './vocab.ts';

const dateTime = () => z.iso.datetime({ offset: true });
const prob = () => z.number().min(0).max(1).nullable();

/** `_notice` (served-shapes §12): additive, its shape does not change. `data_source` is a pmref addition. */
export const NoticeSchema = z
  .object({
    type: z.literal('free_key_offer'),
    message: z.string(),
    docs: z.string().describe('The data-access documentation page.'),
    policy: z.string(),
    data_source: DataSourceSchema.nullable().describe(
      'Where the data comes from: live venues, a replay of recorded responses, or the simulated universe.',
    ),
  })
  .describe('Service notice: free access stays; a free key adds advance notice of schema changes.');
export type Notice = z.infer<typeof NoticeSchema>;

/** `_provenance` (spec §2.1, served-shapes §12). */
export const ProvenanceSchema = z
  .object({
    source: z.string().describe("The service's origin."),
    ref: z.string().describe('The cited record id (SVC-EVT-… or SVC-MKT-…).'),
    terms: z.string().describe('Attribution requirement.'),
  })
  .describe('Attribution: cite the source and the record id.');
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const ServedGradeSchema = z
  .union([GradeSchema, z.literal('pending')])
  .describe('A, B or C; "pending" for a market not yet graded.');

/**
 * How the market's resolution went, from its lifecycle log and the venue's current state (pmref addition, issue
 * 15): whether and how often the outcome was disputed. Counts are log entries: venue_b's UMA history is logged
 * whole on first sight; venue_a shows one settlement state at a time, so its counts are the steps pmref saw.
 */
export const ServedDisputesSchema = z
  .object({
    disputed: z.boolean().describe('True when the market has at least one `disputed` log entry.'),
    count: z.number().int().min(0).describe('How many times a proposed outcome was disputed (`disputed` log entries).'),
    last_at: dateTime()
      .nullable()
      .describe(
        '`occurred_at` of the latest `disputed` entry (the first time pmref saw it: venues give no dispute time).',
      ),
    proposals: z.number().int().min(0).describe('Outcome proposals (`resolution_proposed` log entries).'),
    state: z
      .string()
      .nullable()
      .describe(
        "The venue's current resolution state (venue_b: UMA proposed/disputed/resolved; venue_a: determined/disputed/amended/finalized); null when it reports none.",
      ),
  })
  .describe('Whether and how often the outcome was proposed and disputed.');
export type ServedDisputes = z.infer<typeof ServedDisputesSchema>;

/** `resolution{}` of a served market (served-shapes §5). */
export const ServedResolutionSchema = z.object({
  rules_raw: z.string().nullable(),
  arbitration_model: ArbitrationModelSchema.nullable(),
  proposer: ProposerSchema.nullable(),
  source: z.string().nullable().describe('The cited data source.'),
  source_status: ServedSourceStatusSchema,
  source_citation: z.string().nullable(),
  sources: z.array(ResolutionSourceSchema).nullable(),
  source_of_record: z.string().nullable(),
  source_mechanism: SourceMechanismSchema.nullable(),
  source_type: SourceTypeSchema.nullable(),
  source_quality: z.string().nullable(),
  source_commitment: SourceCommitmentSchema.nullable(),
  source_commitment_subtype: CommitmentSubtypeSchema.nullable(),
  source_hedge_text: z.string().nullable(),
  disputes: ServedDisputesSchema,
});

export const ServedRcgSchema = z.object({
  grade: ServedGradeSchema,
  score: z.number().int().min(0).max(100).nullable(),
  caps: z.array(RcgCapSchema),
  applied_factors: z.number().int().min(0).max(7),
});
export const ServedRcgDetailSchema = ServedRcgSchema.extend({
  factors: z.array(RcgFactorSchema).describe('Every factor with its rating, rule id and evidence (pmref addition).'),
});

const marketShape = {
  market_id: MarketIdSchema,
  event_id: z.string().nullable(),
  platform: VenueSchema,
  platform_market_id: z.string(),
  question: z.string().nullable(),
  description: z.string().nullable(),
  contract_type: ContractTypeSchema,
  settlement_currency: SettlementCurrencySchema,
  underlying_reference: z.string().nullable(),
  close_at: dateTime().nullable(),
  resolve_at: dateTime().nullable(),
  status: MarketStatusSchema.describe(
    'open, closed, resolved or amended. Never open once close_at has passed: such a market is closed, derived (status_provenance says so), until the venue reports its outcome.',
  ),
  status_provenance: FieldProvenanceEntrySchema.describe(
    "Where status came from: platform_api (the venue's own status, quoted in the note) or derived (past close_at).",
  ),
  resolution_outcome: z
    .string()
    .nullable()
    .describe('YES, NO or a settlement value once resolved (spec §2.2); null until the venue reports the outcome.'),
  resolved_at: dateTime().nullable().describe("The venue's settlement time, when it gives one (spec §2.2)."),
  final_price: prob().describe(
    'The settlement price once resolved: 1 for YES, 0 for NO, the value otherwise; null before.',
  ),
  resolution: ServedResolutionSchema,
  rcg: ServedRcgSchema,
  last_price: prob(),
  implied_probability: prob(),
  price_as_of: dateTime().nullable(),
  volume_24h_usd: z.number().nullable(),
  volume_total_usd: z.number().nullable(),
  settlement_style: SettlementStyleSchema.nullable(),
  direction: DirectionSchema.nullable(),
  threshold: z.number().nullable(),
  question_id: z.string().nullable(),
  also_on: AlsoOnSchema,
  tags: z.array(z.string()),
  eligibility_screens: z.array(EligibilityScreenResultSchema).nullable(),
  last_checked_at: dateTime().nullable().describe('When the venue was last read for this market.'),
  reconciled_at: dateTime().nullable(),
};

/** A market as served inside an event (served-shapes §5, without `_provenance`). */
export const ServedMarketSchema = z.object(marketShape).describe('A market as served inside an event detail.');
export type ServedMarket = z.infer<typeof ServedMarketSchema>;

/** `GET /v1/markets/{id}`: the market keys, then `_provenance`, then `_notice`. */
export const MarketDetailSchema = z
  .object({ ...marketShape, rcg: ServedRcgDetailSchema, _provenance: ProvenanceSchema, _notice: NoticeSchema })
  .describe('One market: price, grade with every factor, and resolution provenance.');
export type MarketDetail = z.infer<typeof MarketDetailSchema>;

/** `detail=concise` market (served-shapes §4). */
export const ConciseMarketSchema = z
  .object({
    market_id: MarketIdSchema,
    platform: VenueSchema,
    question: z.string().nullable(),
    last_price: prob(),
    implied_probability: prob(),
    price_as_of: dateTime().nullable(),
    status: MarketStatusSchema,
    rcg: z.object({ grade: ServedGradeSchema, score: z.number().int().nullable() }),
    resolution: z.object({
      arbitration_model: ArbitrationModelSchema.nullable(),
      source: z.string().nullable(),
      source_status: ServedSourceStatusSchema,
    }),
    question_id: z.string().nullable(),
    also_on: AlsoOnSchema,
    last_checked_at: dateTime().nullable(),
  })
  .describe('A market trimmed to grade, price and source.');
export type ConciseMarket = z.infer<typeof ConciseMarketSchema>;

export const ServedCatalystDateSchema = z.object({
  date: z.iso.date(),
  type: z.string().nullable(),
  label: z.string(),
  source_url: z.string().nullable(),
});

export const CurrentPrimaryMarkSchema = z
  .object({ last_price: prob(), implied_probability: prob(), as_of: dateTime().nullable() })
  .nullable();

const eventDetailShape = {
  _notice: NoticeSchema,
  detail_notice: z.string().optional().describe('Present when `detail` was not full or concise.'),
  valid_details: z.array(z.string()).optional(),
  event_id: EventIdSchema,
  slug: z.string(),
  question: z.string(),
  category: CategorySchema,
  event_type: z.string(),
  ladder_distribution: LadderDistributionSchema,
  tags: z.array(z.string()),
  catalyst_types: z.array(z.string()),
  catalyst_dates: z.array(ServedCatalystDateSchema).max(5),
  editorial_notes: z.string().nullable(),
  venues_covered: z.array(VenueSchema),
  primary_market_id: MarketIdSchema.nullable(),
  current_primary_mark: CurrentPrimaryMarkSchema,
  created_at: dateTime(),
  updated_at: dateTime(),
};

/** `GET /v1/events/{slug}` (served-shapes §4). `markets` is the full or the concise market shape. */
export const EventDetailSchema = z
  .object({
    ...eventDetailShape,
    markets: z.array(z.union([ServedMarketSchema, ConciseMarketSchema])),
    resolution_log: z.array(ServedLogEntrySchema),
    _provenance: ProvenanceSchema,
  })
  .describe('One event with its markets and lifecycle log; fields flattened at the top level.');
export type EventDetail = z.infer<typeof EventDetailSchema>;

/** One item of `GET /v1/events` (served-shapes §3). Grade, score, price and status are the primary market's. */
export const EventListItemSchema = z.object({
  event_id: EventIdSchema,
  slug: z.string(),
  question: z.string(),
  category: CategorySchema,
  event_type: z.string(),
  tags: z.array(z.string()),
  venues_covered: z.array(VenueSchema),
  market_count: z.number().int().min(0),
  primary_market_id: MarketIdSchema.nullable(),
  grade: ServedGradeSchema.nullable(),
  rcg_score: z.number().int().nullable(),
  last_price: prob(),
  price_as_of: dateTime().nullable(),
  last_checked_at: dateTime().nullable(),
  status: MarketStatusSchema.nullable(),
  updated_at: dateTime(),
  _provenance: ProvenanceSchema,
  resolved: z.boolean().describe('True when the event has no live market.'),
});
export type EventListItem = z.infer<typeof EventListItemSchema>;

/** `GET /v1/events` (served-shapes §3). Notice keys appear only when a parameter was unknown or clamped. */
export const EventListSchema = z
  .object({
    count: z.number().int().describe('Rows in this page.'),
    total: z.number().int().describe('All matches under the filters.'),
    limit: z.number().int(),
    offset: z.number().int(),
    keyed: z.boolean().describe('True when the request carried a valid key.'),
    category_notice: z.string().optional(),
    valid_categories: z.array(z.string()).optional(),
    platform_notice: z.string().optional(),
    valid_platforms: z.array(z.string()).optional(),
    grade_notice: z.string().optional(),
    valid_grades: z.array(z.string()).optional(),
    status_notice: z.string().optional(),
    valid_statuses: z.array(z.string()).optional(),
    grade_any_notice: z.string().optional().describe('Issue 17: grade_any was not a grade.'),
    sort_notice: z.string().optional().describe('Issue 17: sort was not known; the default order was used.'),
    valid_sorts: z.array(z.string()).optional(),
    limit_notice: z.string().optional(),
    offset_notice: z.string().optional(),
    notice: z
      .object({ reason: z.string(), try: z.array(z.string()) })
      .optional()
      .describe('Issue 17: why the page is empty or the search matched only part of q, and what to try.'),
    _notice: NoticeSchema,
    events: z.array(EventListItemSchema),
  })
  .describe('A page of graded events.');
export type EventList = z.infer<typeof EventListSchema>;

export const MoverSchema = z.object({
  market_id: MarketIdSchema,
  slug: z.string(),
  event_question: z.string(),
  category: CategorySchema,
  platform: VenueSchema,
  question_raw: z.string().nullable(),
  last_price: prob(),
  volume_24h_usd: z.number(),
  volume_24h_usd_prev: z.number(),
  volume_mult: z.number().describe('now / prev, 2 decimals.'),
  volume_delta_pct: z.number().describe('(now − prev) / prev × 100, 1 decimal.'),
});
export type Mover = z.infer<typeof MoverSchema>;

/** `GET /v1/markets/movers` (served-shapes §6): the success body, or the degraded body with a `notice`. */
export const MoversSchema = z
  .object({
    metric: z.literal('volume_24h'),
    day: z.iso.date().optional(),
    prior_day: z.iso.date().optional(),
    min_mult: z.number(),
    count: z.number().int(),
    notice: z.string().optional().describe('Why the list is empty: adjacent daily snapshots are unavailable.'),
    min_mult_notice: z.string().optional(),
    limit_notice: z.string().optional(),
    _notice: NoticeSchema.optional(),
    movers: z.array(MoverSchema),
  })
  .describe('Markets whose 24h volume grew by at least min_mult versus the prior daily snapshot.');
export type Movers = z.infer<typeof MoversSchema>;

export const ServedCatalystSchema = z.object({
  date: z.iso.date(),
  type: z.string(),
  label: z.string(),
  source_url: z.string(),
});

/** `GET /v1/catalysts/upcoming` (served-shapes §7). */
export const CatalystsSchema = z
  .object({
    window_days: z.number().int(),
    from: z.iso.date(),
    to: z.iso.date(),
    count: z.number().int(),
    days_notice: z.string().optional(),
    _notice: NoticeSchema,
    catalysts: z.array(ServedCatalystSchema),
  })
  .describe('Dated catalyst calendar with authoritative source URLs, date ascending.');
export type Catalysts = z.infer<typeof CatalystsSchema>;

export const SignalIndexItemSchema = z.object({
  record_id: z.string(),
  record_slug: z.string(),
  published_at: dateTime(),
  headline: z.string(),
  category_tag: SignalCategoryTagSchema,
  detection_path: SignalKindSchema,
  target_event_id: z.string(),
  target_event_slug: z.string(),
  linked_event_ids: z.array(z.string()),
  venues: z.array(VenueSchema),
  html: z.string(),
  json: z.string(),
});

/** `GET /v1/signals` (served-shapes §8). `count` is the number of matches before `limit`. */
export const SignalIndexSchema = z
  .object({
    count: z.number().int(),
    detection_path_notice: z.string().optional(),
    venue_notice: z.string().optional(),
    limit_notice: z.string().optional(),
    _notice: NoticeSchema,
    signals: z.array(SignalIndexItemSchema),
  })
  .describe('The signal wire, newest first.');
export type SignalIndex = z.infer<typeof SignalIndexSchema>;

/** `GET /v1/spot` (served-shapes §9). */
export const SpotTableSchema = z
  .object({ source: z.string(), vs_currency: z.literal('usd'), spot: z.array(SpotRowSchema) })
  .describe('Reference spot prices in USD, sorted by coin.');
export type SpotTable = z.infer<typeof SpotTableSchema>;

/** `GET /` (served-shapes §2). */
export const ServiceInfoSchema = z
  .object({
    service: z.string(),
    status: z.literal('ok'),
    schema: z.string(),
    data_source: DataSourceSchema.nullable(),
    generation: z.number().int().describe('Published store generation the read model was built from.'),
    built_at: dateTime(),
    events: z.number().int().describe('Event rows, unpublished included.'),
    markets: z.number().int().describe('Market rows.'),
    published_events: z.number().int(),
    live_events: z.number().int().describe('Published events with at least one live market.'),
    docs: z.string(),
    status_url: z.string().describe('Operational state: `/v1/status`.'),
    marks_url: z.string().describe('The marks feed: `/v1/marks?since=<ISO>`.'),
    openapi: z.string(),
    llms: z.string(),
    filters: z.object({
      category: z.array(CategorySchema),
      platform: z.array(VenueSchema),
      grade: z.array(GradeSchema),
      status: z.array(z.string()),
      max_limit: z.number().int(),
      signals_detection_path: z.array(SignalKindSchema),
    }),
  })
  .describe('Service info: live counts and the filter vocabulary.');
export type ServiceInfo = z.infer<typeof ServiceInfoSchema>;

/** One check of `GET /v1/status`. */
export const StatusCheckSchema = z.object({
  name: z
    .string()
    .describe(
      'store, read_model, pipeline, freshness, rate_limits (with Redis counters), a venue (venue_a, venue_b), or a ' +
        "venue's drift against its published API document (venue_a.drift, venue_b.drift: informational, never " +
        'changes state; README, Venue drift watch).',
    ),
  ok: z.boolean(),
  detail: z.string().describe('What was found, in a sentence.'),
});

/** A pipeline run as `GET /v1/status` shows it. */
export const RunStatusSchema = z.object({
  run_id: z.number().int(),
  source: z.string(),
  status: z
    .enum(['running', 'ok', 'partial', 'failed', 'aborted'])
    .describe(
      'ok: every part ran; partial: published, but some part fell back (see degraded); failed: published nothing ' +
        '(every venue failed, or the store failed); aborted: its process ended before it published (found by a ' +
        'later start), nothing of it was ever visible; running: in progress.',
    ),
  degraded: z
    .array(z.string())
    .describe(
      "What fell back in this run, machine-readable: a venue ('venue_b'), a venue part ('venue_b.order_books', " +
        "'venue_a.series'), 'spot', 'history.venue_a', 'editorial'. Empty when nothing did.",
    ),
  started_at: dateTime(),
  finished_at: dateTime().nullable(),
  generation: z.number().int().describe('The generation the run published; 0 when it published none.'),
});

/** `GET /v1/status` (served-shapes §17): operational state, computed per request, never cached. */
export const ServiceStatusSchema = z
  .object({
    service: z.string(),
    as_of: dateTime(),
    schema_version: z.string(),
    state: z
      .enum(['ok', 'degraded', 'stale'])
      .describe(
        'degraded: the store cannot be read or the last pipeline run failed, was aborted or fell back (partial); stale: the data ' +
          'is older than twice the refresh interval, or this server still serves an older generation than the store holds; ' +
          'ok otherwise. degraded wins over stale. degraded also when the Redis that holds the shared rate-limit counters ' +
          'cannot be reached (check rate_limits; per-process counters stand in).',
      ),
    checks: z.array(StatusCheckSchema),
    dataset: z.object({
      data_source: DataSourceSchema.nullable(),
      generation: z.number().int().describe('The generation this server serves.'),
      store_generation: z
        .number()
        .int()
        .nullable()
        .describe('The newest published generation; null when the store cannot be read.'),
      built_at: dateTime().describe('When this server built its read model.'),
      events: z.number().int(),
      markets: z.number().int(),
      marks: z.number().int().nullable(),
      log: z.number().int().nullable(),
      signals: z.number().int(),
    }),
    runs: z.object({
      last: RunStatusSchema.nullable().describe('The most recently started run.'),
      last_published: RunStatusSchema.nullable().describe('The run that published the newest generation.'),
    }),
    non_core: z.object({
      signals: z.object({ count: z.number().int(), newest_published_at: dateTime().nullable() }),
      spot: z.object({ coins: z.number().int(), newest_as_of: dateTime().nullable() }),
    }),
    docs: z.string(),
  })
  .describe('Operational state: checks, dataset counts, the latest pipeline runs. Not cached (no-store).');
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** A mark as the marks feed serves it: the record of spec §2.3 without the venue's raw payload. */
export const ServedMarkSchema = MarkSchema.omit({ raw_payload: true });

/** `GET /v1/marks` (served-shapes §17): one page of the marks feed. */
export const MarksPageSchema = z
  .object({
    as_of: dateTime(),
    schema_version: z.string(),
    since: dateTime().describe('The since asked for, as a UTC date-time.'),
    count: z.number().int().describe('Marks on this page.'),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
    docs: z.string(),
    limit_notice: z.string().optional(),
    _notice: NoticeSchema,
    marks: z.array(ServedMarkSchema),
  })
  .describe('Marks written or updated at or after since, in (snapshot_date, market_id) order. Not cached.');
export type MarksPage = z.infer<typeof MarksPageSchema>;

export const KeyRequestSchema = z.object({
  email: z.string().describe('Where to send advance notice of schema changes.').meta({ example: 'dev@example.com' }),
});
/** `POST /v1/keys` 201 (served-shapes §10). */
export const KeyCreatedSchema = z
  .object({
    key: z
      .string()
      .regex(/^pmref_[0-9a-f]{32}$/)
      .describe('Shown once; stored only as a hash.'),
    email: z.string(),
    daily_limit: z.number().int(),
    usage: z.string(),
  })
  .describe('A new free key.');
export type KeyCreated = z.infer<typeof KeyCreatedSchema>;

/** The one error shape (served-shapes §1 (a)). A 5xx carries only the message and the request id. */
export const ErrorBodySchema = z
  .object({
    error: z.string().describe('What went wrong, in words.'),
    code: z.string().describe('Machine-readable code from a closed set.'),
    hint: z.string().optional().describe('What to do about it, when there is something to do.'),
    request_id: z.string(),
  })
  .describe('Error');
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
