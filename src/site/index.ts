/**
 * The site face: machine-readable docs next to the API (/openapi.json, /llms.txt, /schemas/*.json, /docs).
 * Discovery documents are not metered and carry `Cache-Control: public, max-age=3600`.
 */
import type { FastifyInstance } from 'fastify';
import { RECORD_SCHEMA_NAMES, recordJsonSchemas } from '../domain/index.ts';
import { Body, etagFor, type ReadModelSource } from '../serve/index.ts';
import { registerDocs } from './docs.ts';
import { llmsTxt } from './llms-txt.ts';
import { type OpenApiOptions, registerOpenApiGenerator, registerOpenApiRoute } from './openapi.ts';
import { sendDoc } from './send-doc.ts';

export { errorExamples, responseExamples } from './examples.ts';
export { DOCUMENT_HEADERS } from './headers.ts';
export { llmsTxt } from './llms-txt.ts';
export { decorateDocument, registerOpenApiGenerator, registerOpenApiRoute } from './openapi.ts';

export interface SiteOptions extends OpenApiOptions {
  readModel: ReadModelSource;
}

/** Registers the OpenAPI generator; call before adding API routes. */
export async function registerSiteBeforeRoutes(app: FastifyInstance, opts: SiteOptions): Promise<void> {
  await registerOpenApiGenerator(app, opts);
}

/** Registers /openapi.json, /llms.txt, /schemas/:name.json and /docs. */
export async function registerSiteRoutes(app: FastifyInstance, opts: SiteOptions): Promise<void> {
  registerOpenApiRoute(app, opts);

  const schemas = recordJsonSchemas(opts.origin);
  const schemaBodies = new Map<string, Body>(
    RECORD_SCHEMA_NAMES.map((n) => [n, new Body(JSON.stringify(schemas[n], null, 2), etagFor(0, `schema:${n}`))]),
  );
  app.get('/schemas/:name', { schema: { hide: true } }, async (req, reply) => {
    const name = (req.params as { name: string }).name.replace(/\.json$/, '');
    const body = schemaBodies.get(name);
    if (!body) {
      reply.callNotFound();
      return reply;
    }
    return sendDoc(req, reply, body, 'application/schema+json; charset=utf-8');
  });

  let llms: { generation: number; body: Body } | null = null;
  app.get('/llms.txt', { schema: { hide: true } }, async (req, reply) => {
    const model = opts.readModel.current();
    if (!llms || llms.generation !== model.generation) {
      const text = llmsTxt({
        origin: opts.origin,
        counts: model.counts,
        dataSource: model.dataSource,
        exampleSlugs: model.events.slice(0, 3).map((e) => e.event.slug),
      });
      llms = { generation: model.generation, body: new Body(text, etagFor(model.generation, 'llms')) };
    }
    return sendDoc(req, reply, llms.body, 'text/plain; charset=utf-8');
  });

  await registerDocs(app);
}
