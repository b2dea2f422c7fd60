/**
 * Source standing (METHODOLOGY.md § Source standing): is a concrete source the origin of the number
 * it is cited for, or does it republish numbers whose authority is elsewhere? The registry role
 * decides for known sources; these general cues decide the rest, and each cue is a rule id with the
 * span it read:
 * - a publisher's own product ("the ISW map", "Silver Bulletin's approval rating", "the Chatbot Arena
 *   LLM Leaderboard", "the Economist Intelligence Unit's Democracy Index") names the originating
 *   publisher: its own measurement, not someone else's numbers relayed;
 * - a source whose methodology the text cites ("the methodology by which Silver Bulletin calculates")
 *   is an index provider with a published methodology;
 * - an unregistered name that says it is an official body ("Reserve Bank of New Zealand", "the
 *   Ministry of …", "… Federation") or a government or governing-league web host (".gov", ".govt.nz",
 *   "ligamx.net") is an authority.
 * A commercial data aggregator (quote sites, oracle price streams, wikis, trackers, box-office and
 * weather relays) stays a republisher: `committed_secondhand` when it is the one committed source.
 */
import { hostOf } from './registry.ts';
import type { Sentence, Span } from './text.ts';

/** What standing reads of a source candidate (sources.ts `Candidate` satisfies it; no import back, no cycle). */
export interface StandingSubject {
  name: string | null;
  url: string | null;
  role: string;
  originates: boolean;
  origin: 'venue_field' | 'prose';
  start: number | null;
  end: number | null;
}

/** How a candidate's standing was decided, for the evidence trail. */
export interface StandingCue {
  rule: string;
  span: Span | null;
}

/** The publisher's own product, named with (or right after) the publisher: index, map, leaderboard, ranking, rating. */
const PRODUCT_AFTER =
  /^(?:['’]s?)?\s*(?:own\s+|official\s+)?(?:[A-Z][\w&.-]*\s+|[a-z]+\s+){0,3}?(?:Index|index|Map|map|Leaderboard|leaderboard|Rankings?|rankings?|Ratings?|ratings?|Tomatometer)\b/;
const PRODUCT_IN_NAME = /\b(?:Index|Map|map|Leaderboard|Rankings?|Ratings?|Tomatometer)\b/;
/** A methodology the text attributes to the source (index providers publish theirs). */
const METHODOLOGY = /\bmethodolog(?:y|ies)\b/i;
/** An unregistered name that says it is an official body or a governing body. */
const OFFICIAL_NAME =
  /\b(?:Reserve Bank|Central Bank|Bank of [A-Z]\w+|Ministry|Department of|Administration|Agency|Commission|Bureau|Office of|Secretary of State|Parliament|Court|Council|Federation|Confederation|League|Liga|Ligue|Association|Committee|Government|government of)\b/;
/** Government and intergovernmental web hosts: .gov, .gov.xx, .govt.xx, .gob.xx, .gouv.xx, .go.xx, .gv.xx, .mil, .int. */
const GOVERNMENT_HOST = /(?:^|\.)(?:(?:gov|govt|gob|gouv|go|gv|mil)(?:\.[a-z]{2})?|int)$/;
/** A governing league or federation's own site ("ligamx.net", "legaserieb.it", "nationalleague.ch"). */
const GOVERNING_BODY_HOST = /(?:liga|league|ligue|lega|federa)/;

/**
 * Decides whether an unhedged candidate that the registry does not call an authority is in fact
 * the origin of its number. Mutates nothing; returns the cue that upgrades it, or null.
 */
export function originatingCue(text: string, statements: readonly Sentence[], c: StandingSubject): StandingCue | null {
  if (c.role === 'authority' || c.role === 'outlet') return null;
  if (c.originates) return { rule: 'standing.registry_originating', span: null };
  if (c.start !== null && c.end !== null && c.origin === 'prose') {
    const name = text.slice(c.start, c.end);
    if (PRODUCT_IN_NAME.test(name)) return { rule: 'standing.own_product', span: spanAt(text, c.start, c.end) };
    const after = PRODUCT_AFTER.exec(text.slice(c.end, c.end + 60));
    if (after) return { rule: 'standing.own_product', span: spanAt(text, c.start, c.end + after[0].length) };
    const s = statements.find((x) => c.start !== null && c.start >= x.start && c.start < x.end);
    const m = s ? METHODOLOGY.exec(s.text) : null;
    if (s && m)
      return {
        rule: 'standing.published_methodology',
        span: spanAt(text, s.start + m.index, s.start + m.index + m[0].length),
      };
  }
  if (c.role !== 'unknown') return null;
  const pair = ownPairCue(text, c);
  if (pair) return pair;
  if (c.name !== null && OFFICIAL_NAME.test(c.name)) return { rule: 'standing.official_name', span: null };
  const host = c.url ? hostOf(c.url) : null;
  if (host !== null && GOVERNMENT_HOST.test(host)) return { rule: 'standing.government_host', span: null };
  if (host !== null && GOVERNING_BODY_HOST.test(host)) return { rule: 'standing.governing_body_host', span: null };
  return null;
}

/**
 * A trading venue cited for its own pair ("Hyperliquid, specifically the PUMP/USDC "Low" prices",
 * a "/trade/PAIR" page): an exchange is the authority for its own order book (registry policy for
 * Binance and Coinbase), not a republisher.
 */
function ownPairCue(text: string, c: StandingSubject): StandingCue | null {
  if (c.url !== null && /\/trade\/[A-Z0-9]{2,12}[/_-][A-Z]{3,5}\b/.test(c.url))
    return { rule: 'standing.own_market_pair', span: null };
  if (c.start === null || c.end === null) return null;
  const m = OWN_PAIR_AFTER.exec(text.slice(c.end, c.end + 60));
  return m ? { rule: 'standing.own_market_pair', span: spanAt(text, c.start, c.end + m[0].length) } : null;
}
const OWN_PAIR_AFTER = /^,?\s*specifically the [A-Z0-9]{2,12}\/[A-Z]{3,5}\b[^.]{0,20}?\b(?:prices?|candles?|trades?)\b/;

function spanAt(text: string, start: number, end: number): Span {
  return { quote: text.slice(start, end), start, end };
}
