/**
 * How a market or an event record is stored since migration 0006 (issue 18). The served record is unchanged;
 * on disk it is split in two:
 *
 * - its large parts that repeat across records are JSON texts kept once per distinct content in the `content`
 *   table, the row holding their ids (`<part>_id`). Measured on the full simulated universe: a market's
 *   `field_provenance` (2.8 KB, 183 distinct among 39,200 markets), `eligibility_screens` (0.3 KB, 31 distinct)
 *   and `resolution_source_list` (0.16 KB, 787 distinct); an event's `field_provenance` (0.9 KB, 513 distinct
 *   among 3,860). Other parts are mostly unique (`rcg`: 29,954 distinct) and stay in the body.
 * - the rest is the `body`: the record's JSON with each stored part's value replaced by null (so its key keeps
 *   its place and the record reads back in its own key order), packed by content-codec.ts (a market's body:
 *   4.9 KB of JSON, about 0.55 KB stored).
 *
 * Pure: no I/O.
 */
import { packText, unpackText } from './content-codec.ts';

/** A record kind with its shared parts, in the order of their `<part>_id` columns. */
export interface RecordLayout<P extends string> {
  parts: readonly P[];
}

export const MARKET_LAYOUT = {
  parts: ['field_provenance', 'eligibility_screens', 'resolution_source_list'],
} as const satisfies RecordLayout<string>;

export const EVENT_LAYOUT = { parts: ['field_provenance'] } as const satisfies RecordLayout<string>;

/** A record split for storage: the packed body and, per part, its JSON text (null when the record lacks it). */
export interface SplitRecord<P extends string> {
  body: Buffer;
  parts: Record<P, string | null>;
}

/**
 * Splits `record` by `layout`. A part whose value is undefined (or missing) is left out of the body and gets no
 * content, so it stays absent when read back, as it did through JSON.
 * @example splitRecord({ a: 1, field_provenance: {} }, EVENT_LAYOUT).parts.field_provenance // '{}'
 */
export function splitRecord<P extends string>(record: object, layout: RecordLayout<P>): SplitRecord<P> {
  const source = record as Record<string, unknown>;
  const rest: Record<string, unknown> = { ...source };
  const parts = {} as Record<P, string | null>;
  for (const part of layout.parts) {
    const text = source[part] === undefined ? undefined : JSON.stringify(source[part]);
    parts[part] = text ?? null;
    if (text !== undefined) rest[part] = null;
  }
  return { body: packText(JSON.stringify(rest)), parts };
}

/**
 * The record `splitRecord` was given: the body with each part put back in its place. `parts` holds each part's
 * value, undefined for a part the record lacked.
 */
export function joinRecord<T, P extends string>(
  body: Uint8Array,
  parts: Record<P, unknown>,
  layout: RecordLayout<P>,
): T {
  const record = JSON.parse(unpackText(body)) as Record<string, unknown>;
  for (const part of layout.parts) {
    const value = parts[part];
    if (value !== undefined) record[part] = value;
  }
  return record as T;
}

/** The id column of a part. */
export function partColumn<P extends string>(part: P): `${P}_id` {
  return `${part}_id`;
}
