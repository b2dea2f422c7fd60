/** `GET /v1/markets` (issue 17, item 2): markets by search and by their own grade, commitment, twin, screens. */
import { z } from 'zod';
import {
  CATEGORIES,
  COMMITMENT_SUBTYPES,
  ELIGIBILITY_STATUSES,
  GRADES,
  LIST_SORTS,
  MARKET_STATUSES,
  MarketListSchema,
  VENUES,
} from '../../domain/index.ts';
import { MARKETS_DEFAULT_LIMIT, MARKETS_MAX_LIMIT, MarketQueryError } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const listMarketsRoute = {
  method: 'GET',
  url: '/v1/markets',
  schema: {
    operationId: 'listMarkets',
    tags: ['markets'],
    summary: 'Search and list markets',
    description:
      'Markets filtered on their own grade (not their event headline market), commitment subtype, venue, ' +
      'category, status, twin and eligibility screens, optionally matched by `q`. `q` searches event and market ' +
      'questions, tags, rules text (weighted low) and identifiers (venue tickers and their series prefixes, ' +
      'condition ids, slugs, service ids), with stemming, synonyms (FOMC / Fed / federal funds, BTC / bitcoin, ' +
      'CPI / inflation, …) and one typo forgiven per word of five letters or more; each result carries its ' +
      '`score`. Unknown filter values are a 200 with an empty page and a `notice` naming the valid set; an ' +
      'empty page or a search matching only part of `q` says why in `notice`; a malformed number or date is a 400.',
    querystring: z.object({
      q: lenient('Search words, a ticker or prefix (KXFED), a condition id or a slug.', 'fed rate cut'),
      grade: lenient(`The market's own grade: ${GRADES.join(', ')}, pending.`, 'A'),
      source_commitment_subtype: lenient(`${COMMITMENT_SUBTYPES.join(', ')}.`, 'named'),
      platform: lenient(`${VENUES.join(', ')}.`, 'venue_b'),
      category: lenient(`The event's category: ${CATEGORIES.join(', ')}.`, 'economics'),
      status: lenient(`${MARKET_STATUSES.join(', ')}.`, 'open'),
      has_twin: lenient('true: the same question trades on the other venue; false: it does not.', 'true'),
      regime: lenient('An eligibility regime id (see /screens/), e.g. cftc-40-11.', 'cftc-40-11'),
      eligibility: lenient(`Screen status: ${ELIGIBILITY_STATUSES.join(', ')} (under \`regime\`, or any).`, 'eligible'),
      closes_after: lenient('ISO date or date-time: close at or after it.', '2026-12-01'),
      closes_before: lenient('ISO date or date-time: close at or before it.', '2026-12-31'),
      sort: lenient(
        `${LIST_SORTS.join(', ')}. relevance (default) is the search score with q, the event list order without.`,
        'volume',
      ),
      limit: lenient(
        `Page size, a whole number ≥ 1, default ${MARKETS_DEFAULT_LIMIT}; over ${MARKETS_MAX_LIMIT} is capped.`,
        '50',
      ),
      offset: lenient('Rows skipped, a whole number ≥ 0, default 0.', '0'),
      key: keyParam(),
    }),
    response: { 200: MarketListSchema, ...errorResponses('invalid_request', 'invalid_api_key') },
  },
} as const;

export function registerListMarkets(app: App, ctx: AppContext): void {
  app.route({
    ...listMarketsRoute,
    handler: async (req, reply) => {
      try {
        return sendBody(ctx, req, reply, ctx.query.listMarkets(req.query, req.keyed));
      } catch (err) {
        if (err instanceof MarketQueryError) throw new ApiError('invalid_request', err.message, err.hint);
        throw err;
      }
    },
  });
}
