/**
 * The human screen pages (issue 10, served-shapes §15): `/screens/` lists the regimes; each regime page
 * shows its funnel, eligible markets by bucket, review clusters, not-eligible reasons, the rule
 * sections and the disclaimer. The JSON and CSV files are the data; these pages only present them.
 */
import type { Regime, ScreenDocument, ScreenedMarket } from '../../signals/screens/index.ts';
import { esc, gradeBadge, page } from './html.ts';

const ROW_CAP = 200;

export interface RegimeSummary {
  regime: Regime;
  document: ScreenDocument;
}

/** `/screens/` — the regime index with a DataCatalog JSON-LD block. */
export function screensIndexPage(regimes: readonly RegimeSummary[], baseUrl: string): string {
  const rows = regimes
    .map(({ regime, document: d }) => {
      const counts = `${d.funnel.eligible} eligible · ${d.funnel.review} review · ${d.funnel.not_eligible} not eligible`;
      return `<tr><th scope="row"><a href="/screens/${esc(regime.regime)}/">${esc(regime.regime)}</a></th>
<td>${esc(regime.regime_name)}<br><span class="muted">${esc(regime.scope.description)}</span></td>
<td>${esc(regime.status.toUpperCase())}</td><td>${esc(counts)}</td>
<td><a href="/screens/${esc(regime.regime)}.json">JSON</a> · <a href="/screens/${esc(regime.regime)}.csv">CSV</a></td></tr>`;
    })
    .join('\n');
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'DataCatalog',
    name: 'pmref eligibility screens',
    url: `${baseUrl}/screens/`,
    dataset: regimes.map(({ regime }) => ({
      '@type': 'Dataset',
      name: regime.regime_name,
      url: `${baseUrl}/screens/${regime.regime}/`,
      distribution: [
        {
          '@type': 'DataDownload',
          encodingFormat: 'application/json',
          contentUrl: `${baseUrl}/screens/${regime.regime}.json`,
        },
        { '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: `${baseUrl}/screens/${regime.regime}.csv` },
      ],
    })),
  };
  return page({
    title: 'Eligibility screens',
    description: 'Jurisdiction screens of every open market: eligible, review or not eligible, with reason codes.',
    jsonLd,
    body: `<h1>Eligibility screens</h1>
<p>Each regime is a declarative rule file applied to every open market. Results join the API on
<code>svc_market_id</code> = <code>market_id</code>, and each market's <code>eligibility_screens</code> carries them.
The index is also available as <a href="/screens/index.json">JSON</a>.</p>
<table><caption>Regimes</caption><thead><tr><th scope="col">Regime</th><th scope="col">Scope</th><th scope="col">Status</th><th scope="col">Markets</th><th scope="col">Downloads</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  });
}

function marketRows(rows: readonly ScreenedMarket[]): string {
  return rows
    .slice(0, ROW_CAP)
    .map(({ market }) => {
      const source = market.source_of_record ?? market.resolution_source;
      const resolves = (market.resolve_at ?? market.close_at ?? '').slice(0, 10);
      return `<tr${source ? '' : ' class="bad"'}><td><a href="/v1/markets/${esc(market.market_id)}">${esc(market.question_raw ?? market.market_id)}</a></td>
<td><code>${esc(market.platform_market_id)}</code></td><td>${esc(resolves)}</td><td>${source ? esc(source) : 'no committed source'}</td><td>${gradeBadge(market.rcg?.grade)}</td></tr>`;
    })
    .join('\n');
}

function countTable(caption: string, counts: Record<string, number>): string {
  const rows = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `<tr><th scope="row"><code>${esc(k)}</code></th><td class="num">${n}</td></tr>`)
    .join('');
  return `<table><caption>${esc(caption)}</caption><thead><tr><th scope="col">Reason</th><th scope="col" class="num">Markets</th></tr></thead><tbody>${rows || '<tr><td colspan="2">none</td></tr>'}</tbody></table>`;
}

/** `/screens/{regime}/` — the regime page. */
export function regimePage(
  regime: Regime,
  doc: ScreenDocument,
  rows: readonly ScreenedMarket[],
  baseUrl: string,
): string {
  const f = doc.funnel;
  const eligible = rows.filter((r) => r.result.status === 'eligible');
  const buckets = regime.permitted_categories
    .map((b) => {
      const inBucket = eligible.filter((r) => r.result.permitted_category === b.bucket);
      const more =
        inBucket.length > ROW_CAP
          ? `<p class="muted">Showing ${ROW_CAP} of ${inBucket.length}; the CSV has them all.</p>`
          : '';
      return `<h3 id="bucket-${esc(b.bucket)}">${esc(b.label)} <span class="muted">(${inBucket.length})</span></h3>
<table><thead><tr><th scope="col">Market</th><th scope="col">Venue id</th><th scope="col">Resolves</th><th scope="col">Source</th><th scope="col">RCG</th></tr></thead>
<tbody>${marketRows(inBucket) || '<tr><td colspan="5">none</td></tr>'}</tbody></table>${more}`;
    })
    .join('\n');
  const clusters = doc.review_clusters
    .map(
      (
        c,
      ) => `<tr><th scope="row">${esc(c.label)}<br><code>${esc(c.key)}</code></th><td>${c.reason ? `<code>${esc(c.reason)}</code>` : '—'}</td>
<td class="num">${c.market_count}</td><td class="num">${c.event_count}</td><td>${c.example_events.map((s) => `<a href="/events/${esc(s)}">${esc(s)}</a>`).join(', ') || '—'}</td></tr>`,
    )
    .join('\n');
  const sections = regime.sections
    .map(
      (s) =>
        `<section><h3 id="rule-${esc(s.id)}">${esc(s.title)}</h3><blockquote>${esc(s.text)}</blockquote></section>`,
    )
    .join('\n');
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: regime.regime_name,
    version: regime.screen_version,
    url: `${baseUrl}/screens/${regime.regime}/`,
    distribution: [
      {
        '@type': 'DataDownload',
        encodingFormat: 'application/json',
        contentUrl: `${baseUrl}/screens/${regime.regime}.json`,
      },
      { '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: `${baseUrl}/screens/${regime.regime}.csv` },
    ],
  };
  return page({
    title: `${regime.regime} screen`,
    description: `${regime.regime_name}: funnel, eligible markets, review clusters and reasons.`,
    jsonLd,
    body: `<h1>${esc(regime.regime_name)}</h1>
<p class="muted">Regime <code>${esc(regime.regime)}</code>, screen version ${esc(regime.screen_version)}, screened ${esc(doc.screened_at ?? 'never')}.
Downloads: <a href="/screens/${esc(regime.regime)}.json">JSON</a> · <a href="/screens/${esc(regime.regime)}.csv">CSV</a>.</p>
<nav aria-label="Sections"><ul><li><a href="#funnel">Funnel</a></li><li><a href="#eligible">Eligible</a></li><li><a href="#review">Review</a></li><li><a href="#not-eligible">Not eligible</a></li><li><a href="#rules">Rule mapping</a></li><li><a href="#methodology">Methodology</a></li></ul></nav>
<h2 id="funnel">Funnel</h2>
<ol><li>In scope (status ${esc(regime.scope.market_statuses.join(', '))}): <strong>${f.in_scope}</strong></li>
<li>Venue scope and required fields met: <strong>${f.candidate_category}</strong></li>
<li>Minimum time to resolution (${regime.min_days_to_resolution} days) met: <strong>${f.min_maturity}</strong></li>
<li>Outcome: <strong>${f.eligible}</strong> eligible, <strong>${f.review}</strong> review, <strong>${f.not_eligible}</strong> not eligible</li></ol>
<h2 id="eligible">Eligible markets by bucket</h2>
<p>${doc.eligible_no_committed_source} eligible market(s) name no committed resolution source (shown in red).</p>
${buckets}
<h2 id="review">Review</h2>
<table><caption>Judgment clusters</caption><thead><tr><th scope="col">Cluster</th><th scope="col">Reason</th><th scope="col" class="num">Markets</th><th scope="col" class="num">Events</th><th scope="col">Examples</th></tr></thead><tbody>${clusters}</tbody></table>
<h2 id="not-eligible">Not eligible</h2>
${countTable('Not-eligible markets by reason', doc.not_eligible_reasons)}
<h2 id="rules">Rule mapping</h2>
<p>Primary source: <a href="${esc(regime.primary_source.url)}">${esc(regime.primary_source.label)}</a>. Minimum maturity: ${esc(regime.min_maturity_basis)}</p>
${sections}
<h2 id="methodology">Methodology</h2>
<p>${esc(regime.disclaimer)}</p>
<p>See the <a href="/methodology">methodology</a> for how categories, grades and sources are derived.</p>`,
  });
}
