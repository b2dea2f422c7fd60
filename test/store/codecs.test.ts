// The storage codecs of migration 0006 are exact: any mark split into typed columns and joined again (by both the
// general and the fast path) equals what its JSON record gave back before (every number bit for bit, key order
// kept); a number is stored scaled only when that is exact; packed texts unpack to themselves; a record split into
// body and shared parts joins back to itself.
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewMark } from '../../src/domain/index.ts';
import { contentHash, MIN_DEFLATE_CHARS, packText, unpackText } from '../../src/store/content-codec.ts';
import dictionaryJson from '../../src/store/content-dictionary.json' with { type: 'json' };
import { freezeJson } from '../../src/store/content-store.ts';
import {
  decodeScaled,
  encodeScaled,
  joinMark,
  joinMarkValues,
  MARK_COLUMN_NAMES,
  type MarkRow,
  markTimeColumns,
  splitMark,
} from '../../src/store/mark-codec.ts';
import { joinRecord, MARKET_LAYOUT, splitRecord } from '../../src/store/record-codec.ts';
import { oddMarks } from './contract-typed.ts';
import { makeMark, makeMarket } from './records.ts';

/** Numbers with their exact bits, -0 apart from 0, so toEqual compares bit patterns. */
function bits(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : value.toString(36);
  if (Array.isArray(value)) return value.map(bits);
  if (typeof value === 'object' && value !== null) return Object.entries(value).map(([k, v]) => [k, bits(v)]);
  return value;
}

/** What the store returned for a mark before 0006: its JSON record parsed. */
const viaJson = (mark: unknown) => JSON.parse(JSON.stringify(mark)) as unknown;

/** Both decoding paths of a split mark, as the store reads it (content texts parsed). */
function roundTrips(mark: NewMark): unknown[] {
  const { row, raw, provenance } = splitMark(mark);
  const value = provenance === null ? undefined : JSON.parse(provenance);
  const values = MARK_COLUMN_NAMES.map((name) => row[name]);
  return [
    joinMark(row, raw, value === undefined ? undefined : structuredClone(value)),
    joinMarkValues(values, 0, raw, value === undefined ? undefined : structuredClone(value)),
    joinMarkValues([42, ...values], 1, raw, value, 42),
  ];
}

const numberArb = fc.oneof(
  fc.double(),
  fc.integer({ min: -1e6, max: 1e6 }).map((k) => k / 1e6),
  fc.integer({ min: 0, max: 1e12 }).map((k) => k / 100),
  fc.constantFrom(0.1 + 0.2, 1e-7, 5e-324, -0, 2 ** 53, 2 ** 60, Number.MAX_SAFE_INTEGER, 1e21, Number.NaN),
);
const timeArb = fc.oneof(
  fc
    .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom('2026-03-01T12:00:00+02:00', '2026-03-01T12:00:00Z', '2026-03-01', 'not a time', ''),
);
const jsonArb = fc.jsonValue().map(viaJson);

const markArb = fc
  .record({
    date: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
    at: timeArb,
    updated: timeArb,
    numbers: fc.array(fc.option(numberArb, { nil: null }), { minLength: 17, maxLength: 17 }),
    method: fc.constantFrom('venue_snapshot', 'imputed_carry_forward', 'editorial_override', 'other'),
    stale: fc.oneof(fc.boolean(), fc.constant('yes')),
    count: fc.oneof(fc.nat(), fc.double(), fc.constant(-0)),
    raw: fc.option(fc.dictionary(fc.string(), jsonArb), { nil: null }),
    provenance: fc.dictionary(fc.string(), fc.record({ source: fc.string(), note: fc.string() })),
    drop: fc.subarray(['spread', 'raw_payload', 'field_provenance', 'yes_bid']),
    extra: fc.option(jsonArb, { nil: undefined }),
    shuffle: fc.boolean(),
  })
  .map((p) => {
    const date = p.date.toISOString().slice(0, 10);
    const at = p.at.length === 24 ? `${date}${p.at.slice(10)}` : p.at;
    const names = [
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
      'spread',
      'mid',
      'divergence_from_primary',
      'hours_since_source_update',
    ];
    const mark: Record<string, unknown> = {
      ...makeMark(0, date),
      snapshot_at: at,
      source_updated_at: p.updated,
      mark_method: p.method,
      stale_flag: p.stale,
      source_count: p.count,
      raw_payload: p.raw,
      field_provenance: p.provenance,
    };
    names.forEach((name, i) => {
      mark[name] = p.numbers[i];
    });
    for (const key of p.drop) delete mark[key];
    if (p.extra !== undefined) mark.extra = p.extra;
    const entries = Object.entries(mark);
    return Object.fromEntries(p.shuffle ? entries.reverse() : entries) as unknown as NewMark;
  });

describe('mark codec', () => {
  it('round-trips any mark exactly as its JSON record did, by both paths', () => {
    fc.assert(
      fc.property(markArb, (mark) => {
        const expected = bits(viaJson(mark));
        for (const read of roundTrips(mark).slice(0, 2)) expect(bits(read)).toEqual(expected);
        expect(bits(roundTrips(mark)[2])).toEqual(bits({ mark_id: 42, ...(viaJson(mark) as object) }));
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips the contract odd marks and keeps pipeline marks out of overflow', () => {
    for (const mark of oddMarks()) {
      const [general, fast, withId] = roundTrips(mark);
      expect(bits(general)).toEqual(bits(mark));
      expect(bits(fast)).toEqual(bits(mark));
      expect(bits(withId)).toEqual(bits({ mark_id: 42, ...mark }));
    }
    const canonical = makeMark(0, '2026-03-01', {
      snapshot_at: '2026-03-01T23:00:00.000Z',
      source_updated_at: '2026-03-01T22:58:30.000Z',
    });
    const { row } = splitMark(canonical);
    expect(row.overflow).toBeNull();
    expect(row).toMatchObject<Partial<MarkRow>>({
      snapshot_offset_ms: 23 * 3_600_000,
      source_lag_ms: 90_000,
      yes_bid: 860_000,
      yes_bid_size_usd: 172_000,
      hours_since_source_update: 250,
      mark_method: 0,
      stale_flag: 0,
    });
    expect(splitMark(oddMarks()[1] as NewMark).row.overflow).not.toBeNull();
  });

  it('gives the time columns splitMark stores, for marks with MarkSchema keys in order and times in their columns', () => {
    const TIME = ['snapshot_offset_ms', 'source_lag_ms', 'stale_flag', 'hours_since_source_update'] as const;
    // Any mark (few have MarkSchema's keys in order), and marks that do, at any times of their day.
    const canonicalArb = fc
      .record({
        offset: fc.integer({ min: 0, max: 86_399_999 }),
        lag: fc.integer({ min: 0, max: 10 * 86_400_000 }),
        stale: fc.boolean(),
        hours: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1e4, noNaN: true })),
      })
      .map(({ offset, lag, stale, hours }) => {
        const at = Date.parse('2026-03-01T00:00:00.000Z') + offset;
        return makeMark(0, '2026-03-01', {
          snapshot_at: new Date(at).toISOString(),
          source_updated_at: new Date(at - lag).toISOString(),
          stale_flag: stale,
          hours_since_source_update: hours,
        });
      });
    let given = 0;
    fc.assert(
      fc.property(fc.oneof(markArb, canonicalArb), (mark) => {
        const time = markTimeColumns(mark);
        if (time === null) return;
        given++;
        const { row } = splitMark(mark);
        for (const column of TIME) expect(time[column]).toBe(row[column]);
        // The time fields did not go to overflow (what does is another field's business: the stored row's).
        const spilled = row.overflow === null ? [] : Object.keys((JSON.parse(row.overflow) as { v: object }).v);
        expect(
          spilled.filter((k) =>
            ['snapshot_at', 'source_updated_at', 'stale_flag', 'hours_since_source_update'].includes(k),
          ),
        ).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
    expect(given).toBeGreaterThan(500);
    const canonical = makeMark(0, '2026-03-01', {
      snapshot_at: '2026-03-01T23:00:00.000Z',
      source_updated_at: '2026-03-01T22:58:30.000Z',
    });
    expect(markTimeColumns(canonical)).toEqual({
      snapshot_offset_ms: 23 * 3_600_000,
      source_lag_ms: 90_000,
      stale_flag: 0,
      hours_since_source_update: 250,
    });
    expect(markTimeColumns({ ...canonical, snapshot_at: '2026-03-01T23:00:00Z' })).toBeNull();
    expect(markTimeColumns({ ...canonical, source_updated_at: null as unknown as string })).toBeNull();
    for (const mark of oddMarks()) if (markTimeColumns(mark) !== null) expect(splitMark(mark).row.overflow).toBeNull();
  });

  it('stores a number scaled exactly when it is exact at its scale, raw otherwise, else not at all', () => {
    expect(encodeScaled(0.87, 1e6)).toBe(870_000);
    expect(encodeScaled(0.1 + 0.2, 1e6)).toBe(0.1 + 0.2);
    expect(encodeScaled(1e-7, 1e6)).toBe(1e-7);
    expect(encodeScaled(2 ** 60, 1e2)).toBeUndefined();
    expect(encodeScaled(Number.NaN, 1e2)).toBeUndefined();
    expect(Object.is(encodeScaled(-0, 1e6), 0)).toBe(true);
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e2, 1e4, 1e6), (v, scale) => {
        const stored = encodeScaled(v, scale);
        if (stored !== undefined) expect(decodeScaled(stored, scale)).toBe(v === 0 ? 0 : v);
        else expect(Number.isInteger(v)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('content codec', () => {
  it('packs short texts plain and long ones deflated, and unpacks both to the same text', () => {
    const short = '{"t":1772323200,"p":0.0355}';
    expect(packText(short)[0]).toBe(0);
    const market = JSON.stringify(makeMarket(0));
    expect(market.length).toBeGreaterThan(MIN_DEFLATE_CHARS);
    const packed = packText(market);
    expect(packed[0]).toBe(1);
    expect(packed.length).toBeLessThan(market.length / 3);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2_000 }), (text) => {
        expect(unpackText(packText(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
    expect(unpackText(packText(market))).toBe(market);
    expect(() => unpackText(Buffer.from([9, 1, 2]))).toThrow(/unknown codec 9/);
    expect(contentHash(market)).toBe(contentHash(`${market}`));
    expect(Number.isSafeInteger(contentHash(market))).toBe(true);
    expect(contentHash(market)).not.toBe(contentHash(short));
  });

  it('reads rows deflated at any zlib level (stores written before the level changed)', () => {
    const market = JSON.stringify(makeMarket(1));
    const dictionary = Buffer.from(dictionaryJson.parts.join('\n'), 'utf8');
    for (const level of [1, 6, 9]) {
      const row = Buffer.concat([Buffer.of(1), deflateRawSync(Buffer.from(market), { dictionary, level })]);
      expect(unpackText(row), `level ${level}`).toBe(market);
    }
  });

  it('freezes parsed values all the way down, unchanged, own "__proto__" keys included', () => {
    const text = '{"b":1,"a":[{"x":null}],"__proto__":{"p":2},"2":"two"}';
    const value = freezeJson(JSON.parse(text) as { a: { x: null }[]; ['__proto__']: { p: number } });
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(Object.isFrozen(Object.getOwnPropertyDescriptor(value, '__proto__')?.value)).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(() => {
      (value.a as unknown[]).push(1);
    }).toThrow(TypeError);
  });
});

describe('record codec', () => {
  it('splits a market into a packed body and its shared parts, and joins it back in its own key order', () => {
    const market = makeMarket(3);
    const { body, parts } = splitRecord(market, MARKET_LAYOUT);
    expect(parts.field_provenance).toBe(JSON.stringify(market.field_provenance));
    expect(unpackText(body)).not.toContain('canon.fed-decision');
    const values = {
      field_provenance: JSON.parse(parts.field_provenance ?? 'null'),
      eligibility_screens: JSON.parse(parts.eligibility_screens ?? 'null'),
      resolution_source_list: JSON.parse(parts.resolution_source_list ?? 'null'),
    };
    expect(JSON.stringify(joinRecord(body, values, MARKET_LAYOUT))).toBe(JSON.stringify(market));

    const { field_provenance: _f, ...without } = market;
    const split = splitRecord(without, MARKET_LAYOUT);
    expect(split.parts.field_provenance).toBeNull();
    const joined = joinRecord(split.body, { ...values, field_provenance: undefined }, MARKET_LAYOUT);
    expect(JSON.stringify(joined)).toBe(JSON.stringify(without));
  });
});
