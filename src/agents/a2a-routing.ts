/**
 * How the A2A face turns a message into a skill call (served-shapes §14, issues 8 and 17). Pure: text or data in,
 * a skill name and its arguments out. Data parts `{skill, args}` name the skill directly; free text is routed,
 * first match wins: "what does X mean" / "glossary" → glossary; "compare …", "same bet on the other venue" or a
 * question id → compare_question; "stats", "how common", "what share" → get_stats; a market id, ticker or venue
 * URL → get_market; an event id or slug → get_event; calendar words → list_upcoming_catalysts; otherwise a
 * search over markets (search_markets), then over events when no market matches.
 */
import { CATEGORIES } from '../domain/index.ts';

export type Route =
  | { skill: string; args: Record<string, unknown>; fallback?: Route }
  | { skill: 'usage'; args: Record<string, never> };

const MARKET_ID = /\bSVC-MKT-[0-9A-Z]{6,10}\b/i;
const EVENT_ID = /\bSVC-EVT-[0-9A-Z]{10}\b/i;
const CONDITION_ID = /\b0x[0-9a-f]{16,}\b/i;
const URL_ONLY = /^https?:\/\/\S+$/i;
/** venue_a tickers: upper-case series + event/market segments, e.g. KXFED-26APR-T4.25 or KXBTCD-25FEB2418. */
const TICKER = /\b[A-Z][A-Z0-9]{2,}(?:-[A-Z0-9.]+){1,4}\b/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+){2,}$/;
const CALENDAR = /\b(catalysts?|upcoming|calendar|schedule[ds]?|releases?)\b/i;
const DAYS = /\b(\d{1,3})\s*days?\b/i;

const STOPWORDS = new Set(
  'a an and any are as at be by can do does for from how i in is it me of on or show tell that the this to trust what when where which who will with market markets price prices grade grades source sources about find search event events please there'.split(
    ' ',
  ),
);

/** Search tokens of free text: stopwords removed, at most six. */
export function searchTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9.$%]+/)
    .filter((t) => t.length > 1 && !STOPWORDS.has(t))
    .slice(0, 6);
}

/** Routes free text to a skill call. `isSlug` says whether a token is a known event slug. */
export function routeText(text: string, isSlug: (s: string) => boolean): Route {
  const trimmed = text.trim();
  const special = glossaryRoute(trimmed) ?? compareRoute(trimmed) ?? statsRoute(trimmed);
  if (special) return special;
  const market =
    MARKET_ID.exec(trimmed)?.[0] ?? CONDITION_ID.exec(trimmed)?.[0] ?? (URL_ONLY.test(trimmed) ? trimmed : undefined);
  const ticker = TICKER.exec(trimmed)?.[0];
  const search = searchRoute(trimmed);
  const event = EVENT_ID.exec(trimmed)?.[0]?.toUpperCase();
  const slug = trimmed.split(/\s+/).find((t) => SLUG.test(t) && isSlug(t));
  const eventRoute: Route | undefined = event
    ? { skill: 'get_event', args: { slug: event, detail: 'concise' } }
    : slug
      ? { skill: 'get_event', args: { slug, detail: 'concise' } }
      : undefined;
  const rest = eventRoute ?? calendarRoute(trimmed) ?? search;
  if (market)
    return {
      skill: 'get_market',
      args: { market_id: /^svc-/i.test(market) ? market.toUpperCase() : market },
      fallback: rest,
    };
  if (ticker && !EVENT_ID.test(ticker))
    return { skill: 'get_market', args: { market_id: ticker.toUpperCase() }, fallback: rest };
  return rest;
}

function calendarRoute(text: string): Route | undefined {
  if (!CALENDAR.test(text)) return undefined;
  const days = Number(DAYS.exec(text)?.[1] ?? 30);
  return { skill: 'list_upcoming_catalysts', args: { days: Math.min(90, Math.max(1, days)) } };
}

function searchRoute(text: string): Route {
  const tokens = searchTokens(text);
  if (tokens.length === 0) return { skill: 'usage', args: {} };
  const longest = [...tokens].sort((a, b) => b.length - a.length).slice(0, 2);
  // Markets first (questions, rules, tickers, synonyms); events by their longest words when no market matches.
  const retry: Route = { skill: 'list_events', args: { q: longest.join(' '), limit: 5 } };
  return { skill: 'search_markets', args: { q: tokens.join(' '), limit: 5 }, fallback: retry };
}

const MEANS =
  /\b(?:what\s+(?:does|do|is|are)\s+(.+?)\s+(?:mean|stand\s+for)|meaning\s+of\s+(.+?)|define\s+(.+?)|explain\s+(?:the\s+)?(?:code|rule|cap|term)\s+(.+?))\s*\??$/i;
const GLOSSARY_WORD = /\bglossary\b(?:\s+(?:for|of)?\s*(.+?))?\s*\??$/i;

/** A kind named in words ("glossary caps", "what do the reason codes mean"). */
const KIND_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^grades?$/i, 'grade'],
  [/^factors?$/i, 'factor'],
  [/^rules?(?:\s+ids?)?$/i, 'rule'],
  [/^caps?$/i, 'cap'],
  [/^(?:commitment\s+)?subtypes?$|^commitments?$/i, 'commitment_subtype'],
  [/^relations?$/i, 'relation'],
  [/^differences?$/i, 'difference'],
  [/^regimes?$|^screens?$/i, 'regime'],
  [/^reasons?(?:\s+codes?)?$|^reason_codes?$/i, 'reason_code'],
];

/** "what does clarity.no_committed_source mean?", "define commitment_none", "glossary caps" → glossary. */
function glossaryRoute(text: string): Route | undefined {
  const m = MEANS.exec(text) ?? GLOSSARY_WORD.exec(text);
  if (!m) return undefined;
  const raw = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim().replace(/^(?:the|a|an)\s+/i, '');
  const term = raw.replace(/^[`"'“‘]+|[`"'”’]+$/g, '');
  const kind = KIND_WORDS.find(([re]) => re.test(term))?.[1];
  if (kind) return { skill: 'glossary', args: { kind } };
  return { skill: 'glossary', args: term === '' ? {} : { term } };
}

const COMPARE =
  /\b(?:compare|comparison|side[\s-]by[\s-]side|same\s+bet|other\s+venue|both\s+venues|cross[\s-]venue|twins?)\b/i;
const QUESTION_ID = /\bSVC[XRP]-[0-9A-F]{10}\b/i;
/** The service categories, as words a request may name. */
const CATEGORY_WORDS = CATEGORIES;

/** "compare KXFED-26DEC-T4.25", "is SVCX-… the same bet on the other venue?", "cross-venue questions in crypto". */
function compareRoute(text: string): Route | undefined {
  const question = QUESTION_ID.exec(text)?.[0];
  if (question) return { skill: 'compare_question', args: { question_id: question.toUpperCase() } };
  if (!COMPARE.test(text)) return undefined;
  const market = MARKET_ID.exec(text)?.[0] ?? CONDITION_ID.exec(text)?.[0] ?? TICKER.exec(text)?.[0];
  if (market)
    return { skill: 'compare_question', args: { market_id: market.startsWith('0x') ? market : market.toUpperCase() } };
  const category = CATEGORY_WORDS.find((c) => new RegExp(`\\b${c}\\b`, 'i').test(text));
  return { skill: 'compare_question', args: { ...(category ? { category } : {}), limit: 10 } };
}

const STATS =
  /\b(?:stats|statistics|how\s+(?:common|often|many|rare)|what\s+(?:share|fraction|percentage|proportion)|share\s+of|percent(?:age)?\s+of)\b/i;
const SUBTYPE_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/\bno\s+(?:committed\s+)?source\b|\bnone\b/i, 'none'],
  [/\bplaceholder|consensus\s+of\s+credible/i, 'uncommitted_placeholder'],
  [/\billustrative|for\s+example/i, 'uncommitted_illustrative'],
  [/\bsecond[\s-]?hand/i, 'committed_secondhand'],
  [/\bnamed\s+(?:source|authority)/i, 'named'],
];

/** "how common is it that a venue_b market commits to no source?" → get_stats {venue_b, none}. */
function statsRoute(text: string): Route | undefined {
  if (!STATS.test(text)) return undefined;
  const args: Record<string, string> = {};
  const venue = /\bvenue[_\s-]?([ab])\b/i.exec(text)?.[1];
  if (venue) args.venue = `venue_${venue.toLowerCase()}`;
  const grade = /\bgrade(?:d)?\s+([ABC])\b/.exec(text)?.[1] ?? /\b([ABC])[\s-]grade/.exec(text)?.[1];
  if (grade) args.grade = grade;
  const subtype = SUBTYPE_WORDS.find(([re]) => re.test(text))?.[1];
  if (subtype) args.source_commitment_subtype = subtype;
  const category = CATEGORY_WORDS.find((c) => new RegExp(`\\b${c}\\b`, 'i').test(text));
  if (category) args.category = category;
  return { skill: 'get_stats', args };
}
