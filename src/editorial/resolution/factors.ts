/**
 * The seven RCG factors (rcg-model.md "Factors"), each a deterministic rule over venue fields and
 * rules text that returns its rating, the rule id that decided it and the evidence it read.
 */
import type { Evidence, FactorRating, Market, RcgFactorName, VenueFacts } from '../../domain/index.ts';
import type { Arbitration } from './arbitration.ts';
import { type Commitment, candidateEvidence } from './commitment.ts';
import { findOutside } from './exclusions.ts';
import type { SourceScan } from './sources.ts';
import { fieldEvidence, findIn, quoteEvidence, type Span } from './text.ts';
import {
  CHANGE_THRESHOLD_RE,
  DISCRETIONARY_RE,
  hasNumericStrike,
  OCCURRENCE_RE,
  OFFICIAL_ACT_RE,
  QUANTITY_THRESHOLD_RE,
  RECORD_RE,
  type TriggerZone,
} from './triggers.ts';

/** Factor weights (sum 100); pass earns the weight, partial half, fail zero. */
export const FACTOR_WEIGHTS: Readonly<Record<RcgFactorName, number>> = {
  trigger_objectivity: 28,
  contested_reality: 22,
  source_clarity: 18,
  arbiter_incentive: 12,
  source_conflict_rule: 8,
  temporal_precision: 7,
  source_mutability: 5,
};

export interface FactorResult {
  factor: RcgFactorName;
  rating: FactorRating;
  rule: string;
  evidence: Evidence[];
}

/** Everything the factor rules read, computed once per market. */
export interface FactorInput {
  market: Market;
  facts: VenueFacts;
  scan: SourceScan;
  zone: TriggerZone;
  commitment: Commitment;
  arbitration: Arbitration;
}

const ADVERSARIAL_KINDS = new Set(['war_map', 'state_media']);
const TERRITORY_RE =
  /\b(?:war map|control map|territorial control|under (?:the )?(?:full )?(?:control|occupation) of|(?:under|in) [A-Z]\w+ control|shaded|front ?lines?)\b/i;
const INTERESTED_RE =
  /\b(?:claims? responsibility|(?:government|regime|military|officials|state media|ministry|IDF|IRGC)\b[^.]{0,40}?\b(?:claims?|says|said|announce[sd]?|reports?|confirms?)|self-reported|according to (?:the )?(?:company|campaign|government|regime|military)|concede[sd]?|disputed|contested|recount|fraud|irregularities|air ?strikes?|military (?:action|strike|operation)|invasion|invade[sd]?|ceasefire|captur(?:e|es|ed)|regime|coup|annex(?:es|ed)?|occupation)\b/i;
const TIME_OF_DAY_RE =
  /\b\d{1,2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)\s*\(?(?:ET|EST|EDT|UTC|GMT|PT|PST|PDT|CT|CST|CET|BST)\b|\b\d{1,2}:\d{2}\s*(?:ET|EST|EDT|UTC|GMT)\b|\b(?:noon|midnight)\s+(?:ET|EST|EDT|UTC|GMT)\b/;
const DATE_RE =
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}\b|\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b(?:by|before|after|in|during|end of) (?:Q[1-4] )?\d{4}\b/;
const DATED_RELEASE_RE =
  /\b(?:for (?:the )?(?:month of )?(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}|release (?:for|on|scheduled)|report for|chart (?:for|dated)|meeting (?:on|scheduled)|(?:game|match|fight|race) (?:originally )?scheduled for|dated)\b/i;
const SNAPSHOT_RE =
  /\b(?:first|initial|advance|preliminary) (?:release|print|estimate|publication|announcement|reported|report|check)|as (?:first|initially) (?:published|reported|released)|(?:without regard to|regardless of) (?:any )?(?:subsequent |later )?revisions?|revisions? (?:will|shall) not|subsequent revisions|snapshot|at (?:the time of|check time)|first check|archived|as of (?:the )?(?:close|expiration|resolution)/i;

/**
 * Trigger objectivity (28): a number crossing a threshold, an official act, or an occurrence shown by
 * a named record, vs a judgement call. Cues inside exclusion clauses ("… do not count") never fire.
 */
export function triggerObjectivity(i: FactorInput): FactorResult {
  const { market, scan, zone, facts } = i;
  const text = scan.doc.text;
  const field = scan.doc.field;
  const q = market.question_raw ?? '';
  // Judgement words count anywhere in the trigger zone; anchors only in the question and the Yes condition.
  const hit = (re: RegExp, withDefinitions = true): Evidence | null => {
    const inQ = findIn(q, re);
    if (inQ) return quoteEvidence('question_raw', inQ);
    const spans: Array<[number, number]> = [];
    if (zone.condition) spans.push([zone.condition.start, zone.condition.end]);
    if (withDefinitions) for (const d of zone.definitions) spans.push([d.start, d.end]);
    for (const [a, b] of spans) {
      const s = findOutside(text, re, zone.exclusions, a, b);
      if (s) return quoteEvidence(field, s);
    }
    return null;
  };
  const disc = hit(DISCRETIONARY_RE);
  // A stated number first, so the evidence quotes it; then a stated change of a measured quantity.
  const num =
    hit(QUANTITY_THRESHOLD_RE, false) ??
    hit(CHANGE_THRESHOLD_RE, false) ??
    (hasNumericStrike(facts) ? fieldEvidence('strike_type', facts.strike_type) : null);
  const act = hit(OFFICIAL_ACT_RE, false);
  const occurrence = act ? null : hit(OCCURRENCE_RE, false);
  const record = occurrence ? findOutside(text, RECORD_RE, zone.exclusions) : null;
  const recorded = occurrence && record ? [occurrence, quoteEvidence(field, record)] : null;
  const anchor = num ?? act ?? recorded?.[0] ?? null;
  if (disc && !anchor) return result('trigger_objectivity', 'fail', 'trigger.discretionary', [disc]);
  if (disc && anchor)
    return result('trigger_objectivity', 'partial', 'trigger.discretionary_with_anchor', [disc, anchor]);
  if (num) return result('trigger_objectivity', 'pass', 'trigger.numeric_threshold', [num]);
  if (act) return result('trigger_objectivity', 'pass', 'trigger.official_act', [act]);
  if (recorded) return result('trigger_objectivity', 'pass', 'trigger.recorded_occurrence', recorded);
  if (occurrence) return result('trigger_objectivity', 'partial', 'trigger.unrecorded_occurrence', [occurrence]);
  const ev = zone.condition ? [quoteEvidence(field, zone.condition)] : q ? [fieldEvidence('question_raw', q)] : [];
  return result('trigger_objectivity', 'partial', 'trigger.unanchored_occurrence', ev);
}

/** Contested reality (22): is the fact controlled or disputed by an interested party who shapes the record? */
export function contestedReality(i: FactorInput): FactorResult {
  const { scan, market } = i;
  const adversarial = scan.candidates.find((c) => ADVERSARIAL_KINDS.has(c.kind) && !c.hedged);
  if (adversarial) {
    const ev: Evidence =
      adversarial.start !== null && adversarial.end !== null
        ? quoteEvidence(adversarial.field, {
            quote: scan.doc.text.slice(adversarial.start, adversarial.end),
            start: adversarial.start,
            end: adversarial.end,
          })
        : fieldEvidence(adversarial.field, { name: adversarial.name, url: adversarial.url });
    return result('contested_reality', 'fail', 'contested.adversarial_source', [ev]);
  }
  const q = market.question_raw ?? '';
  // A cue inside an exclusion clause ("areas under Russian control … do not count") is not the fact.
  const text = scan.doc.text;
  const terr = findOutside(text, TERRITORY_RE, i.zone.exclusions);
  const terrQ = findIn(q, TERRITORY_RE);
  if (terr || terrQ) {
    const ev = terrQ ? quoteEvidence('question_raw', terrQ) : quoteEvidence(scan.doc.field, terr as Span);
    return result('contested_reality', 'fail', 'contested.territorial_control', [ev]);
  }
  const claimQ = findIn(q, INTERESTED_RE);
  const claim = claimQ ? null : findOutside(text, INTERESTED_RE, i.zone.exclusions, 0, Math.min(text.length, 1200));
  if (claimQ || claim) {
    const ev = claimQ ? quoteEvidence('question_raw', claimQ) : quoteEvidence(scan.doc.field, claim as Span);
    return result('contested_reality', 'partial', 'contested.interested_party', [ev]);
  }
  return result('contested_reality', 'pass', 'contested.neutral_record', []);
}

/** Source clarity (18): a committed, authoritative named source with a usable link. */
export function sourceClarity(i: FactorInput): FactorResult {
  const c = i.commitment;
  const ev = c.evidence.slice(0, 2);
  switch (c.source_commitment_subtype) {
    case 'named':
      return c.citation_from_venue
        ? result('source_clarity', 'pass', 'clarity.named_authority_linked', ev)
        : result('source_clarity', 'partial', 'clarity.named_authority_unlinked', ev);
    case 'committed_secondhand':
      return result('source_clarity', 'partial', 'clarity.secondhand_source', ev);
    case 'uncommitted_illustrative':
      return result('source_clarity', 'partial', 'clarity.illustrative_candidate', ev);
    case 'uncommitted_placeholder':
    case 'none':
      return result('source_clarity', 'fail', 'clarity.no_committed_source', ev);
  }
}

/** Arbiter incentive (12): regulated staff or automated settlement pass; a permissionless token-vote oracle fails. */
export function arbiterIncentive(i: FactorInput): FactorResult {
  const a = i.arbitration;
  if (a.arbitration_model === 'venue_a_staff')
    return result('arbiter_incentive', 'pass', 'arbiter.regulated_staff', a.evidence);
  if (a.arbitration_model === 'platform_auto')
    return result('arbiter_incentive', 'pass', 'arbiter.automated_settlement', a.evidence);
  if (a.resolution_proposer === 'managed_whitelist')
    return result('arbiter_incentive', 'partial', 'arbiter.managed_oracle', a.evidence);
  return result('arbiter_incentive', 'fail', 'arbiter.permissionless_oracle', a.evidence);
}

/** Source-conflict rule (8): only when two or more sources genuinely compete; pass with a stated rule. */
export function sourceConflictRule(i: FactorInput): FactorResult {
  const c = i.commitment;
  if (c.competing < 2) return result('source_conflict_rule', 'not_applicable', 'conflict.single_source', []);
  const ev = c.evidence.slice(0, 3);
  switch (c.conflict_rule) {
    case 'precedence':
      return result('source_conflict_rule', 'pass', 'conflict.precedence_stated', ev);
    case 'quorum':
      return result('source_conflict_rule', 'pass', 'conflict.quorum_stated', ev);
    case 'authority_outranks':
      return result('source_conflict_rule', 'partial', 'conflict.authority_outranks_menu', ev);
    // "The primary resolution source will be X, however … may also be used": an order, but no rule for when.
    case 'primary_declared':
      return result('source_conflict_rule', 'partial', 'conflict.primary_declared_fallback', ev);
    case null:
      return result('source_conflict_rule', 'fail', 'conflict.no_rule', ev);
  }
}

/** Temporal precision (7): a precise controlling timestamp aligned with when the source publishes. */
export function temporalPrecision(i: FactorInput): FactorResult {
  const { scan, market, commitment } = i;
  const text = scan.doc.text;
  const q = market.question_raw ?? '';
  const tod = findIn(text, TIME_OF_DAY_RE);
  const livePage = commitment.record !== null && commitment.record.mutability === 'editable' && !SNAPSHOT_RE.test(text);
  if (tod && livePage)
    return result('temporal_precision', 'partial', 'time.live_page_unaligned', [
      quoteEvidence(scan.doc.field, tod),
      fieldEvidence('source_of_record', commitment.source_of_record),
    ]);
  if (tod) return result('temporal_precision', 'pass', 'time.precise_timestamp', [quoteEvidence(scan.doc.field, tod)]);
  const date = findIn(text, DATE_RE) ?? null;
  const dateQ = findIn(q, DATE_RE);
  const release = findIn(text, DATED_RELEASE_RE);
  if ((date || dateQ) && release && !livePage)
    return result('temporal_precision', 'pass', 'time.dated_release', [quoteEvidence(scan.doc.field, release)]);
  if (date) return result('temporal_precision', 'partial', 'time.date_only', [quoteEvidence(scan.doc.field, date)]);
  if (dateQ) return result('temporal_precision', 'partial', 'time.date_only', [quoteEvidence('question_raw', dateQ)]);
  if (market.close_at !== null)
    return result('temporal_precision', 'partial', 'time.venue_close_only', [
      fieldEvidence('close_at', market.close_at),
    ]);
  return result('temporal_precision', 'fail', 'time.no_timestamp', []);
}

/** Source mutability (5): can the source be edited after the fact with no snapshot or first-published rule? */
export function sourceMutability(i: FactorInput): FactorResult {
  const { scan, commitment } = i;
  const snap = findIn(scan.doc.text, SNAPSHOT_RE);
  const snapEv = snap ? [quoteEvidence(scan.doc.field, snap)] : [];
  const rec = commitment.record;
  const recEv = rec ? [candidateEvidence(scan, rec)] : commitment.evidence.slice(0, 1);
  const sub = commitment.source_commitment_subtype;
  if (sub === 'none') return result('source_mutability', 'fail', 'mutability.no_source', []);
  if (rec === null || sub === 'uncommitted_placeholder')
    return snap
      ? result('source_mutability', 'partial', 'mutability.reporting_with_snapshot', snapEv)
      : result('source_mutability', 'partial', 'mutability.reporting_revisable', recEv);
  switch (rec.mutability) {
    case 'fixed':
      return result('source_mutability', 'pass', 'mutability.fixed_record', recEv);
    case 'revisable':
      return snap
        ? result('source_mutability', 'pass', 'mutability.first_release_rule', snapEv)
        : result('source_mutability', 'partial', 'mutability.revisable_no_rule', recEv);
    case 'editable':
      return snap
        ? result('source_mutability', 'partial', 'mutability.editable_with_snapshot', snapEv)
        : result('source_mutability', 'fail', 'mutability.editable_no_snapshot', recEv);
  }
}

function result(factor: RcgFactorName, rating: FactorRating, rule: string, evidence: Evidence[]): FactorResult {
  return { factor, rating, rule, evidence };
}
