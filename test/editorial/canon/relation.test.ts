// `related` links two venues' markets only when subject and measured thing agree and the keys differ in typed parts (resolves_on, horizon within a month, threshold within 2% on one side, source, scope, death_rule), listing each difference with both venues' values; it never shares a question_id.
import { describe, expect, it } from 'vitest';
import { type Market, MarketSchema, type Venue } from '../../../src/domain/index.ts';
import {
  canonEvent,
  claimKeyOf,
  crossVenueLinks,
  linkAcrossVenues,
  NO_OVERRIDES,
  readClaim,
} from '../../../src/editorial/canon/index.ts';
import { event, type MarketSpec, market, NOW } from './helpers.ts';

function keyed(venue: Venue, id: string, spec: MarketSpec): Market {
  const m = market(venue, id, spec);
  const out = canonEvent({
    event: event(venue, `EVT-${id}`, 'e'),
    markets: [m],
    marks: new Map(),
    overrides: NO_OVERRIDES,
    now: NOW,
  }).markets[0];
  if (!out) throw new Error('no market');
  return out;
}

/** The one link between two markets, as [relation, typed differences without wording], or null. */
function linkOf(a: Market, b: Market): [string, Array<[string, string | null, string | null]>] | null {
  const l = crossVenueLinks([a, b])[0];
  if (!l) return null;
  return [l.kind, (l.differences ?? []).filter((d) => d.type !== 'wording').map((d) => [d.type, d.venue_a, d.venue_b])];
}

const NEXT_PRES = 'Who will win the next presidential election?';
const inaugurated = (name: string) =>
  `If ${name} is the next person inaugurated as President for the term beginning in 2029, then the market resolves to Yes.`;
const called = (name: string) =>
  `This market will resolve to "Yes" if ${name} wins the 2028 US Presidential Election. The resolution source is the Associated Press, Fox News, and NBC; the market resolves once all three call the race. If they have not called it by the inauguration date (January 20, 2029) it resolves on who is inaugurated.`;
const presA = (id: string, name: string) =>
  keyed('venue_a', id, { question: NEXT_PRES, group: name, rules: inaugurated(name), close: '2029-11-07T15:00:00Z' });
const presB = (id: string, name: string) =>
  keyed('venue_b', id, {
    question: `Will ${name} win the 2028 US Presidential Election?`,
    rules: called(name),
    close: '2028-11-07T00:00:00Z',
  });

const leaveA = (id: string, date: string, close: string) =>
  keyed('venue_a', id, {
    question: `Will Ali Khamenei leave office before ${date}?`,
    rules: `If Ali Khamenei leaves office before ${date}, then the market resolves to Yes. If Ali Khamenei leaves solely because they have died, the Exchange will determine the payouts based upon the last traded price.`,
    close,
  });
const outB = (id: string, date: string, close: string, what = 'out as Supreme Leader of Iran') =>
  keyed('venue_b', id, {
    question: `Khamenei ${what} by ${date}?`,
    rules: `This market will resolve to "Yes" if Ali Khamenei is ${what === 'out as Supreme Leader of Iran' ? 'removed from power' : 'confirmed to have left Iran'} for any length of time by ${date}, 11:59 PM ET. Otherwise, this market will resolve to "No".`,
    close,
  });

const btc = (venue: Venue, id: string, strike: string, day = 'March 31, 2026') =>
  keyed(venue, id, {
    question: `Will the price of Bitcoin be above $${strike} on ${day} at 5pm ET?`,
    rules: 'CF Benchmarks BRTI at 5 PM ET.',
  });

describe('related links', () => {
  it('links inauguration and election-call markets on the same person and election, with resolves_on', () => {
    const a = presA('KXPRES-JVAN', 'JD Vance');
    const b = presB('0xvance', 'JD Vance');
    expect(a.question_id).not.toBe(b.question_id);
    expect(linkOf(a, b)).toEqual(['related', [['resolves_on', 'inauguration', 'election_call']]]);
  });

  it('never relates different people, or the presidency and a nomination', () => {
    expect(linkOf(presA('KXPRES-JVAN', 'JD Vance'), presB('0xrubio', 'Marco Rubio'))).toBeNull();
    const nomination = keyed('venue_b', '0xnom', {
      question: 'Will JD Vance win the 2028 Republican presidential nomination?',
      rules: 'This market will resolve to "Yes" if JD Vance is the 2028 Republican presidential nominee.',
      close: '2028-08-31T00:00:00Z',
    });
    expect(linkOf(presA('KXPRES-JVAN', 'JD Vance'), nomination)).toBeNull();
  });

  it('relates deadlines at most a month apart and lists scope and death rule; a year apart is not related', () => {
    const a = leaveA('KXKHA-APR', 'Apr 1, 2026', '2026-04-01T15:00:00Z');
    expect(linkOf(a, outB('0xmar31', 'March 31, 2026', '2026-03-31T00:00:00Z'))).toEqual([
      'related',
      [
        ['scope', null, 'any_length'],
        ['death_rule', 'last_price', null],
      ],
    ]);
    expect(linkOf(a, outB('0xfeb28', 'February 28, 2026', '2026-02-28T00:00:00Z'))?.[1][0]).toEqual([
      'horizon',
      'by:2026-03-31',
      'by:2026-02-28',
    ]);
    expect(linkOf(a, outB('0x2025', 'December 31, 2025', '2025-12-31T00:00:00Z'))).toBeNull();
  });

  it('keeps leaving office apart from leaving the country', () => {
    const a = leaveA('KXKHA-APR', 'Apr 1, 2026', '2026-04-01T15:00:00Z');
    expect(linkOf(a, outB('0xleaveiran', 'March 31, 2026', '2026-03-31T00:00:00Z', 'leave Iran'))).toBeNull();
  });

  it('relates strikes within 2% on one side at one instant, and no farther', () => {
    expect(linkOf(btc('venue_a', 'KX-100K', '100,000'), btc('venue_b', '0x102k', '102,000'))).toEqual([
      'related',
      [['threshold', 'gt 100000 $', 'gt 102000 $']],
    ]);
    expect(linkOf(btc('venue_a', 'KX-100K', '100,000'), btc('venue_b', '0x120k', '120,000'))).toBeNull();
    expect(
      linkOf(btc('venue_a', 'KX-100K', '100,000'), btc('venue_b', '0xnextday', '100,000', 'April 1, 2026')),
    ).toBeNull();
  });

  it('keeps same and complement for shared question_ids and lists related after them in also_on', () => {
    const a = btc('venue_a', 'KX-100K', '100,000');
    const same = btc('venue_b', '0xsame', '100,000');
    const near = btc('venue_b', '0x101k', '101,000');
    const linked = linkAcrossVenues([a, same, near], new Map([[near.market_id, 0.4]]));
    expect(linked[0]?.also_on).toEqual([
      { venue: 'venue_b', market_id: same.market_id, price: null, relation: 'same' },
      {
        venue: 'venue_b',
        market_id: near.market_id,
        price: 0.4,
        relation: 'related',
        differences: [{ type: 'threshold', venue_a: 'gt 100000 $', venue_b: 'gt 101000 $' }],
      },
    ]);
    expect(linked[2]?.also_on?.map((x) => x.relation)).toEqual(['related']);
    for (const m of linked) expect(() => MarketSchema.parse(m)).not.toThrow();
  });

  it('reads "the next presidential election" only when one registry election fits the deadline', () => {
    const m = market('venue_a', 'KXPRES-X', {
      question: NEXT_PRES,
      group: 'JD Vance',
      rules: inaugurated('JD Vance'),
      close: '2029-11-07T15:00:00Z',
    });
    const claim = claimKeyOf(m.market, m.facts);
    if (claim.status !== 'keyed') throw new Error(claim.reason);
    expect(readClaim(claim.key)?.horizon).toBe('event:election:us-president-2028');
    // A deadline long after that election fits no registry election: the phrase stays as written.
    expect(readClaim({ ...claim.key, horizon: 'by:2033-12-31' })?.horizon).toBe('by:2033-12-31');
  });
});
