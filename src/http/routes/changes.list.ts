/**
 * `GET /v1/changes?after=<seq>&limit=` (issue 20): one page of the sequenced change feed, `no-store`. A live store
 * query, like the marks feed (marks.list.ts); the stream beside it is changes.stream.ts.
 */
import { z } from 'zod';
import { ChangesPageSchema } from '../../domain/index.ts';
import { CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT, ChangesQueryError } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { sendJson } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const listChangesRoute = {
  method: 'GET',
  url: '/v1/changes',
  schema: {
    operationId: 'listChanges',
    tags: ['changes'],
    summary: 'Change feed',
    description:
      'Every change pmref publishes, numbered by a dense sequence (seq) shared by every replica: lifecycle log ' +
      'entries (status_change, rule_change, resolution_proposed, disputed, resolved, amended, reversed), grade ' +
      'changes, new markets, new and changed cross-venue links, new signal bulletins. Returns the changes with seq ' +
      'greater than `after`, oldest first; pass `next_after` as `after` until it equals `latest_seq`, then poll or ' +
      'stream (`/v1/changes/stream`). A malformed `after` or `limit`, or an `after` beyond `latest_seq`, is a 400. ' +
      'Live query; never cached. Metered.',
    querystring: z.object({
      after: z
        .string()
        .optional()
        .describe('The seq of the last change you hold (default 0: from the start).')
        .meta({ example: '0' }),
      limit: z
        .string()
        .optional()
        .describe(
          `Changes per page, 1..${CHANGES_MAX_LIMIT} (default ${CHANGES_DEFAULT_LIMIT}); above ${CHANGES_MAX_LIMIT} clamps with limit_notice.`,
        )
        .meta({ example: '100' }),
      key: keyParam(),
    }),
    response: { 200: ChangesPageSchema, ...errorResponses('invalid_request', 'invalid_api_key') },
  },
} as const;

export function registerListChanges(app: App, ctx: AppContext): void {
  app.route({
    ...listChangesRoute,
    handler: async (req, reply) => {
      try {
        return await sendJson(req, reply, 200, await ctx.changes.page(req.query));
      } catch (err) {
        if (err instanceof ChangesQueryError) throw new ApiError('invalid_request', err.message, err.hint);
        throw err;
      }
    },
  });
}
