/**
 * Reduces a venue's published OpenAPI 3.0 document to the shape manifest the drift watch checks against
 * (shapes.ts). Pure: the caller reads the document and SOURCES.md; `pmref venue-shapes` writes the result to
 * data/venue-shapes/<venue>.json. Which endpoints count is decided here (VENUE_SHAPE_SPECS), by what pmref's
 * clients read or may read; the records are whatever those responses reach through `$ref`s.
 */
import type { Venue } from '../../domain/index.ts';
import type { EndpointShape, PagingShape, RecordShape, VenueShapeManifest } from './shapes.ts';

/** What to extract for one venue: the document file and the `GET` paths whose 200 responses matter. */
export interface VenueShapeSpec {
  venue: Venue;
  venue_shape: string;
  /** The document's file name under fixtures/venues/reference/. */
  file: string;
  paths: string[];
  notes: string[];
  not_covered: string[];
}

const COMMON_NOTES = [
  "Derived from the venue's published OpenAPI document named under `document` and `source`; the document itself is not in this repository. Regenerate with `pmref venue-shapes --from ../shared/fixtures/venues`.",
  'Field types: string, number (any JSON number), integer (a whole number), boolean, object, any (the document leaves it open), array<T>, a record name (an object with its own entry under records), unions with |; null when the document says nullable.',
];

/** The endpoints pmref reads (or could read) from each venue, and what the documents leave out. */
export const VENUE_SHAPE_SPECS: Record<Venue, VenueShapeSpec> = {
  venue_a: {
    venue: 'venue_a',
    venue_shape: 'Kalshi trade API v2',
    file: 'kalshi_trade_api_v2_openapi.yaml',
    paths: [
      '/events',
      '/events/{event_ticker}',
      '/markets',
      '/markets/{ticker}',
      '/series',
      '/series/{series_ticker}',
      '/markets/{ticker}/orderbook',
      '/series/{series_ticker}/markets/{ticker}/candlesticks',
    ],
    notes: [
      ...COMMON_NOTES,
      'pmref pulls GET /events?with_nested_markets=true (cursor paging) and GET /series/{series_ticker}; the other endpoints are listed for the recorded single-market, order-book and candlestick payloads.',
      'This document version (3.13.0) describes prices as *_dollars strings and counts as *_fp strings only: records still carrying the older integer-cent fields (yes_bid, volume, …) show them as unknown fields.',
    ],
    not_covered: [],
  },
  venue_b: {
    venue: 'venue_b',
    venue_shape: 'Polymarket Gamma',
    file: 'polymarket_gamma_openapi.json',
    paths: ['/events', '/events/{id}', '/events/slug/{slug}', '/markets', '/markets/{id}', '/markets/slug/{slug}'],
    notes: [
      ...COMMON_NOTES,
      'pmref pulls GET /events (offset/limit paging, closed=false then closed=true) with nested markets.',
      'The Gamma document marks no field required, so venue_b records can show unknown fields and changed types but never a missing required field.',
    ],
    not_covered: [
      'CLOB GET /book (order books) and GET /prices-history: the Gamma document does not describe the CLOB API, so those responses are not watched.',
    ],
  },
};

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function refName(ref: unknown): string | null {
  return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice(21) : null;
}

/** Walks one document: turns schemas into field types and collects the records they reach. */
class Reducer {
  readonly records = new Map<string, RecordShape>();
  private readonly queue: string[] = [];

  constructor(private readonly schemas: Node) {}

  /** The type string of a schema node (see shapes.ts), queueing the records it names. */
  typeOf(node: unknown): string {
    if (!isNode(node)) return 'any';
    const nullable = node.nullable === true;
    const withNull = (t: string) => (nullable && !t.split('|').includes('null') ? `${t}|null` : t);
    const ref = refName(node.$ref);
    if (ref !== null) return withNull(this.typeOfRef(ref));
    for (const key of ['oneOf', 'anyOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) {
        const parts = [...new Set(list.flatMap((n) => this.typeOf(n).split('|')))];
        return withNull(parts.includes('any') ? 'any' : parts.join('|'));
      }
    }
    if (Array.isArray(node.allOf) && node.allOf.length === 1) return withNull(this.typeOf(node.allOf[0]));
    const type = node.type;
    if (Array.isArray(type)) return type.map(String).join('|');
    switch (type) {
      case 'array': {
        const inner = this.typeOf(node.items);
        // A union inside an array is left unchecked: element types are not watched (watch.ts says why).
        return withNull(inner.includes('|') || inner === 'any' ? 'array' : `array<${inner}>`);
      }
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
      case 'object':
        return withNull(type);
      default:
        return withNull(isNode(node.properties) ? 'object' : 'any');
    }
  }

  private typeOfRef(name: string): string {
    const target = this.schemas[name];
    if (!isNode(target)) return 'any';
    // An object schema with properties becomes a record of its own; anything else (FixedPointDollars,
    // PriceLevelDollarsCountFp) is replaced by its type.
    if (isNode(target.properties)) {
      if (!this.records.has(name) && !this.queue.includes(name)) this.queue.push(name);
      return name;
    }
    return this.typeOf(target);
  }

  /** Reduces every queued record (and what they reach) until none is left. */
  drain(): void {
    for (let name = this.queue.shift(); name !== undefined; name = this.queue.shift()) {
      if (this.records.has(name)) continue;
      const schema = this.schemas[name] as Node;
      const properties = schema.properties as Node;
      const shape: RecordShape = { fields: {}, required: [] };
      this.records.set(name, shape);
      for (const [field, node] of Object.entries(properties)) shape.fields[field] = this.typeOf(node);
      const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
      shape.required = required.filter((f) => f in shape.fields);
      if (schema.additionalProperties === true || isNode(schema.additionalProperties)) shape.open = true;
    }
  }
}

function parameterNames(doc: Node, operation: Node): Set<string> {
  const params = Array.isArray(operation.parameters) ? operation.parameters : [];
  const shared = isNode(doc.components) && isNode(doc.components.parameters) ? doc.components.parameters : {};
  const names = new Set<string>();
  for (const p of params) {
    if (!isNode(p)) continue;
    const ref = typeof p.$ref === 'string' ? p.$ref.replace('#/components/parameters/', '') : null;
    const resolved = ref !== null ? shared[ref] : p;
    if (isNode(resolved) && resolved.in === 'query' && typeof resolved.name === 'string') names.add(resolved.name);
  }
  return names;
}

/** Cursor paging when the response record has a `cursor` field and the request takes one; offset when limit+offset. */
function pagingOf(params: Set<string>, response: string, records: Map<string, RecordShape>): PagingShape | undefined {
  const record = records.get(response);
  if (record && 'cursor' in record.fields && params.has('cursor')) {
    return { kind: 'cursor', cursor_field: 'cursor', cursor_param: 'cursor' };
  }
  if (response.startsWith('array<') && params.has('limit') && params.has('offset')) {
    return { kind: 'offset', limit_param: 'limit', offset_param: 'offset' };
  }
  return undefined;
}

/** Where SOURCES.md says a reference file came from: its table row `| file | repo | path @ commit | licence | …`. */
export function documentSource(sourcesMd: string, file: string): VenueShapeManifest['source'] {
  const row = sourcesMd.split('\n').find((line) => line.startsWith(`| \`${file}\``));
  if (row === undefined) throw new Error(`SOURCES.md has no row for ${file}`);
  const cells = row.split('|').map((c) => c.trim());
  const repo = cells[2] ?? '';
  const where = /`([^`]+)`\s*@\s*([0-9a-f]{7,40})/.exec(cells[3] ?? '');
  if (repo === '' || where === null) throw new Error(`SOURCES.md row for ${file} names no repository, path and commit`);
  return {
    repo,
    path: where[1] ?? '',
    commit: where[2] ?? '',
    licence: cells[4] ?? '',
    listed_in: 'fixtures/venues/SOURCES.md',
  };
}

/**
 * Reduces one parsed OpenAPI document to its shape manifest.
 * @example extractShapeManifest(VENUE_SHAPE_SPECS.venue_a, yaml.parse(text), sourcesMd, '2026-11-25')
 */
export function extractShapeManifest(
  spec: VenueShapeSpec,
  doc: unknown,
  sourcesMd: string,
  extractedAt: string,
): VenueShapeManifest {
  if (!isNode(doc) || !isNode(doc.info) || !isNode(doc.paths)) throw new Error(`${spec.file}: not an OpenAPI document`);
  const schemas = isNode(doc.components) && isNode(doc.components.schemas) ? doc.components.schemas : {};
  const reducer = new Reducer(schemas);
  const found: Array<{ path: string; response: string; params: Set<string> }> = [];
  for (const path of spec.paths) {
    const item = doc.paths[path];
    const get = isNode(item) ? item.get : undefined;
    if (!isNode(get)) throw new Error(`${spec.file}: no GET ${path}`);
    const ok = isNode(get.responses) ? get.responses['200'] : undefined;
    const content = isNode(ok) && isNode(ok.content) ? ok.content['application/json'] : undefined;
    const schema = isNode(content) ? content.schema : undefined;
    found.push({ path, response: reducer.typeOf(schema), params: parameterNames(doc, get) });
  }
  reducer.drain();
  const endpoints: Record<string, EndpointShape> = {};
  for (const { path, response, params } of found) {
    const paging = pagingOf(params, response, reducer.records);
    endpoints[`GET ${path}`] = paging ? { response, paging } : { response };
  }
  const records = Object.fromEntries([...reducer.records.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    venue: spec.venue,
    venue_shape: spec.venue_shape,
    document: {
      file: spec.file,
      title: String(doc.info.title ?? ''),
      version: String(doc.info.version ?? ''),
      openapi: String(doc.openapi ?? ''),
    },
    source: documentSource(sourcesMd, spec.file),
    extracted_at: extractedAt,
    notes: spec.notes,
    not_covered: spec.not_covered,
    endpoints,
    records,
  };
}
