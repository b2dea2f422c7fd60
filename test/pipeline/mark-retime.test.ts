// A mark re-timed from the last run's mark of an unchanged quote equals the mark the quote itself gives at the new clock,
// but for its raw payload, which the run keeps where the store holds it (by content id: run.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mark } from '../../src/domain/index.ts';
import { movedInDay, retimeMark } from '../../src/pipeline/mark-retime.ts';
import { markFromQuote, type QuoteInput } from '../../src/pipeline/marks.ts';
import { makeMarket } from '../support/records.ts';

const T1 = '2026-03-01T12:00:00.000Z';

const price = fc.oneof(fc.constant(null), fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.constant(Number.NaN));
const usd = fc.oneof(fc.constant(null), fc.double({ min: -100, max: 1e7, noNaN: true }));
const quoteArb: fc.Arbitrary<QuoteInput> = fc.record({
  yes_bid: price,
  yes_ask: price,
  no_bid: price,
  no_ask: price,
  yes_bid_size_usd: usd,
  yes_ask_size_usd: usd,
  no_bid_size_usd: usd,
  no_ask_size_usd: usd,
  last_price: price,
  volume_24h_usd: usd,
  volume_total_usd: usd,
  open_interest_usd: usd,
  source_updated_at: fc.oneof(
    fc.constant(null),
    fc.constant('not a time'),
    fc.constant(T1),
    fc.integer({ min: 0, max: 48 * 60 }).map((min) => new Date(Date.parse(T1) - min * 60_000).toISOString()),
  ),
  provenance: fc.constantFrom(
    {},
    { yes_bid: { source: 'platform_api' } },
    { source_updated_at: { source: 'imputed' } },
  ),
  raw: fc.constantFrom({ ticker: 'KXTEST-26-T1', yes_bid_dollars: '0.5100' }, 'not a record' as unknown as object),
}) as fc.Arbitrary<QuoteInput>;

/** One binary quote with a bid, an ask and a last price, updated by the venue at `updatedAt` (null: no time given). */
function fixedQuote(updatedAt: string | null): QuoteInput {
  return {
    yes_bid: 0.5,
    yes_ask: 0.52,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    last_price: 0.51,
    volume_24h_usd: 10,
    volume_total_usd: 100,
    open_interest_usd: null,
    source_updated_at: updatedAt,
    provenance: { yes_bid: { source: 'platform_api' } },
    raw: { a: 1 },
  };
}

describe('retimeMark', () => {
  it('gives what markFromQuote gives for the same quote at the later clock', () => {
    fc.assert(
      fc.property(
        quoteArb,
        fc.integer({ min: 1, max: 72 }),
        fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })),
        fc.constantFrom('binary', 'scalar'),
        (quote, hours, primaryPrice, contract) => {
          const market = makeMarket({ contract_type: contract as 'binary' });
          const t2 = new Date(Date.parse(T1) + hours * 3_600_000).toISOString();
          const previous: Mark = { mark_id: 7, ...markFromQuote(market, quote, { now: T1, primaryPrice }) };
          // Through JSON, as a stored mark comes back, and without its raw payload (latestMarkFacts).
          const { raw_payload: _raw, ...stored } = JSON.parse(JSON.stringify(previous)) as Mark;
          const direct = markFromQuote(market, quote, { now: t2, primaryPrice });
          const expected = JSON.parse(JSON.stringify({ ...direct, raw_payload: null }));
          expect(JSON.parse(JSON.stringify(retimeMark(market, stored, t2, primaryPrice)))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the field order markFromQuote writes', () => {
    const market = makeMarket();
    const quote = fixedQuote(null);
    const t2 = '2026-03-01T15:00:00.000Z';
    const previous: Mark = { mark_id: 1, ...markFromQuote(market, quote, { now: T1, primaryPrice: null }) };
    const retimed = retimeMark(market, previous, t2, null);
    const direct = markFromQuote(market, quote, { now: t2, primaryPrice: null });
    expect(JSON.stringify(retimed)).toBe(JSON.stringify({ ...direct, raw_payload: null }));
    expect(retimed.source_updated_at).toBe(t2);
  });

  it("shares the previous mark's provenance object when it is unchanged, and builds a new one when it is not", () => {
    const market = makeMarket();
    const quote = fixedQuote('2026-03-01T11:00:00.000Z');
    const { raw_payload: _raw, ...previous } = markFromQuote(market, quote, { now: T1, primaryPrice: null });
    const stored = { mark_id: 3, ...previous, field_provenance: Object.freeze({ ...previous.field_provenance }) };
    expect(retimeMark(market, stored, '2026-03-01T15:00:00.000Z', null).field_provenance).toBe(stored.field_provenance);
    // A scalar market's implied probability has another provenance note: a new object, not the stored one.
    const scalar = retimeMark(makeMarket({ contract_type: 'scalar' }), stored, '2026-03-01T15:00:00.000Z', null);
    expect(scalar.field_provenance).not.toBe(stored.field_provenance);
    expect(scalar.field_provenance.implied_probability?.note).toMatch(/scalar/);
  });

  it('says a re-timed mark moved within its day only when nothing but its time fields changed', () => {
    const market = makeMarket();
    const quote = fixedQuote('2026-03-01T11:00:00.000Z');
    const { raw_payload: _raw, ...facts } = markFromQuote(market, quote, { now: T1, primaryPrice: 0.4 });
    const previous = { mark_id: 9, ...facts };
    const later = retimeMark(market, previous, '2026-03-01T18:00:00.000Z', 0.4);
    expect(later.stale_flag).toBe(true);
    expect(movedInDay(later, previous)).toBe(true);
    // Another day, another primary price (divergence moves), another provenance object: not a move in place.
    expect(movedInDay(retimeMark(market, previous, '2026-03-02T01:00:00.000Z', 0.4), previous)).toBe(false);
    expect(movedInDay(retimeMark(market, previous, '2026-03-01T18:00:00.000Z', 0.3), previous)).toBe(false);
    expect(movedInDay({ ...later, field_provenance: { ...later.field_provenance } }, previous)).toBe(false);
  });
});
