// canonEvent fills every canon field with provenance, composes child references from the event's, and linkAcrossVenues lists only other-venue twins with their prices.
import { describe, expect, it } from 'vitest';
import type { Market } from '../../../src/domain/index.ts';
import { EventSchema, emptyVenueFacts, MarketSchema } from '../../../src/domain/index.ts';
import {
  canonEvent,
  crossVenueLinks,
  linkAcrossVenues,
  NO_OVERRIDES,
  normalizeQuestion,
  primaryMarketOf,
} from '../../../src/editorial/canon/index.ts';
import { event, market, NOW } from './helpers.ts';

const rules = (who: string) => `If ${who} is the next Pope before Jan 1, 2030, then the market resolves to Yes.`;

describe('canonEvent', () => {
  const children = [
    market('venue_a', 'POPE-PAR', {
      question: 'Will Pietro Parolin be the next Pope before Jan 1, 2030?',
      group: 'Pietro Parolin',
      rules: rules('Pietro Parolin'),
      facts: { mutually_exclusive: true },
    }),
    market('venue_a', 'POPE-TAG', {
      question: 'Will Luis Antonio Tagle be the next Pope before Jan 1, 2030?',
      group: 'Luis Antonio Tagle',
      rules: rules('Luis Antonio Tagle'),
      facts: { mutually_exclusive: true },
    }),
    market('venue_a', 'POPE-X', { question: 'Who will be the next Pope?', rules: rules('someone') }),
  ];
  const marks = new Map(
    children.map((c, i) => [
      c.market.market_id,
      { last_price: [0.3, 0.2, 0.1][i] ?? null, volume_24h_usd: 5, liquidity_usd: [1, 9, 2][i] ?? 0 },
    ]),
  );
  const out = canonEvent({
    event: event('venue_a', 'POPE', 'who will be the next pope'),
    markets: children,
    marks,
    overrides: NO_OVERRIDES,
    now: NOW,
  });

  it('returns schema-valid records', () => {
    expect(() => EventSchema.parse(out.event)).not.toThrow();
    for (const m of out.markets) expect(() => MarketSchema.parse(m)).not.toThrow();
  });

  it('sets the event fields with provenance for each', () => {
    expect(out.event).toMatchObject({
      question: 'who will be the next pope?',
      bundle_type: 'categorical',
      event_type: 'BINARY',
    });
    expect(out.event.resolution_reference).toContain('the listed outcome');
    for (const f of [
      'question',
      'tags',
      'bundle_type',
      'resolution_reference',
      'event_type',
      'ladder_distribution',
      'ladder_distribution_reason',
      'primary_market_id',
      'primary_market_locked',
    ]) {
      expect(out.event.field_provenance[f], f).toBeDefined();
    }
  });

  it('normalizes the question text but keeps its diacritics', () => {
    expect(normalizeQuestion('Will  Curaçao win the ‘2026’ World Cup ?')).toBe(
      "Will Curaçao win the '2026' World Cup?",
    );
  });

  it('is idempotent: canon of its own output changes nothing', () => {
    const again = canonEvent({
      event: out.event,
      markets: out.markets.map((m, i) => ({ market: m, facts: children[i]?.facts ?? emptyVenueFacts() })),
      marks,
      overrides: NO_OVERRIDES,
      now: '2027-01-01T00:00:00.000Z',
    });
    expect(again).toEqual(out);
  });

  it('breaks a 24h-volume tie by liquidity', () => {
    expect(out.event.primary_market_id).toBe(out.markets[1]?.market_id);
  });

  it('composes child references and records why an id is missing', () => {
    const [par, , x] = out.markets;
    expect(par?.underlying_reference).toMatch(/Outcome: Pietro Parolin\.$/);
    expect(par?.field_provenance.underlying_reference?.source).toBe('composed:event+child');
    expect(x?.field_provenance.underlying_reference?.source).toBe('inherited:event');
    expect(par?.question_id).toMatch(/^SVCX-[0-9A-F]{10}$/);
    expect(par?.tags).toEqual(['pope']);
    expect(x).toMatchObject({ question_id: null, claim_key: null });
    expect(x?.question_id_reason).toMatch(/no outcome/);
    expect(x?.field_provenance.question_id).toMatchObject({ source: 'derived', note: x?.question_id_reason });
  });
});

describe('primaryMarketOf', () => {
  it('prefers open markets and breaks full ties by market_id', () => {
    const [a, b, c] = ['M-1', 'M-2', 'M-3'].map(
      (id, i) => market('venue_b', id, { question: `q${id}`, status: i === 0 ? 'closed' : 'open' }).market,
    ) as [Market, Market, Market];
    const marks = new Map([[a.market_id, { last_price: 0.5, volume_24h_usd: 1e6, liquidity_usd: 0 }]]);
    expect(primaryMarketOf([a, b, c], marks)).toBe([b.market_id, c.market_id].sort()[0]);
    expect(primaryMarketOf([], marks)).toBeNull();
  });
});

describe('linkAcrossVenues', () => {
  const q = 'Will the price of Bitcoin be above $100,000 on March 31, 2026 at 5pm ET?';
  const rules = 'CF Benchmarks BRTI at 5 PM ET.';
  const run = (recs: Array<{ market: Market }>) =>
    recs.map(
      (r) =>
        canonEvent({
          event: event(r.market.platform, r.market.platform_market_id, 'e'),
          markets: [
            market(r.market.platform, r.market.platform_market_id, { question: r.market.question_raw ?? '', rules }),
          ],
          marks: new Map(),
          overrides: NO_OVERRIDES,
          now: NOW,
        }).markets[0] as Market,
    );
  const a = market('venue_a', 'KX-100K', { question: q, rules });
  const b = market('venue_b', '0xabove', { question: q, rules });
  const c = market('venue_b', '0xbelow', { question: q.replace('above', 'below'), rules });
  const d = market('venue_a', 'KX-OTHER', { question: 'Will Ethereum reach $9,000 by December 31, 2026?', rules });
  const linked = linkAcrossVenues(run([a, b, c, d]), new Map([[b.market.market_id, 0.42]]));

  it('lists the other venue twins and complements with prices, and null elsewhere', () => {
    const [la, lb, lc, ld] = linked;
    expect(la?.also_on).toEqual([
      { venue: 'venue_b', market_id: b.market.market_id, price: 0.42, relation: 'same' },
      { venue: 'venue_b', market_id: c.market.market_id, price: null, relation: 'complement' },
    ]);
    expect(lb?.also_on).toEqual([{ venue: 'venue_a', market_id: a.market.market_id, price: null, relation: 'same' }]);
    expect(lc?.also_on?.map((x) => x.market_id)).toEqual([a.market.market_id]);
    expect(ld?.also_on).toBeNull();
    for (const m of linked) expect(() => MarketSchema.parse(m)).not.toThrow();
  });

  it('gives back a market already linked so as it is, and a linked copy of any other', () => {
    const prices = new Map([[b.market.market_id, 0.42]]);
    const again = linkAcrossVenues(linked, prices);
    again.forEach((m, i) => {
      expect(m).toBe(linked[i]);
    });
    // A twin's price moved: only the markets listing it change, and they are copies.
    const moved = linkAcrossVenues(linked, new Map([[b.market.market_id, 0.5]]));
    expect(moved.map((m, i) => m === linked[i])).toEqual([false, true, true, true]);
    expect(moved[0]?.also_on?.[0]?.price).toBe(0.5);
    expect(linked[0]?.also_on?.[0]?.price).toBe(0.42);
    // Equal links without their provenance entry (or with another) are written with it.
    const [first] = linked as [Market];
    const { also_on: _entry, ...provenance } = first.field_provenance;
    const unmarked = linkAcrossVenues([{ ...first, field_provenance: provenance }, ...linked.slice(1)], prices)[0];
    expect(unmarked?.field_provenance.also_on).toEqual({ source: 'derived', rule: 'canon.also_on' });
    const entryChanged = { ...first.field_provenance, also_on: { source: 'derived' as const, rule: 'other' } };
    const relinked = linkAcrossVenues([{ ...first, field_provenance: entryChanged }, ...linked.slice(1)], prices)[0];
    expect(relinked?.field_provenance.also_on).toEqual({ source: 'derived', rule: 'canon.also_on' });
    expect(relinked).toEqual(first);
  });

  it('names complements by direction', () => {
    const kinds = crossVenueLinks(linked).map((l) => [l.a.platform_market_id, l.b.platform_market_id, l.kind]);
    expect(kinds.sort()).toEqual([
      ['KX-100K', '0xabove', 'same'],
      ['KX-100K', '0xbelow', 'complement'],
    ]);
  });
});
