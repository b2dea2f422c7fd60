/**
 * A plain-text explanation of a resolution judgment for a person: the grade, the caps, the
 * commitment and every factor with its rule and the quoted evidence that decided it.
 */
import type { Evidence } from '../../domain/index.ts';
import type { ResolutionJudgment } from './judgment.ts';

const RATING_WORD = { pass: 'pass', partial: 'partial', fail: 'fail', not_applicable: 'n/a' } as const;

function evidenceLine(e: Evidence): string {
  if (e.quote !== null) {
    const q = e.quote.length > 160 ? `${e.quote.slice(0, 157)}...` : e.quote;
    return `${e.field}[${e.start}..${e.end}]: "${q.replace(/\s+/g, ' ')}"`;
  }
  return `${e.field} = ${JSON.stringify(e.value ?? null)}`;
}

/**
 * Explains one judgment, factor by factor.
 * @example explainJudgment({ platform: 'venue_b', id: '0x…', question: 'Will…?' }, judgeResolution(m, f))
 */
export function explainJudgment(
  head: { platform: string; id: string; question: string | null },
  j: ResolutionJudgment,
): string {
  const r = j.rcg;
  const lines: string[] = [];
  lines.push(`${head.platform} ${head.id}${head.question ? ` — ${head.question}` : ''}`);
  lines.push(
    `  Grade ${r.grade}: score ${r.score}/100 over ${r.applied_factors} applicable factors (rubric ${r.rubric_version})`,
  );
  lines.push(`  Caps: ${r.caps.length > 0 ? r.caps.join(', ') : 'none'}`);
  const commitRule = j.field_provenance.source_commitment?.rule ?? '';
  lines.push(
    `  Commitment: ${j.source_commitment_subtype}${j.source_mechanism ? ` (${j.source_mechanism})` : ''} [${commitRule}]`,
  );
  if (j.source_of_record) lines.push(`    source of record: "${j.source_of_record}"`);
  if (j.source_hedge_text) lines.push(`    hedge: "${j.source_hedge_text}"`);
  if (j.source_citation) lines.push(`    citation: ${j.source_citation}`);
  lines.push(`  Arbitration: ${j.arbitration_model}, proposer ${j.resolution_proposer}, ${j.regulatory_class}`);
  lines.push('  Factors:');
  for (const f of r.factors) {
    const pts = f.rating === 'not_applicable' ? 'excluded' : `${f.points}/${f.weight}`;
    lines.push(`    ${f.factor.padEnd(21)} ${RATING_WORD[f.rating].padEnd(8)} ${pts.padEnd(9)} ${f.rule}`);
    for (const e of f.evidence.slice(0, 3)) lines.push(`        ${evidenceLine(e)}`);
  }
  if (j.resolution_triggers?.resolution_risks) lines.push(`  Risks: ${j.resolution_triggers.resolution_risks}`);
  return `${lines.join('\n')}\n`;
}
