/** `GET /v1/stats` (issue 17, item 4): catalog statistics, precomputed per generation. */
import { z } from 'zod';
import { StatsBodySchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getStatsRoute = {
  method: 'GET',
  url: '/v1/stats',
  schema: {
    operationId: 'getStats',
    tags: ['service'],
    summary: 'Catalog statistics',
    description:
      'Served markets counted by venue × grade × source commitment subtype × category (`cells`, a flat list, ' +
      'with the marginal counts beside it), cross-venue pairs by relation (as listed at /v1/questions), and ' +
      "dispute rates by grade from venue_b's UMA resolution history, counts beside every rate.",
    querystring: z.object({ key: keyParam() }),
    response: { 200: StatsBodySchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerGetStats(app: App, ctx: AppContext): void {
  app.route({ ...getStatsRoute, handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.getStats()) });
}
