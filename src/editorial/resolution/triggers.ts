/**
 * What makes a market resolve, parsed from the rules where the text supports it: the Yes
 * condition, its type (threshold, official act, occurrence), the threshold, exclusions, and the
 * trigger zone the objectivity factor reads (question + Yes condition + definitions).
 */
import type { Market, ResolutionTriggers, VenueFacts } from '../../domain/index.ts';
import { exclusionSpans } from './exclusions.ts';
import type { Doc, Sentence, Span } from './text.ts';
import { CHANGE_THRESHOLD_RE, NUMERIC_RE, QUANTITY_THRESHOLD_RE, thresholdValueOf } from './thresholds.ts';

export { CHANGE_THRESHOLD_RE, NUMERIC_RE, QUANTITY_THRESHOLD_RE } from './thresholds.ts';

/**
 * Official acts and recorded outcomes: elections won, documents signed, data released, games won.
 * Speech and presence verbs (say, mention, visit, meet, attend, tweet, post …) are not acts of an
 * office or outcomes of a contest: they are occurrences (OCCURRENCE_RE).
 */
export const OFFICIAL_ACT_RE =
  /\b(?:wins?|won|is elected|elected|inaugurated|sworn in|nominat(?:es|ed)|confirm(?:s|ed)|announce[sd]?|sign(?:s|ed)|approve[sd]?|declare[sd]?|rul(?:es|ed)|certif(?:y|ies|ied)|file[sd]?|publish(?:es|ed)|release[sd]?|launch(?:es|ed)|pass(?:es|ed)|enact(?:s|ed)|vote[sd]?|issue[sd]?|cuts?|raise[sd]?|hikes?|hiked|leaves? office|resign(?:s|ed)|scores?|finish(?:es)?|qualif(?:y|ies)|is cast|performs?|lands?|docks?|is the (?:#1|first|next|largest)|becomes?|holds?|assumes?|takes? office)\b/i;
/** Things people do that are not official acts: speaking, posting, travelling, meeting, attending. */
export const OCCURRENCE_RE =
  /\b(?:say|says|said|saying|mention(?:s|ed|ing)?|visit(?:s|ed|ing)?|meets?|attend(?:s|ed|ing)?|tweet(?:s|ed|ing)?|post(?:s|ed|ing)?|speak(?:s|ing)?|spoke|talk(?:s|ed)? (?:to|with|about)|travel(?:s|led|ed)? to|appear(?:s|ed)? (?:on|at|in|with|together))\b/i;
/**
 * A checkable record of an occurrence: the footage or transcript of a named event, the official
 * schedule or readout, flight records, a named post tracker or account. Read outside exclusions
 * ("AI-generated audio or video will not count" names no record).
 */
export const RECORD_RE =
  /\b(?:videos?|audio|transcripts?|broadcasts?|broadcasted|live ?streams?|streamed|recordings?|footage|photographs?|flight records|official (?:schedules?|readouts?|itinerar(?:y|ies)|calendars?|accounts?|transcripts?)|(?:social media|personal|verified) accounts?|direct quotes|readouts?|press (?:briefings?|conferences?)|briefings?|speech(?:es)?|address|earnings calls?|interviews?|hearings?|debates?|rally|rallies|podcasts?|episodes?|tracker|post counter)\b|@[A-Za-z_]\w+/i;
/** Criteria that need judgement, not measurement. */
export const DISCRETIONARY_RE =
  /\b(?:substantial(?:ly)?|significant(?:ly)?|meaningful(?:ly)?|credible reports? (?:suggest|indicate)|reports? suggest|widely (?:considered|regarded|seen|believed)|generally (?:considered|regarded|accepted)|in the (?:sole )?(?:opinion|judg(?:e)?ment|discretion) of|at (?:the|its|their) (?:sole )?discretion|deemed|appears? to|seems? to|clearly|obviously|reasonabl[ey]|effectively|de facto|major escalation|wear(?:s|ing)?|worn|dressed|outfit|look(?:s|ing)? like|characteri[sz]ed as|perceived|spirit of|in good faith)\b/i;
const YES_CONDITION =
  /(?:^|\b)If\s+([\s\S]{5,400}?),?\s+then the market resolves to Yes|resolve to ["“]?(?:Yes|Up)["”]? if\s+([\s\S]{5,400}?)(?=\.\s|\.$|;|$)/;
/**
 * The condition of the first named outcome of a market whose outcomes are not Yes/No ("This market
 * will resolve to "Over" if …", "If the Pistons win, the market will resolve to "Pistons""): it is the
 * Yes condition of that outcome's contract.
 */
const OUTCOME_CONDITION =
  /resolve to ["“](?!No["”]|Down["”]|Under["”])[^"”\n]{1,60}["”] if\s+([\s\S]{5,400}?)(?=\.\s|\.$|;|$)|(?:^|\b)If\s+([^\n]{5,300}?),\s+(?:then\s+)?(?:the|this) market will resolve to ["“](?!No["”])[^"”\n]{1,60}["”]/;
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
  /** Excluded spans of the doc text ("… do not count", "excluding …"): no factor cue fires inside one. */
  exclusions: Array<[number, number]>;
}

/** Finds the Yes condition and the defining sentences. */
export function triggerZoneOf(doc: Doc, sentences: readonly Sentence[]): TriggerZone {
  const m = YES_CONDITION.exec(doc.text) ?? OUTCOME_CONDITION.exec(doc.text);
  let condition: Span | null = null;
  if (m) {
    const body = m[1] ?? m[2] ?? '';
    const start = m.index + m[0].indexOf(body);
    condition = { quote: body, start, end: start + body.length };
  }
  const definitions = sentences.filter((s) => DEFINITION_RE.test(s.text)).slice(0, 6);
  return { condition, definitions, exclusions: exclusionSpans(doc.text, sentences) };
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
  const m = QUANTITY_THRESHOLD_RE.exec(condition) ?? CHANGE_THRESHOLD_RE.exec(condition);
  return m ? thresholdValueOf(m[0]) : null;
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
    .filter((s) => EXCLUSION_RE.test(s.text) || zone.exclusions.some(([a, b]) => a < s.end && b > s.start))
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
