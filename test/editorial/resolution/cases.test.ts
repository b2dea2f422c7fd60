// Pins the resolution judgment of every self-written case (each subtype, mechanism, cap, and each factor's ratings, plus the four documented failures of rcg-model.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Grade } from '../../../src/domain/index.ts';
import { judgeResolution } from '../../../src/editorial/resolution/index.ts';
import { canonicalInput } from '../../../src/editorial/resolution/native-input.ts';

interface Expected {
  grade?: Grade;
  grade_at_most?: Grade;
  score?: number;
  subtype?: string;
  source_commitment?: string;
  mechanism?: string | null;
  source_of_record?: string | null;
  source_type?: string;
  source_status?: string;
  source_citation?: string;
  hedge_contains?: string;
  caps?: string[];
  caps_include?: string[];
  factors?: Record<string, string>;
  rules?: Record<string, string>;
}
interface Case {
  name: string;
  why: string;
  input: Record<string, unknown>;
  expected: Expected;
}

const { cases } = JSON.parse(
  readFileSync(new URL('../../fixtures/editorial/resolution-cases.json', import.meta.url), 'utf8'),
) as { cases: Case[] };
const RANK: Record<Grade, number> = { A: 0, B: 1, C: 2 };

describe('resolution judgment on self-written cases', () => {
  it('covers every subtype, mechanism and cap', () => {
    const all = cases.map((c) => {
      const { market, facts } = canonicalInput(c.input);
      return judgeResolution(market, facts);
    });
    expect(new Set(all.map((j) => j.source_commitment_subtype))).toEqual(
      new Set(['named', 'committed_secondhand', 'uncommitted_illustrative', 'uncommitted_placeholder', 'none']),
    );
    expect(new Set(all.map((j) => j.source_mechanism).filter((m) => m !== null))).toEqual(
      new Set(['single_authority', 'precedence', 'quorum']),
    );
    expect(new Set(all.flatMap((j) => j.rcg.caps))).toEqual(
      new Set([
        'commitment_committed_secondhand',
        'commitment_uncommitted_illustrative',
        'commitment_uncommitted_placeholder',
        'commitment_none',
        'multi_source_no_conflict_rule',
        'discretionary_trigger_no_source',
        'permissionless_oracle_discretionary_trigger',
        'adversarial_ground_truth',
        'exchange_notice_source_conflict',
      ]),
    );
    for (const factor of [
      'trigger_objectivity',
      'contested_reality',
      'source_clarity',
      'arbiter_incentive',
      'temporal_precision',
      'source_mutability',
    ])
      expect(new Set(all.map((j) => j.rcg.factors.find((f) => f.factor === factor)?.rating)), factor).toEqual(
        new Set(['pass', 'partial', 'fail']),
      );
    expect(new Set(all.map((j) => j.rcg.factors.find((f) => f.factor === 'source_conflict_rule')?.rating))).toEqual(
      new Set(['pass', 'partial', 'fail', 'not_applicable']),
    );
  });

  for (const c of cases) {
    it(`${c.name}: ${c.why}`, () => {
      const { market, facts } = canonicalInput(c.input);
      const j = judgeResolution(market, facts);
      const e = c.expected;
      const ctx = JSON.stringify(
        {
          subtype: j.source_commitment_subtype,
          rcg: { ...j.rcg, factors: j.rcg.factors.map((f) => `${f.factor}:${f.rating}:${f.rule}`) },
        },
        null,
        1,
      );
      if (e.grade) expect(j.rcg.grade, ctx).toBe(e.grade);
      if (e.grade_at_most) expect(RANK[j.rcg.grade], ctx).toBeGreaterThanOrEqual(RANK[e.grade_at_most]);
      if (e.score !== undefined) expect(j.rcg.score, ctx).toBe(e.score);
      if (e.subtype) expect(j.source_commitment_subtype, ctx).toBe(e.subtype);
      if (e.source_commitment) expect(j.source_commitment).toBe(e.source_commitment);
      if (e.mechanism !== undefined) expect(j.source_mechanism).toBe(e.mechanism);
      if (e.source_of_record !== undefined) expect(j.source_of_record).toBe(e.source_of_record);
      if (e.source_type) expect(j.source_type).toBe(e.source_type);
      if (e.source_status) expect(j.source_status).toBe(e.source_status);
      if (e.source_citation) expect(j.source_citation).toBe(e.source_citation);
      if (e.hedge_contains) expect(j.source_hedge_text ?? '').toContain(e.hedge_contains);
      if (e.caps) expect(j.rcg.caps, ctx).toEqual(e.caps);
      for (const cap of e.caps_include ?? []) expect(j.rcg.caps, ctx).toContain(cap);
      for (const [factor, rating] of Object.entries(e.factors ?? {}))
        expect(j.rcg.factors.find((f) => f.factor === factor)?.rating, `${factor}\n${ctx}`).toBe(rating);
      for (const [factor, rule] of Object.entries(e.rules ?? {}))
        expect(j.rcg.factors.find((f) => f.factor === factor)?.rule, `${factor}\n${ctx}`).toBe(rule);
    });
  }
});

/** A venue_b-shaped canonical record with a named agency and a managed oracle, so only the trigger wording varies. */
function judgeWording(question: string, rules: string) {
  const { market, facts } = canonicalInput({
    platform: 'venue_b',
    platform_market_id: 'wording-case',
    question_raw: question,
    description_raw: rules,
    close_at: '2026-06-30T23:59:00Z',
  });
  return judgeResolution(market, facts);
}
const factorOf = (j: ReturnType<typeof judgeWording>, name: string) => j.rcg.factors.find((f) => f.factor === name);

// Each wording class of trigger parsing (rubric rcg-1.1.0), pinned on small self-written cases.
describe('trigger wording classes', () => {
  const threshold: Array<[string, string, string]> = [
    ['comparator after, "+"', 'Fed decreases interest rates by 50+ bps after the June meeting?', '50+ bps'],
    ['"or more"', 'Will the number of federal employees decrease by 200,000 or more by June?', '200,000 or more'],
    ['"at least"', 'Will Bitcoin reach at least $150,000 by June 30?', 'at least $150,000'],
    ['"or higher"', 'Will CPI year-over-year be 3.1% or higher in May?', '3.1% or higher'],
    ['"or above"', 'Will the high temperature in Miami be 92° or above on June 3?', '92° or above'],
    ['"greater than"', 'Will the 10-year yield be greater than 4.75 on June 30?', 'greater than 4.75'],
    ['"between X and Y"', 'Will the high temperature in Miami be between 85 and 86° on June 3?', 'between 85 and 86°'],
    ['"X-Y" count range', 'Will Elon Musk post 420-439 tweets from June 1 to June 7?', '420-439'],
    ['"X to Y" range', 'Will unemployment be from 4.1% to 4.3% in May?', 'from 4.1% to 4.3%'],
    ['bracket with bps', 'Fed decreases interest rates by 25 bps after the June meeting?', '25 bps'],
    ['bracket with points', 'Will the S&P 500 gain 100 points on June 3?', '100 points'],
    ['dollars with "or less"', 'Will gas average $3.10 or less in June?', '$3.10 or less'],
    ['bracket with cents', 'Will a dozen eggs cost 50 cents more in June?', '50 cents'],
    ['over/under line', 'Bears vs. Eagles: O/U 44.5', 'O/U 44.5'],
    ['signed handicap', 'Spread: Nuggets (-6.5)', '(-6.5)'],
    [
      '"no change" of the measured rate',
      'No change in Fed interest rates after the June meeting?',
      'No change in Fed interest rates',
    ],
    ['"unchanged"', 'Will the ECB keep interest rates unchanged in June?', 'keep interest rates'],
    [
      'direction of a measured rate',
      'Will the Bank of Korea decrease the base rate after the June meeting?',
      'decrease the base rate',
    ],
  ];
  for (const [name, question, quote] of threshold)
    it(`reads ${name} as a numeric threshold`, () => {
      const j = judgeWording(question, 'The resolution source for this market is the Federal Reserve.');
      const f = factorOf(j, 'trigger_objectivity');
      expect(f?.rule, JSON.stringify(f)).toBe('trigger.numeric_threshold');
      expect(f?.rating).toBe('pass');
      expect(f?.evidence[0]?.quote).toBe(quote);
    });

  it('rates siblings that differ only in "25 bps" / "50+ bps" / "No change" the same', () => {
    const rules =
      'This market will resolve to the amount of basis points the upper bound of the target federal funds rate is changed by. The resolution source is the FOMC statement.';
    const grades = [
      'Fed decreases interest rates by 25 bps after the June meeting?',
      'Fed decreases interest rates by 50+ bps after the June meeting?',
      'No change in Fed interest rates after the June meeting?',
    ].map((q) => judgeWording(q, rules).rcg);
    expect(new Set(grades.map((r) => `${r.grade} ${r.score} ${r.factors.map((f) => f.rating).join(',')}`)).size).toBe(
      1,
    );
  });

  it('does not read times, dates, years or a 50-50 split as thresholds', () => {
    const j = judgeWording(
      'Will Elon Musk visit Mars before Jan 1, 2030?',
      'This market will resolve to "Yes" if Elon Musk visits Mars between 12:00 PM ET on June 1, 2026 and 2026-12-31 in the 2026-27 window. If the launch is canceled this market will resolve 50-50.',
    );
    expect(factorOf(j, 'trigger_objectivity')?.rule).not.toBe('trigger.numeric_threshold');
  });

  it('rates speech and presence verbs as occurrences, not official acts', () => {
    for (const [question, verb] of [
      ['Will Kim Jong Un visit the US in 2026?', 'visit'],
      ['Will Trump meet with Xi Jinping in June?', 'meet'],
      ['Will Lady Gaga attend the Met Gala?', 'attend'],
      ['Will the CEO mention tariffs this month?', 'mention'],
    ] as const) {
      const j = judgeWording(question, 'The resolution source will be a consensus of credible reporting.');
      const f = factorOf(j, 'trigger_objectivity');
      expect(f?.rule, question).toBe('trigger.unrecorded_occurrence');
      expect(f?.rating).toBe('partial');
      expect(f?.evidence[0]?.quote?.toLowerCase()).toBe(verb);
    }
  });

  it('passes an occurrence shown by a named record (video of a named event), and still passes official acts', () => {
    const said = judgeWording(
      'Will Trump say "Tariff" during the State of the Union address?',
      'This market will resolve to "Yes" if Donald Trump says the listed term during the address. The resolution source will be video of the event.',
    );
    expect(factorOf(said, 'trigger_objectivity')?.rule).toBe('trigger.recorded_occurrence');
    expect(factorOf(said, 'trigger_objectivity')?.rating).toBe('pass');
    const signed = judgeWording(
      'Will the bill become law before July?',
      'This market will resolve to "Yes" if the President signs the bill before July 1, 2026. The resolution source is congress.gov.',
    );
    expect(factorOf(signed, 'trigger_objectivity')?.rule).toBe('trigger.official_act');
  });

  it('does not take a record named only inside an exclusion ("AI-generated video will not count")', () => {
    const j = judgeWording(
      'Will Trump say "Tariff" this week?',
      'This market will resolve to "Yes" if Donald Trump says the listed term this week. AI-generated audio or video will not count toward this market. The resolution source will be a consensus of credible reporting.',
    );
    expect(factorOf(j, 'trigger_objectivity')?.rule).toBe('trigger.unrecorded_occurrence');
  });
});

// Exclusion clauses never fire the rule their positive form would.
describe('exclusion clauses', () => {
  it('does not read territorial control inside "… do not count"', () => {
    const j = judgeWording(
      'Will Khamenei visit Russia by June 30?',
      'This market will resolve to "Yes" if Ali Khamenei visits Russia by June 30, 2026. Areas under Russian control but not under Russian sovereignty (e.g., Crimea) do not count. The resolution source will be a consensus of credible reporting.',
    );
    expect(factorOf(j, 'contested_reality')?.rule).toBe('contested.neutral_record');
    expect(j.rcg.caps).not.toContain('adversarial_ground_truth');
  });

  it('still reads territorial control stated positively', () => {
    const j = judgeWording(
      'Will Russia capture Kostiantynivka by June 30?',
      'This market will resolve to "Yes" if Kostiantynivka is under Russian control by June 30, 2026. The resolution source will be a consensus of credible reporting.',
    );
    expect(factorOf(j, 'contested_reality')?.rule).toBe('contested.territorial_control');
  });

  it('ignores cues after "excluding", "except", "does not include" and "will not qualify"', () => {
    const j = judgeWording(
      'Will the company ship the product by June 30?',
      'This market will resolve to "Yes" if the company ships the product by June 30, 2026, excluding shipments to areas under military occupation. Deliveries that are substantially delayed will not qualify. The count does not include ceasefire zones. The resolution source is the company’s official press releases.',
    );
    expect(factorOf(j, 'contested_reality')?.rule).toBe('contested.neutral_record');
    expect(factorOf(j, 'trigger_objectivity')?.rule).not.toMatch(/discretionary/);
  });
});
