/**
 * The drift checker: a raw venue record against the shape its venue's published OpenAPI document gives it
 * (shapes.ts). Pure functions, no I/O, no clock. Three kinds come from one record:
 * - `unknown_field`: present in the record, not in the documented schema (a field the venue added, or one the
 *   document dropped while the venue still sends it);
 * - `missing_required`: listed as required by the document, absent from the record;
 * - `type_mismatch`: the observed JSON type is not the documented one (`null` only where nullable; an integer
 *   fits `number`; a fraction does not fit `integer`).
 * The fourth kind, `pagination`, is about pages in sequence and lives in watch.ts.
 */
import {
  type FieldType,
  type ObservedType,
  observedTypeOf,
  parseFieldType,
  type VenueShapeManifest,
} from './shapes.ts';

export const DRIFT_KINDS = ['unknown_field', 'missing_required', 'type_mismatch', 'pagination'] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** One way a record departs from its documented shape. `record` is the document's schema name. */
export interface DriftFinding {
  record: string;
  field: string;
  kind: DriftKind;
  /** type_mismatch: the documented type. */
  documented?: string;
  /** type_mismatch and unknown_field: the observed JSON type. */
  observed?: ObservedType;
  /** pagination: what happened, in words. */
  detail?: string;
}

interface CompiledRecord {
  fields: Map<string, FieldType>;
  required: readonly string[];
  open: boolean;
  /** The fields that hold records of the manifest (most hold none): the only ones `nestedRecords` visits. */
  nested: ReadonlyArray<readonly [string, FieldType]>;
}

/** A manifest with its field types parsed once (the watch checks thousands of records against it). */
export interface CompiledShapes {
  manifest: VenueShapeManifest;
  records: ReadonlyMap<string, CompiledRecord>;
}

export function compileShapes(manifest: VenueShapeManifest): CompiledShapes {
  const names = new Set(Object.keys(manifest.records));
  const records = new Map<string, CompiledRecord>();
  for (const [name, shape] of Object.entries(manifest.records)) {
    const fields = new Map(Object.entries(shape.fields).map(([f, t]) => [f, parseFieldType(t, names)]));
    records.set(name, {
      fields,
      required: shape.required,
      open: shape.open === true,
      nested: [...fields].filter(([, t]) => t.record !== null || t.itemRecord !== null),
    });
  }
  return { manifest, records };
}

/** A parsed field type from its text (for endpoint response types such as `array<Event>`). */
export function responseType(shapes: CompiledShapes, text: string): FieldType {
  return parseFieldType(text, new Set(shapes.records.keys()));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The findings of one object against one record, its own fields only: nested records (a Market inside an
 * Event) are checked on their own (see `nestedRecords`), so a cache keyed by this object's field set holds.
 * @example recordFindings(shapes, 'Market', { ticker: 'X', yes_bid: 45 }) // unknown yes_bid, missing required …
 */
export function recordFindings(shapes: CompiledShapes, record: string, value: unknown): DriftFinding[] {
  const shape = shapes.records.get(record);
  if (shape === undefined) return [];
  if (!isObject(value)) {
    return [{ record, field: '(record)', kind: 'type_mismatch', documented: record, observed: observedTypeOf(value) }];
  }
  const out: DriftFinding[] = [];
  for (const [field, v] of Object.entries(value)) {
    const type = shape.fields.get(field);
    const observed = observedTypeOf(v);
    if (type === undefined) {
      if (!shape.open) out.push({ record, field, kind: 'unknown_field', observed });
    } else if (!type.accepts.has(observed)) {
      out.push({ record, field, kind: 'type_mismatch', documented: type.text, observed });
    }
  }
  for (const field of shape.required) {
    if (!(field in value)) out.push({ record, field, kind: 'missing_required' });
  }
  return out;
}

/** The nested values of `value` that are records of the manifest, with their record names. */
export function nestedRecords(
  shapes: CompiledShapes,
  record: string,
  value: unknown,
): Array<{ record: string; value: unknown }> {
  const shape = shapes.records.get(record);
  if (shape === undefined || !isObject(value)) return [];
  const out: Array<{ record: string; value: unknown }> = [];
  for (const [field, type] of shape.nested) {
    const v = value[field];
    if (type.record !== null && isObject(v)) out.push({ record: type.record, value: v });
    else if (type.itemRecord !== null && Array.isArray(v)) {
      for (const item of v) out.push({ record: type.itemRecord, value: item });
    }
  }
  return out;
}

function findingKey(f: DriftFinding): string {
  return `${f.record}\u0000${f.field}\u0000${f.kind}`;
}

/**
 * Every distinct finding of a record and the records nested in it (each (record, field, kind) once). Uncached:
 * for tests and one-off checks; a pull goes through the watch (watch.ts), which checks each field set once.
 * @example checkRecord(shapes, 'EventData', event) // findings of the event and of every nested Market
 */
export function checkRecord(shapes: CompiledShapes, record: string, value: unknown): DriftFinding[] {
  const seen = new Map<string, DriftFinding>();
  const stack = [{ record, value }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const f of recordFindings(shapes, next.record, next.value)) {
      if (!seen.has(findingKey(f))) seen.set(findingKey(f), f);
    }
    stack.push(...nestedRecords(shapes, next.record, next.value));
  }
  return [...seen.values()];
}
