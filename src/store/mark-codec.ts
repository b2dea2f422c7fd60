/**
 * A mark as typed columns (issue 18, migration 0006): one column per field of MarkSchema, stored so that every
 * value reads back exactly (numbers bit-identical, strings identical) in about 110 bytes a row instead of a
 * 2.4 KB JSON record.
 *
 * - Prices and probabilities are stored as k = round(v × 1e6) when k / 1e6 === v (IEEE division is correctly
 *   rounded, so this holds for every decimal of up to 6 places), USD at 1e2, hours at 1e4. Both engines keep
 *   them in `double precision`; SQLite writes an integer-valued REAL to disk as a 1–4 byte integer. A value
 *   that does not round-trip at its scale is stored raw: it is then necessarily not an integer, so reading is
 *   unambiguous (an integer is scaled, anything else is raw).
 * - `snapshot_at` is stored as milliseconds after `snapshot_date` 00:00Z (0 bytes for a daily candle's close,
 *   4 for any other time of that day) and `source_updated_at` as milliseconds before `snapshot_at` (0 bytes
 *   for history marks), each only when the text is exactly `new Date(ms).toISOString()`.
 * - `mark_method` is a code from a frozen list, `stale_flag` 0/1.
 * - `raw_payload` and `field_provenance` are JSON texts kept once per distinct content in the `content` table
 *   (content-store.ts); the row holds their ids.
 * - Anything else (another timestamp spelling such as '2026-03-01T12:00:00+02:00', an integer too large for its
 *   scale, a value of an unexpected type, a key MarkSchema does not have, another key order) goes to
 *   `overflow`, a JSON text that is null for every mark the pipeline writes: `{"v": {field: value}, "k": [keys]}`,
 *   `k` only when the keys differ from the canonical order. Values there round-trip as JSON, exactly as the
 *   JSON record did before (a non-finite number reads back null, -0 reads back 0).
 *
 * Pure: no I/O. The column list is the shape migration 0006 creates for `marks` and `staged_marks`; changing it
 * needs a new migration (with a frozen copy of this list in 0006 first).
 */
import { MARK_FIGURE_FIELDS, type MarkFigures, markFiguresOf, type NewMark } from '../domain/index.ts';

export type MarkColumnType = 'text' | 'bigint' | 'double precision' | 'smallint' | 'integer';

/** One stored mark without its key (`marks.mark_id`) or run (`staged_marks.run_id`). */
export interface MarkRow {
  market_id: string;
  snapshot_date: string;
  /** snapshot_at as milliseconds after snapshot_date 00:00:00.000Z. */
  snapshot_offset_ms: number | null;
  /** source_updated_at as milliseconds before snapshot_at. */
  source_lag_ms: number | null;
  yes_bid: number | null;
  yes_ask: number | null;
  no_bid: number | null;
  no_ask: number | null;
  yes_bid_size_usd: number | null;
  yes_ask_size_usd: number | null;
  no_bid_size_usd: number | null;
  no_ask_size_usd: number | null;
  yes_last_price: number | null;
  implied_probability: number | null;
  volume_24h_usd: number | null;
  volume_total_usd: number | null;
  open_interest_usd: number | null;
  /** Index into MARK_METHOD_CODES. */
  mark_method: number | null;
  stale_flag: number | null;
  source_count: number | null;
  raw_payload_id: number | null;
  spread: number | null;
  mid: number | null;
  divergence_from_primary: number | null;
  hours_since_source_update: number | null;
  /** Null only when the mark had no field_provenance key at all. */
  field_provenance_id: number | null;
  overflow: string | null;
}

export interface MarkColumn {
  name: keyof MarkRow;
  type: MarkColumnType;
  notNull?: true;
}

const PROB = 1e6;
const USD = 1e2;
const HOURS = 1e4;

/** The numeric fields stored scaled, each in the column of its name. */
const SCALED: ReadonlyArray<readonly [keyof MarkRow & keyof NewMark, number]> = [
  ['yes_bid', PROB],
  ['yes_ask', PROB],
  ['no_bid', PROB],
  ['no_ask', PROB],
  ['yes_bid_size_usd', USD],
  ['yes_ask_size_usd', USD],
  ['no_bid_size_usd', USD],
  ['no_ask_size_usd', USD],
  ['yes_last_price', PROB],
  ['implied_probability', PROB],
  ['volume_24h_usd', USD],
  ['volume_total_usd', USD],
  ['open_interest_usd', USD],
  ['spread', PROB],
  ['mid', PROB],
  ['divergence_from_primary', PROB],
  ['hours_since_source_update', HOURS],
];
const SCALE_OF = new Map<string, number>(SCALED);

/** The typed mark columns, in table order (migration 0006). */
export const MARK_COLUMNS: readonly MarkColumn[] = [
  { name: 'market_id', type: 'text', notNull: true },
  { name: 'snapshot_date', type: 'text', notNull: true },
  { name: 'snapshot_offset_ms', type: 'bigint' },
  { name: 'source_lag_ms', type: 'bigint' },
  ...SCALED.slice(0, 13).map(([name]) => ({ name, type: 'double precision' as const })),
  { name: 'mark_method', type: 'smallint' },
  { name: 'stale_flag', type: 'smallint' },
  { name: 'source_count', type: 'integer' },
  { name: 'raw_payload_id', type: 'bigint' },
  ...SCALED.slice(13).map(([name]) => ({ name, type: 'double precision' as const })),
  { name: 'field_provenance_id', type: 'bigint' },
  { name: 'overflow', type: 'text' },
];

export const MARK_COLUMN_NAMES: readonly (keyof MarkRow)[] = MARK_COLUMNS.map((c) => c.name);

/** Frozen: a code's meaning never changes. A method not listed is kept in `overflow`. */
const MARK_METHOD_CODES = ['venue_snapshot', 'imputed_carry_forward', 'editorial_override'] as const;

/** A mark's keys in MarkSchema order (without mark_id), the order the pipeline builds marks in. */
const CANONICAL_KEYS = [
  'market_id',
  'snapshot_date',
  'snapshot_at',
  'source_updated_at',
  'yes_bid',
  'yes_ask',
  'no_bid',
  'no_ask',
  'yes_bid_size_usd',
  'yes_ask_size_usd',
  'no_bid_size_usd',
  'no_ask_size_usd',
  'yes_last_price',
  'implied_probability',
  'volume_24h_usd',
  'volume_total_usd',
  'open_interest_usd',
  'mark_method',
  'stale_flag',
  'source_count',
  'raw_payload',
  'spread',
  'mid',
  'divergence_from_primary',
  'hours_since_source_update',
  'field_provenance',
] as const satisfies readonly (keyof NewMark)[];
const CANONICAL = new Set<string>(CANONICAL_KEYS);

/** A mark split for storage: its row (content ids still to be filled in) and the two JSON texts kept as content. */
export interface SplitMark {
  row: MarkRow;
  /** JSON text of raw_payload, or null when it is null or absent. */
  raw: string | null;
  /** JSON text of field_provenance, or null when absent. */
  provenance: string | null;
}

/** The value stored in a scaled column, or undefined when only `overflow` can keep it exactly. */
export function encodeScaled(value: number, scale: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  const v = value === 0 ? 0 : value; // -0 reads back as 0, as it did through JSON
  const k = Math.round(v * scale);
  if (Number.isSafeInteger(k) && k / scale === v) return k;
  return Number.isInteger(v) ? undefined : v;
}

export function decodeScaled(stored: number, scale: number): number {
  return Number.isInteger(stored) ? stored / scale : stored;
}

let lastCanonical = '';
let lastCanonicalMs: number | undefined;

/**
 * Milliseconds of an ISO timestamp spelled exactly as `toISOString()` spells them, else undefined. Remembers the
 * last answer: marks come in batches where most share their times.
 */
function canonicalMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (value === lastCanonical) return lastCanonicalMs;
  const ms = Date.parse(value);
  lastCanonical = value;
  lastCanonicalMs = Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : undefined;
  return lastCanonicalMs;
}

/** Midnight UTC of a snapshot date, the origin of snapshot_offset_ms. */
function dayStartMs(date: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00.000Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Splits a mark (its `mark_id`, if any, is ignored: the store assigns keys) into its typed row and its two
 * content texts. Throws when market_id or snapshot_date is not a string (they are keys). `texts`: see jsonOf.
 */
export function splitMark(mark: NewMark, texts?: WeakMap<object, string>): SplitMark {
  const source = mark as unknown as Record<string, unknown>;
  const { market_id: marketId, snapshot_date: date } = source;
  if (typeof marketId !== 'string' || typeof date !== 'string') {
    throw new TypeError('a mark needs string market_id and snapshot_date');
  }
  const row: MarkRow = {
    market_id: marketId,
    snapshot_date: date,
    snapshot_offset_ms: null,
    source_lag_ms: null,
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: null,
    implied_probability: null,
    volume_24h_usd: null,
    volume_total_usd: null,
    open_interest_usd: null,
    mark_method: null,
    stale_flag: null,
    source_count: null,
    raw_payload_id: null,
    spread: null,
    mid: null,
    divergence_from_primary: null,
    hours_since_source_update: null,
    field_provenance_id: null,
    overflow: null,
  };
  const overflow: Record<string, unknown> = {};
  let raw: string | null = null;
  let provenance: string | null = null;
  const keys = Object.keys(source).filter((key) => key !== 'mark_id' && source[key] !== undefined);

  const snapshotMs = canonicalMs(source.snapshot_at);
  const dayMs = dayStartMs(date);
  for (const key of keys) {
    const value = source[key];
    switch (key) {
      case 'market_id':
      case 'snapshot_date':
        break;
      case 'snapshot_at':
        if (snapshotMs !== undefined && dayMs !== undefined) row.snapshot_offset_ms = snapshotMs - dayMs;
        else overflow[key] = value;
        break;
      case 'source_updated_at': {
        const ms = canonicalMs(value);
        if (ms !== undefined && snapshotMs !== undefined && dayMs !== undefined) row.source_lag_ms = snapshotMs - ms;
        else overflow[key] = value;
        break;
      }
      case 'mark_method': {
        const code = (MARK_METHOD_CODES as readonly unknown[]).indexOf(value);
        if (code >= 0) row.mark_method = code;
        else overflow[key] = value;
        break;
      }
      case 'stale_flag':
        if (typeof value === 'boolean') row.stale_flag = value ? 1 : 0;
        else overflow[key] = value;
        break;
      case 'source_count':
        // -0 is stored as 0, as JSON kept it.
        if (Number.isSafeInteger(value) && Math.abs(value as number) <= 2 ** 31 - 1)
          row.source_count = (value as number) + 0;
        else overflow[key] = value;
        break;
      case 'raw_payload':
        if (value !== null) raw = JSON.stringify(value) ?? null;
        if (raw === null && value !== null) overflow[key] = value;
        break;
      case 'field_provenance':
        provenance = jsonOf(value, texts);
        if (provenance === null) overflow[key] = value;
        break;
      default: {
        const scale = SCALE_OF.get(key);
        if (scale === undefined) {
          overflow[key] = value;
          break;
        }
        if (value === null) break;
        const stored = typeof value === 'number' ? encodeScaled(value, scale) : undefined;
        if (stored === undefined) overflow[key] = value;
        else (row as unknown as Record<string, number>)[key] = stored;
      }
    }
  }
  const order = defaultOrder(overflow);
  const sameOrder = order.length === keys.length && order.every((key, i) => key === keys[i]);
  if (Object.keys(overflow).length > 0 || !sameOrder) {
    row.overflow = JSON.stringify(sameOrder ? { v: overflow } : { v: overflow, k: keys });
  }
  return { row, raw, provenance };
}

/** The columns a mark's time fields are stored in (StoreTx.retimeMarks rewrites only these). */
export type MarkTimeColumns = Pick<
  MarkRow,
  'snapshot_offset_ms' | 'source_lag_ms' | 'stale_flag' | 'hours_since_source_update'
>;

/**
 * What splitMark stores for a mark's time fields (snapshot_at, source_updated_at, stale_flag,
 * hours_since_source_update), or null unless the whole mark splits without `overflow` as far as its keys and its
 * time fields tell: its keys exactly MarkSchema's, in order, and each time field stored in its column.
 */
export function markTimeColumns(mark: NewMark): MarkTimeColumns | null {
  const keys = Object.keys(mark);
  if (keys.length !== CANONICAL_KEYS.length || keys.some((key, i) => key !== CANONICAL_KEYS[i])) return null;
  const snapshotMs = canonicalMs(mark.snapshot_at);
  const dayMs = typeof mark.snapshot_date === 'string' ? dayStartMs(mark.snapshot_date) : undefined;
  const sourceMs = canonicalMs(mark.source_updated_at);
  if (snapshotMs === undefined || dayMs === undefined || sourceMs === undefined) return null;
  if (typeof mark.stale_flag !== 'boolean') return null;
  const hours = mark.hours_since_source_update;
  const storedHours = typeof hours === 'number' ? encodeScaled(hours, HOURS) : hours === null ? null : undefined;
  if (storedHours === undefined) return null;
  return {
    snapshot_offset_ms: snapshotMs - dayMs,
    source_lag_ms: snapshotMs - sourceMs,
    stale_flag: mark.stale_flag ? 1 : 0,
    hours_since_source_update: storedHours,
  };
}

/**
 * JSON text of a value, null when it has none (undefined, a function). `texts` remembers objects already
 * serialized: the pipeline hands thousands of marks one provenance object (history-marks.ts), and one batch is
 * split synchronously, so an object cannot change between two of its marks.
 */
function jsonOf(value: unknown, texts: WeakMap<object, string> | undefined): string | null {
  if (texts === undefined || typeof value !== 'object' || value === null) return JSON.stringify(value) ?? null;
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** Splits a batch of marks (see splitMark), serializing each shared provenance object once. */
export function splitMarks(marks: readonly NewMark[]): SplitMark[] {
  const texts = new WeakMap<object, string>();
  return marks.map((mark) => splitMark(mark, texts));
}

/** The key order decoding produces without `k`: the canonical keys, then keys MarkSchema lacks, as kept. */
function defaultOrder(overflowValues: Record<string, unknown>): string[] {
  return [...CANONICAL_KEYS, ...Object.keys(overflowValues).filter((key) => !CANONICAL.has(key))];
}

/** A MarkRow from the values of a row read as an array, its columns in MARK_COLUMNS order from `offset`. */
export function markRowOf(values: readonly unknown[], offset: number): MarkRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < MARK_COLUMN_NAMES.length; i++) row[MARK_COLUMN_NAMES[i] as string] = values[offset + i] ?? null;
  return row as unknown as MarkRow;
}

/** Where each column sits in a row read as an array (before the offset). */
const AT = Object.fromEntries(MARK_COLUMN_NAMES.map((name, i) => [name, i])) as Record<keyof MarkRow, number>;

/** One-entry memos: marks are read in date order, and most of a date's marks share their times. */
let lastDate = '';
let lastDayMs: number | undefined;
let lastIsoMs = Number.NaN;
let lastIso = '';

function dayStartMsMemo(date: string): number | undefined {
  if (date !== lastDate) {
    lastDate = date;
    lastDayMs = dayStartMs(date);
  }
  return lastDayMs;
}

function isoOf(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIsoMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function scaledAt(values: readonly unknown[], at: number, scale: number): number | null {
  const stored = values[at];
  return stored === null || stored === undefined ? null : decodeScaled(Number(stored), scale);
}

/** The columns a mark's figures are read from (domain `MarkFigures`), in this order: `joinMarkFigures` reads them. */
export const MARK_FIGURE_COLUMN_NAMES: readonly (keyof MarkRow)[] = [...MARK_FIGURE_FIELDS, 'overflow'];
const FIG_AT = Object.fromEntries(MARK_FIGURE_COLUMN_NAMES.map((name, i) => [name, i])) as Record<
  (typeof MARK_FIGURE_COLUMN_NAMES)[number],
  number
>;

/**
 * A mark's figures (domain `MarkFigures`) from a row read as an array of MARK_FIGURE_COLUMN_NAMES from `offset`:
 * none of the times, provenance and payload the whole mark would carry is read or built. A row with overflow
 * takes the general path (its figure columns, the others null: no figure reads another column).
 */
export function joinMarkFigures(values: readonly unknown[], offset: number): MarkFigures {
  const v = values;
  const o = offset;
  if (v[o + FIG_AT.overflow] !== null) {
    const row: Record<string, unknown> = {};
    for (const name of MARK_COLUMN_NAMES) row[name] = null;
    MARK_FIGURE_COLUMN_NAMES.forEach((name, i) => {
      row[name] = v[o + i] ?? null;
    });
    const mark = joinMark(row as unknown as MarkRow, null, undefined, undefined);
    return markFiguresOf(mark);
  }
  const method = v[o + FIG_AT.mark_method];
  const stale = v[o + FIG_AT.stale_flag];
  return {
    market_id: v[o + FIG_AT.market_id] as string,
    snapshot_date: v[o + FIG_AT.snapshot_date] as string,
    yes_last_price: scaledAt(v, o + FIG_AT.yes_last_price, PROB),
    implied_probability: scaledAt(v, o + FIG_AT.implied_probability, PROB),
    volume_24h_usd: scaledAt(v, o + FIG_AT.volume_24h_usd, USD),
    yes_ask_size_usd: scaledAt(v, o + FIG_AT.yes_ask_size_usd, USD),
    no_ask_size_usd: scaledAt(v, o + FIG_AT.no_ask_size_usd, USD),
    // As joinMarkValues reads them (never null for a mark the schema accepts).
    mark_method: (method === null ? null : (MARK_METHOD_CODES[Number(method)] ?? null)) as MarkFigures['mark_method'],
    stale_flag: (stale === null ? null : Number(stale) === 1) as boolean,
  };
}

/**
 * `joinMark` over a row read as an array (its columns in MARK_COLUMNS order from `offset`), the way the store
 * reads marks. A row without overflow (every mark the pipeline writes) is built directly in canonical key order,
 * several times faster than the general path, which other rows take. `withoutRaw` leaves the raw_payload key out
 * (`raw` is then not looked at).
 */
export function joinMarkValues(
  values: readonly unknown[],
  offset: number,
  raw: string | null,
  provenance: unknown,
  markId?: number,
  withoutRaw = false,
): NewMark {
  if (values[offset + AT.overflow] !== null || provenance === undefined) {
    const mark = joinMark(markRowOf(values, offset), raw, provenance, markId);
    if (!withoutRaw) return mark;
    const { raw_payload: _raw, ...facts } = mark;
    return facts as NewMark;
  }
  const v = values;
  const o = offset;
  const dayMs = dayStartMsMemo(v[o + AT.snapshot_date] as string) ?? 0;
  const offsetMs = v[o + AT.snapshot_offset_ms];
  const lagMs = v[o + AT.source_lag_ms];
  const snapshotMs = offsetMs === null ? null : dayMs + Number(offsetMs);
  const method = v[o + AT.mark_method];
  const stale = v[o + AT.stale_flag];
  const count = v[o + AT.source_count];
  const mark: Record<string, unknown> = {
    mark_id: markId,
    market_id: v[o + AT.market_id],
    snapshot_date: v[o + AT.snapshot_date],
    snapshot_at: snapshotMs === null ? null : isoOf(snapshotMs),
    source_updated_at:
      snapshotMs === null || lagMs === null ? null : new Date(snapshotMs - Number(lagMs)).toISOString(),
    yes_bid: scaledAt(v, o + AT.yes_bid, PROB),
    yes_ask: scaledAt(v, o + AT.yes_ask, PROB),
    no_bid: scaledAt(v, o + AT.no_bid, PROB),
    no_ask: scaledAt(v, o + AT.no_ask, PROB),
    yes_bid_size_usd: scaledAt(v, o + AT.yes_bid_size_usd, USD),
    yes_ask_size_usd: scaledAt(v, o + AT.yes_ask_size_usd, USD),
    no_bid_size_usd: scaledAt(v, o + AT.no_bid_size_usd, USD),
    no_ask_size_usd: scaledAt(v, o + AT.no_ask_size_usd, USD),
    yes_last_price: scaledAt(v, o + AT.yes_last_price, PROB),
    implied_probability: scaledAt(v, o + AT.implied_probability, PROB),
    volume_24h_usd: scaledAt(v, o + AT.volume_24h_usd, USD),
    volume_total_usd: scaledAt(v, o + AT.volume_total_usd, USD),
    open_interest_usd: scaledAt(v, o + AT.open_interest_usd, USD),
    mark_method: method === null ? null : (MARK_METHOD_CODES[Number(method)] ?? null),
    stale_flag: stale === null ? null : Number(stale) === 1,
    source_count: count === null ? null : Number(count),
  };
  // Keys in canonical order; the raw payload's left out entirely when `withoutRaw` (no copy of the mark after).
  if (!withoutRaw) mark.raw_payload = raw === null ? null : JSON.parse(raw);
  mark.spread = scaledAt(v, o + AT.spread, PROB);
  mark.mid = scaledAt(v, o + AT.mid, PROB);
  mark.divergence_from_primary = scaledAt(v, o + AT.divergence_from_primary, PROB);
  mark.hours_since_source_update = scaledAt(v, o + AT.hours_since_source_update, HOURS);
  mark.field_provenance = provenance;
  if (markId === undefined) {
    const { mark_id: _none, ...staged } = mark;
    return staged as unknown as NewMark;
  }
  return mark as unknown as NewMark;
}

/**
 * The mark a row stores, its keys in the order it was written (`mark_id` first when given, as the store has
 * always served it). `raw` is the text of its raw payload's content (null when the id is null), `provenance` the
 * value of its field_provenance (undefined when the row has none).
 */
export function joinMark(row: MarkRow, raw: string | null, provenance: unknown, markId?: number): NewMark {
  const extra =
    row.overflow === null ? null : (JSON.parse(row.overflow) as { v: Record<string, unknown>; k?: string[] });
  const out: Record<string, unknown> = markId === undefined ? {} : { mark_id: markId };
  const keys = extra === null ? CANONICAL_KEYS : (extra.k ?? defaultOrder(extra.v));
  const dayMs = dayStartMs(row.snapshot_date) ?? 0;
  for (const key of keys) {
    if (extra !== null && Object.hasOwn(extra.v, key)) {
      out[key] = extra.v[key];
      continue;
    }
    switch (key) {
      case 'market_id':
        out[key] = row.market_id;
        break;
      case 'snapshot_date':
        out[key] = row.snapshot_date;
        break;
      case 'snapshot_at':
        out[key] = row.snapshot_offset_ms === null ? null : new Date(dayMs + row.snapshot_offset_ms).toISOString();
        break;
      case 'source_updated_at':
        out[key] =
          row.source_lag_ms === null || row.snapshot_offset_ms === null
            ? null
            : new Date(dayMs + row.snapshot_offset_ms - row.source_lag_ms).toISOString();
        break;
      case 'mark_method':
        out[key] = row.mark_method === null ? null : (MARK_METHOD_CODES[row.mark_method] ?? null);
        break;
      case 'stale_flag':
        out[key] = row.stale_flag === null ? null : row.stale_flag === 1;
        break;
      case 'source_count':
        out[key] = row.source_count;
        break;
      case 'raw_payload':
        out[key] = raw === null ? null : JSON.parse(raw);
        break;
      case 'field_provenance':
        if (provenance !== undefined) out[key] = provenance;
        break;
      default: {
        const scale = SCALE_OF.get(key);
        if (scale === undefined) break;
        const stored = (row as unknown as Record<string, number | null>)[key];
        out[key] = stored === null || stored === undefined ? null : decodeScaled(Number(stored), scale);
      }
    }
  }
  return out as unknown as NewMark;
}
