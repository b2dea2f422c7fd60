/** Sends a discovery document (served-shapes §1: `public, max-age=3600`) with an ETag and 304 support. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Body } from '../serve/index.ts';

export const DISCOVERY_MAX_AGE = 3600;

export function sendDoc(req: FastifyRequest, reply: FastifyReply, body: Body, contentType: string): FastifyReply {
  reply.header('etag', body.etag);
  reply.header('cache-control', `public, max-age=${DISCOVERY_MAX_AGE}`);
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === body.etag || t.trim() === '*')) return reply.code(304).send();
  reply.header('content-type', contentType);
  const accept = req.headers['accept-encoding'] ?? '';
  if (body.bytes.length >= 1024 && /\bgzip\b/.test(accept)) {
    reply.header('content-encoding', 'gzip');
    reply.header('vary', 'Accept-Encoding');
    return reply.send(body.encoded('gzip'));
  }
  return reply.send(body.bytes);
}
