/**
 * The explorer home page (issue 17 item 6): what a browser gets at `/`. A search box and filters in one GET
 * form (category, venue, grade, commitment subtype, twin, status, sort), the matching markets with their grade
 * badges linking to their event pages, pagination, and an empty state that says why and what to try.
 *
 * Results are markets, not events: the grade and commitment filters are about a market's own grade and source
 * (issue 17: "a grade-A market inside a B event is unreachable" by event), and a market row links to its own
 * section of the event page. The data is `QueryService.findMarkets`, rendered as is.
 */
import {
  CATEGORIES,
  COMMITMENT_SUBTYPES,
  GRADES,
  LIST_SORTS,
  MARKET_STATUSES,
  type MarketListItem,
  type MarketPage,
  VENUES,
} from '../../domain/index.ts';
import {
  choicesOf,
  compareHref,
  EXPLORER_STYLE,
  emptyState,
  eventHref,
  hrefWith,
  type Params,
  pager,
  selectField,
  shortId,
  shortTime,
  windowText,
} from './explorer-parts.ts';
import { esc, gradeBadge, page, pct } from './html.ts';

/** The query parameters the home page form submits (and pagination keeps). */
export const HOME_PARAMS = [
  'q',
  'category',
  'platform',
  'grade',
  'source_commitment_subtype',
  'has_twin',
  'status',
  'sort',
  'limit',
] as const;

export interface HomePageData {
  /** The request's parameters, echoed into the form and the pagination links. */
  params: Params;
  result: MarketPage;
  counts: { events: number; markets: number };
  /** A banner for the whole page (e.g. the simulated-data notice), or null. */
  notice: string | null;
}

const SORT_LABELS: Record<(typeof LIST_SORTS)[number], string> = {
  relevance: 'Best match',
  rcg_score: 'Grade score',
  volume: '24h volume',
  close_at: 'Closing soonest',
};

const SUBTYPE_LABELS: Record<string, string> = {
  named: 'named source',
  committed_secondhand: 'committed, second-hand',
  uncommitted_illustrative: 'uncommitted (illustrative)',
  uncommitted_placeholder: 'uncommitted (placeholder)',
  none: 'no source',
};

function searchForm(p: Params): string {
  return `<form class="filters" role="search" method="get" action="/">
<label class="q" for="q">Search markets, rules, tickers<input type="search" id="q" name="q" value="${esc(p.q ?? '')}" placeholder="fed rate cut, bitcoin 100k, CPI, KXFED…" autocomplete="off" maxlength="200"></label>
${selectField('category', 'Category', choicesOf(CATEGORIES), p.category)}
${selectField('platform', 'Venue', choicesOf(VENUES), p.platform)}
${selectField('grade', 'Grade', choicesOf(GRADES), p.grade)}
${selectField('source_commitment_subtype', 'Source commitment', choicesOf(COMMITMENT_SUBTYPES, SUBTYPE_LABELS), p.source_commitment_subtype)}
${selectField(
  'has_twin',
  'Other venue',
  [
    { value: 'true', label: 'on both venues' },
    { value: 'false', label: 'one venue only' },
  ],
  p.has_twin,
)}
${selectField('status', 'Status', choicesOf(MARKET_STATUSES), p.status)}
${selectField('sort', 'Sort', choicesOf(LIST_SORTS, SORT_LABELS), p.sort, 'default')}
${p.limit ? `<input type="hidden" name="limit" value="${esc(p.limit)}">` : ''}
<button type="submit">Search</button>
</form>`;
}

function resultRow(m: MarketListItem): string {
  const twin =
    m.has_twin && m.question_id ? ` · <a href="${esc(compareHref(m.question_id))}">on both venues: compare</a>` : '';
  const source = m.source_of_record ? esc(m.source_of_record) : `<span class="bad">none committed</span>`;
  return `<tr>
<td>${gradeBadge(m.grade)}<div class="sub">${m.rcg_score === null || m.rcg_score === undefined ? '' : `${esc(m.rcg_score)}/100`}</div></td>
<td><a href="${esc(m.event_slug ? eventHref(m.event_slug, m.market_id) : `/v1/markets/${encodeURIComponent(m.market_id)}`)}">${esc(m.question ?? m.platform_market_id)}</a><div class="sub">${esc(m.category ?? 'uncategorized')} · ${esc(m.status)} · ${shortId(m.platform_market_id)}${twin}</div></td>
<td>${esc(m.platform)}</td>
<td class="num">${pct(m.last_price)}<div class="sub">${m.price_as_of ? `as of ${esc(shortTime(m.price_as_of))}` : ''}</div></td>
<td>${source}<div class="sub">${esc(SUBTYPE_LABELS[m.source_commitment_subtype ?? ''] ?? m.source_commitment_subtype ?? 'unclassified')}</div></td>
<td>${esc(shortTime(m.close_at))}</td>
</tr>`;
}

/** True when a filter narrows the search (the query, sort order and page size do not). */
function hasFilters(p: Params): boolean {
  return HOME_PARAMS.some((k) => k !== 'q' && k !== 'sort' && k !== 'limit' && p[k]);
}

/** What the page suggests when a search finds nothing and the service gave no notice of its own. */
function fallbackEmpty(p: Params): { reason: string; try: string[] } {
  const filtered = hasFilters(p);
  return {
    reason: p.q
      ? `No market matches “${p.q}”${filtered ? ' with these filters' : ''}.`
      : 'No market matches these filters.',
    try: [
      ...(filtered ? ['remove a filter (set it to “any”)'] : []),
      ...(p.q ? ['fewer or more general words, or a venue ticker'] : []),
      'browse the cross-venue questions at /questions',
    ],
  };
}

/** Renders the home page. */
export function homePage(data: HomePageData): string {
  const { params: p, result: r } = data;
  const rows = r.markets.map(resultRow).join('\n');
  const firstPage = hrefWith('/', { ...p, offset: undefined });
  const results =
    r.markets.length > 0
      ? `<table class="results"><caption>${esc(windowText(r, 'markets'))}${p.q ? ` for “${esc(p.q)}”` : ''}</caption>
<thead><tr><th scope="col">Grade</th><th scope="col">Market</th><th scope="col">Venue</th><th scope="col" class="num">Price</th><th scope="col">Source of record</th><th scope="col">Closes</th></tr></thead>
<tbody>${rows}</tbody></table>
${pager('/', p, r)}`
      : `${emptyState(r.notice, r, firstPage, fallbackEmpty(p))}${
          p.q && hasFilters(p) && r.total === 0
            ? `<p><a href="${esc(hrefWith('/', { q: p.q }))}">Search “${esc(p.q)}” without filters</a></p>`
            : ''
        }`;
  // A notice that accompanies results (e.g. a clamped limit) is still shown above them.
  const aside =
    r.markets.length > 0 && r.notice
      ? `<p class="notice" role="note">${esc(r.notice.reason)}${r.notice.try.length ? ` Try: ${r.notice.try.map(esc).join('; ')}.` : ''}</p>`
      : '';
  return page({
    title: p.q ? `Search: ${p.q}` : 'Find prediction markets',
    description:
      'Search prediction markets on two venues by question, rules, ticker or topic; filter by grade, source and venue; compare the same question across venues.',
    notice: data.notice,
    style: EXPLORER_STYLE,
    body: `<h1>Find prediction markets</h1>
<p class="muted">${data.counts.events.toLocaleString('en-US')} events and ${data.counts.markets.toLocaleString('en-US')} markets on venue_a and venue_b, each graded for how cleanly it will settle (<a href="/methodology">how</a>). Questions that trade on both venues: <a href="/questions">compare them</a>. The same search as JSON: <a href="${esc(hrefWith('/v1/markets', p))}">/v1/markets</a>.</p>
${searchForm(p)}
${aside}
${results}`,
  });
}
