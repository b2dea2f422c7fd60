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
