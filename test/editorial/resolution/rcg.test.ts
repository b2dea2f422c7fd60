// The grade arithmetic of rcg-model.md: weights sum to 100, score = round(100 × earned / applicable), bands A ≥ 80 / B 55–79 / C ≤ 54, and caps only lower a grade.
import { describe, expect, it } from 'vitest';
import { RCG_CAPS } from '../../../src/domain/index.ts';
import { applyCaps, bandOf, FACTOR_WEIGHTS, sourceStatusOf } from '../../../src/editorial/resolution/index.ts';

describe('RCG arithmetic', () => {
  it('weights sum to 100', () => {
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('bands at 80 and 55', () => {
    expect([100, 80, 79, 55, 54, 0].map(bandOf)).toEqual(['A', 'A', 'B', 'B', 'C', 'C']);
  });

  it('caps are ceilings that never raise a grade', () => {
    for (const cap of RCG_CAPS) {
      expect(applyCaps('C', [cap])).toBe('C');
      expect(['B', 'C']).toContain(applyCaps('A', [cap]));
    }
    expect(applyCaps('A', ['commitment_uncommitted_illustrative'])).toBe('B');
    expect(applyCaps('A', ['adversarial_ground_truth'])).toBe('B');
    expect(applyCaps('B', ['commitment_none'])).toBe('C');
    expect(applyCaps('A', [])).toBe('A');
  });

  it('source_status is a pure function of the commitment', () => {
    expect(sourceStatusOf('named')).toBe('platform_named');
    expect(sourceStatusOf('uncommitted')).toBe('no_committed_source');
    expect(sourceStatusOf('none')).toBe('no_source_stated');
  });
});
