/**
 * Definition qualifiers: the clauses of a market's rules that make two look-alike questions pay
 * differently (death clauses, announced-intention clauses, phone vs in-person contact, election
 * call vs inauguration, named data and price sources, judgment hedges, IPO filing vs trading).
 */
import type { SettlementStyle, VenueFacts } from '../../domain/index.ts';
import type { Registry } from './registry.ts';
import { foldText } from './text.ts';

const DEATH_RE = /\b(?:die|dies|died|death|passes away|incapacitat\w*)\b/gi;
const ANNOUNCE_LEAVE_RE = /announc\w* (?:their|his|her|the) intention to (?:leave|resign|step down)/i;
// venue_a's "An announcement that <leader> will leave the office within the next year is also encompassed by
// the Payout Criterion" (and never its negation, "… is not sufficient to resolve the Payout Criterion").
const ANNOUNCEMENT_THAT_RE =
  /\ban announcement that [^.]{0,80}\bwill (?:leave|resign|step down)\b[^.]{0,80}\b(?:is (?:also )?encompassed|counts|will count|qualifies)\b/i;
const PHONE_COUNTS_RE =
  /(including|includ\w*|count\w*|qualif\w*)[^.]{0,80}phone call|phone call[^.]{0,80}(count|qualif)/i;
const IN_PERSON_RE = /\bin[- ]person\b|physically present/i;
const INAUGURATION_RE = /\binaugurat\w*|sworn in\b/i;
const ELECTION_CALL_RE =
  /\bcall(?:s|ed)? the race\b|\bwins? the [^.]{0,60}election\b|\bis elected\b|\bprojected winner\b/i;
const ANY_LENGTH_RE = /for any length of time/i;
const RESOLVING_RE = /\b(?:resolves? to "?yes|then the market resolves|will resolve to "?yes)/i;
const HEDGE_RE =
  /as judged by|in a meaningful way|substantially equivalent|or similar|at the (?:resolver|venue)'?s? discretion/i;
const IPO_RE = /\bIPO\b|initial public offering|go(?:es)? public/i;
const IPO_FILING_RE = /\bfiles?\b|filing|registration statement|\bS-1\b|confidential(?:ly)? submi/i;
const IPO_TRADING_RE =
  /begins? trading|start(?:s)? trading|shares? (?:of [^.]{1,60} )?(?:begin|start|are listed|list)|first day of trading/i;
const sourceMatchers = new WeakMap<Registry, Map<string, Array<{ id: string; res: RegExp[] }>>>();

/** Price or data sources named in a text: a few precompiled patterns, not a full entity scan of the rules. */
function sourcesIn(text: string, registry: Registry, type: 'price_source' | 'data_source'): string[] {
  let byType = sourceMatchers.get(registry);
  if (!byType) {
    byType = new Map();
    sourceMatchers.set(registry, byType);
  }
  let matchers = byType.get(type);
  if (!matchers) {
    const escapeRe = (a: string) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    matchers = [...registry.byId.values()]
      .filter((e) => e.type === type)
      .map((e) => {
        const long = [e.name, ...e.aliases].filter((a) => a.length > 3).map(escapeRe);
        const short = [e.name, ...e.aliases].filter((a) => a.length <= 3).map(escapeRe);
        const res = [
          long.length ? new RegExp(`\\b(?:${long.join('|')})\\b`, 'i') : null,
          short.length ? new RegExp(`\\b(?:${short.join('|')})\\b`) : null,
        ].filter((r): r is RegExp => r !== null);
        return { id: e.id, res };
      });
    byType.set(type, matchers);
  }
  return matchers.filter((m) => m.res.some((re) => re.test(text))).map((m) => m.id);
}

/** The sentence of the rules that says when the market pays Yes (else the first sentence). */
export function resolvingClause(rules: string): string {
  const m = RESOLVING_RE.exec(rules);
  return m ? sentenceAround(rules, m.index) : sentenceAround(rules, 0);
}

const SENTENCE_END_RE = /[.!?](?=\s|$)/g;

/** The sentence containing `at`: bounded by a stop followed by a space (so "41.5%" is not a sentence end). */
function sentenceAround(text: string, at: number): string {
  let start = 0;
  SENTENCE_END_RE.lastIndex = 0;
  for (let m = SENTENCE_END_RE.exec(text); m; m = SENTENCE_END_RE.exec(text)) {
    if (m.index >= at) return text.slice(start, m.index + 1).trim();
    start = m.index + 1;
  }
  return text.slice(start).trim();
}

/** Definition qualifiers read from the rules: the clauses that make look-alike questions pay differently. */
export function definitionOf(
  question: string,
  rules: string,
  facts: VenueFacts,
  registry: Registry,
  style: SettlementStyle,
  defaultSource: string | undefined,
): string[] {
  const defs = new Set<string>();
  for (const m of rules.matchAll(DEATH_RE)) {
    // The sentence around the hit decides what a death does to the market.
    const s = sentenceAround(rules, m.index).toLowerCase();
    if (/last traded price|fair (settlement|market) value/.test(s)) defs.add('death:last_price');
    else if (/not (count|qualify|be considered)|exclud|does not resolve/.test(s)) defs.add('death:excluded');
    else defs.add('death:counts');
  }
  if (ANNOUNCE_LEAVE_RE.test(rules) || ANNOUNCEMENT_THAT_RE.test(rules)) defs.add('announcement_counts');
  if (ANY_LENGTH_RE.test(rules)) defs.add('any_length');
  if (PHONE_COUNTS_RE.test(rules)) defs.add('contact:any');
  else if (IN_PERSON_RE.test(question) || IN_PERSON_RE.test(rules)) defs.add('contact:in_person');
  if (ELECTION_CALL_RE.test(rules)) defs.add('resolves_on:election_call');
  else if (INAUGURATION_RE.test(rules)) defs.add('resolves_on:inauguration');
  if (style === 'relative') {
    // Up/down over minutes: the sign of a small move, so the price source decides outcomes.
    for (const id of sourcesIn(rules, registry, 'price_source')) defs.add(id);
    for (const s of facts.settlement_sources) {
      for (const id of sourcesIn(foldText(`${s.name ?? ''} ${s.url ?? ''}`), registry, 'price_source')) defs.add(id);
    }
  }
  // A statistic read from a named series other than the metric's own (AAA vs EIA, BLS vs Truflation).
  for (const id of sourcesIn(rules, registry, 'data_source')) if (id !== defaultSource) defs.add(id);
  const clause = resolvingClause(rules);
  if (HEDGE_RE.test(clause)) defs.add('subjective');
  if (IPO_RE.test(question)) {
    if (IPO_FILING_RE.test(clause)) defs.add('ipo:filing');
    else if (IPO_TRADING_RE.test(clause)) defs.add('ipo:trading');
  }
  return [...defs].sort();
}
