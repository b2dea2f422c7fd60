/**
 * `/docs`: the Scalar API reference served from this process (its JavaScript comes from the package, not a
 * CDN), with telemetry and remote fonts off, reading our own /openapi.json.
 */
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { DOCUMENT_HEADERS } from './headers.ts';

/** The docs page needs scripts and styles from this origin; everything else keeps the strict CSP. */
const DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(scalar, {
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
    hooks: {
      onRequest: async (_req, reply) => {
        reply.header('content-security-policy', DOCS_CSP).headers(DOCUMENT_HEADERS);
      },
    },
  });
}
