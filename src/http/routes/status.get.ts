/** `GET /v1/status` (served-shapes §17): operational state, computed per request, `no-store`. */
import { z } from 'zod';
import { ServiceStatusSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendJson } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getStatusRoute = {
  method: 'GET',
  url: '/v1/status',
  schema: {
    operationId: 'getStatus',
    tags: ['service'],
    summary: 'Operational state',
    description:
      '`state` is ok, degraded (the store cannot be read, the last pipeline run failed or lost a venue, or the ' +
      "rate-limit counters' Redis cannot be reached) or " +
      'stale (data older than twice the refresh interval, or this server behind the store), with the checks ' +
      'behind it, dataset counts and the latest pipeline runs. Computed per request; never cached. Metered.',
    querystring: z.object({ key: keyParam() }),
    response: { 200: ServiceStatusSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerGetStatus(app: App, ctx: AppContext): void {
  app.route({ ...getStatusRoute, handler: async (req, reply) => sendJson(req, reply, 200, await ctx.status.status()) });
}
