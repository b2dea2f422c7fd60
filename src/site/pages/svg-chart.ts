/**
 * A price chart of daily marks as inline SVG: no script, no external assets, with a text alternative
 * (a title, a description and the data as a table beside it on the page).
 */
import { esc } from './html.ts';

export interface ChartSeries {
  label: string;
  points: ReadonlyArray<{ date: string; value: number }>;
}

const W = 640;
const H = 220;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };
const COLORS = ['#0b57d0', '#b3261e', '#0f7b3f', '#9a6700', '#6f42c1', '#00838f'];

/** Renders up to six series of 0..1 prices over shared dates. */
export function priceChartSvg(series: readonly ChartSeries[], title: string): string {
  const shown = series.filter((s) => s.points.length > 0).slice(0, COLORS.length);
  const dates = [...new Set(shown.flatMap((s) => s.points.map((p) => p.date)))].sort();
  if (dates.length === 0) return `<p class="muted">No marks recorded yet.</p>`;
  const x = (d: string) => {
    const i = dates.indexOf(d);
    return PAD.left + (dates.length === 1 ? 0.5 : i / (dates.length - 1)) * (W - PAD.left - PAD.right);
  };
  const y = (v: number) => PAD.top + (1 - Math.min(1, Math.max(0, v))) * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="currentColor" stroke-opacity="0.15"/>` +
        `<text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v * 100}%</text>`,
    )
    .join('');
  const lines = shown
    .map((s, i) => {
      const color = COLORS[i] ?? '#555';
      const d = s.points
        .map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.date).toFixed(1)},${y(p.value).toFixed(1)}`)
        .join(' ');
      const dots = s.points
        .map((p) => `<circle cx="${x(p.date).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="2.5" fill="${color}"/>`)
        .join('');
      return `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>${dots}`;
    })
    .join('');
  const first = dates[0] ?? '';
  const last = dates[dates.length - 1] ?? '';
  const axis = `<text x="${PAD.left}" y="${H - 8}">${esc(first)}</text><text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${esc(last)}</text>`;
  const legend = shown
    .map((s, i) => `<li><span aria-hidden="true" style="color:${COLORS[i] ?? '#555'}">■</span> ${esc(s.label)}</li>`)
    .join('');
  return `<figure>
<svg role="img" aria-labelledby="chart-title chart-desc" viewBox="0 0 ${W} ${H}" width="100%" style="max-width:${W}px">
<title id="chart-title">${esc(title)}</title>
<desc id="chart-desc">Daily last prices from ${esc(first)} to ${esc(last)} for ${shown.length} market(s).</desc>
${grid}${lines}${axis}
</svg>
<figcaption><ul class="muted">${legend}</ul></figcaption>
</figure>`;
}
