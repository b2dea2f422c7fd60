/**
 * Numeric-threshold wording (rubric rcg-1.1.0): the classes of wording that make a trigger a number
 * crossing a line, read the same way whatever the number is, so that siblings whose rules differ only
 * in their numbers ("25 bps" / "50+ bps", "between 85 and 86°" / "90° or above") rate the same.
 *
 * Classes, each a rule over wording and never a list of markets:
 * - comparator before a quantity: "above 3.5%", "at least $110,000", "more than 60 million", "≥ 4";
 * - comparator after a quantity: "50+ bps", "200,000 or more", "3% or higher", "$1 and above";
 * - ranges: "between 85 and 86°", "420-439 tweets", "from 2% to 3%", "85° to 86°";
 * - a quantity with a unit, which is a bracket value: "25 bps", "3.5%", "10 points", "50 cents";
 * - lines: "O/U 44.5", a signed handicap "(-6.5)";
 * - no change of a measured quantity: "No change in Fed interest rates", "keeps the rate unchanged";
 * - a directional change of a measured quantity: "decrease the base rate", "Fed rate hike";
 * - a comparison with a reference price: "lower than the final "Close" price";
 * - a count of zero: "zero reported wild cases".
 * Times of day, calendar dates and bare years are not quantities.
 */

/** Number words a comparator may govern ("at least two"); "at least one" is an existence test, not a threshold. */
const NUMBER_WORD =
  '(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred)';
/** A number: sign, currency, separators, decimals; never a time ("12:00 PM") or an ISO date. */
const NUM = String.raw`[-+−]?(?:[$€£¥]\s?)?\d[\d,]*(?:\.\d+)?(?![\d,.]*\s*(?::\d|[AaPp]\.?[Mm]\b))(?!-\d{2}-\d{2})`;
const MAGNITUDE = String.raw`(?:\s?(?:[kKmMbB]\b|thousand\b|million\b|billion\b|trillion\b|mn\b|bn\b))`;
/** Units that make a bare number a measured value. */
const UNIT = String.raw`(?:\s?(?:%|percent(?:age points?)?\b|pp\b|bps\b|basis points?\b|points?\b|pts\b|dollars?\b|cents?\b|¢|USD\b|USDC\b|°(?:\s?[CF]\b)?|degrees?\b|inch(?:es)?\b|mph\b))`;
/** A quantity: a number with an optional magnitude and unit. */
const QTY = `(?:${NUM}${MAGNITUDE}?${UNIT}?|${NUMBER_WORD}\\b)`;
/** A quantity that carries a unit or a currency sign (a measured value even without a comparator). */
const MEASURED = String.raw`(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?${MAGNITUDE}?|\d[\d,]*(?:\.\d+)?${MAGNITUDE}?${UNIT})`;

const COMPARATOR_BEFORE = String.raw`(?:\b(?:above|below|over|under|exactly|at least|at most|no (?:more|less|fewer) than|(?:more|less|greater|fewer|higher|lower) than(?: or equal to)?|equal to|exceed(?:s|ed|ing)?|surpass(?:es|ed)?|reach(?:es|ed)?|hits?|dips? (?:to|below)|falls? (?:to|below)|drops? (?:to|below)|rises? (?:to|above)|trades? (?:at|above|below)|closes? (?:at|above|below)|settles? (?:at|above|below))\s+|[≥≤><]=?\s*)`;
const COMPARATOR_AFTER = String.raw`(?:\s?\+|\s+or (?:more|higher|above|greater|over|less|lower|below|fewer|under)\b|\s+and (?:above|over|up|higher|below|under|lower)\b|\s+plus\b)`;
/** A bare year is not a range end ("2025-26 season", "between 2024 and 2025"). */
const NOT_YEAR = String.raw`(?!(?:19|20)\d\d\b(?!${UNIT}))`;

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';

/** A measured quantity named after "no change", a direction verb or "maintains". */
const MEASURED_NOUN = String.raw`(?:(?:interest|policy|base|bank|benchmark|cash|deposit|lending|discount|repo|funds|federal funds|refinancing|overnight|key|target|official|prime|mortgage|tax|tariff|unemployment|inflation)\s+)*(?:rates?|(?:target )?range|prices?|yields?|index|tariffs?|levels?)\b`;

/** Wording that states a number. */
const QUANTITY_ALTERNATIVES = [
  // comparator + quantity
  `${COMPARATOR_BEFORE}${QTY}`,
  // quantity + comparator ("50+ bps", "200,000 or more")
  String.raw`(?<![\w.])${NUM}${MAGNITUDE}?(?:${COMPARATOR_AFTER}${UNIT}?|${UNIT}${COMPARATOR_AFTER})`,
  // ranges
  String.raw`\bbetween\s+${NOT_YEAR}${QTY}\s+and\s+${QTY}`,
  String.raw`(?<![A-Za-z\d]-?|\b(?:resolves?|${MONTH}[a-z]*\.?)\s)\b${NOT_YEAR}\d[\d,]*(?:\.\d+)?${MAGNITUDE}?${UNIT}?\s?[-–—]\s?\d[\d,]*(?:\.\d+)?${MAGNITUDE}?${UNIT}?(?![-\d])`,
  String.raw`\b(?:from\s+)?${MEASURED}\s+(?:to|through)\s+${QTY}`,
  // a quantity with a unit (a bracket value)
  String.raw`(?<![\w.])${MEASURED}`,
  // lines
  String.raw`\b(?:O\/U|over\/under)\s+${NUM}`,
  String.raw`\([+\-−]\d+(?:\.\d+)?\)`,
];
/** Wording that states a change (or no change) of a measured quantity, or compares with a reference value. */
const CHANGE_ALTERNATIVES = [
  // no change, maintenance and direction of a measured quantity
  String.raw`\b(?:no change|no (?:rate )?(?:cuts?|hikes?|increases?|decreases?)|unchanged)\b[^.?;]{0,40}?\b${MEASURED_NOUN}`,
  String.raw`\b${MEASURED_NOUN}[^.?;]{0,40}?\b(?:unchanged|steady|on hold)\b`,
  String.raw`\b(?:maintain|keep|hold|leave)s?\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,2}?${MEASURED_NOUN}`,
  String.raw`\b(?:increase|decrease|raise|lower|cut|hike|reduce|rise|fall|drop|climb)(?:s|d|es|ed|ing)?\s+(?:the\s+|its\s+|their\s+|in\s+|of\s+)?(?:[\w-]+\s+){0,2}?${MEASURED_NOUN}`,
  String.raw`\b${MEASURED_NOUN}\s+(?:cuts?|hikes?|increases?|decreases?|rises?|falls?|changes?)\b`,
  // comparison with a reference value
  String.raw`\b(?:greater|higher|lower|less) than (?:or equal to )?(?:the )?(?:[\w$"“”'’/.-]+ ){0,6}?["“”']?(?:price|value|close|open|level|rate|reading|high|low)\b`,
  // a count of zero ("zero reported wild cases")
  String.raw`\bzero\s+(?:[\w-]+\s+){0,3}?[a-z]+s\b`,
  '\\b(?:no change|unchanged)\\b["”]? bracket',
];

const union = (alts: readonly string[]) => alts.map((a) => `(?:${a})`).join('|');
/** A stated number crossing or matching a line. */
export const QUANTITY_THRESHOLD_RE = new RegExp(union(QUANTITY_ALTERNATIVES), 'i');
/** A stated change, no change, or comparison of a measured quantity, with no number of its own. */
export const CHANGE_THRESHOLD_RE = new RegExp(union(CHANGE_ALTERNATIVES), 'i');
/**
 * Any numeric-threshold wording (see the module comment for the classes). Callers that quote
 * evidence try QUANTITY_THRESHOLD_RE first, so the quote is the number when there is one.
 * @example NUMERIC_RE.test('Fed decreases interest rates by 50+ bps') // true
 */
export const NUMERIC_RE = new RegExp(union([...QUANTITY_ALTERNATIVES, ...CHANGE_ALTERNATIVES]), 'i');

const NO_CHANGE_RE = /\b(?:no change|unchanged|maintain|keep|hold|leave|steady|on hold)/i;

/** The threshold value a matched threshold wording states: its first number, 0 for "no change", else null. */
export function thresholdValueOf(matched: string): number | null {
  const n = /-?\d[\d,]*(?:\.\d+)?/.exec(matched.replace(/−/g, '-'));
  if (n) {
    const v = Number(n[0].replace(/,/g, ''));
    return Number.isFinite(v) ? v : null;
  }
  return NO_CHANGE_RE.test(matched) ? 0 : null;
}
