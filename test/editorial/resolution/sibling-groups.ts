/**
 * Groups real fixture markets into number-siblings: markets of one event whose question and rules
 * text are the same once every number (digits, number words, thresholds with their units and
 * comparator marks such as "50+", "$1.5M", "3.5%", "25 bps") is replaced by one placeholder.
 * A judgment that reads the same words must rate them the same on every factor that does not
 * depend on the number's value, which is every factor of the rubric.
 */
import type { FixtureMarket } from './fixture-markets.ts';

const NUMBER_WORDS =
  'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion';
/** A number with its sign, currency, separators, ordinal suffix, magnitude, unit and a trailing "+". */
const NUMBER_TOKEN = new RegExp(
  `(?:[<>≥≤]=?\\s*)?[-+]?[$€£]?\\d[\\d,]*(?:\\.\\d+)?(?:st|nd|rd|th)?\\+?(?:\\s?(?:%|°(?:\\s?[CF]\\b)?|bps\\b|basis points?\\b|[kKmMbBtT]\\b|thousand\\b|million\\b|billion\\b|percent\\b|pp\\b|points?\\b|pts\\b|dollars?\\b|cents?\\b|¢|degrees?\\b))*\\+?|\\b(?:${NUMBER_WORDS})\\b`,
  'gi',
);

/** Comparator words that make a number a threshold ("above #", "at least #", "between # and #"). */
const COMPARATOR_BEFORE =
  /\b(?:above|below|over|under|exactly|between|from|at (?:least|most)|(?:more|less|greater|fewer|higher|lower) than(?: or equal to)?|equal to|or (?:more|less|greater|fewer|higher|lower|above|below|over|under))\s+#/gi;
const COMPARATOR_AFTER =
  /#\s*(?:or (?:more|less|greater|fewer|higher|lower|above|below|over|under)\b|and (?:above|below|over|under|up|higher|lower)\b|(?:to|and|through) #)/gi;

/**
 * The text with every number and threshold replaced by `#`: numbers with their units, then the
 * comparator words around them, so "between 85 and 86°", "greater than 90°" and "50+ bps" all read `#`.
 */
export function numberFree(text: string): string {
  let t = text.replace(NUMBER_TOKEN, '#').replace(/#(?:[\s,.–-]*#)+/g, '#');
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t
      .replace(COMPARATOR_BEFORE, '#')
      .replace(COMPARATOR_AFTER, '#')
      .replace(/#(?:[\s,.–-]*#)+/g, '#');
  }
  return t.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Sibling key of a market: its event, its number-free question and rules, and the venue fields the
 * grade reads besides the text (the oracle adapter, the venue's source fields), so that two markets
 * the venue set up differently (one with no `resolvedBy`) are not called siblings.
 */
export function siblingKey(m: FixtureMarket): string | null {
  if (m.event === null) return null;
  const rules = m.market.resolution_rules_raw ?? m.market.description_raw ?? m.facts.event_description ?? '';
  const fields = JSON.stringify([m.facts.resolved_by, m.facts.resolution_source_field, m.facts.settlement_sources]);
  return `${m.venue}|${m.event}|${fields}|${numberFree(m.market.question_raw ?? '')}|${numberFree(rules)}`;
}

/** Groups of two or more markets that share a sibling key and whose texts actually differ in a number. */
export function siblingGroups(markets: readonly FixtureMarket[]): FixtureMarket[][] {
  const by = new Map<string, FixtureMarket[]>();
  for (const m of markets) {
    const k = siblingKey(m);
    if (k === null) continue;
    const g = by.get(k);
    if (g) g.push(m);
    else by.set(k, [m]);
  }
  const textOf = (m: FixtureMarket) =>
    `${m.market.question_raw ?? ''}\n${m.market.resolution_rules_raw ?? m.market.description_raw ?? ''}`;
  return [...by.values()].filter((g) => g.length >= 2 && new Set(g.map(textOf)).size >= 2);
}
