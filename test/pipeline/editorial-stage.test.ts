// A fresh record equal to the stored one except for bookkeeping timestamps counts as unchanged, whatever its key order.
import { describe, expect, it } from 'vitest';
import { sameMarket, sameRecord } from '../../src/pipeline/editorial-stage.ts';
import { makeMarket } from '../support/records.ts';

describe('sameRecord', () => {
  it('ignores key order and treats a missing key like an undefined one', () => {
    expect(sameRecord({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameRecord({ a: 1, u: undefined }, { a: 1 })).toBe(true);
  });

  it('sees every nested difference', () => {
    expect(sameRecord({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameRecord({ a: { b: null } }, { a: { b: 0 } })).toBe(false);
    expect(sameRecord({ a: [] }, { a: {} })).toBe(false);
  });
});

describe('sameMarket', () => {
  it('skips only first_seen_at and last_updated_at', () => {
    const m = makeMarket();
    const reordered = Object.fromEntries(Object.entries(m).reverse()) as typeof m;
    expect(
      sameMarket(m, { ...reordered, first_seen_at: '2030-01-01T00:00:00Z', last_updated_at: '2030-01-01T00:00:00Z' }),
    ).toBe(true);
    expect(sameMarket(m, { ...m, status: 'closed' })).toBe(false);
    expect(sameMarket(m, { ...m, field_provenance: { status: { source: 'platform_api' } } })).toBe(false);
  });
});
