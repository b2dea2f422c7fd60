/**
 * Resolution Clarity Grade: score = round(100 × earned / applicable), band A ≥ 80, B 55–79, C ≤ 54,
 * then caps (ceilings that only ever lower the grade). The rubric is versioned: any change to a
 * weight, band, cap or rule bumps RUBRIC_VERSION and is recorded in METHODOLOGY.md.
 */
import type { Evidence, FactorRating, Grade, Rcg, RcgCap, RcgFactor } from '../../domain/index.ts';
import type { Arbitration } from './arbitration.ts';
import type { Commitment } from './commitment.ts';
import {
  arbiterIncentive,
  contestedReality,
  FACTOR_WEIGHTS,
  type FactorInput,
  type FactorResult,
  sourceClarity,
  sourceConflictRule,
  sourceMutability,
  temporalPrecision,
  triggerObjectivity,
} from './factors.ts';
import { type Candidate, type SourceScan, sameSource } from './sources.ts';
import { findIn, quoteEvidence } from './text.ts';

export const RUBRIC_VERSION = 'rcg-1.1.0';

const CREDIT: Readonly<Record<FactorRating, number>> = { pass: 1, partial: 0.5, fail: 0, not_applicable: 0 };
const GRADE_RANK: Readonly<Record<Grade, number>> = { A: 0, B: 1, C: 2 };
const CAP_CEILING: Readonly<Record<RcgCap, Grade>> = {
  commitment_committed_secondhand: 'C',
  commitment_uncommitted_illustrative: 'B',
  commitment_uncommitted_placeholder: 'C',
  commitment_none: 'C',
  multi_source_no_conflict_rule: 'C',
  discretionary_trigger_no_source: 'C',
  permissionless_oracle_discretionary_trigger: 'C',
  adversarial_ground_truth: 'B',
  exchange_notice_source_conflict: 'C',
};
/** A venue notice inside the rules ("Clarification 01/26/2026:", "Update:", "Note:"). */
const NOTICE_RE = /\b(?:Clarification|Update|Notice|Note|Amendment)\b[^:\n]{0,30}:/;

/** Band of a score before caps. */
export function bandOf(score: number): Grade {
  return score >= 80 ? 'A' : score >= 55 ? 'B' : 'C';
}

/** The grade after applying cap ceilings (the worse of band and every ceiling). */
export function applyCaps(band: Grade, caps: readonly RcgCap[]): Grade {
  let g = band;
  for (const c of caps) if (GRADE_RANK[CAP_CEILING[c]] > GRADE_RANK[g]) g = CAP_CEILING[c];
  return g;
}

/** Computes all seven factors, the score, caps and grade of one market. */
export function gradeOf(input: FactorInput): Rcg {
  const results: FactorResult[] = [
    triggerObjectivity(input),
    contestedReality(input),
    sourceClarity(input),
    arbiterIncentive(input),
    sourceConflictRule(input),
    temporalPrecision(input),
    sourceMutability(input),
  ];
  let earned = 0;
  let applicable = 0;
  const factors: RcgFactor[] = results.map((r) => {
    const weight = FACTOR_WEIGHTS[r.factor];
    const points = weight * CREDIT[r.rating];
    if (r.rating !== 'not_applicable') {
      applicable += weight;
      earned += points;
    }
    return { factor: r.factor, weight, rating: r.rating, points, rule: r.rule, evidence: r.evidence };
  });
  const score = applicable === 0 ? 0 : Math.round((100 * earned) / applicable);
  const caps = capsOf(input.commitment, input.arbitration, results, input.scan);
  return {
    grade: applyCaps(bandOf(score), caps),
    score,
    caps,
    applied_factors: results.filter((r) => r.rating !== 'not_applicable').length,
    rubric_version: RUBRIC_VERSION,
    factors,
  };
}

function capsOf(c: Commitment, a: Arbitration, results: readonly FactorResult[], scan: SourceScan): RcgCap[] {
  const rule = (f: string) => results.find((r) => r.factor === f);
  const caps: RcgCap[] = [];
  switch (c.source_commitment_subtype) {
    case 'committed_secondhand':
      caps.push('commitment_committed_secondhand');
      break;
    case 'uncommitted_illustrative':
      caps.push('commitment_uncommitted_illustrative');
      break;
    case 'uncommitted_placeholder':
      caps.push('commitment_uncommitted_placeholder');
      break;
    case 'none':
      caps.push('commitment_none');
      break;
    case 'named':
      break;
  }
  if (rule('source_conflict_rule')?.rating === 'fail') caps.push('multi_source_no_conflict_rule');
  const trigger = rule('trigger_objectivity');
  if (trigger?.rating === 'fail' && c.source_commitment !== 'named') caps.push('discretionary_trigger_no_source');
  const discretionary =
    trigger?.rule === 'trigger.discretionary' || trigger?.rule === 'trigger.discretionary_with_anchor';
  if (discretionary && a.resolution_proposer === 'permissionless')
    caps.push('permissionless_oracle_discretionary_trigger');
  if (rule('contested_reality')?.rating === 'fail') caps.push('adversarial_ground_truth');
  if (noticeNamesOtherSource(c, scan)) caps.push('exchange_notice_source_conflict');
  return caps;
}

/** exchange_notice_source_conflict: a venue notice in the rules names a source that is not the committed one. */
function noticeNamesOtherSource(c: Commitment, scan: SourceScan): boolean {
  const record = c.record;
  if (c.source_commitment !== 'named' || record === null) return false;
  const notice = findIn(scan.doc.text, NOTICE_RE);
  if (notice === null) return false;
  return scan.candidates.some(
    (x: Candidate) => x.origin === 'prose' && (x.start ?? -1) > notice.start && !x.hedged && !sameSource(x, record),
  );
}

/** Evidence for the notice cap, for explanations. */
export function noticeEvidence(scan: SourceScan): Evidence[] {
  const notice = findIn(scan.doc.text, NOTICE_RE);
  return notice ? [quoteEvidence(scan.doc.field, notice)] : [];
}
