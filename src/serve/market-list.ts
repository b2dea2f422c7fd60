/**
 * The searchable catalog of one generation (issue 17): a list row per served market, per-event facts the event
 * list sorts and filters on (`grade_any`, volume, close), and the search index over both (search/engine.ts).
 * Collected during the read-model build, one market at a time, and finished once the events are in order.
 *
 * Pack: the catalog is kept in the pack as plain data (rows, event facts, the normalized index documents: no
 * raw text) and the index is rebuilt from those documents at load, about 0.3 s on the full universe (README,
 * Search): cheaper to keep right than a binary copy of the postings.
 */
import {
  CATEGORIES,
  COMMITMENT_SUBTYPES,
  ELIGIBILITY_STATUSES,
  type Event,
  GRADES,
  LIST_SORTS,
  type ListNotice,
  type ListSort,
  MARKET_STATUSES,
  type Market,
  type MarketListItem,
  type MarketPage,
  type ServedMarket,
  VENUES,
} from '../domain/index.ts';
import { REGIMES } from '../signals/screens/index.ts';
import { clampOffset, type Raw, str } from './params.ts';
import {
  type DocsNormalization,
  type IndexedDocs,
  normalizedDocs,
  type SearchDocs,
  SearchIndex,
  type SearchMarketDoc,
  type SearchOutcome,
} from './search/engine.ts';

/** Grades as bits, for `grade_any` over an event's markets. */
export const GRADE_BITS: Readonly<Record<string, number>> = { A: 1, B: 2, C: 4, pending: 8 };

/** One market's list row: the served item and the fields filters and sorts read. */
export interface MarketRow {
  item: MarketListItem;
  /** Index of its event in `ReadModel.events`, -1 without a published event. */
  event: number;
  /** `regime:status` of each eligibility screen result. */
  screens: string[];
  regimes: string[];
}

/** Per-event facts aligned with `ReadModel.events`. */
export interface EventFacts {
  /** Bit set of its markets' grades (GRADE_BITS). */
  grades: number;
  /** The primary market's score. */
  score: number | null;
  /** Sum of its markets' 24h volume (null when none has one). */
  volume: number | null;
  /** The earliest close of a live market; with none live, the latest close. */
  closeAt: string | null;
}

export interface MarketCatalog {
  rows: MarketRow[];
  events: EventFacts[];
  /** Event index by event id. */
  eventIndex: Map<string, number>;
  search: SearchIndex;
  /**
   * What the search index is built from (kept for the pack: normalized terms, no raw text). A built model
   * normalizes them on first use: read it after the first answer (the holder's warm-up), not before.
   */
  readonly docs: IndexedDocs;
  /**
   * How this process normalized `docs` (with each document's fingerprint), once it has: what the next build of the
   * catalog reuses (`CatalogCollector.finish`). Null before `docs` is read, and for a catalog loaded from a pack.
   */
  normalization(): DocsNormalization | null;
}

/** Whether a market's `also_on` names the same question (same or complement) on the other venue. */
export function hasTwin(alsoOn: ServedMarket['also_on']): boolean {
  return (alsoOn ?? []).some((t) => t.relation === undefined || t.relation === 'same' || t.relation === 'complement');
}

interface Pending {
  item: MarketListItem;
  eventId: string | null;
  screens: string[];
  regimes: string[];
  doc: Omit<SearchMarketDoc, 'event'>;
  rules: string | null;
  live: boolean;
}

/** Collects catalog rows during the read-model build (one `add` per served market), then `finish`es. */
export class CatalogCollector {
  private readonly pending: Pending[] = [];

  add(market: Market, served: ServedMarket, event: Event | undefined): void {
    const screens = (served.eligibility_screens ?? []).map((s) => `${s.regime}:${s.status}`);
    this.pending.push({
      item: {
        market_id: served.market_id,
        event_id: event ? event.event_id : null,
        event_slug: event ? event.slug : null,
        platform: served.platform,
        platform_market_id: served.platform_market_id,
        question: served.question,
        category: event ? event.category : null,
        status: served.status,
        close_at: served.close_at,
        grade: served.rcg.grade,
        rcg_score: served.rcg.score,
        caps: served.rcg.caps,
        source_commitment_subtype: served.resolution.source_commitment_subtype,
        source_of_record: served.resolution.source_of_record,
        last_price: served.last_price,
        price_as_of: served.price_as_of,
        volume_24h_usd: served.volume_24h_usd,
        question_id: served.question_id,
        has_twin: hasTwin(served.also_on),
        url: event ? `/events/${event.slug}` : null,
      },
      eventId: event ? event.event_id : null,
      screens,
      regimes: [...new Set((served.eligibility_screens ?? []).map((s) => s.regime))],
      doc: {
        question: [market.question_raw, market.group_item_title].filter(Boolean).join(' '),
        ids: [market.platform_market_id, market.market_id, market.question_id],
      },
      rules: market.resolution_rules_raw,
      live: served.status === 'open',
    });
  }

  /**
   * The catalog, with rows in the order of `events` (then market id), and its search index. `previous`: the last
   * build's normalization of its documents (`MarketCatalog.normalization`), whose normalized text this catalog
   * takes for every document whose source text is unchanged (issue 18: a rebuild redoes only what changed).
   */
  finish(events: readonly Event[], previous: DocsNormalization | null = null): MarketCatalog {
    const eventIndex = new Map(events.map((e, i) => [e.event_id, i]));
    const order = (p: Pending) => (p.eventId === null ? -1 : (eventIndex.get(p.eventId) ?? -1));
    const sorted = this.pending
      .map((p) => ({ p, e: order(p) }))
      .sort(
        (a, b) =>
          (a.e < 0 ? Number.MAX_SAFE_INTEGER : a.e) - (b.e < 0 ? Number.MAX_SAFE_INTEGER : b.e) ||
          (a.p.item.market_id < b.p.item.market_id ? -1 : 1),
      );
    const rules: Array<Set<string>> = events.map(() => new Set());
    const facts: EventFacts[] = events.map(() => ({ grades: 0, score: null, volume: null, closeAt: null }));
    const liveClose: Array<string | null> = events.map(() => null);
    const live: boolean[] = events.map(() => false);
    const anyClose: Array<string | null> = events.map(() => null);
    const rows: MarketRow[] = [];
    const markets: SearchMarketDoc[] = [];
    for (const { p, e } of sorted) {
      rows.push({ item: p.item, event: e, screens: p.screens, regimes: p.regimes });
      markets.push({ event: e, ...p.doc });
      const f = facts[e];
      if (e < 0 || !f) continue;
      if (p.rules) rules[e]?.add(p.rules);
      if (p.live) live[e] = true;
      f.grades |= GRADE_BITS[p.item.grade] ?? 0;
      if (p.item.volume_24h_usd !== null) f.volume = (f.volume ?? 0) + p.item.volume_24h_usd;
      const close = p.item.close_at;
      if (close !== null) {
        const lc = liveClose[e];
        if (p.live && (lc === null || lc === undefined || close < lc)) liveClose[e] = close;
        const ac = anyClose[e];
        if (ac === null || ac === undefined || close > ac) anyClose[e] = close;
      }
      if (events[e]?.primary_market_id === p.item.market_id) f.score = p.item.rcg_score;
    }
    facts.forEach((f, i) => {
      f.closeAt = liveClose[i] ?? anyClose[i] ?? null;
    });
    // The documents as they stand; normalized for the index (normalizedDocs: about 5 s on the full universe, stemming
    // every title, question and rules text, when there is no previous normalization to take unchanged ones from) on
    // first use, after the first answer of a first start (issue 18).
    const docs: SearchDocs = {
      events: events.map((ev, i) => ({
        title: ev.question,
        tags: ev.tags,
        ids: [ev.slug, ev.platform_event_id, ev.event_id],
        rules: [...(rules[i] ?? [])],
        live: live[i] ?? false,
      })),
      markets,
    };
    return catalogOf(rows, facts, eventIndex, () => {
      const normalization = normalizedDocs(docs, previous);
      return { docs: normalization.docs, normalization };
    });
  }
}

/**
 * A catalog whose search index is built from its documents on first use (about 0.7–1.8 s on the full universe),
 * not before the first answer of a start or restart: the holder warms it once the server listens, and before it
 * swaps a rebuilt model in (read-model-holder.ts, warmIndexes); a request that needs it first builds it then. The
 * documents themselves are normalized on first use too (`docs`: a built model's; a pack holds them normalized).
 */
function catalogOf(
  rows: MarketRow[],
  events: EventFacts[],
  eventIndex: Map<string, number>,
  docsOf: () => { docs: IndexedDocs; normalization: DocsNormalization | null },
): MarketCatalog {
  let search: SearchIndex | null = null;
  let docs: IndexedDocs | null = null;
  let normalization: DocsNormalization | null = null;
  // Let go once used: a built model's source documents hold every market's rules text (kept, they held RSS 20–30 MB
  // higher 60 s after a first start's catch-up on the full universe: 593 against 573 MB), and the previous build's
  // normalization, which holds that model's documents.
  let source: typeof docsOf | null = docsOf;
  return {
    rows,
    events,
    eventIndex,
    get search(): SearchIndex {
      search ??= SearchIndex.build(this.docs);
      return search;
    },
    get docs(): IndexedDocs {
      if (docs === null) {
        const out = (source as typeof docsOf)();
        docs = out.docs;
        normalization = out.normalization;
        source = null;
      }
      return docs;
    },
    normalization: () => normalization,
  };
}

/** The catalog as a read-model pack keeps it: plain data, the index left out (rebuilt by `catalogFromPack`). */
export interface PackedCatalog {
  rows: MarketRow[];
  events: EventFacts[];
  docs: IndexedDocs;
}

export function packCatalog(c: MarketCatalog): PackedCatalog {
  return { rows: c.rows, events: c.events, docs: c.docs };
}

/** Rebuilds a catalog from its packed form; `eventIds` are the model's events in order. */
export function catalogFromPack(p: PackedCatalog, eventIds: readonly string[]): MarketCatalog {
  return catalogOf(p.rows, p.events, new Map(eventIds.map((id, i) => [id, i])), () => ({
    docs: p.docs,
    normalization: null,
  }));
}

// --- queries ---------------------------------------------------------------------------------------------------

/** `GET /v1/markets` and `search_markets` parameters, as received (strings over REST, numbers over MCP). */
export interface MarketQuery {
  q?: Raw;
  grade?: Raw;
  source_commitment_subtype?: Raw;
  platform?: Raw;
  category?: Raw;
  status?: Raw;
  has_twin?: Raw;
  regime?: Raw;
  eligibility?: Raw;
  closes_after?: Raw;
  closes_before?: Raw;
  sort?: Raw;
  limit?: Raw;
  offset?: Raw;
}

/** A malformed number or date (REST answers 400 with the message and hint). */
export class MarketQueryError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export const MARKETS_DEFAULT_LIMIT = 50;
export const MARKETS_MAX_LIMIT = 100;
const SERVED_GRADES = [...GRADES, 'pending'] as const;
const REGIME_IDS = REGIMES.map((r) => r.regime);

/** A parsed, validated market query. `unknown` lists filter values outside their vocabulary. */
export interface ParsedMarketQuery {
  q: string | undefined;
  grade?: string;
  subtype?: string;
  platform?: string;
  category?: string;
  status?: string;
  hasTwin?: boolean;
  regime?: string;
  eligibility?: string;
  closesAfter?: string;
  closesBefore?: string;
  sort: ListSort;
  limit: number;
  offset: number;
  /** Unknown values: the parameter, the value and the valid set. */
  unknown: Array<{ name: string; value: string; valid: readonly string[] }>;
  /** Clamped or defaulted parameters, said in the notice. */
  adjusted: string[];
}

function vocab(
  name: string,
  raw: Raw,
  valid: readonly string[],
  unknown: ParsedMarketQuery['unknown'],
  norm: (s: string) => string = (s) => s.toLowerCase(),
): string | undefined {
  const v = str(raw);
  if (v === undefined) return undefined;
  const n = norm(v);
  if (!valid.includes(n)) unknown.push({ name, value: v, valid });
  return n;
}

/** An ISO date or date-time, as an ISO instant; a malformed one is a MarketQueryError. */
function instant(name: string, raw: Raw): string | undefined {
  const v = str(raw);
  if (v === undefined) return undefined;
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(v);
  const ms = ok ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new MarketQueryError(
      `${name} is not an ISO date or date-time.`,
      `Give an ISO date or date-time, e.g. ${name}=2026-12-31 or ${name}=2026-12-31T12:00:00Z.`,
    );
  }
  return new Date(ms).toISOString();
}

/** Parses a market query; throws MarketQueryError on a malformed number or date. */
export function parseMarketQuery(query: MarketQuery): ParsedMarketQuery {
  const unknown: ParsedMarketQuery['unknown'] = [];
  const adjusted: string[] = [];
  const q = str(query.q)?.trim() || undefined;
  const limitText = str(query.limit);
  let limit = MARKETS_DEFAULT_LIMIT;
  if (limitText !== undefined) {
    const n = Number(limitText);
    if (!Number.isInteger(n) || n < 1) {
      throw new MarketQueryError(`limit is not a whole number ≥ 1.`, `Use limit=1..${MARKETS_MAX_LIMIT}.`);
    }
    if (n > MARKETS_MAX_LIMIT) adjusted.push(`limit ${n} is over the maximum ${MARKETS_MAX_LIMIT}; capped.`);
    limit = Math.min(n, MARKETS_MAX_LIMIT);
  }
  const offsetText = str(query.offset);
  if (offsetText !== undefined && !(Number.isInteger(Number(offsetText)) && Number(offsetText) >= 0)) {
    throw new MarketQueryError(`offset is not a whole number ≥ 0.`, 'Use offset=0, 50, 100, …');
  }
  const offset = clampOffset(query.offset).value;
  const twin = vocab('has_twin', query.has_twin, ['true', 'false'], unknown);
  let sort = vocab('sort', query.sort, LIST_SORTS, unknown) as ListSort | undefined;
  if (sort !== undefined && !(LIST_SORTS as readonly string[]).includes(sort)) {
    // An unknown sort is not a filter: the page is served in the default order, and the notice says so.
    unknown.pop();
    adjusted.push(`sort "${str(query.sort)}" is not known (valid: ${LIST_SORTS.join(', ')}); used relevance.`);
    sort = undefined;
  }
  const parsed: ParsedMarketQuery = {
    q,
    sort: sort ?? 'relevance',
    limit,
    offset,
    unknown,
    adjusted,
  };
  const grade = vocab('grade', query.grade, SERVED_GRADES, unknown, (s) =>
    s.toLowerCase() === 'pending' ? 'pending' : s.toUpperCase(),
  );
  const subtype = vocab('source_commitment_subtype', query.source_commitment_subtype, COMMITMENT_SUBTYPES, unknown);
  const platform = vocab('platform', query.platform, VENUES, unknown);
  const category = vocab('category', query.category, CATEGORIES, unknown);
  const status = vocab('status', query.status, MARKET_STATUSES, unknown);
  const regime = vocab('regime', query.regime, REGIME_IDS, unknown);
  const eligibility = vocab('eligibility', query.eligibility, ELIGIBILITY_STATUSES, unknown);
  const closesAfter = instant('closes_after', query.closes_after);
  const closesBefore = instant('closes_before', query.closes_before);
  if (grade !== undefined) parsed.grade = grade;
  if (subtype !== undefined) parsed.subtype = subtype;
  if (platform !== undefined) parsed.platform = platform;
  if (category !== undefined) parsed.category = category;
  if (status !== undefined) parsed.status = status;
  if (twin !== undefined) parsed.hasTwin = twin === 'true';
  if (regime !== undefined) parsed.regime = regime;
  if (eligibility !== undefined) parsed.eligibility = eligibility;
  if (closesAfter !== undefined) parsed.closesAfter = closesAfter;
  if (closesBefore !== undefined) parsed.closesBefore = closesBefore;
  return parsed;
}

/** A cache key of a parsed query (same key, same page). */
export function marketQueryKey(p: ParsedMarketQuery): string {
  return `markets|${JSON.stringify([p.q, p.grade, p.subtype, p.platform, p.category, p.status, p.hasTwin, p.regime, p.eligibility, p.closesAfter, p.closesBefore, p.sort, p.limit, p.offset, p.adjusted])}`;
}

function rowMatches(row: MarketRow, p: ParsedMarketQuery): boolean {
  const it = row.item;
  if (p.grade !== undefined && it.grade !== p.grade) return false;
  if (p.subtype !== undefined && it.source_commitment_subtype !== p.subtype) return false;
  if (p.platform !== undefined && it.platform !== p.platform) return false;
  if (p.category !== undefined && it.category !== p.category) return false;
  if (p.status !== undefined && it.status !== p.status) return false;
  if (p.hasTwin !== undefined && it.has_twin !== p.hasTwin) return false;
  if (p.regime !== undefined || p.eligibility !== undefined) {
    const ok =
      p.regime !== undefined && p.eligibility !== undefined
        ? row.screens.includes(`${p.regime}:${p.eligibility}`)
        : p.regime !== undefined
          ? row.regimes.includes(p.regime)
          : row.screens.some((s) => s.endsWith(`:${p.eligibility}`));
    if (!ok) return false;
  }
  if (p.closesAfter !== undefined && (it.close_at === null || Date.parse(it.close_at) < Date.parse(p.closesAfter)))
    return false;
  if (p.closesBefore !== undefined && (it.close_at === null || Date.parse(it.close_at) > Date.parse(p.closesBefore)))
    return false;
  return true;
}

/**
 * The `k` best of `n` candidates by `key` (higher first; ties by candidate order), in order. Selects by a
 * threshold over a sorted copy of the keys (a typed-array sort) instead of sorting the candidates: a query may
 * match 15,000 markets for a page of 50.
 */
export function topK(
  n: number,
  key: (i: number) => number,
  k: number,
  tie: (i: number) => number = (i) => -i,
): number[] {
  if (k <= 0 || n === 0) return [];
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = key(i);
  const order = (a: number, b: number) => (keys[b] ?? 0) - (keys[a] ?? 0) || tie(b) - tie(a) || a - b;
  if (k >= n) return Array.from({ length: n }, (_, i) => i).sort(order);
  const threshold = Float64Array.from(keys).sort()[n - k] ?? Number.NEGATIVE_INFINITY;
  const above: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = keys[i] ?? 0;
    if (v > threshold) above.push(i);
    else if (v === threshold) at.push(i);
  }
  at.sort(order);
  return [...above, ...at.slice(0, k - above.length)].sort(order);
}

/** Sort key (higher first) of a row for a sort order; missing values sort last. */
function sortKey(sort: ListSort, item: MarketListItem): number {
  switch (sort) {
    case 'rcg_score':
      return item.rcg_score ?? Number.NEGATIVE_INFINITY;
    case 'volume':
      return item.volume_24h_usd ?? Number.NEGATIVE_INFINITY;
    case 'close_at':
      return item.close_at === null ? Number.NEGATIVE_INFINITY : -Date.parse(item.close_at);
    default:
      return 0;
  }
}

/** What a search notice suggests besides words: the ids search also finds. */
const TRY_AN_ID = 'a venue ticker (KXFED-26DEC) or its series prefix (KXFED), a condition id or a slug';

/** The notice of a search: units no result matched, words beyond the limit. Null when the search went whole. */
export function searchNotice(outcome: SearchOutcome | null, what: 'markets' | 'events'): ListNotice | null {
  if (!outcome) return null;
  const { unmatched, dropped, units } = outcome;
  // A q of stopwords and punctuation alone matches nothing and leaves no word unmatched: it is said, not passed off
  // as "no match for the filters".
  if (units.length === 0) {
    return {
      reason: `q has no searchable word (only words the search leaves out, such as "will" or "the", or punctuation), so no ${what} match it.`,
      try: [
        'a word that names the subject (fed, bitcoin, cpi, election)',
        TRY_AN_ID,
        `no q, to list every ${what === 'events' ? 'event' : 'market'} the other filters keep`,
      ],
    };
  }
  if (unmatched.length === 0 && dropped.length === 0) return null;
  const reasons: string[] = [];
  if (outcome.hits.length === 0) reasons.push(`No ${what} match ${units.map((u) => `"${u.text}"`).join(' ')}.`);
  else if (unmatched.length > 0) {
    reasons.push(
      `No ${what} match every word; showing the closest matches, which lack ${[...new Set(unmatched)].map((u) => `"${u}"`).join(' or ')}.`,
    );
  }
  if (dropped.length > 0)
    reasons.push(`Only the first ${units.length} words were used; ignored: ${dropped.join(' ')}.`);
  const kept = units.filter((u) => !unmatched.includes(u.text)).map((u) => u.text);
  return {
    reason: reasons.join(' '),
    try: [
      ...(kept.length > 0 && unmatched.length > 0 ? [`q=${kept.join(' ')}`] : []),
      'check the spelling (one typo per word of five letters or more is forgiven)',
      TRY_AN_ID,
      'fewer or broader words (fed, bitcoin, cpi, election)',
    ],
  };
}

/** The notice of unknown filter values and of an empty page. */
function pageNotice(
  p: ParsedMarketQuery,
  search: ListNotice | null,
  matchedBeforeFilters: number,
  total: number,
  what: 'markets' | 'events',
): ListNotice | null {
  if (p.unknown.length > 0) {
    const u = p.unknown[0];
    return {
      reason: p.unknown.map((x) => `${x.name} "${x.value}" is not known; valid: ${x.valid.join(', ')}.`).join(' '),
      try: u ? u.valid.map((v) => `${u.name}=${v}`) : [],
    };
  }
  if (search && (total === 0 || search.reason.length > 0)) return search;
  if (total === 0) {
    const filters = filterNames(p);
    if (matchedBeforeFilters > 0 && filters.length > 0) {
      return {
        reason: `${matchedBeforeFilters} ${what} match${p.q ? ` q="${p.q}"` : ''}, none with ${filters.join(', ')}.`,
        try: filters.map((f) => `without ${f.split('=')[0]}`),
      };
    }
    if (p.offset > 0 && matchedBeforeFilters > 0) {
      return { reason: `offset ${p.offset} is past the last match.`, try: ['offset=0'] };
    }
    return { reason: `No ${what} match the filters.`, try: ['fewer filters'] };
  }
  if (p.adjusted.length > 0) return { reason: p.adjusted.join(' '), try: [] };
  return null;
}

function filterNames(p: ParsedMarketQuery): string[] {
  const out: string[] = [];
  if (p.grade !== undefined) out.push(`grade=${p.grade}`);
  if (p.subtype !== undefined) out.push(`source_commitment_subtype=${p.subtype}`);
  if (p.platform !== undefined) out.push(`platform=${p.platform}`);
  if (p.category !== undefined) out.push(`category=${p.category}`);
  if (p.status !== undefined) out.push(`status=${p.status}`);
  if (p.hasTwin !== undefined) out.push(`has_twin=${p.hasTwin}`);
  if (p.regime !== undefined) out.push(`regime=${p.regime}`);
  if (p.eligibility !== undefined) out.push(`eligibility=${p.eligibility}`);
  if (p.closesAfter !== undefined) out.push(`closes_after=${p.closesAfter}`);
  if (p.closesBefore !== undefined) out.push(`closes_before=${p.closesBefore}`);
  return out;
}

/** One page of markets for a parsed query. */
export function findMarketsIn(catalog: MarketCatalog, p: ParsedMarketQuery): MarketPage {
  const empty = (notice: ListNotice | null): MarketPage => ({
    total: 0,
    count: 0,
    limit: p.limit,
    offset: p.offset,
    notice,
    markets: [],
  });
  if (p.unknown.length > 0) return empty(pageNotice(p, null, 0, 0, 'markets'));
  const outcome = p.q === undefined ? null : catalog.search.searchMarkets(p.q);
  // Candidates: search hits (row index, score) or every row in catalog order.
  const rowsOf: number[] = [];
  const scoreOf: number[] = [];
  if (outcome) {
    for (const h of outcome.hits) {
      const row = catalog.rows[h.key];
      if (row && rowMatches(row, p)) {
        rowsOf.push(h.key);
        scoreOf.push(h.score);
      }
    }
  } else {
    catalog.rows.forEach((row, i) => {
      if (rowMatches(row, p)) rowsOf.push(i);
    });
  }
  const before = outcome ? outcome.hits.length : catalog.rows.length;
  const total = rowsOf.length;
  const k = p.offset + p.limit;
  // Ties: by relevance when searching, then by catalog order (live events first, most recently updated).
  const tie = outcome ? (i: number) => scoreOf[i] ?? 0 : (i: number) => -i;
  const byRow = (i: number): MarketListItem | undefined => catalog.rows[rowsOf[i] ?? -1]?.item;
  const ordered =
    p.sort === 'relevance'
      ? outcome
        ? topK(
            total,
            (i) => scoreOf[i] ?? 0,
            k,
            (i) => -(rowsOf[i] ?? 0),
          )
        : Array.from({ length: Math.min(k, total) }, (_, i) => i)
      : topK(
          total,
          (i) => {
            const it = byRow(i);
            return it ? sortKey(p.sort, it) : Number.NEGATIVE_INFINITY;
          },
          k,
          tie,
        );
  const markets = ordered.slice(p.offset).flatMap((i) => {
    const row = catalog.rows[rowsOf[i] ?? -1];
    if (!row) return [];
    return [outcome ? { ...row.item, score: Math.round((scoreOf[i] ?? 0) * 1000) / 1000 } : row.item];
  });
  return {
    total,
    count: markets.length,
    limit: p.limit,
    offset: p.offset,
    notice: pageNotice(p, searchNotice(outcome, 'markets'), before, total, 'markets'),
    markets,
  };
}
