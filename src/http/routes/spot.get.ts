/** `GET /v1/spot` (spec §4.8, served-shapes §9). */
import { z } from 'zod';
import { SpotTableSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getSpotRoute = {
  method: 'GET',
  url: '/v1/spot',
  schema: {
    operationId: 'getSpot',
    tags: ['spot'],
    summary: 'Reference spot prices',
    description:
      'USD spot prices of coins referenced by crypto markets, with as-of times; used by benchmark-drift signals.',
    querystring: z.object({ key: keyParam() }),
    response: { 200: SpotTableSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerGetSpot(app: App, ctx: AppContext): void {
  app.route({ ...getSpotRoute, handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.spot()) });
}
