// Invariant: every code pmref can emit (factor rule ids, the past-close status rule, caps, commitment subtypes, screen regimes and reason codes) has a glossary entry of one or two sentences, no entry names a code the code no longer emits, stated cap ceilings and factor weights equal the rubric's, and a lookup that finds nothing says why and names the nearest codes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGlossary, GLOSSARY, lookupGlossary } from '../../src/agents/glossary.ts';
import {
  CAP_MEANINGS,
  COMMITMENT_SUBTYPES,
  FACTOR_MEANINGS,
  RCG_CAPS,
  RCG_FACTORS,
  RULE_MEANINGS,
  SCREEN_FUNNEL_REASON_MEANINGS,
  SCREEN_RULE_REASON_MEANINGS,
} from '../../src/domain/index.ts';
import { applyCaps, FACTOR_WEIGHTS } from '../../src/editorial/resolution/index.ts';
import { REGIMES } from '../../src/signals/screens/index.ts';

const source = (path: string) => readFileSync(new URL(`../../src/${path}`, import.meta.url), 'utf8');
const all = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1] ?? '');

/** The rule ids the factor functions can return: the third argument of every `result(factor, rating, rule, …)`. */
const EMITTED_RULES = all(
  source('editorial/resolution/factors.ts'),
  /result\(\s*'[a-z_]+',\s*'[a-z_]+',\s*'([a-z_.]+)'/g,
);
/** Rules of served provenance outside the grade (the derived `closed` status). */
const SERVED_STATUS_RULES = all(source('serve/serialize.ts'), /rule: '([a-z_.]+)'/g);
/** Reason codes the screening funnel sets itself, whatever the regime. */
const FUNNEL_REASONS = [
  ...all(source('signals/screens/evaluate.ts'), /done\('not_eligible', \['([a-z_]+)'\]/g),
  ...all(source('signals/screens/evaluate.ts'), /missing\.push\('([a-z_]+)'\)/g),
];

const termsOf = (kind: string) => GLOSSARY.filter((e) => e.kind === kind).map((e) => e.term);

describe('the glossary covers every code the code can emit', () => {
  it('finds the emitted codes in the sources (the extraction itself works)', () => {
    expect(EMITTED_RULES.length).toBeGreaterThan(35);
    expect(EMITTED_RULES).toContain('clarity.no_committed_source');
    expect(SERVED_STATUS_RULES).toEqual(['past_close']);
    expect(FUNNEL_REASONS.sort()).toEqual(
      [
        'category_not_permitted',
        'no_committed_source',
        'no_resolution_date',
        'under_min_maturity',
        'venue_out_of_scope',
      ].sort(),
    );
  });

  it('has an entry for every factor rule id and the status rule, and none for a rule no longer emitted', () => {
    const emitted = new Set([...EMITTED_RULES, ...SERVED_STATUS_RULES]);
    expect([...emitted].filter((r) => RULE_MEANINGS[r] === undefined)).toEqual([]);
    expect(Object.keys(RULE_MEANINGS).filter((r) => !emitted.has(r))).toEqual([]);
    expect(termsOf('rule').sort()).toEqual([...emitted].sort());
  });

  it('has every cap with the ceiling the rubric applies, and every factor with its weight', () => {
    expect(termsOf('cap')).toEqual([...RCG_CAPS]);
    for (const cap of RCG_CAPS) expect([cap, CAP_MEANINGS[cap].ceiling]).toEqual([cap, applyCaps('A', [cap])]);
    expect(termsOf('factor')).toEqual([...RCG_FACTORS]);
    for (const f of RCG_FACTORS) expect([f, FACTOR_MEANINGS[f].weight]).toEqual([f, FACTOR_WEIGHTS[f]]);
  });

  it('has every commitment subtype, grade and relation', () => {
    expect(termsOf('commitment_subtype')).toEqual([...COMMITMENT_SUBTYPES]);
    expect(termsOf('grade')).toEqual(['A', 'B', 'C', 'pending']);
    expect(termsOf('relation')).toEqual(['same', 'complement', 'related']);
  });

  it('has every shipped regime and a written meaning for every reason code a regime can give', () => {
    expect(termsOf('regime')).toEqual(REGIMES.map((r) => r.regime));
    const reasons = new Set([...FUNNEL_REASONS, ...REGIMES.flatMap((r) => r.rules.map((rule) => rule.reason))]);
    const written = (code: string) =>
      SCREEN_FUNNEL_REASON_MEANINGS[code] !== undefined || SCREEN_RULE_REASON_MEANINGS[code] !== undefined;
    expect([...reasons].filter((c) => !written(c))).toEqual([]);
    expect(termsOf('reason_code').sort()).toEqual([...reasons].sort());
    const stale = [...Object.keys(SCREEN_FUNNEL_REASON_MEANINGS), ...Object.keys(SCREEN_RULE_REASON_MEANINGS)].filter(
      (c) => !reasons.has(c),
    );
    expect(stale).toEqual([]);
  });

  it('picks up a new regime file with no edit, and says when its reason code has no written meaning', () => {
    const base = REGIMES[0];
    if (!base) throw new Error('no regime shipped');
    const extra = {
      ...base,
      regime: 'test-regime',
      rules: [{ ...base.rules[0], id: 'x', reason: 'brand_new_reason' }] as typeof base.rules,
    };
    const g = buildGlossary([extra]);
    expect(g.find((e) => e.term === 'test-regime')?.kind).toBe('regime');
    expect(g.find((e) => e.term === 'brand_new_reason')).toMatchObject({
      kind: 'reason_code',
      regimes: ['test-regime'],
      meaning: expect.stringMatching(/test-regime/),
    });
  });

  it('explains each code in one or two sentences', () => {
    const sentences = (s: string) => s.split(/(?<=[.!?])\s+(?=[A-Z"“(])/).filter((x) => x.trim() !== '');
    const long = GLOSSARY.filter((e) => sentences(e.meaning).length > 2).map((e) => `${e.term}: ${e.meaning}`);
    expect(long).toEqual([]);
    expect(GLOSSARY.every((e) => e.meaning.length >= 20)).toBe(true);
  });
});

describe('lookupGlossary', () => {
  it('answers an exact code in any case or spelling, a word, and a kind', () => {
    expect(lookupGlossary({ term: '`Commitment_None`' }).entries).toEqual([
      expect.objectContaining({ term: 'commitment_none', kind: 'cap', ceiling: 'C' }),
    ]);
    expect(lookupGlossary({ term: 'commitment none' }).entries.map((e) => e.term)).toEqual(['commitment_none']);
    const word = lookupGlossary({ term: 'mutability' }).entries.map((e) => e.term);
    expect(word).toContain('source_mutability');
    expect(word).toContain('mutability.editable_no_snapshot');
    expect(lookupGlossary({ kind: 'cap' }).count).toBe(RCG_CAPS.length);
    expect(lookupGlossary({}).count).toBe(GLOSSARY.length);
  });

  it('says why nothing matched and names the nearest codes', () => {
    const r = lookupGlossary({ term: 'comitment_nonee' });
    expect(r.entries).toEqual([]);
    expect(r.notice?.reason).toMatch(/comitment_nonee/);
    expect(r.notice?.try[0]).toBe('term=commitment_none');
    expect(r.notice?.try.at(-1)).toMatch(/kinds: grade, factor, rule/);
  });
});
