/**
 * `POST /mcp` (spec §4.10): the MCP tool server. JSON parsing is deferred to the MCP face so that a malformed
 * body gets a JSON-RPC parse error (-32700) rather than the REST error shape. Other methods get 405 with a
 * JSON-RPC error. The route is hidden from the OpenAPI document (it speaks JSON-RPC, described in llms.txt).
 */
import { handleMcpHttp } from '../../agents/index.ts';
import type { App, AppContext } from '../context.ts';

/** Largest MCP request accepted (a tools/call is a few hundred bytes). */
const MCP_BODY_LIMIT = 64 * 1024;

export function registerMcp(app: App, ctx: AppContext): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MCP_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.route({
      method: ['POST', 'GET', 'DELETE'],
      url: '/mcp',
      // On the route too (not only the parser), so the 413 names this limit (request.routeOptions.bodyLimit).
      bodyLimit: MCP_BODY_LIMIT,
      schema: { hide: true },
      handler: async (req, reply) => {
        reply.hijack();
        for (const [k, v] of Object.entries(reply.getHeaders()))
          if (v !== undefined) reply.raw.setHeader(k, v as string);
        await handleMcpHttp(
          ctx.query,
          { serviceName: 'pmref', logger: req.log, history: ctx.history },
          req.raw,
          reply.raw,
          req.body as string | undefined,
        );
      },
    });
  });
}
