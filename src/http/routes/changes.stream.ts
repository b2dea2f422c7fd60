/**
 * `GET /v1/changes/stream` (issue 20): the change feed as server-sent events (change-stream.ts says how). A bad
 * `Last-Event-ID` or `after` is a 400 in the one error shape, answered before the stream opens. Metered once, as
 * one request, however long it stays open.
 */
import { z } from 'zod';
import { ChangesQueryError, parseSeq } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const streamChangesRoute = {
  method: 'GET',
  url: '/v1/changes/stream',
  schema: {
    operationId: 'streamChanges',
    tags: ['changes'],
    summary: 'Change feed as server-sent events',
    description:
      'The change feed of /v1/changes as text/event-stream: each change is `id: <seq>`, `event: change`, ' +
      '`data: <change JSON>`. Starts after the seq in the Last-Event-ID header (EventSource sends it when it ' +
      'reconnects), else after `after`, else at the newest change. A `: heartbeat` comment comes every 15 s ' +
      '(PMREF_CHANGES_HEARTBEAT_SECONDS). A client more than 10,000 changes behind gets one `event: reset` whose ' +
      'data names where to resume (`resume`: a /v1/changes URL) and the stream ends: page through the feed, then ' +
      'stream again from the last seq. Every replica serves the same sequence. Metered once per connection.',
    querystring: z.object({
      after: z
        .string()
        .optional()
        .describe('Start after this seq when no Last-Event-ID header is sent.')
        .meta({ example: '0' }),
      key: keyParam(),
    }),
    response: {
      200: z.string().describe('text/event-stream: `id: <seq>\\nevent: change\\ndata: <Change JSON>\\n\\n` frames.'),
      ...errorResponses('invalid_request', 'invalid_api_key'),
    },
  },
} as const;

export function registerStreamChanges(app: App, ctx: AppContext): void {
  app.route({
    ...streamChangesRoute,
    handler: async (req, reply) => {
      let after: number | null;
      try {
        const sent = req.headers['last-event-id'];
        const header = Array.isArray(sent) ? sent[0] : sent;
        after =
          header !== undefined && header !== ''
            ? parseSeq('Last-Event-ID', header, 0)
            : req.query.after === undefined || req.query.after === ''
              ? null
              : parseSeq('after', req.query.after, 0);
      } catch (err) {
        if (err instanceof ChangesQueryError) throw new ApiError('invalid_request', err.message, err.hint);
        throw err;
      }
      // HEAD (Fastify answers it with this handler) learns the headers; it must not hold a stream open.
      if (req.method === 'HEAD') {
        return reply
          .code(200)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .send('');
      }
      const latest = await ctx.changes.latest();
      reply.hijack();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = String(v);
      await ctx.changeStreams.serve(reply.raw, headers, { after, latest }, req.log);
    },
  });
}
