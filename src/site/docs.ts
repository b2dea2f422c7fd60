/**
 * `/docs`: the Scalar API reference served from this process (its JavaScript comes from the package, not a
 * CDN), with telemetry and remote fonts off, reading our own /openapi.json.
 *
 * The package is loaded on the first request under /docs, not at start: it holds its 4.3 MB browser bundle as one
 * string, and importing it took 0.38–0.56 s and 18–19 MB of heap on the 2-core machine (issue 18: restart time and
 * steady memory), for a page most processes never serve. Its plugin runs in a Fastify instance of its own, built
 * then, which the /docs routes here forward to; what it does not know goes to this app's not-found answer.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DOCUMENT_HEADERS } from './headers.ts';

/** The docs page needs scripts and styles from this origin; everything else keeps the strict CSP. */
const DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/** The headers of the docs instance's answers that are passed on (type, redirect target, caching). */
const PASSED_HEADERS = ['content-type', 'location', 'cache-control', 'etag', 'last-modified'] as const;

/** The Scalar plugin for Fastify, as the package exports it. */
type ScalarPlugin = typeof import('@scalar/fastify-api-reference')['default'];

/** Imports the Scalar plugin (a test seam: `registerDocs`' `load`). */
const importScalar = async (): Promise<ScalarPlugin> => (await import('@scalar/fastify-api-reference')).default;

/** The Fastify instance that serves the Scalar plugin's routes under /docs. */
async function buildDocsInstance(load: () => Promise<ScalarPlugin>): Promise<FastifyInstance> {
  const scalar = await load();
  const docs = Fastify({ logger: false });
  await docs.register(scalar, {
    routePrefix: '/docs',
    logLevel: 'silent',
    configuration: {
      url: '/openapi.json',
      telemetry: false,
      withDefaultFonts: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      title: 'pmref API reference',
    },
  });
  await docs.ready();
  return docs;
}

/**
 * The /docs routes. A reference that cannot be loaded answers 500 in the app's error shape and is tried again on the
 * next request; it is logged here, on the app's logger, since the routes' own log level is silent.
 */
export async function registerDocs(
  app: FastifyInstance,
  opts: { load?: () => Promise<ScalarPlugin> } = {},
): Promise<void> {
  const load = opts.load ?? importScalar;
  let instance: Promise<FastifyInstance> | null = null;
  const docsInstance = (): Promise<FastifyInstance> => {
    instance ??= buildDocsInstance(load).catch((err: unknown) => {
      instance = null; // the next request tries again
      app.log.error(
        { err },
        'the API reference (/docs) could not be loaded: answering 500, trying again on the next request',
      );
      throw err;
    });
    return instance;
  };
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    const docs = await docsInstance();
    const res = await docs.inject({ method: 'GET', url: req.url, headers: { host: req.headers.host ?? 'localhost' } });
    if (res.statusCode === 404) return reply.callNotFound();
    reply.code(res.statusCode).header('content-security-policy', DOCS_CSP).headers(DOCUMENT_HEADERS);
    for (const name of PASSED_HEADERS) {
      const value = res.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.send(res.rawPayload);
  };
  const route = { method: 'GET', schema: { hide: true }, logLevel: 'silent', handler: forward } as const;
  app.route({ ...route, url: '/docs' });
  app.route({ ...route, url: '/docs/*' });
  app.addHook('onClose', async () => {
    if (instance !== null) await (await instance.catch(() => null))?.close();
  });
}
