/**
 * The human event page `/events/{slug}` (issue 10): the question, each market's grade badge with the
 * factors that decided it, its sources with provenance, cross-venue twins with prices, a price chart
 * of the marks as inline SVG (with the data as a table), and the lifecycle log.
 */
import {
  type Event,
  type HistoryObtained,
  type HistoryPoint,
  type Market,
  pairIdFor,
  type ServedLogEntry,
} from '../../domain/index.ts';
import { esc, gradeBadge, page, pct } from './html.ts';
import { type ChartSeries, priceChartSvg } from './svg-chart.ts';

export interface EventPageData {
  event: Event;
  markets: readonly Market[];
  /**
   * Each market's daily history as `GET /v1/markets/{id}/history` serves it (its default range: the 365 days up to
   * its newest mark), oldest first.
   */
  marks: ReadonlyMap<string, readonly HistoryPoint[]>;
  log: readonly ServedLogEntry[];
  notice?: string | null;
  /**
   * The event slug of each twin market (`also_on[].market_id` → slug), so a twin links to the other venue's
   * event page; a twin missing here (not published) links to its JSON record instead.
   */
  twinEvents?: ReadonlyMap<string, string>;
}

const FACTOR_LABELS: Record<string, string> = {
  trigger_objectivity: 'Trigger objectivity',
  contested_reality: 'Contested reality',
  source_clarity: 'Source clarity',
  arbiter_incentive: 'Arbiter incentive',
  source_conflict_rule: 'Source-conflict rule',
  temporal_precision: 'Temporal precision',
  source_mutability: 'Source mutability',
};

function factorTable(market: Market): string {
  const rcg = market.rcg;
  if (!rcg) return '<p class="muted">Not graded yet.</p>';
  const rows = rcg.factors
    .map((f) => {
      const ev = f.evidence[0];
      const evidence = ev
        ? ev.quote !== null
          ? `“${esc(ev.quote)}” <span class="muted">(${esc(ev.field)})</span>`
          : `<code>${esc(ev.field)}</code> = ${esc(JSON.stringify(ev.value ?? null))}`
        : '—';
      return `<tr><th scope="row">${esc(FACTOR_LABELS[f.factor] ?? f.factor)}</th><td>${esc(f.rating)}</td><td class="num">${f.points}/${f.weight}</td><td><code>${esc(f.rule)}</code></td><td>${evidence}</td></tr>`;
    })
    .join('\n');
  const caps = rcg.caps.length > 0 ? `<p>Caps: ${rcg.caps.map((c) => `<code>${esc(c)}</code>`).join(', ')}</p>` : '';
  return `<p>Score ${rcg.score} / 100 over ${rcg.applied_factors} applicable factors (rubric ${esc(rcg.rubric_version)}).</p>${caps}
<table><caption>Factors that decided the grade</caption><thead><tr><th scope="col">Factor</th><th scope="col">Rating</th><th scope="col" class="num">Points</th><th scope="col">Rule</th><th scope="col">Evidence</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function sourcesList(market: Market): string {
  const sources = market.resolution_source_list ?? [];
  const committed = market.source_of_record
    ? `<p>Committed source of record: <strong>${esc(market.source_of_record)}</strong> (${esc(market.source_commitment_subtype ?? 'unclassified')}${market.source_mechanism ? `, ${esc(market.source_mechanism)}` : ''}).</p>`
    : `<p class="bad">No committed source (${esc(market.source_commitment_subtype ?? 'unclassified')}).</p>`;
  const items = sources
    .map((s) => {
      const name = s.url
        ? `<a href="${esc(s.url)}" rel="nofollow noopener">${esc(s.name ?? s.url)}</a>`
        : esc(s.name ?? '—');
      return `<li>${name} <span class="muted">— ${esc(s.provenance ?? 'unknown provenance')}</span></li>`;
    })
    .join('');
  return `${committed}${items ? `<ul>${items}</ul>` : '<p class="muted">No sources listed.</p>'}`;
}

/**
 * A twin's links (issue 17): the other venue's event page (at the twin's own section) when it is published,
 * else its JSON record, and the compare page of the shared question.
 */
function twinLink(t: NonNullable<Market['also_on']>[number], twinEvents: ReadonlyMap<string, string>): string {
  const slug = twinEvents.get(t.market_id);
  const target = slug
    ? `/events/${encodeURIComponent(slug)}#m-${encodeURIComponent(t.market_id)}`
    : `/v1/markets/${encodeURIComponent(t.market_id)}`;
  return `<code>${esc(t.venue)}</code> <a href="${esc(target)}">${esc(t.market_id)}</a> at ${pct(t.price)}`;
}

/**
 * The compare page of a market and its twin: the shared question_id for same and complement twins; for a related
 * twin (two question_ids) the pair id `pairIdFor` gives, from the venue_a market id first.
 */
function compareLink(market: Market, t: NonNullable<Market['also_on']>[number]): string {
  const id =
    t.relation === 'related'
      ? market.platform === 'venue_a'
        ? pairIdFor('related', market.market_id, t.market_id)
        : pairIdFor('related', t.market_id, market.market_id)
      : market.question_id;
  return id ? ` · <a href="/questions/${esc(encodeURIComponent(id))}">compare side by side</a>` : '';
}

function twins(market: Market, twinEvents: ReadonlyMap<string, string>): string {
  if (!market.also_on || market.also_on.length === 0) return '';
  const link = (t: NonNullable<Market['also_on']>[number]) => `${twinLink(t, twinEvents)}${compareLink(market, t)}`;
  // Issue 16: a related market asks a near-equivalent question (another question_id); say how it differs.
  const shared = market.also_on.filter((t) => t.relation !== 'related');
  const related = market.also_on.filter((t) => t.relation === 'related');
  const sharedRows = shared
    .map((t) => `<li>${link(t)}${t.relation === 'complement' ? ' (the other side)' : ''}</li>`)
    .join('');
  const relatedRows = related
    .map((t) => {
      const diffs = (t.differences ?? [])
        .filter((d) => d.type !== 'wording')
        .map((d) => `${esc(d.type)}: venue_a ${esc(d.venue_a ?? 'unstated')}, venue_b ${esc(d.venue_b ?? 'unstated')}`)
        .join('; ');
      return `<li>${link(t)}${diffs ? ` <span class="muted">— differs in ${diffs}</span>` : ''}</li>`;
    })
    .join('');
  return (
    (shared.length
      ? `<p>Same question elsewhere (<code>${esc(market.question_id ?? '')}</code>):</p><ul>${sharedRows}</ul>`
      : '') + (related.length ? `<p>Near-equivalent elsewhere (another question_id):</p><ul>${relatedRows}</ul>` : '')
  );
}

function marketSection(
  market: Market,
  marks: readonly HistoryPoint[],
  twinEvents: ReadonlyMap<string, string>,
): string {
  const latest = marks[marks.length - 1];
  return `<section aria-labelledby="m-${esc(market.market_id)}">
<h3 id="m-${esc(market.market_id)}">${gradeBadge(market.rcg?.grade)} ${esc(market.group_item_title ?? market.question_raw ?? market.market_id)}</h3>
<p class="muted"><code>${esc(market.market_id)}</code> · ${esc(market.platform)} <code>${esc(market.platform_market_id)}</code> · ${esc(market.status)} · last price ${pct(latest?.yes_last_price)}${latest ? ` as of ${esc(latest.snapshot_at)}` : ''}</p>
${twins(market, twinEvents)}
<h4>Sources</h4>${sourcesList(market)}
<h4>Grade</h4>${factorTable(market)}
</section>`;
}

/** How a history point was obtained, as the price table says it. */
const OBTAINED_LABEL: Record<HistoryObtained, string> = {
  venue_snapshot: 'venue quote',
  venue_history: 'venue price history',
  carried_forward: 'carried forward (venue unreachable)',
  editorial_override: 'editorial override',
};

/** Renders the event page. */
export function eventPage(data: EventPageData): string {
  const { event, markets } = data;
  const priced = markets.map((m) => ({
    label: m.group_item_title ?? m.question_raw ?? m.market_id,
    points: (data.marks.get(m.market_id) ?? [])
      .filter((k) => k.yes_last_price !== null)
      .map((k) => ({ date: k.date, value: k.yes_last_price ?? 0, obtained: k.obtained })),
  }));
  const series: ChartSeries[] = priced;
  const dataRows = priced
    .flatMap((s) =>
      s.points.map(
        (p) =>
          `<tr><td>${esc(s.label)}</td><td>${esc(p.date)}</td><td class="num">${pct(p.value)}</td><td>${esc(OBTAINED_LABEL[p.obtained])}</td></tr>`,
      ),
    )
    .join('');
  const log = data.log
    .map(
      (e) =>
        `<tr><td>${esc(e.recorded_at)}</td><td><code>${esc(e.market_id)}</code></td><td>${esc(e.event_type)}</td><td>${esc(e.outcome ?? '—')}</td><td>${esc(e.occurred_basis ?? '—')}</td><td>${esc(e.source)}</td></tr>`,
    )
    .join('');
  const catalysts = event.catalyst_dates
    .map(
      (c) =>
        `<li>${esc(c.date)} — ${c.source_url ? `<a href="${esc(c.source_url)}">${esc(c.label)}</a>` : esc(c.label)}</li>`,
    )
    .join('');
  return page({
    title: event.question,
    description: `${event.question}: grades, sources, cross-venue twins and prices.`,
    notice: data.notice ?? null,
    body: `<h1>${esc(event.question)}</h1>
<p class="muted"><code>${esc(event.event_id)}</code> · ${esc(event.category)} · ${esc(event.venue ?? '')} · ${esc(event.bundle_type ?? 'unbundled')} · ${markets.length} market(s) · JSON: <a href="/v1/events/${esc(event.slug)}">/v1/events/${esc(event.slug)}</a></p>
${event.resolution_reference ? `<p>Resolution reference: ${esc(event.resolution_reference)}</p>` : ''}
${event.editorial_notes ? `<p>Editorial note: ${esc(event.editorial_notes)}</p>` : ''}
${catalysts ? `<h2>Catalysts</h2><ul>${catalysts}</ul>` : ''}
<h2>Prices</h2>
${priceChartSvg(series, `Daily prices: ${event.question}`)}
<details><summary>Price data as a table</summary><table><thead><tr><th scope="col">Market</th><th scope="col">Date</th><th scope="col" class="num">Last price</th><th scope="col">How obtained</th></tr></thead><tbody>${dataRows}</tbody></table></details>
<h2>Markets</h2>
${markets.map((m) => marketSection(m, data.marks.get(m.market_id) ?? [], data.twinEvents ?? new Map())).join('\n')}
<h2>Lifecycle log</h2>
${log ? `<table><thead><tr><th scope="col">Recorded</th><th scope="col">Market</th><th scope="col">Event</th><th scope="col">Outcome</th><th scope="col">Basis</th><th scope="col">Source</th></tr></thead><tbody>${log}</tbody></table>` : '<p class="muted">No lifecycle entries yet.</p>'}`,
  });
}
