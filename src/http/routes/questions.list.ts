/** `GET /v1/questions` (issue 17, item 3): questions linked across the two venues, largest divergence first. */
import { z } from 'zod';
import { CATEGORIES, QuestionListSchema } from '../../domain/index.ts';
import { QUESTIONS_DEFAULT_LIMIT, QUESTIONS_MAX_LIMIT, QuestionQueryError, RELATIONS } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam, lenient } from './schemas.ts';

export const listQuestionsRoute = {
  method: 'GET',
  url: '/v1/questions',
  schema: {
    operationId: 'listQuestions',
    tags: ['questions'],
    summary: 'Cross-venue questions',
    description:
      'Every pair of markets linked across venue_a and venue_b: `same` (one question, same side), `complement` ' +
      '(one question, opposite sides) and `related` (near-equivalent, with typed `differences`), each with both ' +
      'legs (price with its as-of time, grade, score, arbiter, source of record) and the divergence in points ' +
      '(complement-adjusted; null when a price is missing, with `divergence_note`). Largest divergence first. ' +
      'An unknown `category` or `relation` is a 200 with an empty page and a `notice` naming the valid values; ' +
      'a malformed or negative number is a 400.',
    querystring: z.object({
      category: lenient(`Category of either leg's event: ${CATEGORIES.join(', ')}.`, 'crypto'),
      relation: lenient(`${RELATIONS.join(', ')}.`, 'same'),
      min_divergence: lenient('Minimum divergence in percentage points, ≥ 0 (pairs without one are left out).', '5'),
      limit: lenient(
        `Page size, a whole number ≥ 1, default ${QUESTIONS_DEFAULT_LIMIT}; over ${QUESTIONS_MAX_LIMIT} is capped with limit_notice.`,
        '50',
      ),
      offset: lenient('Rows skipped, a whole number ≥ 0, default 0.', '0'),
      key: keyParam(),
    }),
    response: { 200: QuestionListSchema, ...errorResponses('invalid_request', 'invalid_api_key') },
  },
} as const;

export function registerListQuestions(app: App, ctx: AppContext): void {
  app.route({
    ...listQuestionsRoute,
    handler: async (req, reply) => {
      try {
        return sendBody(ctx, req, reply, ctx.query.listQuestions(req.query));
      } catch (err) {
        if (err instanceof QuestionQueryError) throw new ApiError('invalid_request', err.message, err.hint);
        throw err;
      }
    },
  });
}
