// Invariant: the server-rendered pages escape every value, carry no external assets, and show the
// grade, the deciding factors, the sources, the twins, the chart and the log of an event.
import { describe, expect, it } from 'vitest';
import type { HistoryPoint } from '../../../src/domain/index.ts';
import { eventPage, priceChartSvg, renderMarkdown } from '../../../src/site/pages/index.ts';
import { makeEvent, makeMarket } from '../../support/records.ts';

describe('renderMarkdown', () => {
  it('renders headings, lists, tables, code and links, escaping HTML', () => {
    const html = renderMarkdown(
      '# Title\n\nSome **bold** and `code` <script>x</script>.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\n<raw>\n```\n\n[link](https://example.org) [bad](javascript:alert(1))',
    );
    expect(html).toContain('<h1 id="title">Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<th scope="col">a</th>');
    expect(html).toContain('<pre><code>&lt;raw&gt;</code></pre>');
    expect(html).toContain('<a href="https://example.org">link</a>');
    expect(html).not.toContain('javascript:');
  });
});

describe('priceChartSvg', () => {
  it('draws one path per series with an accessible title', () => {
    const svg = priceChartSvg(
      [
        {
          label: 'A',
          points: [
            { date: '2026-11-20', value: 0.4 },
            { date: '2026-11-21', value: 0.5 },
          ],
        },
        { label: 'B', points: [{ date: '2026-11-21', value: 0.2 }] },
      ],
      'Prices <x>',
    );
    expect(svg.match(/<path /g)).toHaveLength(2);
    expect(svg).toContain('<title id="chart-title">Prices &lt;x&gt;</title>');
  });
  it('says so when there are no marks', () => {
    expect(priceChartSvg([], 't')).toContain('No marks recorded yet.');
  });
});

describe('eventPage', () => {
  it('shows grade, factors, sources, twins, chart and log without external assets', () => {
    const event = makeEvent({ question: 'Fed cut in <December>?' });
    const market = makeMarket({
      event_id: event.event_id,
      source_of_record: 'Federal Reserve',
      source_commitment_subtype: 'named',
      resolution_source_list: [
        { name: 'Federal Reserve', url: 'https://www.federalreserve.gov', provenance: 'platform_api' },
      ],
      question_id: 'SVCX-0123456789',
      also_on: [{ venue: 'venue_b', market_id: 'SVC-MKT-ABCDEFGHIJ', price: 0.41 }],
      rcg: {
        grade: 'A',
        score: 92,
        caps: [],
        applied_factors: 6,
        rubric_version: 'rcg-1.0.0',
        factors: [
          {
            factor: 'source_clarity',
            weight: 18,
            rating: 'pass',
            points: 18,
            rule: 'SC-NAMED-URL',
            evidence: [{ field: 'resolution_rules_raw', quote: 'Federal Reserve', start: 0, end: 15 }],
          },
        ],
      },
    });
    const point = {
      date: '2026-11-21',
      snapshot_at: '2026-11-21T12:00:00Z',
      yes_last_price: 0.4,
      obtained: 'carried_forward',
    } as HistoryPoint;
    const html = eventPage({
      event,
      markets: [market],
      marks: new Map([[market.market_id, [point]]]),
      log: [
        {
          market_id: market.market_id,
          platform: 'venue_a',
          event_type: 'status_change',
          outcome: 'closed',
          resolved_at: null,
          occurred_basis: 'first_observed',
          final_price: null,
          recorded_at: '2026-11-21T12:00:00Z',
          source: 'platform_api',
          source_ref: null,
        },
      ],
    });
    expect(html).toContain('<h1>Fed cut in &lt;December&gt;?</h1>');
    expect(html).toContain('grade-A');
    expect(html).toContain('SC-NAMED-URL');
    expect(html).toContain('“Federal Reserve”');
    expect(html).toContain('SVC-MKT-ABCDEFGHIJ');
    expect(html).toContain('41.0%');
    expect(html).toContain('<svg role="img"');
    // The price table says how each point was obtained, as the history route does.
    expect(html).toContain('<td>2026-11-21</td><td class="num">40.0%</td><td>carried forward (venue unreachable)</td>');
    expect(html).toContain('status_change');
    expect(html).not.toMatch(/<(link|script)[^>]+(href|src)="https?:/);
  });
});
