// Claim keys: venue wordings of one bet share a question_id, complements share it with opposite directions, and every trap the venues show keeps distinct ids (or none).
import { describe, expect, it } from 'vitest';
import { questionIdFor } from '../../../src/domain/index.ts';
import { type ClaimKeyResult, claimKeyOf } from '../../../src/editorial/canon/index.ts';
import { type MarketSpec, market } from './helpers.ts';

function key(venue: 'venue_a' | 'venue_b', spec: MarketSpec): ClaimKeyResult {
  const { market: m, facts } = market(venue, `${venue}-${spec.question}`, spec);
  return claimKeyOf(m, facts);
}
function qid(r: ClaimKeyResult): string | null {
  return r.status === 'keyed' ? questionIdFor(r.normalized) : null;
}
function keyed(r: ClaimKeyResult) {
  if (r.status !== 'keyed') throw new Error(`expected a key, got: ${r.reason}`);
  return r;
}
/** Both markets keyed (so the test is about the key, not a refusal) and their ids differ: a trap must never link. */
function expectApart(a: ClaimKeyResult, b: ClaimKeyResult) {
  const [x, y] = [qid(keyed(a)), qid(keyed(b))];
  expect(x, `${JSON.stringify(a)}\n${JSON.stringify(b)}`).not.toBe(y);
}

describe('claimKeyOf: structure and text', () => {
  it('reads a venue_a policy-rate threshold from its strike fields', () => {
    const r = keyed(
      key('venue_a', {
        question:
          "Will the upper bound of the federal funds rate be above 3.25% following the Fed's Apr 29, 2026 meeting?",
        facts: { strike_type: 'greater', floor_strike: 3.25 },
      }),
    );
    expect(r.key).toMatchObject({
      subject: 'cb:fed',
      metric: 'rate:fed-funds#upper_bound',
      horizon: 'meeting:2026-04',
      direction: 'above',
      op: 'gt',
      threshold: 3.25,
      unit: '%',
      settlement_style: 'terminal',
    });
  });

  it('reads a change bracket as a different metric from the level', () => {
    const r = keyed(
      key('venue_b', { question: 'Will the Fed decrease interest rates by 25 bps after the April 2026 meeting?' }),
    );
    expect(r.key).toMatchObject({
      metric: 'rate:fed-funds#change',
      horizon: 'meeting:2026-04',
      direction: 'between',
      threshold: -25,
      cap: -25,
      unit: 'bps',
    });
  });

  it('normalizes units: $ and k/M/B scales', () => {
    const a = keyed(key('venue_b', { question: 'Will Bitcoin reach $150k by December 31, 2026?' }));
    const b = keyed(key('venue_a', { question: 'Will Bitcoin hit $150,000 before Jan 1, 2027?' }));
    expect(a.key).toMatchObject({
      threshold: 150000,
      unit: '$',
      direction: 'reach',
      settlement_style: 'touch',
      horizon: 'by:2026-12-31',
    });
    expect(qid(a)).toBe(qid(b));
  });

  it('links the same occurrence question worded by each venue', () => {
    const a = key('venue_a', {
      question: 'Will the United States recognize Reza Pahlavi as the leader of Iran in 2026?',
      rules:
        'If the United States recognizes Reza Pahlavi as the leader of Iran before Jan 1, 2027, then the market resolves to Yes.',
    });
    const b = key('venue_b', {
      question: 'US recognizes Reza Pahlavi as leader of Iran in 2026?',
      rules:
        'This market will resolve to "Yes" if the US officially recognizes Reza Pahlavi as the leader of Iran by December 31, 2026, 11:59 PM ET.',
    });
    expect(qid(a)).not.toBeNull();
    expect(qid(a)).toBe(qid(b));
  });

  it('gives above and below at one boundary one id with opposite directions (complement)', () => {
    const rules = 'Resolves from the CF Benchmarks Bitcoin Real Time Index at 5:00 PM ET.';
    const a = keyed(
      key('venue_a', { question: 'Will the price of Bitcoin be above $100,000 on March 31, 2026 at 5pm ET?', rules }),
    );
    const b = keyed(
      key('venue_b', { question: 'Will the price of Bitcoin be below $100,000 on March 31, 2026 at 5PM ET?', rules }),
    );
    expect(qid(a)).toBe(qid(b));
    expect([a.key.direction, b.key.direction]).toEqual(['above', 'below']);
  });

  it('reads "Who will …?" with the child outcome as the claim about that outcome', () => {
    const a = key('venue_a', {
      question: 'Who will win the 2026 Ohio governor election?',
      group: 'Dakota Ellis',
      rules:
        'If Dakota Ellis is projected or certified as the winner of the 2026 Ohio governor election before Oct 1, 2026, then the market resolves to Yes.',
      close: '2026-09-30T23:59:00.000Z',
    });
    const b = key('venue_b', {
      question: 'Will Dakota Ellis win the 2026 Ohio governor election?',
      rules:
        'This market will resolve to "Yes" if Dakota Ellis is projected or certified as the winner of the 2026 Ohio governor election.',
      close: '2026-09-30T23:59:00.000Z',
    });
    expect(qid(keyed(a))).toBe(qid(b));
  });

  it('reads a venue_a strike one cent below a round number as that number', () => {
    const a = key('venue_a', {
      question: 'Will the Bitcoin price be above $49,999.99 on Mar 6, 2026 at 5:00 PM EST?',
      facts: { strike_type: 'greater', floor_strike: 49999.99 },
    });
    const b = key('venue_b', { question: 'Will the price of Bitcoin be above $50,000 on March 6, 2026 at 5PM ET?' });
    expect(keyed(a).key).toMatchObject({ threshold: 50000, op: 'ge' });
    expect(qid(a)).toBe(qid(b));
  });

  it('keeps inclusive and strict bounds apart for discrete quantities', () => {
    const a = key('venue_a', { question: 'Will the Fed upper bound be above 4.00% after the June 2026 meeting?' });
    const b = key('venue_b', { question: 'Will the Fed upper bound be at least 4.00% after the June 2026 meeting?' });
    expectApart(a, b);
  });
});

describe('claimKeyOf: traps never link', () => {
  it('"leaves office" vs "removed from power"', () => {
    expectApart(
      key('venue_a', {
        question: 'Will Vladimir Putin leave office before Jan 1, 2027?',
        rules: 'If Vladimir Putin leaves office before Jan 1, 2027, then the market resolves to Yes.',
      }),
      key('venue_b', {
        question: 'Putin out as President of Russia by December 31, 2026?',
        rules: 'Resolves Yes if Vladimir Putin is removed from power by December 31, 2026, 11:59 PM ET.',
      }),
    );
  });

  it('"inaugurated" vs "wins the election"', () => {
    expectApart(
      key('venue_a', {
        question: 'Will JD Vance win the 2028 US Presidential Election?',
        rules:
          'If JD Vance is the next person inaugurated as President for the term beginning in 2029, the market resolves to Yes.',
      }),
      key('venue_b', {
        question: 'Will JD Vance win the 2028 US Presidential Election?',
        rules:
          'This market will resolve to the person who wins the 2028 US Presidential Election, once AP, Fox and NBC call the race.',
      }),
    );
  });

  it('the same subject with different deadlines', () => {
    expectApart(
      key('venue_a', { question: 'Will Iran close the Strait of Hormuz before May 2026?' }),
      key('venue_b', { question: 'Will Iran close the Strait of Hormuz by May 31, 2026?' }),
    );
  });

  it('a phone call counting vs an in-person meeting', () => {
    expectApart(
      key('venue_a', {
        question: 'Will Donald Trump and Xi Jinping meet before Apr 1, 2026?',
        rules: 'If they meet (including phone calls) before Apr 1, 2026, the market resolves to Yes.',
      }),
      key('venue_b', {
        question: 'Will Donald Trump and Xi Jinping meet before Apr 1, 2026?',
        rules: 'Both leaders must meet in person; calls do not qualify.',
      }),
    );
  });

  it('adjacent or overlapping windows with different price sources', () => {
    const a = key('venue_a', {
      question: 'BTC price up in next 15 mins?',
      close: '2026-02-21T02:15:00.000Z',
      rules: "Compares CF Benchmarks' BRTI averages.",
    });
    expectApart(
      a,
      key('venue_b', {
        question: 'Bitcoin Up or Down - February 20, 9:15PM-9:30PM ET',
        rules: 'Resolves from the Chainlink BTC/USD data stream.',
      }),
    );
    expectApart(
      a,
      key('venue_b', {
        question: 'Bitcoin Up or Down - February 20, 9:00PM-9:15PM ET',
        rules: 'Resolves from the Chainlink BTC/USD data stream.',
      }),
    );
    expectApart(
      a,
      key('venue_b', {
        question: 'Bitcoin Up or Down - February 20, 9PM ET',
        close: '2026-02-21T03:00:00.000Z',
        rules: 'The Binance BTC/USDT 1 hour candle.',
      }),
    );
  });

  it('one meeting priced as upper-bound thresholds vs change brackets', () => {
    expectApart(
      key('venue_a', {
        question:
          "Will the upper bound of the federal funds rate be above 3.50% following the Fed's Apr 29, 2026 meeting?",
      }),
      key('venue_b', { question: 'Will the Fed decrease interest rates by 25 bps after the April 2026 meeting?' }),
    );
  });

  it('the same phrase naming different elections', () => {
    expectApart(
      key('venue_a', {
        question: 'Who will win the next presidential election?',
        group: 'Gavin Newsom',
        rules: 'If Gavin Newsom wins the 2028 US presidential election, Yes.',
      }),
      key('venue_b', { question: 'Will Gavin Newsom win the 2028 Democratic presidential nomination?' }),
    );
    expectApart(
      key('venue_a', { question: 'Will Morgan Wallen perform at the Super Bowl LX halftime show?' }),
      key('venue_b', {
        question:
          "Will Morgan Wallen perform as Headliner at Turning Point USA's 'All-American' Super Bowl Halftime Show?",
      }),
    );
  });

  it('the same question whose rules pay on a different event', () => {
    expectApart(
      key('venue_a', {
        question: 'Russia and Ukraine ceasefire before Apr 16, 2026?',
        rules:
          'If Russia and Ukraine agree to a ceasefire that is publicly confirmed by both parties before Apr 16, 2026, then the market resolves to Yes.',
      }),
      key('venue_b', {
        question: 'Russia and Ukraine ceasefire by April 15, 2026?',
        rules:
          'This market will resolve to "Yes" if Russia and Ukraine sign a permanent peace agreement by April 15, 2026, 11:59 PM ET.',
      }),
    );
  });

  it('a death clause included by one venue and excluded by the other', () => {
    expectApart(
      key('venue_a', {
        question: 'Will Ali Khamenei leave office before Jul 1, 2026?',
        rules:
          'If Ali Khamenei leaves solely because they have died, the market resolves at the last traded price prior to death.',
      }),
      key('venue_b', {
        question: 'Will Ali Khamenei leave office before Jul 1, 2026?',
        rules: 'Death counts: if Ali Khamenei dies, this market resolves Yes.',
      }),
    );
  });

  it('two people with the same surname', () => {
    expectApart(
      key('venue_a', { question: 'Will Donald Trump Jr. win the 2028 US Presidential Election?' }),
      key('venue_b', { question: 'Will Donald Trump win the 2028 US Presidential Election?' }),
    );
    const ambiguous = key('venue_b', {
      question: 'Khamenei out as Supreme Leader of Iran by June 30, 2026?',
      rules: 'Resolves Yes if the Supreme Leader leaves.',
    });
    expect(ambiguous).toMatchObject({ status: 'unkeyed' });
    const named = key('venue_b', {
      question: 'Khamenei out as Supreme Leader of Iran by June 30, 2026?',
      rules: "Resolves Yes if Iran's Supreme Leader, Ali Khamenei, is removed from power.",
    });
    expect(keyed(named).key.subject).toBe('person:ali-khamenei');
  });
});

describe('claimKeyOf: no id without a full key', () => {
  it.each([
    ['no horizon', { question: 'Will Elon Musk visit Mars?' }, /no horizon/],
    ['no question', { question: '' }, /no question/],
    ['negated', { question: 'Will the US not strike Iran by January 31, 2026?' }, /negated/],
    ['combo', { question: 'yes Lakers,yes Celtics,no Over 220.5' }, /multi-leg/],
  ] as const)('%s', (_name, spec, reason) => {
    const r = key('venue_b', { ...spec, close: undefined } as MarketSpec);
    expect(r.status).toBe('unkeyed');
    if (r.status === 'unkeyed') expect(r.reason).toMatch(reason);
  });
});
