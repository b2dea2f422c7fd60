/**
 * The agent tools' input schemas (zod, strict: an unknown argument is a protocol error the agent can fix).
 * Descriptions are written for the model that fills them in: what each value means and a realistic example.
 */
import { z } from 'zod';
import {
  CATEGORIES,
  COMMITMENT_SUBTYPES,
  ELIGIBILITY_STATUSES,
  EVENT_STATUS_FILTERS,
  GRADES,
  LIST_SORTS,
  LinkRelationSchema,
  MARKET_STATUSES,
  SIGNAL_KINDS,
  VENUES,
} from '../domain/index.ts';
import { REGIMES } from '../signals/screens/index.ts';
import { GLOSSARY_KINDS } from './glossary.ts';

const detail = z
  .enum(['concise', 'full'])
  .optional()
  .describe(
    'concise (default): grade, score, caps, the factors that cost points with their rule and quoted evidence, the committed source, price with its time, links and the rules text once. full: every served field, evidence offsets, eligibility screens.',
  );

export const ListEventsInput = z
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

const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional();

export const SearchMarketsInput = z
  .object({
    q: z
      .string()
      .max(200)
      .optional()
      .describe(
        'What to find, in a few words, a venue ticker or a slug (e.g. "fomc rate cut", "btc 150k", "KXFED-26DEC"). Matches market and event questions, rules text, tickers, series and tags, with stemming, synonyms (Fed = FOMC = federal funds) and one typo.',
      ),
    grade: z
      .enum([...GRADES, 'pending'])
      .optional()
      .describe("Only markets whose own Resolution Clarity Grade is this (not the event's headline grade)."),
    source_commitment_subtype: z
      .enum(COMMITMENT_SUBTYPES)
      .optional()
      .describe('Only markets with this commitment to a resolution source (none = the rules name no source).'),
    platform: z.enum(VENUES).optional().describe('Only markets on this venue.'),
    category: z.enum(CATEGORIES).optional().describe('Only markets whose event is in this category.'),
    status: z.enum(MARKET_STATUSES).optional().describe('Only markets with this served status.'),
    has_twin: z
      .boolean()
      .optional()
      .describe('true: only markets whose question also trades on the other venue (same or complement).'),
    regime: z
      .enum(REGIMES.map((r) => r.regime) as [string, ...string[]])
      .optional()
      .describe('An eligibility-screen regime; with eligibility, filters on its result.'),
    eligibility: z
      .enum(ELIGIBILITY_STATUSES)
      .optional()
      .describe('Only markets with this screen result (under regime, or under any regime).'),
    closes_after: instant.describe('Only markets closing after this ISO date or date-time.'),
    closes_before: instant.describe('Only markets closing before this ISO date or date-time.'),
    sort: z
      .enum(LIST_SORTS)
      .optional()
      .describe(
        'relevance (default with q), rcg_score (clearest first), volume (24h, largest first) or close_at (soonest first).',
      ),
    limit: z.number().int().min(1).max(100).optional().describe('Page size, 1–100 (default 20).'),
    offset: z.number().int().min(0).optional().describe('Rows to skip for paging (default 0).'),
  })
  .strict();

export const GetEventInput = z
  .object({
    slug: z.string().min(1).describe('The event slug or its SVC-EVT- id (from list_events or search_markets).'),
    detail: z
      .enum(['full', 'concise'])
      .optional()
      .describe(
        'concise (default): each market trimmed to grade, price and source. full: every market field and the rules texts.',
      ),
  })
  .strict();

export const GetMarketInput = z
  .object({
    market_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Any market reference: a service market id (SVC-MKT-…), a venue_a ticker, a venue_b condition id, market slug or CLOB token id, or a market or event page URL of either venue (an event page of a one-market event names that market).',
      ),
    market: z.string().min(1).optional().describe('Alias of market_id.'),
    detail,
  })
  .strict()
  .refine((a) => a.market_id !== undefined || a.market !== undefined, 'pass market_id (or its alias market)');

/** A date, or an ISO hour or time (interval hour); the history service validates it further. */
const dateOrHour = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.+Z-]+)?$/, 'a UTC date, YYYY-MM-DD, or an ISO hour or time')
    .optional()
    .describe(what);

export const GetMarketHistoryInput = z
  .object({
    market_id: z
      .string()
      .min(1)
      .describe(
        'Any market reference get_market takes: a service id, venue ticker, condition id, slug, token id or URL.',
      ),
    from: dateOrHour(
      'First date (UTC, YYYY-MM-DD); default 365 days before `to`. interval hour: a date or an ISO UTC hour or time (e.g. 2026-11-20T14); default the first hour kept.',
    ),
    to: dateOrHour(
      "Last date (UTC, YYYY-MM-DD); default the date of the market's newest mark. interval hour: a date or an ISO UTC hour or time; default the newest refresh's hour.",
    ),
    interval: z
      .enum(['day', 'hour'])
      .optional()
      .describe(
        'day (default): one point per UTC date. hour: the quote at each hourly refresh, kept for the last days only (PMREF_HOURLY_RETENTION_DAYS, default 7, and today).',
      ),
  })
  .strict();

export const CompareQuestionInput = z
  .object({
    question_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A question_id (SVCX-…, from a market or this list) or a pair id (SVCR-… related, SVCP-…): the pair side by side with a word diff of the two rule texts.',
      ),
    market_id: z
      .string()
      .min(1)
      .optional()
      .describe('Any market reference get_market accepts: compares that market with its twin on the other venue.'),
    category: z.enum(CATEGORIES).optional().describe('List mode: only pairs in this category.'),
    relation: LinkRelationSchema.optional().describe(
      'List mode: same (one question, same side), complement (opposite sides of one boundary) or related (near-equivalent, with differences).',
    ),
    min_divergence: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe('List mode: only pairs whose prices are at least this many percentage points apart.'),
    limit: z.number().int().min(1).max(100).optional().describe('List mode: page size, 1–100 (default 20).'),
    offset: z.number().int().min(0).optional().describe('List mode: pairs to skip (default 0).'),
  })
  .strict()
  .refine(
    (a) => a.question_id === undefined || a.market_id === undefined,
    'pass question_id or market_id, not both (or neither, to list pairs)',
  );

export const GetStatsInput = z
  .object({
    venue: z.enum(VENUES).optional().describe('Count among this venue’s markets.'),
    category: z.enum(CATEGORIES).optional().describe('Count among this category’s markets.'),
    grade: z
      .enum([...GRADES, 'pending'])
      .optional()
      .describe('Count the markets with this grade.'),
    source_commitment_subtype: z
      .enum(COMMITMENT_SUBTYPES)
      .optional()
      .describe(
        'Count the markets with this commitment: named, committed_secondhand, uncommitted_illustrative, uncommitted_placeholder, none.',
      ),
    cells: z
      .boolean()
      .optional()
      .describe('Also return the venue × grade × subtype × category cells matching the filters (default false).'),
  })
  .strict();

export const GlossaryInput = z
  .object({
    term: z
      .string()
      .max(100)
      .optional()
      .describe(
        'A code as served (e.g. clarity.no_committed_source, commitment_none, uncommitted_placeholder, cftc-40-11, political_nature_s3) or a word (e.g. "mutability", "placeholder"). Omit to list every code.',
      ),
    kind: z.enum(GLOSSARY_KINDS).optional().describe('Only codes of this kind.'),
  })
  .strict();

export const CatalystsInput = z
  .object({
    days: z.number().int().min(1).max(365).optional().describe('Look-ahead window in days, 1–365 (default 30).'),
  })
  .strict();

export const ListSignalsInput = z
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

export const GetSignalInput = z
  .object({ slug: z.string().min(1).describe('The bulletin slug (record_slug from list_signals).') })
  .strict();
