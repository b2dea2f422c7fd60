/** `GET /v1/questions/{id}` (issue 17, item 3): one cross-venue pair side by side, with a word diff of the rules. */
import { z } from 'zod';
import { QuestionDetailSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getQuestionRoute = {
  method: 'GET',
  url: '/v1/questions/:question_id',
  schema: {
    operationId: 'getQuestion',
    tags: ['questions'],
    summary: 'One cross-venue question, side by side',
    description:
      'Both legs of a linked pair, their rule texts and a word-level diff of them (`rules_diff.segments`: ' +
      '`same`, `a` only in venue_a, `b` only in venue_b). Takes the pair id from /v1/questions: the question_id ' +
      '(SVCX-…) of a same or complement pair, or the SVCR-… id of a related pair.',
    params: z.object({
      question_id: z
        .string()
        .describe('Pair id or question_id (SVCX-…, SVCR-…, SVCP-…), case-insensitive.')
        .meta({ example: 'SVCX-0123456789' }),
    }),
    querystring: z.object({ key: keyParam() }),
    response: { 200: QuestionDetailSchema, ...errorResponses('question_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetQuestion(app: App, ctx: AppContext): void {
  app.route({
    ...getQuestionRoute,
    handler: async (req, reply) => {
      const body = ctx.query.getQuestion(req.params.question_id);
      if (!body) throw notFound.question();
      return sendBody(ctx, req, reply, body);
    },
  });
}
