// Editorial overrides: the checked-in file is valid, a bad entry fails loudly naming it, and a lock keeps the primary market against the volume rule.
import { describe, expect, it } from 'vitest';
import { CHECKED_IN_OVERRIDES, canonEvent, NO_OVERRIDES, parseOverrides } from '../../../src/editorial/canon/index.ts';
import { event, market, NOW } from './helpers.ts';

const good = {
  id: 'lock-fed',
  why: 'desk quotes this strike',
  target: { venue: 'venue_a', event: 'EVT-A' },
  primary_market: 'A-LOW',
  lock: true,
};

describe('parseOverrides', () => {
  it('accepts the checked-in file', () => {
    expect(CHECKED_IN_OVERRIDES.events.size + CHECKED_IN_OVERRIDES.markets.size).toBeGreaterThan(0);
  });

  it.each([
    [
      'lock without a primary market',
      { ...good, primary_market: undefined },
      /#1 \(id "bad"\).*lock needs primary_market/,
    ],
    ['unknown field', { ...good, colour: 'red' }, /#1 \(id "bad"\)/],
    [
      'no change at all',
      { id: 'bad', why: 'x', target: { venue: 'venue_a', market: 'T' } },
      /#1 \(id "bad"\).*must change something/,
    ],
    ['bad venue', { ...good, target: { venue: 'venue_c', event: 'E' } }, /#1 \(id "bad"\)/],
    [
      'bad tag',
      { id: 'bad', why: 'x', target: { venue: 'venue_b', market: '0x1' }, tags: ['Not Kebab'] },
      /#1 \(id "bad"\).*kebab/,
    ],
  ])('rejects %s, naming the entry', (_name, entry, message) => {
    expect(() => parseOverrides({ version: 1, overrides: [good, { ...entry, id: 'bad' }] })).toThrow(message);
  });

  it('rejects duplicate ids and a second override for one target', () => {
    expect(() => parseOverrides({ version: 1, overrides: [good, good] })).toThrow(/#1 \(id "lock-fed"\): duplicate id/);
    expect(() => parseOverrides({ version: 1, overrides: [good, { ...good, id: 'other' }] })).toThrow(
      /#1 \(id "other"\): a second override/,
    );
  });

  it('rejects a file of the wrong shape', () => {
    expect(() => parseOverrides({ overrides: [] })).toThrow(/overrides file is invalid/);
  });
});

describe('overrides applied by canonEvent', () => {
  const markets = [
    market('venue_a', 'A-LOW', { question: 'Will Bitcoin reach $150,000 by December 31, 2026?' }),
    market('venue_a', 'A-HIGH', { question: 'Will Bitcoin reach $200,000 by December 31, 2026?' }),
  ];
  const ids = markets.map((m) => m.market.market_id);
  const marks = new Map([
    [ids[0] ?? '', { last_price: 0.4, volume_24h_usd: 10, liquidity_usd: 5 }],
    [ids[1] ?? '', { last_price: 0.1, volume_24h_usd: 999, liquidity_usd: 5 }],
  ]);
  const ev = { ...event('venue_a', 'EVT-A', 'Bitcoin price targets 2026'), platform_event_id: 'EVT-A' };

  it('without overrides, the primary is the highest 24h volume', () => {
    const out = canonEvent({ event: ev, markets, marks, overrides: NO_OVERRIDES, now: NOW });
    expect(out.event.primary_market_id).toBe(ids[1]);
    expect(out.event.primary_market_locked).toBe(false);
    expect(out.event.field_provenance.primary_market_id?.source).toBe('derived');
  });

  it('a lock keeps the overridden primary despite higher volume elsewhere, with service_editorial provenance', () => {
    const overrides = parseOverrides({
      version: 1,
      overrides: [
        { ...good, editorial_notes: 'Quoted strike.', tags: ['btc-targets'] },
        {
          id: 'note',
          why: 'edge case',
          target: { venue: 'venue_a', market: 'A-HIGH' },
          analyst_notes: 'Touch, not close.',
          source_of_record: 'CF Benchmarks BRTI',
        },
      ],
    });
    const out = canonEvent({ event: ev, markets, marks, overrides, now: NOW });
    expect(out.event.primary_market_id).toBe(ids[0]);
    expect(out.event.primary_market_locked).toBe(true);
    expect(out.event.editorial_notes).toBe('Quoted strike.');
    expect(out.event.tags).toContain('btc-targets');
    for (const f of ['primary_market_id', 'primary_market_locked', 'editorial_notes', 'tags'] as const) {
      expect(out.event.field_provenance[f]).toMatchObject({ source: 'service_editorial', rule: 'override:lock-fed' });
    }
    const high = out.markets.find((m) => m.platform_market_id === 'A-HIGH');
    expect(high).toMatchObject({ analyst_notes: 'Touch, not close.', source_of_record: 'CF Benchmarks BRTI' });
    expect(high?.field_provenance.source_of_record).toMatchObject({
      source: 'service_editorial',
      rule: 'override:note',
    });

    // The lock survives the next run without the override file being consulted again.
    const again = canonEvent({ event: out.event, markets, marks, overrides: NO_OVERRIDES, now: NOW });
    expect(again.event.primary_market_id).toBe(ids[0]);
    expect(again.event.primary_market_locked).toBe(true);
  });
});
