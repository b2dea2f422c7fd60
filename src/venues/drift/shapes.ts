/**
 * The venue shape manifest (data/venue-shapes/<venue>.json): what the venue's published OpenAPI document says
 * the responses pmref reads look like, reduced to field names, JSON types and required-ness. It is derived
 * data with its source named (document title and version, origin repository and commit), written by
 * `pmref venue-shapes` (extract.ts) and read by the drift watch (check.ts, watch.ts). The documents
 * themselves stay in ../shared/fixtures/venues/reference and are never copied into the repository.
 *
 * A field type is a small grammar, one string per field so the manifest stays compact and diffable:
 * `string`, `number` (any JSON number), `integer` (a whole JSON number), `boolean`, `object` (any object),
 * `any` (the document leaves it open), `array<T>`, a record name (`Market`: an object described by its own
 * entry under `records`), and unions with `|`, `null` among them when the document says `nullable`.
 */
import type { Venue } from '../../domain/index.ts';

/** One response record of a venue document: its fields in document order and which of them are required. */
export interface RecordShape {
  /** Field name → type (see the module comment for the grammar). */
  fields: Record<string, string>;
  /** Fields the document lists as required, in document order. */
  required: string[];
  /** True when the document allows fields beyond `fields` (`additionalProperties: true`): none is unknown. */
  open?: true;
}

/** How an endpoint pages, as the document and pmref's client use it. */
export type PagingShape =
  | { kind: 'cursor'; cursor_field: string; cursor_param: string }
  | { kind: 'offset'; limit_param: string; offset_param: string };

export interface EndpointShape {
  /** The 200 response's type (a record name, or `array<Record>` for venue_b's bare lists). */
  response: string;
  paging?: PagingShape;
}

export interface VenueShapeManifest {
  venue: Venue;
  venue_shape: string;
  document: { file: string; title: string; version: string; openapi: string };
  /** Where the document came from, as ../shared/fixtures/venues/SOURCES.md lists it. */
  source: { repo: string; path: string; commit: string; licence: string; listed_in: string };
  /** The date (UTC) the manifest was extracted from the document. */
  extracted_at: string;
  notes: string[];
  /** Responses pmref reads that the document does not describe: drift there cannot be watched. */
  not_covered: string[];
  /** `GET <path>` → response type and paging, for every endpoint the watch knows. */
  endpoints: Record<string, EndpointShape>;
  /** Every record reachable from those responses, by the document's schema name. */
  records: Record<string, RecordShape>;
}

/** A field type parsed once: the JSON types it admits and, for records and arrays, what to look inside. */
export interface FieldType {
  /** The observed JSON types it admits (`integer` stands for a whole number; `number` admits both). */
  accepts: ReadonlySet<ObservedType>;
  /** A record name when the field is an object with its own entry under `records`. */
  record: string | null;
  /** A record name when the field is an array of such objects. */
  itemRecord: string | null;
  /** The type as written in the manifest, for findings. */
  text: string;
}

/** The JSON type of an observed value; `integer` is a whole number, `number` any other number. */
export type ObservedType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export function observedTypeOf(value: unknown): ObservedType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

const ALL_TYPES: readonly ObservedType[] = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'];

/** Splits `a|array<b|c>|null` on the top-level bars only. */
function splitUnion(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Parses a manifest field type. A name that is neither a JSON type nor a record of the manifest is taken as
 * `any` (it cannot be checked), so a hand-edited manifest never makes the watch throw mid-pull.
 * @example parseFieldType('array<Market>|null', new Set(['Market'])) // accepts array and null; itemRecord 'Market'
 */
export function parseFieldType(text: string, records: ReadonlySet<string>): FieldType {
  const accepts = new Set<ObservedType>();
  let record: string | null = null;
  let itemRecord: string | null = null;
  for (const part of splitUnion(text)) {
    if (part.startsWith('array<') && part.endsWith('>')) {
      accepts.add('array');
      const inner = part.slice(6, -1);
      if (records.has(inner)) itemRecord = inner;
      continue;
    }
    switch (part) {
      case 'string':
      case 'boolean':
      case 'null':
      case 'object':
      case 'array':
      case 'integer':
        accepts.add(part);
        break;
      case 'number':
        accepts.add('number').add('integer');
        break;
      default:
        if (records.has(part)) {
          accepts.add('object');
          record = part;
        } else {
          for (const t of ALL_TYPES) accepts.add(t);
        }
    }
  }
  return { accepts, record, itemRecord, text };
}
