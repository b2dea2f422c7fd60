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
import { packPlain, packText, unpackText } from './content-codec.ts';

/** A record kind with its shared parts, in the order of their `<part>_id` columns. */
export interface RecordLayout<P extends string> {
  parts: readonly P[];
  /** Bodies kept plain (`packPlain`) rather than deflated when long enough (`packText`). */
  plain?: boolean;
}

export const MARKET_LAYOUT = {
  parts: ['field_provenance', 'eligibility_screens', 'resolution_source_list'],
} as const satisfies RecordLayout<string>;

/**
 * Event bodies are kept plain (issue 18). A pipeline run reads every stored event whole and writes about a quarter of
 * them in an hourly refresh, and an event's body is small (1.6 KB of JSON on average on the full simulated universe):
 * deflating and inflating one cost about 80 and 30–50 µs, mostly the preset dictionary's set-up, 0.2–0.4 s of a
 * refresh's CPU for about 7 MB of disk (3,860 events: 6.3 MB of bodies plain, 1.6 MB deflated; the events table 2.5 →
 * 9.5 MB). Rows stored deflated still read; migration 0010 rewrites them plain.
 */
export const EVENT_LAYOUT = { parts: ['field_provenance'], plain: true } as const satisfies RecordLayout<string>;

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
  const text = JSON.stringify(rest);
  return { body: layout.plain === true ? packPlain(text) : packText(text), parts };
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

/**
 * The fields of a stored market that the pipeline's catalog-wide stages read of every market in a run (linking,
 * screens, catalysts, the coins and benchmark-drift detectors, today's re-timed marks, editorial keys, the carry
 * forward): a market's catalog entry, stored beside its body (migration 0009) so that a run reads these without
 * inflating and parsing the whole record (about 1 of its 5 KB of JSON; measured in bench/README.md, fifteenth
 * and eighteenth passes). The shared parts (MARKET_LAYOUT) are not in it: they come from `content` as for a whole
 * record. A field read that is not here reads the whole record (lazy-market.ts), so this list only decides speed.
 */
export const MARKET_ENTRY_FIELDS = [
  'market_id',
  'platform',
  'platform_market_id',
  'event_id',
  'platform_event_id',
  'question_raw',
  'contract_type',
  'underlying_reference',
  'group_item_title',
  'close_at',
  'resolve_at',
  'status',
  'threshold',
  'direction',
  'settlement_style',
  'question_id',
  'tags',
  'first_seen_at',
  'also_on',
  'claim_key',
  'fee_terms',
] as const;

/**
 * The version of the entry's field list, written at the head of every entry. An entry of another version is not
 * used (its record is read whole), so a change to MARKET_ENTRY_FIELDS bumps this and needs no migration to be right
 * (only one that refills the entries, as 0009 fills them, to be fast again). The field mask holds 31 fields at most.
 */
export const MARKET_ENTRY_VERSION = 1;

const ENTRY_HEAD = `${MARKET_ENTRY_VERSION}\n`;

/**
 * A market's catalog entry as stored: the version, a newline, then a JSON array: a bit mask of the entry fields the
 * market has (bit i for MARKET_ENTRY_FIELDS[i]), then their values in that order (a field it lacks stays absent, as
 * in its record). An array rather than an object: the keys would be a fifth of the text, and a market row holding
 * its body and entry stays under half a 4 KB SQLite page, two rows to a page (bench/README.md, eighteenth pass).
 * @example marketEntryText({ market_id: 'm1', status: 'open' }) // '1\n[2049,"m1","open"]'
 */
export function marketEntryText(market: object): string {
  const source = market as Record<string, unknown>;
  const values: unknown[] = [0];
  let mask = 0;
  MARKET_ENTRY_FIELDS.forEach((field, i) => {
    if (source[field] === undefined) return;
    mask |= 1 << i;
    values.push(source[field]);
  });
  values[0] = mask;
  return ENTRY_HEAD + JSON.stringify(values);
}

/** The fields `marketEntryText` kept, in MARKET_ENTRY_FIELDS order, or null for an entry of another version (or none). */
export function parseMarketEntry(text: string | null): Record<string, unknown> | null {
  if (text === null || !text.startsWith(ENTRY_HEAD)) return null;
  const values = JSON.parse(text.slice(ENTRY_HEAD.length)) as unknown[];
  const mask = values[0] as number;
  const entry: Record<string, unknown> = {};
  let at = 1;
  for (let i = 0; i < MARKET_ENTRY_FIELDS.length; i++) {
    if ((mask & (1 << i)) !== 0) entry[MARKET_ENTRY_FIELDS[i] as string] = values[at++];
  }
  return entry;
}
