/**
 * How the A2A face turns a message into a skill call (served-shapes §14, issue 8). Pure: text or data in,
 * a skill name and its arguments out. Data parts `{skill, args}` name the skill directly; free text is
 * routed, first match wins: a market id, ticker or venue URL → get_market; an event id or slug → get_event;
 * calendar words → list_upcoming_catalysts; otherwise a search over events.
 */

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
  const retry: Route | undefined =
    tokens.length > 2 ? { skill: 'list_events', args: { q: longest.join(' '), limit: 5 } } : undefined;
  return { skill: 'list_events', args: { q: tokens.join(' '), limit: 5 }, ...(retry ? { fallback: retry } : {}) };
}
