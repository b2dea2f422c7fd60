/**
 * `GET /v1/signals.rss` (served-shapes §8 (g)): the signal wire as RSS 2.0, newest first, at most
 * RSS_ITEM_LIMIT items. Rendered once per read-model generation and then served as bytes with an ETag.
 */
import { z } from 'zod';
import { Body, etagFor, type ReadModel } from '../../serve/index.ts';
import { signalsRss } from '../../signals/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendBody } from '../send.ts';
import { errorResponses, keyParam } from './schemas.ts';

export const RSS_TYPE = 'application/rss+xml; charset=utf-8';
/** Items in the feed: readers poll it, so the newest bulletins are enough. */
export const RSS_ITEM_LIMIT = 100;
/** served-shapes §1: `/v1/signals*` is cached for 300 s. */
const SIGNALS_MAX_AGE = 300;

export const signalsRssRoute = {
  method: 'GET',
  url: '/v1/signals.rss',
  schema: {
    operationId: 'getSignalsRss',
    tags: ['signals'],
    summary: 'Signal wire as RSS 2.0',
    description: `The newest ${RSS_ITEM_LIMIT} bulletins as an RSS 2.0 feed (application/rss+xml): one item per bulletin with title, link, description, pubDate, guid and two categories (category tag and detection path).`,
    querystring: z.object({ key: keyParam() }),
    response: errorResponses('invalid_api_key'),
  },
} as const;

/** One rendered feed per read model: the model is replaced, never mutated, on each publish. */
const rendered = new WeakMap<ReadModel, Body>();

function feedBody(model: ReadModel): Body {
  let body = rendered.get(model);
  if (!body) {
    body = new Body(
      signalsRss(model.signals.slice(0, RSS_ITEM_LIMIT), model.origin),
      etagFor(model.generation, 'signals.rss'),
    );
    rendered.set(model, body);
  }
  return body;
}

export function registerSignalsRss(app: App, ctx: AppContext): void {
  app.route({
    ...signalsRssRoute,
    handler: async (req, reply) =>
      sendBody(ctx, req, reply, feedBody(ctx.query.model()), { contentType: RSS_TYPE, maxAge: SIGNALS_MAX_AGE }),
  });
}
