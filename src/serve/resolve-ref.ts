/**
 * Reading a reference (issue 20, item 4): what a string a client holds could be — a venue page or API URL, a
 * ticker, a slug, a condition id, a CLOB token id, a pmref id — as lookups to try against the reference index,
 * most specific first. Pure: a URL is parsed, never fetched (no SSRF), and nothing here knows the data.
 *
 * The rules are the shapes of the identifiers, not lists of known values:
 * - `SVC-MKT-…`, `SVC-EVT-…`, `SVCX-…`: pmref ids, nothing else.
 * - `0x` and 16 or more hex digits: a venue_b condition id or Gamma question id (lowercased).
 * - Digits only: a CLOB token id or a numeric Gamma market or event id.
 * - Letters, digits, `.`, `_`, `-`: a venue_a ticker or event ticker (uppercased), then a slug (lowercased), then
 *   a venue_a series ticker (which names every event of the series).
 * - A URL (with or without `https://`, `www.`, a trailing slash, a query or a locale segment): its host decides
 *   the venue and so the kinds tried; its last two path segments are tried, last first. Venue page paths say what
 *   they name: venue_b `/event/<event slug>/<market slug>` and `/market/<market slug>`; a venue_a page is an
 *   event's or a series' page. Venue API hosts' query values (`?slug=`, `?token_id=`, `?tickers=a,b`) are tried
 *   too. Any other URL or path (a pmref one) is read the same way with every kind.
 */
import type { IdentifierKind } from '../domain/index.ts';

/** One lookup: an identifier kind and the key in its normalized form (see `normalizeKey`). */
export interface Probe {
  kind: IdentifierKind;
  key: string;
}

export type RefShape = 'venue_a_url' | 'venue_b_url' | 'url' | 'identifier';

export interface ParsedRef {
  shape: RefShape;
  /** Lookups in precedence order: the first group with any hit decides; within a group every hit counts. */
  groups: Probe[][];
}

/** The longest reference read (a venue URL with a long query is a few hundred characters). */
export const MAX_REF_LENGTH = 2048;

/**
 * The one normal form of a key of `kind`, used both to index and to look up: tickers and pmref ids upper case,
 * hex ids and slugs lower case, decimal ids without leading zeros.
 * @example normalizeKey('ticker', 'kxfed-26apr-t4.25') // 'KXFED-26APR-T4.25'
 */
export function normalizeKey(kind: IdentifierKind, value: string): string {
  switch (kind) {
    case 'market_id':
    case 'event_id':
    case 'question_id':
    case 'ticker':
    case 'event_ticker':
    case 'series_ticker':
      return value.toUpperCase();
    case 'condition_id':
    case 'venue_question_id':
    case 'market_slug':
    case 'event_slug':
      return value.toLowerCase();
    case 'token_id':
    case 'venue_market_id':
    case 'venue_event_id':
      return value.replace(/^0+(?=\d)/, '');
  }
}

const VENUE_A_KINDS: ReadonlySet<IdentifierKind> = new Set(['ticker', 'event_ticker', 'series_ticker']);
const VENUE_B_KINDS: ReadonlySet<IdentifierKind> = new Set([
  'condition_id',
  'token_id',
  'venue_question_id',
  'venue_market_id',
  'venue_event_id',
  'market_slug',
  'event_slug',
]);

const PMREF_PREFIXES: ReadonlyArray<[RegExp, IdentifierKind]> = [
  [/^SVC-MKT-/i, 'market_id'],
  [/^SVC-EVT-/i, 'event_id'],
  [/^SVCX-/i, 'question_id'],
];
const HEX_ID = /^0x[0-9a-f]{16,}$/i;
const DECIMAL_ID = /^[0-9]{1,100}$/;
/** A venue_a ticker: letters, digits, `.`, `_`, `-`, with at least one letter. */
const TICKER = /^(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A slug: no whitespace and no URL delimiters (venue slugs are ASCII words and hyphens). */
const SLUG = /^[^\s/?#]+$/;

/** The lookup groups of one bare token, most specific first. */
function tokenGroups(token: string): Probe[][] {
  const probe = (kind: IdentifierKind): Probe => ({ kind, key: normalizeKey(kind, token) });
  for (const [re, kind] of PMREF_PREFIXES) if (re.test(token)) return [[probe(kind)]];
  const exact: Probe[] = [];
  const slugs: Probe[] = [];
  const series: Probe[] = [];
  if (HEX_ID.test(token)) exact.push(probe('condition_id'), probe('venue_question_id'));
  else if (DECIMAL_ID.test(token)) exact.push(probe('token_id'), probe('venue_market_id'), probe('venue_event_id'));
  else {
    if (TICKER.test(token)) {
      exact.push(probe('ticker'), probe('event_ticker'));
      series.push(probe('series_ticker'));
    }
    if (SLUG.test(token)) slugs.push(probe('market_slug'), probe('event_slug'));
  }
  return [exact, slugs, series].filter((g) => g.length > 0);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

type Venue = 'venue_a' | 'venue_b';

/** The venue a host belongs to, and whether it is the venue's web site (pages) rather than one of its APIs. */
function hostVenue(hostname: string): { venue: Venue; site: boolean } | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const [domain, venue] of [
    ['kalshi.com', 'venue_a'],
    ['polymarket.com', 'venue_b'],
  ] as const) {
    if (host === domain || host.endsWith(`.${domain}`)) {
      return { venue, site: host === domain || host === `www.${domain}` };
    }
  }
  return null;
}

/** A reference as a URL: with a scheme, a bare host and path (`polymarket.com/event/…`) or a path (`/v1/…`). */
function asUrl(text: string): URL | null {
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return new URL(text);
    // A bare host needs a path after it: `foo.bar` alone is a slug, not a site.
    if (/^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?[/?#]/i.test(text)) return new URL(`https://${text}`);
    if (text.startsWith('/')) return new URL(text, 'http://pmref.invalid');
  } catch {
    return null;
  }
  return null;
}

/** The kinds a path segment says the next one is (`/events/<…>`, `/v1/markets/<…>`, `/markets/slug/<…>`). */
const NAMED_KINDS: Readonly<Record<string, ReadonlySet<IdentifierKind>>> = (() => {
  const events: ReadonlySet<IdentifierKind> = new Set(['event_id', 'event_ticker', 'venue_event_id', 'event_slug']);
  const markets: ReadonlySet<IdentifierKind> = new Set([
    'market_id',
    'ticker',
    'condition_id',
    'token_id',
    'venue_question_id',
    'venue_market_id',
    'market_slug',
  ]);
  return {
    event: events,
    events,
    market: markets,
    markets,
    series: new Set(['series_ticker']),
    questions: new Set(['question_id']),
  };
})();

/**
 * The kinds the path says its last segment is: pmref's own paths and the venues' API paths put the record type
 * before the identifier (`/v1/events/<slug>`, `/trade-api/v2/markets/<ticker>`, `/markets/slug/<slug>`). Null
 * when the path says nothing.
 */
function namedBy(segments: readonly string[]): ReadonlySet<IdentifierKind> | null {
  const before = segments.at(-2)?.toLowerCase();
  const word = before === 'slug' ? segments.at(-3)?.toLowerCase() : before;
  return word === undefined ? null : (NAMED_KINDS[word] ?? null);
}

/** Keeps only the probes of the kinds a venue has (a venue URL names nothing of the other venue). */
function onlyKinds(groups: Probe[][], kinds: ReadonlySet<IdentifierKind> | null): Probe[][] {
  if (kinds === null) return groups;
  return groups.map((g) => g.filter((p) => kinds.has(p.kind))).filter((g) => g.length > 0);
}

/**
 * venue_b page paths name what they show: `/event/<event slug>[/<market slug>]` and `/market/<market slug>`,
 * after an optional locale segment (`/es/event/…`). Null for any other path.
 */
function venueBPageGroups(segments: readonly string[]): Probe[][] | null {
  const at = segments.findIndex((s) => s === 'event' || s === 'market');
  if (at === -1) return null;
  const first = segments[at + 1];
  if (first === undefined) return null;
  if (segments[at] === 'market') return [[{ kind: 'market_slug', key: normalizeKey('market_slug', first) }]];
  const market = segments[at + 2];
  const groups: Probe[][] = [];
  if (market !== undefined) groups.push([{ kind: 'market_slug', key: normalizeKey('market_slug', market) }]);
  groups.push([{ kind: 'event_slug', key: normalizeKey('event_slug', first) }]);
  return groups;
}

/**
 * A venue_a page is an event's page (`/markets/<series>/<title words>/<event ticker>`) or a series page
 * (`/markets/<series>`): a segment there is an event ticker first (a one-market event often gives its market the
 * event's ticker, and the page is the event's), then a market ticker, then a series ticker.
 */
function venueAPageGroups(token: string): Probe[][] {
  if (!TICKER.test(token)) return [];
  return (['event_ticker', 'ticker', 'series_ticker'] as const).map((kind) => [
    { kind, key: normalizeKey(kind, token) },
  ]);
}

function urlGroups(url: URL): ParsedRef {
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(safeDecode);
  const venue = hostVenue(url.hostname);
  const shape: RefShape = venue === null ? 'url' : venue.venue === 'venue_a' ? 'venue_a_url' : 'venue_b_url';
  const kinds = venue === null ? null : venue.venue === 'venue_a' ? VENUE_A_KINDS : VENUE_B_KINDS;
  if (venue?.venue === 'venue_b' && venue.site) {
    const page = venueBPageGroups(segments);
    if (page) return { shape, groups: page };
  }
  const tokens = segments.slice(-2).reverse();
  if (venue?.venue === 'venue_a' && venue.site) return { shape, groups: tokens.flatMap(venueAPageGroups) };
  const groups = tokens.flatMap((t, i) => {
    const named = i === 0 ? namedBy(segments) : null;
    return onlyKinds(onlyKinds(tokenGroups(t), kinds), named);
  });
  // An API URL may carry the identifier in its query (`/markets?slug=…`, `/book?token_id=…`, `?tickers=a,b`); a
  // page's query is tracking (`?tid=…`), never the identifier.
  if (venue !== null && !venue.site) {
    for (const value of url.searchParams.values()) {
      for (const t of value.split(','))
        if (t.trim().length > 0) groups.push(...onlyKinds(tokenGroups(t.trim()), kinds));
    }
  }
  return { shape, groups };
}

/**
 * The lookups a reference stands for, most specific first.
 * @example parseRef('https://polymarket.com/event/fed-decision-in-march/will-the-fed-cut?tid=1').groups
 *   // [[{ kind: 'market_slug', key: 'will-the-fed-cut' }], [{ kind: 'event_slug', key: 'fed-decision-in-march' }]]
 */
export function parseRef(ref: string): ParsedRef {
  const text = ref.trim();
  if (text.length === 0 || text.length > MAX_REF_LENGTH) return { shape: 'identifier', groups: [] };
  const url = asUrl(text);
  if (url) return urlGroups(url);
  // A reference pasted percent-encoded (`https%3A%2F%2F…`) is read decoded.
  if (/%[0-9a-f]{2}/i.test(text)) {
    const decoded = safeDecode(text);
    if (decoded !== text) return parseRef(decoded);
  }
  return { shape: 'identifier', groups: tokenGroups(text) };
}
