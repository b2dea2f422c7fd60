/**
 * `GET /v1/markets/{id}/history` (issue 20, item 1): one market's daily marks over a date range, each with how
 * it was obtained (venue snapshot, venue history backfill, carried forward). `id` is any market reference
 * `GET /v1/markets/{id}` takes. Cached like the catalog reads: the ETag is the generation and the resolved
 * range, and a matching If-None-Match is answered 304 without reading the store.
 */
import { z } from 'zod';
import { MarketHistorySchema } from '../../domain/index.ts';
import { Body, HISTORY_DEFAULT_DAYS, HISTORY_MAX_DAYS, HistoryQueryError } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const getMarketHistoryRoute = {
  method: 'GET',
  url: '/v1/markets/:id/history',
  schema: {
    operationId: 'getMarketHistory',
    tags: ['markets'],
    summary: "One market's daily history",
    description:
      "The market's daily marks (spec §2.3; one per UTC date: the day's last refresh, a venue price-history " +
      'backfill, or a mark carried forward when the venue failed), oldest first, each with `price_as_of` and ' +
      '`obtained`. Dates with no stored mark have no point. Daily marks are kept forever; no intraday detail is ' +
      `kept, so interval=hour is a 400. A malformed date, from after to or a range over ${HISTORY_MAX_DAYS} days ` +
      'is a 400. Metered.',
    params: z.object({
      id: z
        .string()
        .describe('Market reference, as GET /v1/markets/{id} takes.')
        .meta({ example: 'SVC-MKT-0A1B2C3D4E' }),
    }),
    querystring: z.object({
      from: z
        .string()
        .optional()
        .describe(`First UTC date, YYYY-MM-DD (default: ${HISTORY_DEFAULT_DAYS} days before to).`)
        .meta({ example: '2026-01-01' }),
      to: z
        .string()
        .optional()
        .describe("Last UTC date, YYYY-MM-DD (default: the date of the market's newest mark).")
        .meta({ example: '2026-11-20' }),
      interval: z.string().optional().describe('day (default). hour is refused: no intraday detail is kept.'),
      key: keyParam(),
    }),
    response: { 200: MarketHistorySchema, ...errorResponses('invalid_request', 'market_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetMarketHistory(app: App, ctx: AppContext): void {
  app.route({
    ...getMarketHistoryRoute,
    handler: async (req, reply) => {
      let plan: ReturnType<typeof ctx.history.plan>;
      try {
        plan = ctx.history.plan(req.params.id, req.query);
      } catch (err) {
        if (err instanceof HistoryQueryError) throw new ApiError('invalid_request', err.message, err.hint);
        throw err;
      }
      if (!plan) throw notFound.market();
      // The ETag is known before the store is read: a client that holds this generation's answer gets its 304 free.
      const held = etagHeld(req.headers['if-none-match'], plan.etag);
      return sendBody(ctx, req, reply, held ? new Body('', plan.etag) : await ctx.history.body(plan));
    },
  });
}

/** Whether If-None-Match names the ETag (or `*`); weak validators compare equal (RFC 9110 §13.1.2). */
function etagHeld(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
