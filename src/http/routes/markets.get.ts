/** `GET /v1/markets/{id}` (spec §4.4, served-shapes §5). */
import { z } from 'zod';
import { MarketDetailSchema } from '../../domain/index.ts';
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
      'venue-native id or ticker, or a URL-encoded venue market URL (its last two path segments are tried; ' +
      'the URL is parsed, never fetched). `/v1/markets/movers` takes precedence.',
    params: z.object({ id: z.string().describe('Market reference.').meta({ example: 'SVC-MKT-0A1B2C3D4E' }) }),
    querystring: z.object({ key: keyParam() }),
    response: { 200: MarketDetailSchema, ...errorResponses('market_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetMarket(app: App, ctx: AppContext): void {
  app.route({
    ...getMarketRoute,
    handler: async (req, reply) => {
      const body = ctx.query.getMarket(req.params.id);
      if (!body) throw notFound.market();
      return sendBody(ctx, req, reply, body);
    },
  });
}
