/** `GET /v1/events` (spec §4.2, served-shapes §3). */
import { z } from 'zod';
import { CATEGORIES, EventListSchema, GRADES, LIST_SORTS, VENUES } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const listEventsRoute = {
  method: 'GET',
  url: '/v1/events',
  schema: {
    operationId: 'listEvents',
    tags: ['events'],
    summary: 'List graded events',
    description:
      'Published events, live first, then most recently updated. Unknown filter values are not errors: the ' +
      'answer is 200 with an empty page plus `<name>_notice` and `valid_<names>` naming the valid set. ' +
      'An empty page or a partial search says why and what to try in `notice`. ' +
      '`limit` outside 1..100 is clamped (non-numeric or 0 → 50) with `limit_notice`; a negative or ' +
      'non-numeric `offset` becomes 0 with `offset_notice`.',
    querystring: z.object({
      category: lenient(`Category, case-insensitive: ${CATEGORIES.join(', ')}.`, 'economics'),
      platform: lenient(`Venue the event was ingested from: ${VENUES.join(', ')}.`, 'venue_a'),
      grade: lenient(`Grade of the primary market: ${GRADES.join(', ')} (or pending).`, 'A'),
      q: lenient(
        'Search over event and market questions, tags, rules text (weighted low) and identifiers (tickers and ' +
          'series prefixes, slugs, condition ids), with stemming, synonyms (FOMC / Fed / federal funds, BTC / ' +
          'bitcoin, CPI / inflation, …) and one typo forgiven per word of five letters or more. Every word must ' +
          'match; when none does, `notice` says which words went unmatched.',
        'fed rate',
      ),
      grade_any: lenient(`Any market of the event has this grade: ${GRADES.join(', ')}, pending.`, 'A'),
      sort: lenient(
        `${LIST_SORTS.join(', ')}. relevance (default): the search score with q, else live first then most ` +
          'recently updated; rcg_score: the headline market; volume: 24h volume of all markets; close_at: soonest first.',
        'volume',
      ),
      status: lenient('all (default), active (has a live market) or resolved (has none).', 'active'),
      limit: lenient('Page size, 1..100, default 50 (clamped, never rejected).', '50'),
      offset: lenient('Rows skipped, ≥ 0, default 0.', '0'),
      key: keyParam(),
    }),
    response: { 200: EventListSchema, ...errorResponses('invalid_api_key', 'invalid_request') },
  },
} as const;

export function registerListEvents(app: App, ctx: AppContext): void {
  app.route({
    ...listEventsRoute,
    handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.listEvents(req.query, req.keyed)),
  });
}
