/**
 * `GET /v1/resolve?ref=` (issue 20, item 4): any identifier a client holds (a venue page or API URL, a ticker, a
 * slug, a condition id, a CLOB token id, a pmref id) to the canonical market or event with all its identifiers.
 */
import { z } from 'zod';
import { ResolveAnswerSchema } from '../../domain/index.ts';
import { Body, etagFor, MAX_REF_LENGTH, resolveRef } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

/** What a reference may be, for the 400 and 404 hints. */
export const ACCEPTED_REFS =
  'a venue_a or venue_b market or event page URL (or venue API URL), a venue_a ticker, event ticker or series ticker, a venue_b market or event slug, condition id (0x…), CLOB token id or Gamma question id, or a pmref id (SVC-MKT-…, SVC-EVT-…, SVCX-…)';

export const resolveRoute = {
  method: 'GET',
  url: '/v1/resolve',
  schema: {
    operationId: 'resolveRef',
    tags: ['markets'],
    summary: 'Any identifier to its market or event',
    description:
      'Reads `ref` as any identifier of either venue or of pmref and answers with the canonical market or event ' +
      'and every identifier it has (pmref ids and paths, venue ids, venue page URLs). `kind` says what `ref` was ' +
      'recognised as, `matched_on` which identifier it matched. When several records share the reference (an ' +
      'event slug that is also a market slug, a series ticker, a question_id), `match` is `ambiguous` and each is ' +
      'listed in `candidates`. A URL is parsed, never fetched. A missing, empty or over-long `ref` is a 400; a ' +
      'reference nothing matches is a 404 naming the accepted kinds. Metered.',
    querystring: z.object({
      ref: z
        .string()
        .max(MAX_REF_LENGTH)
        .describe(`The identifier, URL-encoded: ${ACCEPTED_REFS}. At most ${MAX_REF_LENGTH} characters.`)
        .meta({ example: 'https://polymarket.com/event/fed-decision-in-december' }),
      key: keyParam(),
    }),
    response: {
      200: ResolveAnswerSchema,
      ...errorResponses('invalid_request', 'not_found', 'invalid_api_key'),
    },
  },
} as const;

/** The one reference of a query (a repeated `ref` is a client fault, not a choice for the server to make). */
function refOf(query: unknown): string {
  const raw = (query as { ref?: unknown } | undefined)?.ref;
  if (Array.isArray(raw))
    throw new ApiError('invalid_request', 'Pass ref once', `ref is one identifier: ${ACCEPTED_REFS}.`);
  const ref = typeof raw === 'string' ? raw.trim() : '';
  if (ref.length === 0) {
    throw new ApiError('invalid_request', 'ref is required', `Pass ref=<identifier>: ${ACCEPTED_REFS}.`);
  }
  if (ref.length > MAX_REF_LENGTH) {
    throw new ApiError(
      'invalid_request',
      `ref is longer than ${MAX_REF_LENGTH} characters`,
      'Pass the identifier or page URL alone, without long query strings.',
    );
  }
  return ref;
}

export function registerResolve(app: App, ctx: AppContext): void {
  app.route({
    ...resolveRoute,
    handler: async (req, reply) => {
      const ref = refOf(req.query);
      const model = ctx.query.model();
      const answer = resolveRef(model, ref);
      if (!answer) {
        throw new ApiError(
          'not_found',
          'No market or event matches this reference',
          `Pass ${ACCEPTED_REFS}; or find it by topic with /v1/markets?q=…`,
        );
      }
      // Per request (a few map lookups), under an ETag of the generation and the reference.
      return sendBody(
        ctx,
        req,
        reply,
        new Body(JSON.stringify(answer, null, 2), etagFor(model.generation, `r:${ref}`)),
      );
    },
  });
}
