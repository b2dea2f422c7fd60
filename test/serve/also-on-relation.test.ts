// A served market's also_on keeps each item's relation and differences (issue 16), prices the item from the twin's latest mark, and validates against the served schema; an item stored before issue 16 is served without them.
import { describe, expect, it } from 'vitest';
import { blankMarket, type Market, ServedMarketSchema } from '../../src/domain/index.ts';
import { priceFacts, servedMarket } from '../../src/serve/serialize.ts';

const NOW = '2026-03-02T00:00:00.000Z';

describe('served also_on', () => {
  it('passes relation and differences through and takes the price from the latest mark', () => {
    const a = blankMarket('venue_a', 'KXPRESPERSON-28-JVAN', NOW);
    const b = blankMarket('venue_b', '0xvance', NOW);
    const old = blankMarket('venue_b', '0xold', NOW);
    const market: Market = {
      ...a,
      also_on: [
        {
          venue: 'venue_b',
          market_id: b.market_id,
          price: 0.2,
          relation: 'related',
          differences: [{ type: 'resolves_on', venue_a: 'inauguration', venue_b: 'election_call' }],
        },
        { venue: 'venue_b', market_id: old.market_id, price: 0.3 },
      ],
    };
    const served = servedMarket(market, priceFacts(undefined), (id) => (id === b.market_id ? 0.25 : null), {
      now: NOW,
      log: undefined,
    });
    expect(served.also_on).toEqual([
      {
        venue: 'venue_b',
        market_id: b.market_id,
        price: 0.25,
        relation: 'related',
        differences: [{ type: 'resolves_on', venue_a: 'inauguration', venue_b: 'election_call' }],
      },
      { venue: 'venue_b', market_id: old.market_id, price: 0.3 },
    ]);
    expect(() => ServedMarketSchema.parse(served)).not.toThrow();
  });
});
