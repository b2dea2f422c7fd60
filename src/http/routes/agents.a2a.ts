/**
 * A2A (spec §4.11): the agent card at `/.well-known/agent-card.json` and on `GET /a2a`, and JSON-RPC at
 * `POST /a2a` (v1.0 `SendMessage`, v0.3 `message/send`). JSON parsing is deferred so that a malformed body
 * gets a JSON-RPC parse error (-32700); a notification gets 202 with no body.
 */
import type { FastifyReply } from 'fastify';
import { createA2aHandler } from '../../agents/index.ts';
import type { App, AppContext } from '../context.ts';
import { JSON_TYPE } from '../send.ts';

const A2A_BODY_LIMIT = 64 * 1024;
const CARD_MAX_AGE = 3600;

export function registerA2a(app: App, ctx: AppContext): void {
  const a2a = createA2aHandler(ctx.query, {
    serviceName: 'pmref',
    baseUrl: ctx.origin,
    clock: ctx.clock,
    history: ctx.history,
  });
  const card = Buffer.from(JSON.stringify(a2a.card, null, 2));
  const sendCard = async (_req: unknown, reply: FastifyReply) =>
    reply.header('content-type', JSON_TYPE).header('cache-control', `public, max-age=${CARD_MAX_AGE}`).send(card);
  app.get('/.well-known/agent-card.json', { schema: { hide: true } }, sendCard);
  app.get('/.well-known/agent.json', { schema: { hide: true } }, sendCard);
  app.get('/a2a', { schema: { hide: true } }, sendCard);
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: A2A_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    // bodyLimit on the route too (not only the parser), so the 413 names this limit (routeOptions.bodyLimit).
    scope.post('/a2a', { bodyLimit: A2A_BODY_LIMIT, schema: { hide: true } }, async (req, reply) => {
      let body: unknown;
      try {
        body = JSON.parse(String(req.body ?? ''));
      } catch {
        return reply
          .code(200)
          .header('content-type', JSON_TYPE)
          .send({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: 'Parse error: the body must be a JSON-RPC 2.0 request in JSON.' },
          });
      }
      const response = await a2a.handle(body, req.headers);
      if (response === null) return reply.code(202).send();
      return reply.code(200).header('content-type', JSON_TYPE).send(response);
    });
  });
}
