/**
 * Site routes (not /v1; issue 10): `/screens/` (+ `/screens/index.json`), `/screens/{regime}/`,
 * `/screens/{regime}.json`, `/screens/{regime}.csv`, `/methodology` and the human event page
 * `/events/{slug}`; the explorer's `/questions` and `/questions/{id}` (issue 17; its home page is `/` for
 * browsers, in root.get.ts). Server-rendered, no external assets: the CSP allows only inline styles.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { QuestionPage } from '../../domain/index.ts';
import { QuestionQueryError } from '../../serve/index.ts';
import { DOCUMENT_HEADERS } from '../../site/index.ts';
import { comparePage, dataSourceNotice, QUESTIONS_PARAMS, questionsPage } from '../../site/pages/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { JSON_TYPE } from '../send.ts';
import { pageParams, sendPage } from '../send-page.ts';

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";
const MAX_AGE = 300;

function sendDoc(reply: FastifyReply, bytes: Buffer, type: string, etag: string): FastifyReply {
  return reply
    .header('content-type', type)
    .header('cache-control', `public, max-age=${MAX_AGE}`)
    .header('etag', etag)
    .header('content-security-policy', PAGE_CSP)
    .headers(type === HTML ? DOCUMENT_HEADERS : {})
    .send(bytes);
}

const HTML = 'text/html; charset=utf-8';

export function registerSitePages(app: App, ctx: AppContext): void {
  const hidden = { hide: true };
  app.get('/screens', { schema: hidden }, async (_req, reply) => {
    const idx = await ctx.pages.screensIndex();
    return sendDoc(reply, idx.html, HTML, `"screens-${idx.generation}"`);
  });
  app.get('/screens/index.json', { schema: hidden }, async (_req, reply) => {
    const idx = await ctx.pages.screensIndex();
    return sendDoc(reply, idx.json, JSON_TYPE, `"screens-json-${idx.generation}"`);
  });
  app.get(
    '/screens/:file',
    { schema: { ...hidden, params: z.object({ file: z.string().regex(/^[a-z0-9-]+(\.json|\.csv)?$/) }) } },
    async (req, reply) => {
      const m = /^([a-z0-9-]+)(\.json|\.csv)?$/.exec(req.params.file);
      const name = m?.[1] ?? '';
      const artifacts = await ctx.pages.regime(name);
      // The name is not quoted back: an error body never echoes request input.
      if (!artifacts) throw new ApiError('not_found', 'No such screen regime', 'See /screens/ for the regimes');
      const etag = `"screen-${name}-${m?.[2] ?? 'html'}-${artifacts.generation}"`;
      if (m?.[2] === '.json') return sendDoc(reply, artifacts.json, JSON_TYPE, etag);
      if (m?.[2] === '.csv') {
        reply.header('content-disposition', `attachment; filename="${name}.csv"`);
        return sendDoc(reply, artifacts.csv, 'text/csv; charset=utf-8; header=present', etag);
      }
      return sendDoc(reply, artifacts.html, HTML, etag);
    },
  );
  app.get('/methodology', { schema: hidden }, async (_req, reply) =>
    sendDoc(reply, ctx.pages.methodology(), HTML, '"methodology"'),
  );
  app.get(
    '/events/:slug',
    { schema: { ...hidden, params: z.object({ slug: z.string().min(1).max(200) }) } },
    async (req, reply) => {
      const html = await ctx.pages.event(req.params.slug);
      if (!html) throw new ApiError('event_not_found', 'Event not found', 'Search with /v1/events?q=…');
      return sendDoc(reply, html, HTML, `"event-page-${req.params.slug}-${ctx.query.model().generation}"`);
    },
  );
  registerQuestionPages(app, ctx);
}

/** Pairs per page of `/questions` (a screenful; `limit` in the URL may ask for up to the API's maximum). */
const QUESTIONS_PAGE_SIZE = 25;

/** `/questions` (the cross-venue list, `findQuestions`) and `/questions/{id}` (the compare page, `question`). */
function registerQuestionPages(app: App, ctx: AppContext): void {
  const hidden = { hide: true };
  app.get('/questions', { schema: hidden }, async (req, reply) => {
    const params = pageParams(req.query, [...QUESTIONS_PARAMS, 'offset']);
    let result: QuestionPage;
    try {
      result = ctx.query.findQuestions({ ...params, limit: params.limit ?? QUESTIONS_PAGE_SIZE });
    } catch (err) {
      // A malformed number (e.g. min_divergence=abc): a 400 in the one error shape, like every error of the service.
      if (err instanceof QuestionQueryError) throw new ApiError('invalid_request', err.message, err.hint);
      throw err;
    }
    const notice = dataSourceNotice(ctx.query.model().dataSource);
    return sendPage(ctx, req, reply, questionsPage({ params, result, notice }));
  });
  app.get(
    '/questions/:id',
    { schema: { ...hidden, params: z.object({ id: z.string().min(1).max(200) }) } },
    async (req, reply) => {
      const comparison = ctx.query.question(req.params.id);
      // The id is not quoted back: an error body never echoes request input.
      if (!comparison)
        throw new ApiError(
          'question_not_found',
          'Question not found',
          'See /questions for every cross-venue question.',
        );
      const notice = dataSourceNotice(ctx.query.model().dataSource);
      return sendPage(ctx, req, reply, comparePage({ comparison, notice }));
    },
  );
}
