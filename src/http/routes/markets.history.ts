/**
 * `GET /v1/markets/{id}/history` (issue 20, item 1): one market's daily marks over a date range, or (interval=hour)
 * its quote at each hourly refresh over an hour range, each with how it was obtained (venue snapshot, venue history
 * backfill, carried forward). `id` is any market reference `GET /v1/markets/{id}` takes. Cached like the catalog
 * reads: the ETag is the generation and the resolved range, and a matching If-None-Match is answered 304 without
 * reading the marks.
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
    summary: "One market's daily or hourly history",
    description:
      "The market's daily marks (spec §2.3; one per UTC date: the day's last refresh, a venue price-history " +
      'backfill, or a mark carried forward when the venue failed), oldest first, each with `price_as_of` and ' +
      '`obtained`. Dates with no stored mark have no point. Daily marks are kept forever. interval=hour: one point ' +
      'per hour in which a published refresh ran (none for an hour without one), the quote as of that refresh ' +
      '(`carried_forward` when its venue failed in that run), each with its `hour`; kept for ' +
      'PMREF_HOURLY_RETENTION_DAYS days and today (default 7), so a range starting earlier or longer than that is a ' +
      `400, and so is interval=hour when hourly detail is off. A malformed date or hour, from after to or a daily ` +
      `range over ${HISTORY_MAX_DAYS} days is a 400. Metered.`,
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
        .describe(
          `First UTC date, YYYY-MM-DD (default: ${HISTORY_DEFAULT_DAYS} days before to). interval=hour: a date (its ` +
            'first hour) or an ISO UTC hour or time, e.g. 2026-11-20T14 (default: the first hour kept).',
        )
        .meta({ example: '2026-01-01' }),
      to: z
        .string()
        .optional()
        .describe(
          "Last UTC date, YYYY-MM-DD (default: the date of the market's newest mark). interval=hour: a date (its " +
            'last hour) or an ISO UTC hour or time (default: the hour of the newest refresh).',
        )
        .meta({ example: '2026-11-20' }),
      interval: z
        .string()
        .optional()
        .describe('day (default) or hour (hourly detail, kept for PMREF_HOURLY_RETENTION_DAYS days and today).'),
      key: keyParam(),
    }),
    response: { 200: MarketHistorySchema, ...errorResponses('invalid_request', 'market_not_found', 'invalid_api_key') },
  },
} as const;

export function registerGetMarketHistory(app: App, ctx: AppContext): void {
  app.route({
    ...getMarketHistoryRoute,
    handler: async (req, reply) => {
      let plan: Awaited<ReturnType<typeof ctx.history.plan>>;
      try {
        plan = await ctx.history.plan(req.params.id, req.query);
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
