// Crypto markets map to simple-price coin ids by name, ticker word or venue_a ticker prefix, and nothing else does.
import { describe, expect, it } from 'vitest';
import { coinOf, coinsReferenced } from '../../src/signals/index.ts';
import { makeMarket } from '../support/records.ts';

describe('coinOf', () => {
  it.each([
    ['Will Bitcoin be above $100,000?', 'X-1', 'bitcoin'],
    ['BTC above 100k on Friday?', 'X-2', 'bitcoin'],
    ['Will ETH hit $5,000?', 'X-3', 'ethereum'],
    ['Solana price on June 30?', 'X-4', 'solana'],
    ['Will XRP reach $3?', 'X-5', 'ripple'],
    ['Ripple above $2?', 'X-6', 'ripple'],
    ['DOGE above 50 cents?', 'X-7', 'dogecoin'],
    ['Cardano (ADA) above $1?', 'X-8', 'cardano'],
    ['Price range on Friday?', 'KXETHD-26JUN30-T2500', 'ethereum'],
  ])('%s → %s', (question, ticker, coin) => {
    expect(coinOf(makeMarket({ question_raw: question, native: ticker }))).toBe(coin);
  });

  it('leaves other markets alone', () => {
    expect(coinOf(makeMarket({ question_raw: 'Will the Fed cut rates?', native: 'KXFED-26' }))).toBeNull();
    expect(coinOf(makeMarket({ question_raw: 'Will Solano County pass Measure A?', native: 'KXSOLANO' }))).toBeNull();
  });

  it('reads a text naming two coins coin by coin, in their listed order, not by which it names first', () => {
    expect(coinOf(makeMarket({ question_raw: 'Will ETH outperform BTC this year?', native: 'X-9' }))).toBe('bitcoin');
    expect(coinOf(makeMarket({ question_raw: 'ADA or DOGE: which ends higher?', native: 'X-10' }))).toBe('dogecoin');
  });

  it('lists the distinct referenced coins, sorted', () => {
    const ms = ['ETH above 3k?', 'Bitcoin up?', 'BTC down?', 'Fed cut?'].map((q, i) =>
      makeMarket({ question_raw: q, native: `M-${i}` }),
    );
    expect(coinsReferenced(ms)).toEqual(['bitcoin', 'ethereum']);
  });
});
