/**
 * `GET /v1/markets/{id}` (spec §4.4, served-shapes §5). `id` is any market reference (issue 20, item 4): the
 * lookups of served-shapes §5 first (as the hot path makes them), then any identifier `GET /v1/resolve` reads that
 * names one market (a venue_b market slug or page URL, a CLOB token id, a venue page of a single-market event…).
 *
 * Such a reference is answered with the market's body, not a redirect to `/v1/markets/{canonical id}`: served-shapes
 * §5 already answers venue ids and URLs with the body (200), clients that do not follow redirects (curl without
 * -L, many agent tools) would get an empty 308, and the body carries the market's ETag (one per market and
 * generation, whatever the URL), so caches still revalidate one validator per market; the canonical id is the
 * body's `market_id`.
 */
import { z } from 'zod';
import { MarketDetailSchema } from '../../domain/index.ts';
import { marketIdForRef } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getMarketRoute = {
  method: 'GET',
  url: '/v1/markets/:id',
  schema: {
    operationId: 'getMarket',
    tags: ['markets'],
    summary: 'One market',
    description:
      'Price, grade (with every factor) and resolution provenance. `id` is a service id (SVC-MKT-…), a ' +
      'venue-native id or ticker, a URL-encoded venue market URL (its last two path segments are tried; ' +
      'the URL is parsed, never fetched), or any other reference `/v1/resolve` reads that names one market ' +
      '(a venue_b market slug, CLOB token id or page URL; an event page of a single-market event). ' +
      '`/v1/markets/movers` takes precedence.',
    params: z.object({ id: z.string().describe('Market reference.').meta({ example: 'SVC-MKT-0A1B2C3D4E' }) }),
    querystring: z.object({ key: keyParam() }),
    response: { 200: MarketDetailSchema, ...errorResponses('market_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetMarket(app: App, ctx: AppContext): void {
  app.route({
    ...getMarketRoute,
    handler: async (req, reply) => {
      const body = ctx.query.getMarket(req.params.id) ?? marketByAnyRef(ctx, req.params.id);
      if (!body) throw notFound.market();
      return sendBody(ctx, req, reply, body);
    },
  });
}

/** The market any other reference names (see `marketIdForRef`), or null. */
function marketByAnyRef(ctx: AppContext, ref: string) {
  const id = marketIdForRef(ctx.query.model(), ref);
  return id === null ? null : ctx.query.getMarket(id);
}
