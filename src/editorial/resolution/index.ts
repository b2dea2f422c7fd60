/**
 * The resolution judgment of one market (issue 5): sources, commitment, arbitration, triggers and
 * the Resolution Clarity Grade, each field with its provenance and each factor with its rule and
 * evidence. Pure: the same (market, facts) always gives the same judgment.
 */
import type { FieldProvenance, Market, VenueFacts } from '../../domain/index.ts';
import { arbitrationOf } from './arbitration.ts';
import { classifyCommitment } from './commitment.ts';
import type { ResolutionJudgment } from './judgment.ts';
import { gradeOf } from './rcg.ts';
import { REGISTRY } from './registry.ts';
import { type Candidate, scanSources, sourceListOf } from './sources.ts';
import { triggersOf, triggerZoneOf } from './triggers.ts';

export type { Arbitration } from './arbitration.ts';
export { arbitrationOf } from './arbitration.ts';
export type { Commitment } from './commitment.ts';
export { classifyCommitment, sourceStatusOf } from './commitment.ts';
export { explainJudgment } from './explain.ts';
export { FACTOR_WEIGHTS } from './factors.ts';
export type { ResolutionJudgment } from './judgment.ts';
export type { InputKind } from './native-input.ts';
export { canonicalInput, detectInputKind, inputOf, venueAInput, venueBInput } from './native-input.ts';
export { applyCaps, bandOf, RUBRIC_VERSION } from './rcg.ts';
export { REGISTRY } from './registry.ts';
export { scanSources } from './sources.ts';

const REGISTRY_URL = new Map(REGISTRY.entries.map((e) => [e.id, e.url]));
const registryUrlOf = (c: Candidate): string | null => (c.entry_id ? (REGISTRY_URL.get(c.entry_id) ?? null) : null);

const RISK_BY_RULE: Readonly<Record<string, string>> = {
  'trigger.discretionary': 'The Yes condition needs judgement, not measurement.',
  'trigger.discretionary_with_anchor': 'The Yes condition mixes a measurable anchor with a judgement call.',
  'contested.adversarial_source': 'The source is controlled by a party to the dispute.',
  'contested.territorial_control': 'Territorial control is contested and shaped by the parties.',
  'contested.interested_party': 'Interested parties shape the record of this fact.',
  'clarity.no_committed_source': 'No committed resolution source.',
  'arbiter.permissionless_oracle': 'Anyone who posts a bond may propose the outcome (permissionless oracle).',
  'conflict.no_rule': 'Several sources are named with no rule for when they disagree.',
  'time.live_page_unaligned': 'The deadline is precise but the source is a live page that updates on its own schedule.',
  'mutability.editable_no_snapshot': 'The source can be edited after the fact and no snapshot rule is stated.',
};

/**
 * Judges how a market resolves and how clearly. The lead wires this into `deriveEvent`.
 * @example judgeResolution(market, facts).rcg.grade // 'A' | 'B' | 'C'
 */
export function judgeResolution(market: Market, facts: VenueFacts): ResolutionJudgment {
  const scan = scanSources(market, facts);
  const commitment = classifyCommitment(scan, registryUrlOf);
  const arbitration = arbitrationOf(market, facts);
  const zone = triggerZoneOf(scan.doc, scan.sentences);
  const rcg = gradeOf({ market, facts, scan, zone, commitment, arbitration });
  const risks = rcg.factors.map((f) => RISK_BY_RULE[f.rule]).filter((r): r is string => r !== undefined);
  const triggers = triggersOf(market, facts, scan.doc, scan.sentences, zone, commitment.resolution_source, risks);
  const list = sourceListOf(scan);

  const editorial = (rule: string, note?: string) =>
    note === undefined
      ? { source: 'service_editorial' as const, rule }
      : { source: 'service_editorial' as const, rule, note };
  const field_provenance: FieldProvenance = {
    resolution_source_list:
      list.length === 0
        ? editorial('sources.none_found', 'no source in the venue fields or the rules text')
        : list.some((s) => s.provenance === 'service_editorial')
          ? editorial(
              'sources.venue_fields_and_prose',
              'venue-listed items are platform_api; prose finds are service_editorial',
            )
          : { source: 'platform_api', rule: 'sources.venue_fields' },
    source_commitment: editorial(commitment.rule),
    source_commitment_subtype: editorial(commitment.rule),
    source_mechanism: editorial(commitment.rule),
    source_of_record: editorial(commitment.rule),
    source_type: editorial(commitment.rule),
    source_status: { source: 'derived', rule: 'status.pure_function_of_commitment' },
    resolution_source: editorial(commitment.rule),
    source_citation: commitment.citation_from_venue
      ? { source: 'platform_api', rule: commitment.rule }
      : editorial(commitment.rule, commitment.source_citation ? 'link from the authority registry' : undefined),
    source_hedge_text: editorial(commitment.rule),
    arbitration_model: editorial(arbitration.rule, arbitration.note),
    resolution_proposer: editorial(arbitration.rule, arbitration.note),
    regulatory_class: editorial(arbitration.rule),
    resolution_triggers:
      triggers === null
        ? editorial('triggers.no_yes_condition', 'the text states no parseable Yes condition')
        : editorial('triggers.yes_condition'),
    rcg: { source: 'derived', rule: rcg.rubric_version },
  };

  return {
    resolution_source_list: list.length > 0 ? list : null,
    source_commitment: commitment.source_commitment,
    source_commitment_subtype: commitment.source_commitment_subtype,
    source_mechanism: commitment.source_mechanism,
    source_of_record: commitment.source_of_record,
    source_type: commitment.source_type,
    source_status: commitment.source_status,
    resolution_source: commitment.resolution_source,
    source_citation: commitment.source_citation,
    source_hedge_text: commitment.source_hedge_text,
    arbitration_model: arbitration.arbitration_model,
    resolution_proposer: arbitration.resolution_proposer,
    regulatory_class: arbitration.regulatory_class,
    resolution_triggers: triggers,
    rcg,
    field_provenance,
  };
}
