/**
 * `GET /healthz`: liveness. 200 `{"status":"ok"}` whenever the process answers at all, including while it drains
 * on SIGTERM (a liveness probe that failed then would have the process restarted in the middle of its graceful
 * stop). It reads nothing, so a slow store or an old read model never makes a healthy process look dead: that is
 * `/readyz`'s business. Not metered (metering.ts meters `/` and `/v1/*` only); no store, no read model, no Redis.
 */
import { z } from 'zod';
import type { App } from '../context.ts';
import { JSON_TYPE } from '../send.ts';
import { errorResponses } from './schemas.ts';

export const HealthzSchema = z
  .object({ status: z.literal('ok').describe('Always ok: the process is alive and answering.') })
  .meta({ example: { status: 'ok' } });

/** The one body, as bytes once: the probe costs no serialization. */
const BODY = Buffer.from(JSON.stringify({ status: 'ok' } satisfies z.infer<typeof HealthzSchema>));

export const getHealthzRoute = {
  method: 'GET',
  url: '/healthz',
  schema: {
    operationId: 'getHealthz',
    tags: ['service'],
    summary: 'Liveness probe',
    description:
      'Always 200 `{"status":"ok"}` while the process serves, also while it drains on SIGTERM. Not metered. ' +
      'For readiness (data loaded and fresh enough, not shutting down) see /readyz.',
    response: { 200: HealthzSchema, 500: errorResponses()[500] },
  },
} as const;

export function registerGetHealthz(app: App): void {
  app.route({
    ...getHealthzRoute,
    handler: async (_req, reply) =>
      reply.code(200).header('content-type', JSON_TYPE).header('cache-control', 'no-store').send(BODY),
  });
}
