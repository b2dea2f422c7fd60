export type { EventPageData } from './event-page.ts';
export { eventPage } from './event-page.ts';
export { esc, gradeBadge, page, pct } from './html.ts';
export { renderMarkdown } from './markdown.ts';
export type { RegimeSummary } from './screens-pages.ts';
export { regimePage, screensIndexPage } from './screens-pages.ts';
export { methodologyMarkdown, type RegimeArtifacts, SitePages } from './site-pages.ts';
export type { ChartSeries } from './svg-chart.ts';
export { priceChartSvg } from './svg-chart.ts';
