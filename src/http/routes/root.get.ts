/** `GET /` and `GET /health`: service info, live counts, filter vocabulary, data source (served-shapes §2). */
import { ServiceInfoSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses } from './schemas.ts';

export const getRootRoute = {
  method: 'GET',
  url: '/',
  schema: {
    operationId: 'getServiceInfo',
    tags: ['service'],
    summary: 'Service info',
    description: 'Live event and market counts, the filter vocabulary and where the data comes from. Metered.',
    response: { 200: ServiceInfoSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerGetRoot(app: App, ctx: AppContext): void {
  app.route({ ...getRootRoute, handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.serviceInfo()) });
  app.route({
    ...getRootRoute,
    url: '/health',
    schema: {
      ...getRootRoute.schema,
      operationId: 'getHealth',
      summary: 'Health (same body as /)',
      description: 'Same body as `/`; not metered, for load balancers.',
      response: { 200: ServiceInfoSchema, 500: errorResponses()[500] },
    },
    handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.serviceInfo()),
  });
}
