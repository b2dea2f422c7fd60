/** `GET /v1/catalysts/upcoming` (spec §4.6, served-shapes §7). */
import { z } from 'zod';
import { CatalystsSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const upcomingCatalystsRoute = {
  method: 'GET',
  url: '/v1/catalysts/upcoming',
  schema: {
    operationId: 'listUpcomingCatalysts',
    tags: ['catalysts'],
    summary: 'Catalyst calendar',
    description:
      'Scheduled catalysts from today (UTC) to today + `days`, inclusive, date ascending, each with its ' +
      'authoritative source URL. `days` clamps to 1..365 (default 30, non-numeric or 0 → 30) with `days_notice`.',
    querystring: z.object({ days: lenient('Window in days, 1..365, default 30.', '30'), key: keyParam() }),
    response: { 200: CatalystsSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerUpcomingCatalysts(app: App, ctx: AppContext): void {
  app.route({
    ...upcomingCatalystsRoute,
    handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.upcomingCatalysts(req.query)),
  });
}
