/** `GET /v1/marks?since=<ISO>` (served-shapes §17): the marks feed, paged, `no-store`. */
import { z } from 'zod';
import { MarksPageSchema } from '../../domain/index.ts';
import { MARKS_DEFAULT_LIMIT, MARKS_MAX_LIMIT, MarksQueryError } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { sendJson } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const listMarksRoute = {
  method: 'GET',
  url: '/v1/marks',
  schema: {
    operationId: 'listMarks',
    tags: ['marks'],
    summary: 'Marks feed',
    description:
      'Daily marks (one per market per UTC date, updated at every refresh) whose snapshot_at is at or after ' +
      '`since`, oldest snapshot date first, then by market id; only published markets, without the raw venue ' +
      'payload. Follow `next_cursor` until it is null. A missing or malformed `since` or `cursor` is a 400. ' +
      'Live query; never cached. Metered.',
    querystring: z.object({
      since: z
        .string()
        .describe('ISO date or date-time (UTC unless an offset is given). Required.')
        .meta({ example: '2026-11-20T00:00:00Z' }),
      cursor: z.string().optional().describe('next_cursor of the previous page.'),
      limit: lenient(
        `Marks per page, 1..${MARKS_MAX_LIMIT} (default ${MARKS_DEFAULT_LIMIT}); out of range clamps with limit_notice.`,
        '500',
      ),
      key: keyParam(),
    }),
    response: { 200: MarksPageSchema, ...errorResponses('invalid_request', 'invalid_api_key') },
  },
} as const;

export function registerListMarks(app: App, ctx: AppContext): void {
  app.route({
    ...listMarksRoute,
    handler: async (req, reply) => {
      try {
        return await sendJson(req, reply, 200, await ctx.marks.page(req.query));
      } catch (err) {
        if (err instanceof MarksQueryError) throw new ApiError('invalid_request', err.message, err.hint);
        throw err;
      }
    },
  });
}
