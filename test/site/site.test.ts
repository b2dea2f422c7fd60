// The discovery documents are served next to the API: /llms.txt lists the endpoints, limits, MCP and A2A addresses and terms; /schemas serves the record JSON Schemas; /docs is Scalar served locally with telemetry and remote fonts off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/index.ts';
import { buildApp } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from '../serve/seed.ts';

let app: App;
let store: Store;
const O = 'http://pmref.test';

beforeAll(async () => {
  store = await seedStore();
  const holder = await ReadModelHolder.create(store, { origin: O, clock: () => NOW });
  app = await buildApp({
    store,
    readModel: holder,
    config: { origin: O, trustProxy: false, refreshMinutes: 60 },
    clock: () => NOW,
  });
});
afterAll(async () => {
  await app.close();
  await store.close();
});

describe('/llms.txt', () => {
  it('is plain text with the sections of served-shapes §16', async () => {
    const res = await app.inject('/llms.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const text = res.body;
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'What this is',
      'REST (JSON, CORS open)',
      'MCP',
      'A2A',
      'Signal wire',
      'Example events',
      'Eligibility screens',
      'Schema (JSON Schema 2020-12)',
      'Attribution',
      'Repository',
    ]);
    for (const needle of [
      `${O}/v1/events`,
      `${O}/v1/markets/{id}`,
      `${O}/mcp`,
      `${O}/a2a`,
      '1,000 requests/day per IP',
      '10,000/day',
      'Attribution required',
      `${O}/schemas/markets.json`,
      `${O}/v1/events/fed-upper-bound-december-2026`,
      'SIMULATED',
      '4 published events, 8 markets',
    ]) {
      expect(text).toContain(needle);
    }
  });

  it('lists every documented /v1 read path (a route added to the API is added here too)', async () => {
    const text = (await app.inject('/llms.txt')).body;
    const doc = (await app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    const reads = Object.entries(doc.paths)
      .filter(([path, ops]) => path.startsWith('/v1/') && 'get' in ops)
      .map(([path]) => path);
    expect(reads.length).toBeGreaterThan(10);
    const missing = reads.filter((path) => !text.includes(`${O}${path}`));
    expect(missing).toEqual([]);
  });
});

describe('/schemas', () => {
  it('serves each record schema as JSON Schema 2020-12 with its own $id', async () => {
    for (const name of ['events', 'markets', 'marks', 'resolution_log', 'catalysts', 'signals']) {
      const res = await app.inject(`/schemas/${name}.json`);
      expect(res.statusCode, name).toBe(200);
      expect(res.json()).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: `${O}/schemas/${name}.json`,
      });
    }
    const missing = await app.inject('/schemas/nope.json');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('/docs', () => {
  it('serves the Scalar reference from this origin, without telemetry or remote fonts', async () => {
    const bare = await app.inject('/docs');
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/docs/');
    const page = await app.inject('/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<script src="js/scalar.js"></script>');
    expect(page.body).toContain('"url": "/openapi.json"');
    expect(page.body).toContain('"telemetry": false');
    expect(page.body).toContain('"withDefaultFonts": false');
    expect(page.body).not.toMatch(/https?:\/\//);
    const script = await app.inject('/docs/js/scalar.js');
    expect(script.statusCode).toBe(200);
    expect(script.body.length).toBeGreaterThan(100_000);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // A rendered document gets the framing and referrer guards; JSON answers do not need them.
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // The reference is loaded on the first request under /docs; what it does not serve gets this app's not-found.
    const head = await app.inject({ method: 'HEAD', url: '/docs/js/scalar.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('javascript');
    const unknown = await app.inject('/docs/nothing-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'Not found', code: 'not_found' });
    expect(unknown.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const json = await app.inject('/openapi.json');
    expect(json.headers['x-frame-options']).toBeUndefined();
    expect(json.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
