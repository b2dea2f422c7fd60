/** `GET /v1/events/{slug}` (spec §4.3, served-shapes §4). */
import { z } from 'zod';
import { EventDetailSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const getEventRoute = {
  method: 'GET',
  url: '/v1/events/:slug',
  schema: {
    operationId: 'getEvent',
    tags: ['events'],
    summary: 'One event',
    description:
      'The event flattened at the top level with its markets and lifecycle log. `detail=concise` trims each ' +
      'market to grade, price and source; an unknown `detail` serves the full view with `detail_notice`.',
    params: z.object({
      slug: z.string().describe('Event slug or SVC-EVT- id.').meta({ example: 'fed-decision-in-april' }),
    }),
    querystring: z.object({
      detail: lenient('full (default) or concise.', 'concise'),
      key: keyParam(),
    }),
    response: { 200: EventDetailSchema, ...errorResponses('event_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetEvent(app: App, ctx: AppContext): void {
  app.route({
    ...getEventRoute,
    handler: async (req, reply) => {
      const body = ctx.query.getEvent(req.params.slug, req.query.detail);
      if (!body) throw notFound.event();
      return sendBody(ctx, req, reply, body);
    },
  });
}
