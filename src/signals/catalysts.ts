/**
 * Catalysts (spec §2.5, §4.6): the curated macro calendar plus catalysts derived from venue data
 * (earnings dates, elections and decision dates from market close times), and their binding to
 * events as `catalyst_dates` / `catalyst_types`. Pure: the run's `now` is an argument.
 */
import type { Catalyst, CatalystDate, Event, Market } from '../domain/index.ts';
import type { MacroCalendar, MacroType } from './calendar.ts';
import { addDays, utcDate } from './context.ts';
import { marketSource } from './sources.ts';

/** At most this many catalyst dates are bound to one event. */
export const MAX_CATALYST_DATES = 5;

/** Text that ties an event to each macro release (question and tags are read). */
const MACRO_PATTERNS: Record<MacroType, RegExp> = {
  fomc: /\b(fed|fomc|federal reserve|fed funds|federal funds|interest rates?|rate (?:cut|hike)s?|powell)\b/i,
  cpi: /\b(cpi|inflation|consumer price)/i,
  jobs: /\b(unemployment|payrolls?|jobs report|nonfarm|jobless|employment situation)\b/i,
  gdp: /\b(gdp|gross domestic product|recession)\b/i,
  ppi: /\b(ppi|producer price)/i,
};
const MACRO_TYPES = Object.keys(MACRO_PATTERNS) as MacroType[];

/** Macro releases bound by category when the text names none: the broad drivers of that category. */
const CATEGORY_DEFAULTS: Partial<Record<Event['category'], readonly MacroType[]>> = {
  economics: MACRO_TYPES,
  financials: ['fomc', 'cpi'],
  crypto: ['fomc', 'cpi'],
};

/** Company names that venue questions use in place of the ticker. */
const COMPANY_TICKERS: Record<string, string> = {
  nvidia: 'NVDA',
  apple: 'AAPL',
  microsoft: 'MSFT',
  alphabet: 'GOOGL',
  google: 'GOOGL',
  amazon: 'AMZN',
  meta: 'META',
  tesla: 'TSLA',
  netflix: 'NFLX',
  uber: 'UBER',
  broadcom: 'AVGO',
  micron: 'MU',
  dell: 'DELL',
  snowflake: 'SNOW',
  robinhood: 'HOOD',
  mercadolibre: 'MELI',
  oracle: 'ORCL',
  salesforce: 'CRM',
  palantir: 'PLTR',
  coinbase: 'COIN',
};

/** Each company name as a whole word, compiled once (every event's text is read against them, twice a run). */
const COMPANY_WORDS = Object.entries(COMPANY_TICKERS).map(([name, ticker]) => ({
  re: new RegExp(`\\b${name}\\b`),
  ticker,
}));
const TICKERS = new Set(Object.values(COMPANY_TICKERS));

const EARNINGS_RE = /\b(earnings|quarterly results|eps)\b/i;
const ELECTION_RE = /\b(elections?|elected|primary|primaries|runoff|referendum|ballot|caucus(?:es)?)\b/i;
const DECISION_RE =
  /\b(decisions?|decide[sd]?|ruling|rules? on|verdict|sentenc(?:e|ed|ing)|confirm(?:ed|ation)?|approv(?:e|ed|al))\b/i;

const APPROVAL_RATING_RE =
  /\b(approval ratings?|presidential approval|job approval|approval (?:rate|above|below|index))\b/i;

function eventText(event: Event): string {
  return [event.question, ...event.tags].join(' \u2022 ');
}

/** The ticker an earnings event is about, or null. */
export function earningsTicker(event: Event): string | null {
  const paren = /\(([A-Z]{1,5})\)/.exec(event.question) ?? /\$([A-Z]{1,5})\b/.exec(event.question);
  if (paren?.[1]) return paren[1];
  const text = eventText(event).toLowerCase();
  for (const { re, ticker } of COMPANY_WORDS) if (re.test(text)) return ticker;
  for (const tag of event.tags) if (/^[A-Z]{1,5}$/.test(tag) && TICKERS.has(tag)) return tag;
  return null;
}

/** The catalyst type a venue event implies by its own close, or null. Earnings, then elections, then decisions. */
export function derivedCatalystType(event: Event): string | null {
  const text = eventText(event);
  if (EARNINGS_RE.test(text) || event.tags.some((t) => t.toLowerCase() === 'earnings')) {
    const ticker = earningsTicker(event);
    return ticker ? `earnings:${ticker}` : 'corporate_earnings';
  }
  if (ELECTION_RE.test(text)) return 'election';
  // A rate decision is the FOMC calendar's, and an approval rating is a poll: neither is a venue-derived decision.
  if (DECISION_RE.test(text) && !MACRO_PATTERNS.fomc.test(text) && !APPROVAL_RATING_RE.test(text)) return 'decision';
  return null;
}

function derivedLabel(type: string, events: readonly Event[]): string {
  const first = events[0];
  if (type.startsWith('earnings:')) return `${type.slice('earnings:'.length)} earnings`;
  const [one, many] =
    type === 'election'
      ? ['Election', 'Elections']
      : type === 'decision'
        ? ['Decision', 'Decisions']
        : ['Earnings', 'Earnings'];
  if (events.length === 1 && first) return `${one}: ${first.question}`;
  return `${many}: ${events.length} events close`;
}

/** Macro types an event is sensitive to: named in its text, else its category's defaults. */
export function macroTypesFor(event: Event): MacroType[] {
  const text = eventText(event);
  const named = MACRO_TYPES.filter((t) => MACRO_PATTERNS[t].test(text));
  return named.length > 0 ? named : [...(CATEGORY_DEFAULTS[event.category] ?? [])];
}

/** The relevance test of one event, with its macro types and ticker read once. */
function relevanceOf(event: Event): (catalyst: Catalyst) => boolean {
  const macro = new Set<string>(macroTypesFor(event));
  const ticker = earningsTicker(event);
  const earnings = ticker ? `earnings:${ticker}` : null;
  return (c) => c.event_ids.includes(event.event_id) || macro.has(c.type) || c.type === earnings;
}

/** Whether a catalyst bears on an event: derived from it, a macro release it is sensitive to, or its company's earnings. */
export function catalystRelevant(event: Event, catalyst: Catalyst): boolean {
  return relevanceOf(event)(catalyst);
}

function lastCloseMs(markets: readonly Market[]): number {
  let last = Number.NEGATIVE_INFINITY;
  for (const m of markets) if (m.close_at) last = Math.max(last, Date.parse(m.close_at));
  return last === Number.NEGATIVE_INFINITY ? Number.POSITIVE_INFINITY : last;
}

const byDateType = (a: { date: string; type?: string }, b: { date: string; type?: string }) =>
  a.date.localeCompare(b.date) || (a.type ?? '').localeCompare(b.type ?? '');

/**
 * Catalysts in binding order (date, then type) with the start of each one's date in milliseconds: what binding scans,
 * made once for the many events of a run (issue 18: binding every event rescanned and re-parsed every catalyst's
 * date, twice a run).
 */
export interface CatalystIndex {
  ordered: readonly Catalyst[];
  startMs: readonly number[];
}

/** The index `bindCatalystDates` scans, of catalysts in any order. */
export function indexCatalysts(catalysts: readonly Catalyst[]): CatalystIndex {
  const inOrder = catalysts.every((c, i) => i === 0 || byDateType(catalysts[i - 1] ?? c, c) <= 0);
  const ordered = inOrder ? catalysts : [...catalysts].sort(byDateType);
  return { ordered, startMs: ordered.map((c) => Date.parse(`${c.date}T00:00:00Z`)) };
}

/** The position of the first catalyst dated `date` or later. */
function firstFrom(ordered: readonly Catalyst[], date: string): number {
  let lo = 0;
  let hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ordered[mid] as Catalyst).date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The catalyst dates of one event: relevant catalysts dated before its last market close (a date
 * counts from 00:00 UTC), de-duplicated on (date, type), sorted ascending, at most five. With `now`,
 * only dates from today on and the five soonest; without it, the five nearest the close.
 * An event whose markets have no close time is not capped. `catalysts` may be given indexed (`indexCatalysts`).
 */
export function bindCatalystDates(
  event: Event,
  markets: readonly Market[],
  catalysts: readonly Catalyst[] | CatalystIndex,
  now?: string,
): { catalyst_dates: CatalystDate[]; catalyst_types: string[] } {
  const closeMs = lastCloseMs(markets);
  const today = now ? utcDate(now) : null;
  const relevant = relevanceOf(event);
  const { ordered, startMs } = 'ordered' in catalysts ? catalysts : indexCatalysts(catalysts);
  const seen = new Set<string>();
  const picked: Catalyst[] = [];
  // Those dated before today are never picked (and all start before the ones after them: none can end the scan).
  for (let i = today ? firstFrom(ordered, today) : 0; i < ordered.length; i++) {
    if ((startMs[i] as number) >= closeMs) break;
    const c = ordered[i] as Catalyst;
    const key = `${c.date}|${c.type}`;
    if (seen.has(key) || !relevant(c)) continue;
    seen.add(key);
    picked.push(c);
  }
  const kept = today ? picked.slice(0, MAX_CATALYST_DATES) : picked.slice(-MAX_CATALYST_DATES);
  const catalyst_dates = kept.map((c) => ({ date: c.date, label: c.label, type: c.type, source_url: c.source_url }));
  return { catalyst_dates, catalyst_types: [...new Set(kept.map((c) => c.type))].sort() };
}

export interface CatalystBuildInput {
  calendar: MacroCalendar;
  events: readonly Event[];
  markets: readonly Market[];
  now: string;
}

function marketsByEvent(markets: readonly Market[]): Map<string, Market[]> {
  const out = new Map<string, Market[]>();
  for (const m of markets) {
    if (!m.event_id) continue;
    const list = out.get(m.event_id) ?? [];
    list.push(m);
    out.set(m.event_id, list);
  }
  return out;
}

/** Catalysts implied by venue data: one per published event with an open market closing today or later. */
function venueCatalysts(events: readonly Event[], byEvent: ReadonlyMap<string, Market[]>, now: string): Catalyst[] {
  const nowMs = Date.parse(now);
  const groups = new Map<string, { date: string; type: string; events: Event[]; markets: Market[] }>();
  for (const event of events) {
    if (!event.published) continue;
    const type = derivedCatalystType(event);
    if (!type) continue;
    const open = (byEvent.get(event.event_id) ?? []).filter(
      (m) => m.status === 'open' && m.close_at !== null && Date.parse(m.close_at) >= nowMs,
    );
    const closes = open.map((m) => m.close_at ?? '').sort();
    const first = closes[0];
    if (!first) continue;
    const date = utcDate(first);
    const key = `${date}|${type}`;
    const group = groups.get(key) ?? { date, type, events: [], markets: [] };
    group.events.push(event);
    group.markets.push(...open.filter((m) => utcDate(m.close_at ?? '') === date));
    groups.set(key, group);
  }
  const out: Catalyst[] = [];
  for (const g of groups.values()) {
    const events = [...g.events].sort((a, b) => a.event_id.localeCompare(b.event_id));
    const market = [...g.markets].sort((a, b) => a.market_id.localeCompare(b.market_id))[0];
    if (!market) continue;
    out.push({
      date: g.date,
      type: g.type,
      label: derivedLabel(g.type, events),
      source_url: marketSource(market).url,
      origin: 'venue',
      event_ids: events.map((e) => e.event_id),
    });
  }
  return out;
}

/**
 * Every catalyst: the macro calendar's entries and the venue-derived ones, sorted by date then type,
 * unique on (date, type) (a calendar entry wins a tie). `event_ids` lists the events whose
 * catalyst_dates carry the catalyst, plus the events a venue catalyst was derived from.
 */
export function buildCatalysts(input: CatalystBuildInput): Catalyst[] {
  return catalystsAndDates(input).catalysts;
}

/** An event's bound catalyst dates and types (`bindCatalystDates`). */
export type BoundCatalystDates = ReturnType<typeof bindCatalystDates>;

/**
 * `buildCatalysts`, with what binding each event gave on the way: `bindCatalystDates(event, its markets,
 * catalysts, now)` over the catalysts returned, without binding every event a second time. The two agree: a
 * catalyst's `event_ids` only gain, besides the events it was derived from, events it was already bound to, and
 * neither changes whether it bears on an event.
 */
export function catalystsAndDates(input: CatalystBuildInput): {
  catalysts: Catalyst[];
  dates: Map<string, BoundCatalystDates>;
} {
  const byEvent = marketsByEvent(input.markets);
  const calendar: Catalyst[] = input.calendar.entries.map((e) => ({
    date: e.date,
    type: e.type,
    label: e.label,
    source_url: e.source_url,
    origin: 'calendar',
    event_ids: [],
  }));
  const calendarKeys = new Set(calendar.map((c) => `${c.date}|${c.type}`));
  const derived = venueCatalysts(input.events, byEvent, input.now).filter(
    (c) => !calendarKeys.has(`${c.date}|${c.type}`),
  );
  const all = [...calendar, ...derived].sort(byDateType);
  const bound = new Map<string, Set<string>>(all.map((c) => [`${c.date}|${c.type}`, new Set(c.event_ids)]));
  const index = indexCatalysts(all);
  const dates = new Map<string, BoundCatalystDates>();
  for (const event of input.events) {
    const binding = bindCatalystDates(event, byEvent.get(event.event_id) ?? [], index, input.now);
    dates.set(event.event_id, binding);
    for (const d of binding.catalyst_dates) bound.get(`${d.date}|${d.type ?? ''}`)?.add(event.event_id);
  }
  const catalysts = all.map((c) => ({ ...c, event_ids: [...(bound.get(`${c.date}|${c.type}`) ?? [])].sort() }));
  return { catalysts, dates };
}

/**
 * The events with `catalyst_dates` and `catalyst_types` set from the catalysts. Events whose catalyst
 * dates an editor set (`field_provenance.catalyst_dates.source = service_editorial`) keep them.
 */
export function bindEvents(input: {
  events: readonly Event[];
  markets: readonly Market[];
  catalysts: readonly Catalyst[];
  now: string;
}): Event[] {
  const byEvent = marketsByEvent(input.markets);
  const index = indexCatalysts(input.catalysts);
  return input.events.map((event) => {
    if (event.field_provenance.catalyst_dates?.source === 'service_editorial') return event;
    const bound = bindCatalystDates(event, byEvent.get(event.event_id) ?? [], index, input.now);
    return {
      ...event,
      ...bound,
      field_provenance: { ...event.field_provenance, catalyst_dates: { source: 'derived', rule: 'catalyst_binding' } },
    };
  });
}

/**
 * Catalysts dated from today through today + `days`, both ends inclusive (served-shapes §7), date
 * ascending. `days` is clamped to 1..365.
 */
export function upcomingCatalysts(catalysts: readonly Catalyst[], now: string, days: number): Catalyst[] {
  const span = Math.min(365, Math.max(1, Math.trunc(Number.isFinite(days) ? days : 30)));
  const from = utcDate(now);
  const to = addDays(from, span);
  return catalysts.filter((c) => c.date >= from && c.date <= to).sort(byDateType);
}
