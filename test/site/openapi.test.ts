// /openapi.json is a valid OpenAPI 3.1 document (official 3.1 schema, Ajv 2020) that documents every REST route, parameter, response, error and header, with examples.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from '../serve/seed.ts';

type Json = Record<string, unknown>;
let doc: Json;
let store: Store;

/**
 * The official OpenAPI 3.1 JSON Schema (https://spec.openapis.org/oas/3.1/schema/2022-10-07), as shipped inside
 * @scalar/openapi-validator (a dependency of the Scalar docs package); loaded by file URL because the package's
 * exports map does not expose it.
 */
async function officialSchema(): Promise<Json> {
  const file = join(process.cwd(), 'node_modules/@scalar/openapi-validator/dist/schemas/v3.1/schema.js');
  const mod = (await import(pathToFileURL(file).href)) as { default: Json };
  return mod.default;
}

beforeAll(async () => {
  store = await seedStore();
  const holder = await ReadModelHolder.create(store, { origin: 'http://pmref.test', clock: () => NOW });
  const app = await buildApp({
    store,
    readModel: holder,
    config: { origin: 'http://pmref.test', trustProxy: false, refreshMinutes: 60 },
    clock: () => NOW,
  });
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json() as Json;
  await app.close();
});
afterAll(async () => {
  await store.close();
});

const OPERATIONS: Array<[string, string, string]> = [
  ['get', '/', 'getServiceInfo'],
  ['get', '/health', 'getHealth'],
  ['get', '/v1/events', 'listEvents'],
  ['get', '/v1/events/{slug}', 'getEvent'],
  ['get', '/v1/markets/{id}', 'getMarket'],
  ['get', '/v1/markets/movers', 'listMovers'],
  ['get', '/v1/catalysts/upcoming', 'listUpcomingCatalysts'],
  ['get', '/v1/signals', 'listSignals'],
  ['get', '/v1/signals/{slug}', 'getSignal'],
  ['get', '/v1/spot', 'getSpot'],
  ['get', '/v1/status', 'getStatus'],
  ['get', '/v1/marks', 'listMarks'],
  ['get', '/v1/changes', 'listChanges'],
  ['get', '/v1/questions', 'listQuestions'],
  ['get', '/v1/questions/{question_id}', 'getQuestion'],
  ['get', '/v1/stats', 'getStats'],
  ['post', '/v1/keys', 'createKey'],
];

describe('/openapi.json', () => {
  it('validates against the official OpenAPI 3.1 schema', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(await officialSchema());
    const ok = validate(doc);
    if (!ok) console.error(JSON.stringify(validate.errors, null, 2));
    expect(ok).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as Json).version).toBe('0.2.0');
  });

  it('documents every REST route of spec §4 with an operationId, and hides internal routes', () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const found = Object.entries(paths).flatMap(([p, item]) =>
      Object.entries(item).map(([m, op]) => [m, p, op.operationId] as [string, string, unknown]),
    );
    expect(found).toEqual(expect.arrayContaining(OPERATIONS));
    for (const [, , id] of found) expect(id).toEqual(expect.any(String));
    for (const hidden of ['/openapi.json', '/llms.txt', '/docs', '/schemas/{name}', '*']) {
      expect(Object.keys(paths)).not.toContain(hidden);
    }
  });

  it('compiles every response schema and documents the error shape, headers and examples', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const [method, path, opId] of OPERATIONS) {
      const op = paths[path]?.[method] as Json;
      const responses = op.responses as Record<string, Json>;
      const ok = method === 'post' ? '201' : '200';
      expect(Object.keys(responses), opId).toContain(ok);
      expect(Object.keys(responses), opId).toContain('500');
      for (const [status, response] of Object.entries(responses)) {
        const media = (response.content as Record<string, Json>)['application/json'];
        expect(media, `${opId} ${status}`).toBeDefined();
        expect(() => ajv.compile(media?.schema as Json), `${opId} ${status}`).not.toThrow();
        if (Number(status) >= 400) {
          expect((media?.schema as Json | undefined)?.required, `${opId} ${status}`).toEqual([
            'error',
            'code',
            'request_id',
          ]);
          expect(media?.example, `${opId} ${status}`).toMatchObject({ code: expect.any(String) });
        }
      }
      expect(
        (responses[ok]?.content as Record<string, Json> | undefined)?.['application/json']?.example,
        `${opId} example`,
      ).toBeDefined();
      if (path.startsWith('/v1/') && method === 'get') {
        expect(Object.keys(responses[ok]?.headers as Json)).toEqual(
          expect.arrayContaining([
            'ETag',
            'Cache-Control',
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
          ]),
        );
        expect(Object.keys(responses['429']?.headers as Json)).toContain('Retry-After');
      }
    }
  });

  it('documents the change stream as text/event-stream, never cached', () => {
    const op = (doc.paths as Record<string, Record<string, Json>>)['/v1/changes/stream']?.get as Json;
    const ok = (op.responses as Record<string, Json>)['200'] as Json;
    expect(Object.keys(ok.content as Json)).toEqual(['text/event-stream']);
    expect(String(((ok.content as Json)['text/event-stream'] as Json).example)).toMatch(
      /^id: 42\nevent: change\ndata: \{/m,
    );
    expect(Object.keys(ok.headers as Json)).not.toContain('ETag');
  });

  it('documents every query parameter of the events list, with the clamping rule', () => {
    const op = (doc.paths as Record<string, Record<string, Json>>)['/v1/events']?.get as Json;
    const params = (op.parameters as Json[]).map((p) => [p.in, p.name]);
    expect(params).toEqual(
      ['category', 'platform', 'grade', 'q', 'grade_any', 'sort', 'status', 'limit', 'offset'].map((n) => ['query', n]),
    );
    expect(String(op.description)).toContain('clamped');
    // `?key=` is documented once, as the optional apiKey security scheme (@fastify/swagger folds the param into it).
    expect((doc.components as Json).securitySchemes).toMatchObject({
      queryKey: { type: 'apiKey', in: 'query', name: 'key' },
      bearerKey: { type: 'http', scheme: 'bearer' },
    });
    expect(doc.security).toEqual([{}, { bearerKey: [] }, { queryKey: [] }]);
  });
});
