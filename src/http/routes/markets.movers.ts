/** `GET /v1/markets/movers` (spec §4.5, served-shapes §6). The literal path wins over `/v1/markets/{id}`. */
import { z } from 'zod';
import { MoversSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const moversRoute = {
  method: 'GET',
  url: '/v1/markets/movers',
  schema: {
    operationId: 'listMovers',
    tags: ['markets'],
    summary: 'Volume movers',
    description:
      'Markets whose 24h volume is at least `min_mult` × the prior daily snapshot, largest multiple first. ' +
      '`min_mult`: non-numeric or 0 → 2, below 1 → 1 (with `min_mult_notice`). `limit` clamps to 1..200 ' +
      '(default 50, `limit_notice`). Without two near-adjacent daily snapshots the list is empty with `notice`.',
    querystring: z.object({
      min_mult: lenient('Minimum volume multiple versus the prior day, ≥ 1, default 2.', '2'),
      limit: lenient('Maximum movers, 1..200, default 50.', '50'),
      key: keyParam(),
    }),
    response: { 200: MoversSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerMovers(app: App, ctx: AppContext): void {
  app.route({ ...moversRoute, handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.movers(req.query)) });
}
