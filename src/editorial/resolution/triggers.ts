/**
 * What makes a market resolve, parsed from the rules where the text supports it: the Yes
 * condition, its type (threshold, official act, occurrence), the threshold, exclusions, and the
 * trigger zone the objectivity factor reads (question + Yes condition + definitions).
 */
import type { Market, ResolutionTriggers, VenueFacts } from '../../domain/index.ts';
import type { Doc, Sentence, Span } from './text.ts';

/** Numeric comparators: "above 3.5%", "at least $110,000", "≥ 50". */
export const NUMERIC_RE =
  /(?:\b(?:above|below|at least|at most|more than|less than|greater than|fewer than|higher than|lower than|exceeds?|exceeded|reach(?:es|ed)?|hits?|dips? to|falls? to|drops? to|rises? to|trades? at|or (?:more|higher|above|lower|fewer|less)|between|under|over)\b|[≥≤><])\s*[$€£]?\s*-?\d[\d,]*(?:\.\d+)?\s*(?:%|bps|basis points|°\s?[CF]|[kKmMbB]\b|million|billion|trillion)?|\b\d+(?:\.\d+)?\s*(?:%|bps|basis points|°\s?[CF])|[$€£]\s?\d|\b(?:greater|higher|lower|less) than (?:or equal to )?(?:the )?(?:[\w$]+ ){0,3}?(?:price|value|close|open|level|rate|reading)\b/i;
/** Official acts and recorded outcomes: elections won, documents signed, data released, games won. */
export const OFFICIAL_ACT_RE =
  /\b(?:wins?|won|is elected|elected|inaugurated|sworn in|nominat(?:es|ed)|confirm(?:s|ed)|announce[sd]?|sign(?:s|ed)|approve[sd]?|declare[sd]?|rul(?:es|ed)|certif(?:y|ies|ied)|file[sd]?|publish(?:es|ed)|release[sd]?|launch(?:es|ed)|pass(?:es|ed)|enact(?:s|ed)|vote[sd]?|issue[sd]?|cuts?|raise[sd]?|hikes?|hiked|leaves? office|resign(?:s|ed)|scores?|finish(?:es)?|qualif(?:y|ies)|is cast|performs?|says?|said|stated?|mentions?|visits?|meets?|lands?|docks?|is the (?:#1|first|next|largest)|becomes?|holds?|assumes?|takes? office)\b/i;
/** Criteria that need judgement, not measurement. */
export const DISCRETIONARY_RE =
  /\b(?:substantial(?:ly)?|significant(?:ly)?|meaningful(?:ly)?|credible reports? (?:suggest|indicate)|reports? suggest|widely (?:considered|regarded|seen|believed)|generally (?:considered|regarded|accepted)|in the (?:sole )?(?:opinion|judg(?:e)?ment|discretion) of|at (?:the|its|their) (?:sole )?discretion|deemed|appears? to|seems? to|clearly|obviously|reasonabl[ey]|effectively|de facto|major escalation|wear(?:s|ing)?|worn|dressed|outfit|look(?:s|ing)? like|characteri[sz]ed as|perceived|spirit of|in good faith)\b/i;
const YES_CONDITION =
  /(?:^|\b)If\s+([\s\S]{5,400}?),?\s+then the market resolves to Yes|resolve to ["“]?(?:Yes|Up)["”]? if\s+([\s\S]{5,400}?)(?=\.\s|\.$|;|$)/;
const EXCLUSION_RE =
  /\b(?:do(?:es)? not (?:count|qualify|constitute|suffice)|will not (?:count|qualify|be considered)|not sufficient|(?:is|are) excluded|excludes?|(?:is|are) not included|shall not count|only qualify if)\b/i;
const DEFINITION_RE = /\b(?:defined as|for the purposes? of this|qualif(?:y|ies|ying)|considered|is met when|means)\b/i;
const OR_LOGIC =
  /\b(?:1\)|\(1\)|\(a\))[\s\S]{0,300}?\bOR\b[\s\S]{0,200}?(?:2\)|\(2\)|\(b\))|\beither\b[\s\S]{0,200}?\bor\b/;
const AND_LOGIC = /\b(?:both\b[\s\S]{0,120}?\band\b|(?:1\)|\(1\))[\s\S]{0,300}?\bAND\b)/;
const NUMERIC_STRIKES = new Set(['greater', 'greater_or_equal', 'less', 'less_or_equal', 'between', 'structured']);

/** The parts of the text the trigger-objectivity factor reads, with offsets into the doc. */
export interface TriggerZone {
  /** The Yes condition span, when the text states one. */
  condition: Span | null;
  /** Sentences that define or qualify the trigger. */
  definitions: Sentence[];
}

/** Finds the Yes condition and the defining sentences. */
export function triggerZoneOf(doc: Doc, sentences: readonly Sentence[]): TriggerZone {
  const m = YES_CONDITION.exec(doc.text);
  let condition: Span | null = null;
  if (m) {
    const body = m[1] ?? m[2] ?? '';
    const start = m.index + m[0].indexOf(body);
    condition = { quote: body, start, end: start + body.length };
  }
  const definitions = sentences.filter((s) => DEFINITION_RE.test(s.text)).slice(0, 6);
  return { condition, definitions };
}

/** True when venue strike facts carry a numeric threshold. */
export function hasNumericStrike(facts: VenueFacts): boolean {
  return (
    (facts.strike_type !== null && NUMERIC_STRIKES.has(facts.strike_type)) ||
    facts.floor_strike !== null ||
    facts.cap_strike !== null
  );
}

function thresholdOf(facts: VenueFacts, condition: string): number | null {
  if (facts.floor_strike !== null) return facts.floor_strike;
  if (facts.cap_strike !== null) return facts.cap_strike;
  const m = NUMERIC_RE.exec(condition);
  if (!m) return null;
  const n = /-?\d[\d,]*(?:\.\d+)?/.exec(m[0]);
  if (!n) return null;
  const v = Number(n[0].replace(/,/g, ''));
  return Number.isFinite(v) ? v : null;
}

/**
 * `resolution_triggers` where the text supports it (a Yes condition is stated), else null.
 * `source` is the resolution source the commitment rules chose; `risks` the plain-words risks the grade found.
 */
export function triggersOf(
  market: Market,
  facts: VenueFacts,
  doc: Doc,
  sentences: readonly Sentence[],
  zone: TriggerZone,
  source: string | null,
  risks: readonly string[],
): ResolutionTriggers | null {
  if (zone.condition === null) return null;
  const condition = zone.condition.quote.replace(/\s+/g, ' ').trim();
  const numeric = NUMERIC_RE.test(condition) || hasNumericStrike(facts);
  const type = numeric ? 'threshold' : OFFICIAL_ACT_RE.test(condition) ? 'official_act' : 'occurrence';
  const exclusions = sentences
    .filter((s) => EXCLUSION_RE.test(s.text))
    .slice(0, 5)
    .map((s) => (s.text.length > 240 ? `${s.text.slice(0, 237)}...` : s.text));
  const mayOr = doc.text.includes(' OR ') || doc.text.includes('either');
  const logic = mayOr && OR_LOGIC.test(doc.text) ? 'OR' : AND_LOGIC.test(condition) ? 'AND' : 'SINGLE';
  return {
    triggers: [
      {
        type,
        description: condition,
        metric: facts.series_title,
        threshold: type === 'threshold' ? thresholdOf(facts, condition) : null,
        source,
        deadline: market.close_at ?? market.resolve_at ?? null,
      },
    ],
    trigger_logic: logic,
    exclusions,
    resolution_risks: risks.join(' '),
  };
}
