/**
 * Pieces shared by the explorer pages (issue 17 item 6: the home page search, `/questions` and the compare
 * page): GET-form controls, links that carry the current query string, pagination and the empty state.
 *
 * Every page is a pure function of the plain data QueryService returns; no page reads the read model or the
 * store. The CSP on these pages (`default-src 'none'; style-src 'unsafe-inline'`) allows no script at all, so
 * everything works with plain links and GET forms: a search is a URL a person can bookmark and share.
 */
import { esc } from './html.ts';

/** A query parameter as the page echoes it back: a string, or absent. */
export type Params = Readonly<Record<string, string | undefined>>;

/** One choice in a filter `<select>`. */
export interface Choice {
  value: string;
  label: string;
}

/** The explorer's extra CSS (appended to the shared stylesheet). */
export const EXPLORER_STYLE = `
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin:1rem 0}
form.filters label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted);gap:.15rem}
form.filters .q{flex:1 1 100%}
input,select,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:.35rem;padding:.35rem .5rem}
input[type=search]{width:100%;font-size:1.1rem;padding:.5rem .75rem}
button{background:var(--a);color:#fff;border-color:var(--a);font-weight:600;cursor:pointer}
.summary{margin:.5rem 0}.sub{font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}
nav.pager{display:flex;gap:1rem;align-items:center;margin:1rem 0}
.legs{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}@media (max-width:48rem){.legs{grid-template-columns:1fr}}
.leg{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem}.leg h2{margin-top:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .75rem;margin:.5rem 0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
.diff{white-space:pre-wrap;border:1px solid var(--line);padding:.75rem;line-height:1.7}
del{background:#f8d7d3;color:#5c1109}ins{background:#d3f0dc;color:#0b3d1d}
.tag{display:inline-block;border:1px solid var(--line);border-radius:.35rem;padding:0 .35rem;font-size:.8rem}
`;

/**
 * A path with a query string of the non-empty params, for an `href` (escape it with `esc` when interpolating).
 *
 * @example hrefWith('/', { q: 'fed', offset: '25', grade: undefined }) // '/?q=fed&offset=25'
 */
export function hrefWith(path: string, params: Params): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, v);
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A labelled `<select>` whose first option (`any`, or `anyLabel`) submits nothing; the current value is selected. */
export function selectField(
  name: string,
  label: string,
  choices: readonly Choice[],
  current: string | undefined,
  anyLabel = 'any',
): string {
  const known = choices.some((c) => c.value === current);
  const options = [{ value: '', label: anyLabel }, ...choices]
    .map(
      (c) =>
        `<option value="${esc(c.value)}"${c.value === (current ?? '') ? ' selected' : ''}>${esc(c.label)}</option>`,
    )
    .join('');
  // A value from the URL that is not a choice stays visible (and submitted) so the page does not silently drop it.
  const unknown =
    current !== undefined && current !== '' && !known
      ? `<option value="${esc(current)}" selected>${esc(current)} (not a valid value)</option>`
      : '';
  return `<label>${esc(label)}<select name="${esc(name)}">${options}${unknown}</select></label>`;
}

/** The plain choices of a closed vocabulary. */
export function choicesOf(values: readonly string[], labels: Readonly<Record<string, string>> = {}): Choice[] {
  return values.map((v) => ({ value: v, label: labels[v] ?? v }));
}

/** Paging facts every list page of QueryService carries. */
export interface PageWindow {
  total: number;
  count: number;
  limit: number;
  offset: number;
}

/** "Showing 26–50 of 312" (or nothing on an empty page). */
export function windowText(w: PageWindow, noun: string): string {
  if (w.count === 0) return '';
  return `Showing ${w.offset + 1}–${w.offset + w.count} of ${w.total.toLocaleString('en-US')} ${noun}`;
}

/** Previous / next links that keep every other parameter of the current URL. */
export function pager(path: string, params: Params, w: PageWindow): string {
  const prevOffset = Math.max(0, w.offset - w.limit);
  const nextOffset = w.offset + w.limit;
  const at = (offset: number) => esc(hrefWith(path, { ...params, offset: offset > 0 ? String(offset) : undefined }));
  const prev = w.offset > 0 ? `<a rel="prev" href="${at(prevOffset)}">← Previous</a>` : '';
  const next = nextOffset < w.total ? `<a rel="next" href="${at(nextOffset)}">Next →</a>` : '';
  if (!prev && !next) return '';
  const pages = Math.max(1, Math.ceil(w.total / w.limit));
  const current = Math.min(pages, Math.floor(w.offset / w.limit) + 1);
  return `<nav class="pager" aria-label="Pages">${prev}<span class="muted">Page ${current} of ${pages}</span>${next}</nav>`;
}

/** Why a list is empty and what to try, from the service's notice; a page past the end says so first. */
export function emptyState(
  notice: { reason: string; try: readonly string[] } | null,
  w: PageWindow,
  firstPage: string,
  fallback: { reason: string; try: readonly string[] },
): string {
  if (w.total > 0 && w.count === 0) {
    return `<section class="notice" role="status"><p>This page is past the last result (${w.total.toLocaleString('en-US')} in all).</p><p><a href="${esc(firstPage)}">Back to the first page</a></p></section>`;
  }
  const n = notice ?? fallback;
  const tries = n.try.length > 0 ? `<p>Try:</p><ul>${n.try.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : '';
  return `<section class="notice" role="status"><p><strong>Nothing found.</strong> ${esc(n.reason)}</p>${tries}</section>`;
}

/** A short UTC date-time for a table cell (`2026-11-21 12:30 UTC`), or an em dash. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/** A venue id for a table cell: a 66-character condition id is cut to its ends (the full id in the tooltip). */
export function shortId(id: string): string {
  const short = id.length > 40 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
  return `<code title="${esc(id)}">${esc(short)}</code>`;
}

/** The event page path for a slug (the explorer always links relative to this host). */
export function eventHref(slug: string, marketId?: string): string {
  return `/events/${encodeURIComponent(slug)}${marketId ? `#m-${encodeURIComponent(marketId)}` : ''}`;
}

/** The compare page path for a question id. */
export function compareHref(questionId: string): string {
  return `/questions/${encodeURIComponent(questionId)}`;
}

/** The banner every page of a service on generated data carries (null on venue data). */
export function dataSourceNotice(dataSource: string | null): string | null {
  return dataSource === 'simulated'
    ? 'This service runs on the simulated universe: the data are generated, not venue data.'
    : null;
}
