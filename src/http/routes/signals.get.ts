/** `GET /v1/signals/{slug}` (spec §4.7, served-shapes §8 (g)): served from our own store. */
import { z } from 'zod';
import { SignalBulletinSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getSignalRoute = {
  method: 'GET',
  url: '/v1/signals/:slug',
  schema: {
    operationId: 'getSignal',
    tags: ['signals'],
    summary: 'One signal bulletin',
    params: z.object({ slug: z.string().describe('Bulletin slug (record_slug).') }),
    querystring: z.object({ key: keyParam() }),
    response: { 200: SignalBulletinSchema, ...errorResponses('signal_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetSignal(app: App, ctx: AppContext): void {
  app.route({
    ...getSignalRoute,
    handler: async (req, reply) => {
      const body = ctx.query.getSignal(req.params.slug);
      if (!body) throw notFound.signal();
      return sendBody(ctx, req, reply, body);
    },
  });
}
