/**
 * `pmref grade [FILE|-] [--explain]`: grades market records read from a file or stdin. Accepts a
 * venue_a market (optionally with its `series`), a venue_b Gamma market, or a canonical record with
 * spec §2.2 field names; a list in gives a list out. Output keys are spec §2.2 field names plus `rcg`.
 */
import { readFileSync } from 'node:fs';
import { explainJudgment, inputOf, judgeResolution, type ResolutionJudgment } from '../editorial/resolution/index.ts';
import { type Command, parseFlags } from './types.ts';

const USAGE = `pmref grade [FILE|-] [--explain]

Grades how clearly each market will resolve (Resolution Clarity Grade, see METHODOLOGY.md).
Input (JSON): a venue_a market (optionally with a "series" key), a venue_b Gamma market, a
canonical market record (spec §2.2 names), or a list of any of these. FILE defaults to stdin (-).
  --explain   print a factor-by-factor explanation with the quoted evidence instead of JSON
Exit 2 when the input cannot be read or a record is not one of the shapes above.`;

/** The served-shape output of one graded record: spec §2.2 names plus the full rcg. */
function outputOf(kind: string, id: string, question: string | null, j: ResolutionJudgment): Record<string, unknown> {
  return {
    input_kind: kind,
    platform_market_id: id,
    question_raw: question,
    resolution_source_list: j.resolution_source_list,
    source_commitment: j.source_commitment,
    source_commitment_subtype: j.source_commitment_subtype,
    source_mechanism: j.source_mechanism,
    source_of_record: j.source_of_record,
    source_type: j.source_type,
    source_status: j.source_status,
    resolution_source: j.resolution_source,
    source_citation: j.source_citation,
    source_hedge_text: j.source_hedge_text,
    arbitration_model: j.arbitration_model,
    resolution_proposer: j.resolution_proposer,
    regulatory_class: j.regulatory_class,
    resolution_triggers: j.resolution_triggers,
    rcg: j.rcg,
    field_provenance: j.field_provenance,
  };
}

function readInput(path: string): string {
  return path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
}

/** Records in the input: a list, a venue page ({markets: [...]}) or one record. */
function recordsOf(parsed: unknown): { list: boolean; records: unknown[] } {
  if (Array.isArray(parsed)) return { list: true, records: parsed };
  if (
    typeof parsed === 'object' &&
    parsed !== null &&
    'markets' in parsed &&
    Array.isArray(parsed.markets) &&
    !('rules_primary' in parsed) &&
    !('description' in parsed)
  )
    return { list: true, records: parsed.markets };
  return { list: false, records: [parsed] };
}

export const gradeCommand: Command = {
  name: 'grade',
  summary: 'Grade resolution clarity (RCG) of market records from a file or stdin',
  usage: USAGE,
  async run(args: string[]): Promise<number> {
    const { values, positionals } = parseFlags(args, { explain: { type: 'boolean', default: false } }, true);
    const path = positionals[0] ?? '-';
    let parsed: unknown;
    try {
      parsed = JSON.parse(readInput(path));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      process.stderr.write(`pmref grade: cannot read ${path === '-' ? 'stdin' : path} as JSON: ${why}\n`);
      return 2;
    }
    const { list, records } = recordsOf(parsed);
    const outputs: Record<string, unknown>[] = [];
    const explained: string[] = [];
    for (const [i, rec] of records.entries()) {
      const input = inputOf(rec);
      if (input === null) {
        process.stderr.write(
          `pmref grade: record ${i} is not a venue_a market, a venue_b Gamma market or a canonical market record\n`,
        );
        return 2;
      }
      const j = judgeResolution(input.market, input.facts);
      const id = input.market.platform_market_id;
      if (values.explain)
        explained.push(
          explainJudgment({ platform: input.market.platform, id, question: input.market.question_raw }, j),
        );
      else outputs.push(outputOf(input.kind, id, input.market.question_raw, j));
    }
    if (values.explain) process.stdout.write(explained.join('\n'));
    else process.stdout.write(`${JSON.stringify(list ? outputs : outputs[0], null, 2)}\n`);
    return 0;
  },
};
