/**
 * Minimal, safe HTML building for the server-rendered pages: every interpolated value is escaped.
 * No external assets, fonts or scripts: one inline stylesheet, system fonts.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a quoted attribute. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const STYLE = `
:root{color-scheme:light dark;--fg:#16181d;--bg:#fff;--muted:#5b6270;--line:#d8dce3;--a:#0b57d0;--A:#0f7b3f;--B:#9a6700;--C:#b3261e}
@media (prefers-color-scheme:dark){:root{--fg:#e7e9ee;--bg:#111318;--muted:#a3aab8;--line:#2c313b;--a:#8ab4f8}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--a)}header,main,footer{max-width:72rem;margin:0 auto;padding:1rem 1.25rem}
header{border-bottom:1px solid var(--line);display:flex;gap:1.5rem;align-items:baseline;flex-wrap:wrap}
header .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
nav ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0;flex-wrap:wrap}
h1{font-size:1.6rem;line-height:1.25}h2{font-size:1.25rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:.75rem 0;font-size:.95rem}
th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600}caption{text-align:left;font-weight:600;padding:.25rem 0}
.muted{color:var(--muted)}.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;min-width:1.8em;text-align:center;border-radius:.35rem;padding:0 .4rem;font-weight:700;color:#fff}
.grade-A{background:var(--A)}.grade-B{background:var(--B)}.grade-C{background:var(--C)}.grade-pending{background:var(--muted)}
.notice{border:1px solid var(--line);border-left:4px solid var(--B);padding:.5rem .75rem;margin:1rem 0}
.bad{color:var(--C)}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
pre{overflow:auto;border:1px solid var(--line);padding:.75rem}
figure{margin:1rem 0}svg text{fill:currentColor;font-size:11px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
`;

export interface PageOptions {
  title: string;
  description: string;
  body: string;
  jsonLd?: unknown;
  notice?: string | null;
  /** Extra inline CSS for one page (the CSP allows inline styles only, so pages add rules here). */
  style?: string;
}

/** The shared page shell: skip link, header navigation, main landmark, footer with attribution. */
export function page(opts: PageOptions): string {
  const ld = opts.jsonLd
    ? `<script type="application/ld+json">${JSON.stringify(opts.jsonLd).replace(/</g, '\\u003c')}</script>`
    : '';
  const notice = opts.notice ? `<p class="notice" role="note">${esc(opts.notice)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(opts.title)} · pmref</title>
<meta name="description" content="${esc(opts.description)}">
<style>${STYLE}${opts.style ?? ''}</style>
${ld}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<a class="brand" href="/">pmref</a>
<nav aria-label="Site"><ul>
<li><a href="/questions">Cross-venue questions</a></li>
<li><a href="/docs">API reference</a></li>
<li><a href="/methodology">Methodology</a></li>
<li><a href="/screens/">Screens</a></li>
<li><a href="/llms.txt">llms.txt</a></li>
</ul></nav>
</header>
<main id="main">
${notice}
${opts.body}
</main>
<footer class="muted"><small>Reference data by pmref. Attribution required when you reuse it.</small></footer>
</body>
</html>
`;
}

/** A grade badge with an accessible label. */
export function gradeBadge(grade: string | null | undefined): string {
  const g = grade ?? 'pending';
  return `<span class="badge grade-${esc(g)}" aria-label="Resolution Clarity Grade ${esc(g)}">${esc(g)}</span>`;
}

/** Formats a 0..1 price as a percentage, or an em dash. */
export function pct(value: number | null | undefined): string {
  return typeof value === 'number' ? `${(value * 100).toFixed(1)}%` : '—';
}
