/** `GET /v1/signals` (spec §4.7, served-shapes §8). */
import { z } from 'zod';
import { SIGNAL_KINDS, SignalIndexSchema, VENUES } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const listSignalsRoute = {
  method: 'GET',
  url: '/v1/signals',
  schema: {
    operationId: 'listSignals',
    tags: ['signals'],
    summary: 'Signal wire index',
    description:
      'Analytic bulletins, newest first. `count` is the number of matches before `limit` (1..200, default 100, ' +
      'clamped with `limit_notice`). Unknown `detection_path` or `venue` values give an empty list with a notice.',
    querystring: z.object({
      detection_path: lenient(`Exact: ${SIGNAL_KINDS.join(', ')}.`, 'volume_spike'),
      category: lenient('Signal category tag, case-insensitive (e.g. VOLUME_SPIKE).'),
      venue: lenient(`${VENUES.join(', ')}.`),
      event_id: lenient('Target or linked event id.'),
      limit: lenient('1..200, default 100.', '100'),
      key: keyParam(),
    }),
    response: { 200: SignalIndexSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerListSignals(app: App, ctx: AppContext): void {
  app.route({
    ...listSignalsRoute,
    handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.listSignals(req.query)),
  });
}
