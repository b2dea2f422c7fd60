/**
 * `/questions` (issue 17 item 6): the questions that trade on both venues, each row with both legs' prices
 * (with the venue's own quote time), grades, the divergence in points and what differs between the legs,
 * linking to the compare page. Filters in one GET form; the data is `QueryService.findQuestions`, as is.
 */
import type { LinkDifference, QuestionLeg, QuestionPage, QuestionSummary } from '../../domain/index.ts';
import { CATEGORIES } from '../../domain/index.ts';
import {
  choicesOf,
  compareHref,
  EXPLORER_STYLE,
  emptyState,
  hrefWith,
  type Params,
  pager,
  selectField,
  shortId,
  shortTime,
  windowText,
} from './explorer-parts.ts';
import { esc, gradeBadge, page, pct } from './html.ts';

/** The query parameters the questions form submits (and pagination keeps). */
export const QUESTIONS_PARAMS = ['category', 'relation', 'min_divergence', 'limit'] as const;

export interface QuestionsPageData {
  params: Params;
  result: QuestionPage;
  notice: string | null;
}

/** One line per relation, in the words a reader of the table needs. */
export const RELATION_LABELS: Readonly<Record<string, string>> = {
  same: 'same question',
  complement: 'opposite sides of one question',
  related: 'near-equivalent question',
};

/** Human words for a typed difference's field. */
export function differenceLabel(type: string): string {
  return type.replace(/_/g, ' ');
}

/** A difference as "type: venue_a X vs venue_b Y". */
export function differenceText(d: LinkDifference): string {
  return `${differenceLabel(d.type)}: venue_a ${d.venue_a ?? 'unstated'} vs venue_b ${d.venue_b ?? 'unstated'}`;
}

/**
 * What differs between two legs, for a reader: the typed differences of a related pair, then the settlement
 * facts the list shows side by side (grade, who arbitrates, the committed source) where they differ.
 */
export function legDifferences(q: QuestionSummary): string[] {
  const out = q.differences.filter((d) => d.type !== 'wording').map(differenceText);
  const a = q.venue_a;
  const b = q.venue_b;
  if (a.grade !== b.grade) out.push(`grade: ${a.grade} vs ${b.grade}`);
  if (a.arbiter !== b.arbiter) out.push(`arbiter: ${a.arbiter ?? 'unstated'} vs ${b.arbiter ?? 'unstated'}`);
  if ((a.source_of_record ?? '') !== (b.source_of_record ?? ''))
    out.push(`source: ${a.source_of_record ?? 'none committed'} vs ${b.source_of_record ?? 'none committed'}`);
  return out;
}

/** One leg: grade, price with its quote time, venue id, and the venue's own wording when it differs from the row's. */
function legCell(leg: QuestionLeg, rowTitle: string): string {
  const subject = leg.subject ? ` — ${leg.subject}` : '';
  const wording =
    leg.question && leg.question !== rowTitle ? `<div class="sub">“${esc(leg.question)}”${esc(subject)}</div>` : '';
  return `${gradeBadge(leg.grade)} <strong>${pct(leg.price)}</strong><div class="sub">${leg.price_as_of ? `as of ${esc(shortTime(leg.price_as_of))}` : 'no quote time'} · ${shortId(leg.platform_market_id)}</div>${wording}`;
}

/** The note under a divergence; for a related pair a short "not a spread" (the service's full note in the tooltip). */
function divergenceNote(q: QuestionSummary): string {
  if (!q.divergence_note) return '';
  return q.relation === 'related' && q.divergence_points !== null
    ? `<div class="sub" title="${esc(q.divergence_note)}">not a spread: the questions differ</div>`
    : `<div class="sub">${esc(q.divergence_note)}</div>`;
}

function row(q: QuestionSummary): string {
  const title = q.venue_a.question ?? q.venue_b.question ?? q.id;
  const diffs = legDifferences(q);
  return `<tr>
<td><a href="${esc(compareHref(q.id))}">${esc(title)}</a><div class="sub"><span class="tag">${esc(RELATION_LABELS[q.relation] ?? q.relation)}</span> ${esc(q.category ?? '')}</div></td>
<td>${legCell(q.venue_a, title)}</td>
<td>${legCell(q.venue_b, title)}</td>
<td class="num">${q.divergence_points === null ? '—' : `${q.divergence_points.toFixed(1)} pts`}${divergenceNote(q)}</td>
<td>${diffs.length > 0 ? `<ul>${diffs.map((d) => `<li>${esc(d)}</li>`).join('')}</ul>` : '<span class="muted">nothing but the wording</span>'}</td>
</tr>`;
}

function filterForm(p: Params): string {
  return `<form class="filters" method="get" action="/questions">
${selectField('category', 'Category', choicesOf(CATEGORIES), p.category)}
${selectField('relation', 'Relation', choicesOf(Object.keys(RELATION_LABELS), RELATION_LABELS), p.relation)}
<label for="min_divergence">Divergence at least (points)<input type="number" id="min_divergence" name="min_divergence" min="0" max="100" step="0.5" value="${esc(p.min_divergence ?? '')}"></label>
${p.limit ? `<input type="hidden" name="limit" value="${esc(p.limit)}">` : ''}
<button type="submit">Filter</button>
</form>`;
}

/** Renders `/questions`. */
export function questionsPage(data: QuestionsPageData): string {
  const { params: p, result: r } = data;
  const firstPage = hrefWith('/questions', { ...p, offset: undefined });
  const filtered = QUESTIONS_PARAMS.some((k) => k !== 'limit' && p[k]);
  const body =
    r.questions.length > 0
      ? `<table><caption>${esc(windowText(r, 'cross-venue pairs'))}, largest divergence first</caption>
<thead><tr><th scope="col">Question</th><th scope="col">venue_a</th><th scope="col">venue_b</th><th scope="col" class="num">Divergence</th><th scope="col">What differs</th></tr></thead>
<tbody>${r.questions.map(row).join('\n')}</tbody></table>
${pager('/questions', p, r)}`
      : emptyState(r.notice, r, firstPage, {
          reason: filtered
            ? 'No cross-venue pair matches these filters.'
            : 'No question is linked across the venues yet.',
          try: filtered ? ['remove a filter or lower the divergence'] : ['search all markets on the home page'],
        });
  const aside =
    r.questions.length > 0 && r.notice
      ? `<p class="notice" role="note">${esc(r.notice.reason)}${r.notice.try.length ? ` Try: ${r.notice.try.map(esc).join('; ')}.` : ''}</p>`
      : '';
  return page({
    title: 'Questions on both venues',
    description:
      'Prediction-market questions traded on both venues: both prices with their quote times, the divergence and what differs.',
    notice: data.notice,
    style: EXPLORER_STYLE,
    body: `<h1>Questions on both venues</h1>
<p class="muted">Each row is one question (or a near-equivalent pair) listed on venue_a and venue_b: both prices with the time the venue quoted them, the gap between them in percentage points (for opposite sides, venue_b's price is turned around first) and what differs in how they settle. Open a row to compare the two markets and their rules word by word. As JSON: <a href="${esc(hrefWith('/v1/questions', p))}">/v1/questions</a>.</p>
${filterForm(p)}
${aside}
${body}`,
  });
}
