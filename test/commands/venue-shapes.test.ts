// The committed shape manifests (data/venue-shapes) are exactly what `pmref venue-shapes` extracts from the venues' published OpenAPI documents in ../shared, and the extractor reduces a document to field names, JSON types (nullable kept) and required fields.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { manifestText, readVenueShapeManifests } from '../../src/commands/venue-shapes.ts';
import { documentSource, extractShapeManifest, VENUE_SHAPE_SPECS } from '../../src/venues/index.ts';
import { SHARED_VENUES_DIR } from '../venues/helpers.ts';

const present = existsSync(SHARED_VENUES_DIR);
if (!present) console.warn(`skipping the manifest regeneration check: ${SHARED_VENUES_DIR} is absent`);

const committedPath = (venue: string) =>
  fileURLToPath(new URL(`../../data/venue-shapes/${venue}.json`, import.meta.url));

describe.skipIf(!present)('data/venue-shapes regenerated from ../shared', () => {
  it('equals the committed manifests byte for byte (extraction date taken from the committed file)', async () => {
    const committed = (venue: string) => readFileSync(committedPath(venue), 'utf8');
    const dateOf = (venue: string) => (JSON.parse(committed(venue)) as { extracted_at: string }).extracted_at;
    const manifests = await readVenueShapeManifests(SHARED_VENUES_DIR, dateOf);
    for (const m of manifests) {
      expect(manifestText(m), `data/venue-shapes/${m.venue}.json is stale: run pmref venue-shapes`).toBe(
        committed(m.venue),
      );
    }
    const [a, b] = manifests;
    expect(a?.document).toMatchObject({ title: 'Kalshi Trade API Manual Endpoints', version: '3.13.0' });
    expect(a?.source.commit).toBe('3090b0ecf59e78835efda93a9fee2d556ac00e05');
    expect(Object.keys(a?.records ?? {})).toEqual(
      expect.arrayContaining([
        'EventData',
        'Market',
        'Series',
        'GetEventsResponse',
        'MarketCandlestick',
        'OrderbookCountFp',
      ]),
    );
    expect(b?.endpoints['GET /events']).toEqual({
      response: 'array<Event>',
      paging: { kind: 'offset', limit_param: 'limit', offset_param: 'offset' },
    });
  });
});

const SOURCES = `| file | origin repo | path @ commit | licence | contents |
|---|---|---|---|---|
| \`tiny.yaml\` | someone/tiny-sdk | \`specs/openapi.yaml\` @ 3090b0ecf59e78835efda93a9fee2d556ac00e05 (HEAD bf25aea5) | MIT | a tiny spec |
`;

const DOC = {
  openapi: '3.0.0',
  info: { title: 'Tiny', version: '2.0.0' },
  paths: {
    '/things': {
      get: {
        parameters: [{ $ref: '#/components/parameters/Cursor' }, { name: 'limit', in: 'query' }],
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/GetThingsResponse' } } } },
        },
      },
    },
  },
  components: {
    parameters: { Cursor: { name: 'cursor', in: 'query' } },
    schemas: {
      Dollars: { type: 'string' },
      GetThingsResponse: {
        type: 'object',
        required: ['things', 'cursor'],
        properties: {
          things: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
          cursor: { type: 'string' },
        },
      },
      Thing: {
        type: 'object',
        required: ['id', 'price_dollars'],
        properties: {
          id: { type: 'string' },
          price_dollars: { $ref: '#/components/schemas/Dollars' },
          strike: { type: 'number', nullable: true },
          settled: { $ref: '#/components/schemas/Dollars', nullable: true },
          count: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
          meta: { type: 'object', additionalProperties: true },
        },
      },
    },
  },
};

describe('extractShapeManifest', () => {
  it('reduces a document to records with types, nullability, required fields and cursor paging', () => {
    const spec = { ...VENUE_SHAPE_SPECS.venue_a, file: 'tiny.yaml', paths: ['/things'], notes: [], not_covered: [] };
    const m = extractShapeManifest(spec, DOC, SOURCES, '2026-01-02');
    expect(m.document).toEqual({ file: 'tiny.yaml', title: 'Tiny', version: '2.0.0', openapi: '3.0.0' });
    expect(m.source).toEqual({
      repo: 'someone/tiny-sdk',
      path: 'specs/openapi.yaml',
      commit: '3090b0ecf59e78835efda93a9fee2d556ac00e05',
      licence: 'MIT',
      listed_in: 'fixtures/venues/SOURCES.md',
    });
    expect(m.endpoints).toEqual({
      'GET /things': {
        response: 'GetThingsResponse',
        paging: { kind: 'cursor', cursor_field: 'cursor', cursor_param: 'cursor' },
      },
    });
    expect(m.records).toEqual({
      GetThingsResponse: { fields: { things: 'array<Thing>', cursor: 'string' }, required: ['things', 'cursor'] },
      Thing: {
        fields: {
          id: 'string',
          price_dollars: 'string',
          strike: 'number|null',
          settled: 'string|null',
          count: 'integer|string',
          meta: 'object',
        },
        required: ['id', 'price_dollars'],
      },
    });
    expect(m.extracted_at).toBe('2026-01-02');
  });

  it('refuses a document without the path, and a SOURCES.md without the file', () => {
    const spec = { ...VENUE_SHAPE_SPECS.venue_a, file: 'tiny.yaml', paths: ['/missing'] };
    expect(() => extractShapeManifest(spec, DOC, SOURCES, '2026-01-02')).toThrow(/no GET \/missing/);
    expect(() => documentSource(SOURCES, 'other.yaml')).toThrow(/no row for other.yaml/);
  });
});
