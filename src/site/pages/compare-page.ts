/**
 * The compare page `/questions/{id}` (issue 17 item 6): the two legs of a cross-venue pair side by side (price
 * with the venue's quote time, grade, arbiter, source of record, status, links to both event pages) and the
 * word-level diff of the two rule texts, words only venue_a's rules have struck through and words only
 * venue_b's underlined, each also named in text for screen readers. The data is `QueryService.question`.
 */
import type { QuestionComparison, QuestionLeg, RulesDiff } from '../../domain/index.ts';
import { compareHref, EXPLORER_STYLE, eventHref, shortTime } from './explorer-parts.ts';
import { esc, gradeBadge, page, pct } from './html.ts';
import { differenceLabel, legDifferences, RELATION_LABELS } from './questions-page.ts';

export interface ComparePageData {
  comparison: QuestionComparison;
  notice: string | null;
}

function legPanel(leg: QuestionLeg, rules: string | null): string {
  const eventLink = leg.event_slug
    ? `<a href="${esc(eventHref(leg.event_slug, leg.market_id))}">event page</a> · `
    : '';
  return `<section class="leg" aria-labelledby="leg-${esc(leg.venue)}">
<h2 id="leg-${esc(leg.venue)}">${esc(leg.venue)} ${gradeBadge(leg.grade)}</h2>
<p><strong>${esc(leg.question ?? '(no question text)')}</strong>${leg.subject ? ` — ${esc(leg.subject)}` : ''}</p>
<dl class="facts">
<dt>Price (YES)</dt><dd>${pct(leg.price)} <span class="muted">${leg.price_as_of ? `as of ${esc(shortTime(leg.price_as_of))}` : 'the venue gave no quote time'}</span></dd>
<dt>Grade</dt><dd>${esc(leg.grade)}${leg.score === null ? '' : ` (${leg.score}/100)`}</dd>
<dt>Arbiter</dt><dd>${esc(leg.arbiter ?? 'unstated')}</dd>
<dt>Source of record</dt><dd>${leg.source_of_record ? esc(leg.source_of_record) : '<span class="bad">none committed</span>'}</dd>
<dt>Status</dt><dd>${esc(leg.status)}</dd>
<dt>Direction</dt><dd>${esc(leg.direction ?? '—')}</dd>
<dt>Market</dt><dd><code>${esc(leg.platform_market_id)}</code></dd>
</dl>
<p>${eventLink}<a href="/v1/markets/${esc(encodeURIComponent(leg.market_id))}">JSON record</a></p>
<details><summary>Rules as the venue wrote them</summary><p class="diff">${rules === null ? '<span class="muted">No rules text.</span>' : esc(rules)}</p></details>
</section>`;
}

/** The diff as one text: shared words plain, venue_a-only words in `<del>`, venue_b-only words in `<ins>`. */
export function diffHtml(diff: RulesDiff): string {
  return diff.segments
    .map((s) =>
      s.op === 'same'
        ? esc(s.text)
        : s.op === 'a'
          ? `<del title="only in venue_a's rules"><span class="skip">[venue_a only: </span>${esc(s.text)}<span class="skip">]</span></del>`
          : `<ins title="only in venue_b's rules"><span class="skip">[venue_b only: </span>${esc(s.text)}<span class="skip">]</span></ins>`,
    )
    .join(' ');
}

function rulesSection(c: QuestionComparison): string {
  const d = c.rules_diff;
  if (!d) {
    const missing =
      c.rules.venue_a === null && c.rules.venue_b === null
        ? 'neither leg has'
        : c.rules.venue_a === null
          ? 'venue_a has'
          : c.rules.venue_b === null
            ? 'venue_b has'
            : 'a leg has';
    return `<p class="muted">No word diff: ${missing} no rules text.</p>`;
  }
  const identical = d.segments.every((s) => s.op === 'same');
  return `<p class="muted">${d.same_words} of ${d.words_a} words (venue_a) and ${d.words_b} words (venue_b) are shared. <del>Struck</del>: only in venue_a's rules; <ins>underlined</ins>: only in venue_b's.${d.exact ? '' : ' The texts were too long to align word by word: the common start and end are matched and the middle is shown as replaced.'}</p>
${identical ? '<p>The two rule texts are word for word the same.</p>' : ''}
<div class="diff" id="rules-diff">${diffHtml(d)}</div>`;
}

/** Renders the compare page. */
export function comparePage(data: ComparePageData): string {
  const c = data.comparison;
  const title = c.venue_a.question ?? c.venue_b.question ?? c.id;
  const diffs = legDifferences(c);
  const typed = c.differences.filter((d) => d.type !== 'wording');
  const divergence =
    c.divergence_points === null
      ? 'no divergence (a price is missing)'
      : `${c.divergence_points.toFixed(1)} points apart`;
  const others =
    c.other_pairs.length > 0
      ? `<p>Other pairs of this question: ${c.other_pairs.map((id) => `<a href="${esc(compareHref(id))}">${esc(id)}</a>`).join(', ')}</p>`
      : '';
  return page({
    title: `Compare: ${title}`,
    description: `${title}: the two venues side by side, prices, grades, sources and a word diff of the rules.`,
    notice: data.notice,
    style: EXPLORER_STYLE,
    body: `<p><a href="/questions">← All cross-venue questions</a></p>
<h1>${esc(title)}</h1>
<p><span class="tag">${esc(RELATION_LABELS[c.relation] ?? c.relation)}</span> ${esc(c.category ?? '')} · <strong>${esc(divergence)}</strong>${c.divergence_note ? ` <span class="muted">(${esc(c.divergence_note)})</span>` : ''}${c.question_id ? ` · <code>${esc(c.question_id)}</code>` : ''} · JSON: <a href="/v1/questions/${esc(encodeURIComponent(c.id))}">/v1/questions/${esc(c.id)}</a></p>
${c.relation === 'complement' ? "<p>The legs are opposite sides of one boundary: venue_b's YES is venue_a's NO, so the divergence compares venue_a's price with one minus venue_b's.</p>" : ''}
${diffs.length > 0 ? `<h2>What differs</h2><ul>${diffs.map((d) => `<li>${esc(d)}</li>`).join('')}</ul>` : '<p>The two legs settle alike on grade, arbiter and source; only the wording differs.</p>'}
${c.relation === 'related' && !c.divergence_note ? `<p class="muted">A near-equivalent pair, not the same bet: the questions differ in ${typed.length > 0 ? esc(typed.map((d) => differenceLabel(d.type)).join(', ')) : 'their terms'}, so a gap between the prices is not a spread.</p>` : ''}
<div class="legs">
${legPanel(c.venue_a, c.rules.venue_a)}
${legPanel(c.venue_b, c.rules.venue_b)}
</div>
<h2>Rules, word by word</h2>
${rulesSection(c)}
${others}`,
  });
}
