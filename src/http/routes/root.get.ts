/**
 * `GET /` and `GET /health`: service info, live counts, filter vocabulary, data source (served-shapes §2).
 * A browser asking for `/` (Accept ranking text/html above JSON) gets the explorer home page instead (issue 17
 * item 6); every other client keeps the JSON, and both answers carry `Vary: Accept` so a cache keeps them apart.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type MarketPage, ServiceInfoSchema } from '../../domain/index.ts';
import { MarketQueryError } from '../../serve/index.ts';
import { dataSourceNotice, HOME_PARAMS, homePage } from '../../site/pages/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { answerBody, sendBody } from '../send.ts';
import { pageParams, prefersHtml, sendPage } from '../send-page.ts';
import { errorResponses } from './schemas.ts';

/** Results per page of the home page (a screenful; `limit` in the URL may ask for up to the API's maximum). */
const HOME_PAGE_SIZE = 25;
const ROOT_VARY = 'Accept, Accept-Encoding, Authorization';

/** The explorer home page: the search form and the markets `findMarkets` returns for the query string. */
function sendHomePage(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const params = pageParams(req.query, [...HOME_PARAMS, 'offset']);
  let result: MarketPage;
  try {
    result = ctx.query.findMarkets({ ...params, limit: params.limit ?? HOME_PAGE_SIZE });
  } catch (err) {
    // A malformed limit or offset in a hand-edited address: a 400 in the one error shape, like every error of the
    // service (the service's own message quotes the value, so only its hint is passed on).
    if (err instanceof MarketQueryError)
      throw new ApiError('invalid_request', 'A number in the address is malformed', err.hint);
    throw err;
  }
  const model = ctx.query.model();
  const html = homePage({ params, result, counts: model.counts, notice: dataSourceNotice(model.dataSource) });
  return sendPage(ctx, req, reply, html, ROOT_VARY);
}

/** The service info as `sendBody` sends it, with `Accept` added to Vary (the same URL also serves a page). */
function sendServiceInfo(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const answer = answerBody(
    ctx.query.serviceInfo(),
    req.headers['if-none-match'],
    req.headers['accept-encoding'],
    ctx.tick().toRefresh,
  );
  const h = answer.headers;
  for (let i = 0; i < h.length; i += 2) reply.header(h[i] as string, h[i] === 'vary' ? ROOT_VARY : h[i + 1]);
  reply.code(answer.status);
  return answer.payload ? reply.send(answer.payload) : reply.send();
}

export const getRootRoute = {
  method: 'GET',
  url: '/',
  schema: {
    operationId: 'getServiceInfo',
    tags: ['service'],
    summary: 'Service info',
    description:
      'Live event and market counts, the filter vocabulary and where the data comes from. Metered. A client whose Accept header ranks text/html above application/json (a browser) gets the HTML explorer page instead; responses carry `Vary: Accept`.',
    response: { 200: ServiceInfoSchema, ...errorResponses('invalid_api_key') },
  },
} as const;

export function registerGetRoot(app: App, ctx: AppContext): void {
  app.route({
    ...getRootRoute,
    handler: async (req, reply) =>
      prefersHtml(req.headers.accept) ? sendHomePage(ctx, req, reply) : sendServiceInfo(ctx, req, reply),
  });
  app.route({
    ...getRootRoute,
    url: '/health',
    schema: {
      ...getRootRoute.schema,
      operationId: 'getHealth',
      summary: 'Health (same body as /)',
      description: 'Same body as `/`; not metered, for load balancers.',
      response: { 200: ServiceInfoSchema, 500: errorResponses()[500] },
    },
    handler: async (req, reply) => sendBody(ctx, req, reply, ctx.query.serviceInfo()),
  });
}
