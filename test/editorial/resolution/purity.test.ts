// The judgment is a pure function of its input: the same market and facts give the same judgment, whatever the object key order.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeResolution } from '../../../src/editorial/resolution/index.ts';
import { canonicalInput } from '../../../src/editorial/resolution/native-input.ts';

const { cases } = JSON.parse(
  readFileSync(new URL('../../fixtures/editorial/resolution-cases.json', import.meta.url), 'utf8'),
) as { cases: Array<{ input: Record<string, unknown> }> };

/** Deep copy with every object's keys re-inserted in a permuted order. */
function shuffleKeys(value: unknown, order: number[]): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, order));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const keyed = entries.map((e, i) => ({ e, k: order[i % order.length] ?? 0 }));
  keyed.sort((a, b) => a.k - b.k);
  return Object.fromEntries(keyed.map(({ e: [k, v] }) => [k, shuffleKeys(v, order)]));
}

const fragments = [
  'The resolution source for this market will be information from the NBA.',
  'The primary resolution source will be official information from FIFA, however, a consensus of credible reporting may also be used.',
  'The resolution source for this market is the Associated Press, Fox News, and NBC. If all three sources have not called the race, this market will resolve based on official certification.',
  'If the Bureau of Labor Statistics website is unavailable, the Federal Reserve Bank of St. Louis will be used.',
  'For example, Google Finance.',
  'This market will resolve to "Yes" if the price is above $100 on March 3, 2026, 12:00 PM ET.',
  'Traders may check https://data.chain.link/streams/btc-usd.',
  'The city is shaded as under Russian control on the DeepStateMap.',
  'Clarification 01/02/2026: the figure published by Trading Economics will be used.',
];

describe('judgeResolution purity', () => {
  it('gives the same judgment for the same input and for any key order (fixture cases)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: cases.length - 1 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 3, maxLength: 12 }),
        (i, order) => {
          const input = cases[i]?.input ?? {};
          const a = canonicalInput(input);
          const b = canonicalInput(shuffleKeys(input, order) as Record<string, unknown>);
          const ja = judgeResolution(a.market, a.facts);
          expect(judgeResolution(a.market, a.facts)).toEqual(ja);
          expect(
            judgeResolution(
              shuffleKeys(b.market, order) as typeof b.market,
              shuffleKeys(b.facts, order) as typeof b.facts,
            ),
          ).toEqual(ja);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is idempotent: judging a market that already carries its judgment gives the same judgment', () => {
    for (const c of cases) {
      const { market, facts } = canonicalInput(c.input);
      const j = judgeResolution(market, facts);
      const again = judgeResolution(
        {
          ...market,
          ...j,
          resolution_triggers: j.resolution_triggers,
          rcg: j.rcg,
          field_provenance: j.field_provenance,
        },
        facts,
      );
      expect(again).toEqual(j);
    }
  });

  it('is deterministic on generated rules text built from real source phrasings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...fragments), { minLength: 0, maxLength: 6 }),
        fc.constantFrom('venue_a', 'venue_b'),
        fc.option(
          fc.constantFrom('0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7', '0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d'),
        ),
        (parts, platform, resolvedBy) => {
          const text = parts.join(' ');
          const input = {
            platform,
            platform_market_id: 'gen',
            question_raw: 'Generated?',
            description_raw: text,
            resolved_by: resolvedBy,
          };
          const { market, facts } = canonicalInput(input);
          const j1 = judgeResolution(market, facts);
          const j2 = judgeResolution(structuredClone(market), structuredClone(facts));
          expect(j2).toEqual(j1);
          expect(j1.rcg.score).toBeGreaterThanOrEqual(0);
          expect(j1.rcg.score).toBeLessThanOrEqual(100);
        },
      ),
      { numRuns: 200 },
    );
  });
});
