// A market's own fee terms come from what its venue sends: venue_a's series fee_type / fee_multiplier (the general
// quadratic table at the series' multiplier; a flat or unknown type cannot be priced), venue_b's market feesEnabled
// (false: no fee; true: a fee pmref cannot price), and nothing when the venue sends no fee fields.
import { describe, expect, it } from 'vitest';
import { MarketFeeTermsSchema } from '../../src/domain/index.ts';
import { seriesFeeTerms } from '../../src/venues/venue-a/normalize.ts';
import type { VenueASeries } from '../../src/venues/venue-a/schemas.ts';
import { marketFeeTerms } from '../../src/venues/venue-b/normalize.ts';
import type { VenueBMarket } from '../../src/venues/venue-b/schemas.ts';

const series = (fields: Record<string, unknown>): VenueASeries => ({ ticker: 'KXTEST', ...fields }) as VenueASeries;
const gamma = (fields: Record<string, unknown>): VenueBMarket => ({ conditionId: '0xabc', ...fields }) as VenueBMarket;

describe('venue_a series fee terms', () => {
  it('quadratic and quadratic_with_maker_fees price takers at the series multiplier (1 when absent)', () => {
    expect(seriesFeeTerms(series({ fee_type: 'quadratic', fee_multiplier: 1 }))).toEqual({
      taker_multiplier: 1,
      basis: 'venue_series',
      venue_fields: { fee_type: 'quadratic', fee_multiplier: 1 },
    });
    expect(
      seriesFeeTerms(series({ fee_type: 'quadratic_with_maker_fees', fee_multiplier: 0.5 }))?.taker_multiplier,
    ).toBe(0.5);
    expect(seriesFeeTerms(series({ fee_type: 'quadratic' }))?.taker_multiplier).toBe(1);
    expect(seriesFeeTerms(series({ fee_type: 'quadratic', fee_multiplier: '0.5' }))?.taker_multiplier).toBe(0.5);
  });

  it('a flat or unknown fee type, or a multiplier that is not a number, cannot be priced', () => {
    expect(seriesFeeTerms(series({ fee_type: 'flat', fee_multiplier: 1 }))?.taker_multiplier).toBeNull();
    expect(seriesFeeTerms(series({ fee_type: 'tiered_2027', fee_multiplier: 1 }))?.taker_multiplier).toBeNull();
    const odd = seriesFeeTerms(series({ fee_type: 'quadratic', fee_multiplier: 'half' }));
    expect(odd?.taker_multiplier).toBeNull();
    expect(odd?.venue_fields.fee_multiplier).toBe('half');
  });

  it('no series, or a series without a fee type: no terms (the venue schedule applies)', () => {
    expect(seriesFeeTerms(null)).toBeNull();
    expect(seriesFeeTerms(series({ fee_multiplier: 1 }))).toBeNull();
  });
});

describe('venue_b market fee terms', () => {
  it('feesEnabled false is no taker fee; true is a fee that cannot be priced, with the venue fields kept', () => {
    expect(marketFeeTerms(gamma({ feesEnabled: false }))).toEqual({
      taker_multiplier: 0,
      basis: 'venue_market',
      venue_fields: { feesEnabled: false },
    });
    expect(marketFeeTerms(gamma({ feesEnabled: true, takerBaseFee: 1000, feeType: 'crypto_15_min' }))).toEqual({
      taker_multiplier: null,
      basis: 'venue_market',
      venue_fields: { feesEnabled: true, takerBaseFee: 1000, feeType: 'crypto_15_min' },
    });
  });

  it('no feesEnabled: no terms', () => {
    expect(marketFeeTerms(gamma({}))).toBeNull();
    expect(marketFeeTerms(gamma({ takerBaseFee: 0 }))).toBeNull();
  });

  it('every result fits the served schema', () => {
    for (const t of [
      marketFeeTerms(gamma({ feesEnabled: true, takerBaseFee: '1000' })),
      seriesFeeTerms(series({ fee_type: 'flat' })),
    ])
      expect(MarketFeeTermsSchema.safeParse(t).success).toBe(true);
  });
});
