// Invariant: the explorer pages (home search, /questions, the compare page) escape every value they echo or show,
// link each result to its event page or compare page, keep the query in pagination links, say why a list is empty
// and what to try, and load nothing from elsewhere; event pages link twins to the other venue's page and the compare page.
import { describe, expect, it } from 'vitest';
import {
  type MarketListItem,
  type MarketPage,
  pairIdFor,
  type QuestionComparison,
  type QuestionLeg,
  type QuestionPage,
  type QuestionSummary,
} from '../../../src/domain/index.ts';
import { comparePage, eventPage, homePage, questionsPage } from '../../../src/site/pages/index.ts';
import { makeEvent, makeMarket } from '../../support/records.ts';

const XSS = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

function item(over: Partial<MarketListItem> = {}): MarketListItem {
  return {
    market_id: 'SVC-MKT-AAAAAAAAAA',
    event_id: 'SVC-EVT-AAAAAAAAAA',
    event_slug: 'fed-upper-bound-december-2026',
    platform: 'venue_a',
    platform_market_id: 'KXFED-26DEC-T4.00',
    question: 'Will the upper bound be above 4.00%?',
    category: 'economics',
    status: 'open',
    close_at: '2026-12-10T19:00:00.000Z',
    grade: 'A',
    rcg_score: 89,
    caps: [],
    source_commitment_subtype: 'named',
    source_of_record: 'Federal Reserve',
    last_price: 0.42,
    price_as_of: '2026-11-21T11:59:00.000Z',
    volume_24h_usd: 1000,
    question_id: null,
    has_twin: false,
    url: '/events/fed-upper-bound-december-2026',
    ...over,
  };
}

function marketPage(markets: MarketListItem[], over: Partial<MarketPage> = {}): MarketPage {
  return { total: markets.length, count: markets.length, limit: 25, offset: 0, notice: null, markets, ...over };
}

const counts = { events: 3, markets: 8 };

/** The external references a page could make: any src/href/action to another host, any script or stylesheet link
 * (the `data:` favicon link, which keeps browsers from asking for /favicon.ico, is not one). */
function externalRefs(html: string): string[] {
  return [
    ...html.matchAll(
      /(?:src|href|action)="(?:https?:)?\/\/[^"]*"|<script(?![^>]*application\/ld\+json)|<link (?!rel="icon" href="data:,")/g,
    ),
  ].map((m) => m[0]);
}

describe('homePage', () => {
  it('escapes a hostile query everywhere it is echoed: input value, caption, title, pagination links', () => {
    const html = homePage({
      params: { q: XSS, grade: XSS },
      result: marketPage([item()], { total: 60 }),
      counts,
      notice: null,
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<title>Search: &quot;&gt;&lt;script&gt;');
    // The unknown grade stays selected (and visible) instead of being dropped silently, escaped.
    expect(html).toContain('(not a valid value)</option>');
    const next = /<a rel="next" href="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(next).toContain('offset=25');
    expect(next).toContain('q=%22%3E%3Cscript%3E');
    expect(externalRefs(html)).toEqual([]);
  });

  it('shows each market with its grade badge, linked to its section of the event page, with price and source', () => {
    const twin = item({
      market_id: 'SVC-MKT-BBBBBBBBBB',
      platform: 'venue_b',
      grade: 'C',
      question_id: 'SVCX-0123456789',
      has_twin: true,
      source_of_record: null,
      source_commitment_subtype: 'none',
      event_slug: null,
    });
    const html = homePage({ params: { q: 'fed' }, result: marketPage([item(), twin]), counts, notice: 'Simulated.' });
    expect(html).toContain('<span class="badge grade-A" aria-label="Resolution Clarity Grade A">A</span>');
    expect(html).toContain('href="/events/fed-upper-bound-december-2026#m-SVC-MKT-AAAAAAAAAA"');
    expect(html).toContain('42.0%');
    expect(html).toContain('as of 2026-11-21 11:59 UTC');
    expect(html).toContain('Federal Reserve');
    expect(html).toContain('href="/questions/SVCX-0123456789">on both venues: compare</a>');
    // A market without a published event links to its JSON record rather than to a page that does not exist.
    expect(html).toContain('href="/v1/markets/SVC-MKT-BBBBBBBBBB"');
    expect(html).toContain('none committed');
    expect(html).toContain('Showing 1–2 of 2 markets for “fed”');
    expect(html).toContain('<p class="notice" role="note">Simulated.</p>');
    expect(html).not.toContain('rel="next"');
  });

  it('pages forwards and back keeping every filter', () => {
    const html = homePage({
      params: { q: 'bitcoin', grade: 'A', has_twin: 'true', offset: '25' },
      result: marketPage([item()], { total: 80, count: 1, offset: 25 }),
      counts,
      notice: null,
    });
    expect(html).toContain('<a rel="prev" href="/?q=bitcoin&amp;grade=A&amp;has_twin=true">');
    expect(html).toContain('<a rel="next" href="/?q=bitcoin&amp;grade=A&amp;has_twin=true&amp;offset=50">');
    expect(html).toContain('Page 2 of 4');
    expect(html).toContain('<option value="A" selected>A</option>');
    expect(html).toContain('<option value="true" selected>on both venues</option>');
  });

  it("says why nothing was found and what to try, from the service's notice", () => {
    const html = homePage({
      params: { q: 'zzzz', grade: 'A' },
      result: marketPage([], { notice: { reason: 'No market matches “zzzz”.', try: ['fed', 'drop grade=A'] } }),
      counts,
      notice: null,
    });
    expect(html).toContain('<strong>Nothing found.</strong> No market matches “zzzz”.');
    expect(html).toContain('<li>fed</li><li>drop grade=A</li>');
    expect(html).toContain('href="/?q=zzzz">Search “zzzz” without filters</a>');
    expect(html).not.toContain('<table class="results">');
  });

  it('without a service notice, still says why and what to try; past the last page, says that', () => {
    const empty = homePage({ params: { q: 'zzzz' }, result: marketPage([]), counts, notice: null });
    expect(empty).toContain('No market matches “zzzz”.');
    expect(empty).toContain('fewer or more general words');
    const past = homePage({
      params: { q: 'fed', offset: '500' },
      result: marketPage([], { total: 30, offset: 500 }),
      counts,
      notice: null,
    });
    expect(past).toContain('past the last result (30 in all)');
    expect(past).toContain('href="/?q=fed">Back to the first page</a>');
  });
});

function leg(over: Partial<QuestionLeg> = {}): QuestionLeg {
  return {
    venue: 'venue_a',
    market_id: 'SVC-MKT-AAAAAAAAAA',
    platform_market_id: 'KXBTC-26DEC31-T150000',
    event_id: 'SVC-EVT-AAAAAAAAAA',
    event_slug: 'bitcoin-above-150k-dec-31',
    category: 'crypto',
    question: 'Bitcoin above $150,000 on December 31?',
    subject: null,
    direction: 'above',
    price: 0.12,
    price_as_of: '2026-11-21T11:59:00.000Z',
    status: 'open',
    grade: 'A',
    score: 88,
    arbiter: 'venue_a_staff',
    source_of_record: 'CF Benchmarks',
    url: '/v1/markets/SVC-MKT-AAAAAAAAAA',
    ...over,
  };
}

function summary(over: Partial<QuestionSummary> = {}): QuestionSummary {
  return {
    id: 'SVCX-0123456789',
    question_id: 'SVCX-0123456789',
    relation: 'same',
    category: 'crypto',
    divergence_points: 2,
    divergence_note: null,
    differences: [],
    venue_a: leg(),
    venue_b: leg({
      venue: 'venue_b',
      market_id: 'SVC-MKT-BBBBBBBBBB',
      platform_market_id: '0xabc',
      event_slug: 'bitcoin-150k-by-dec-31',
      question: 'Will Bitcoin reach $150k by December 31, 2026?',
      price: 0.1,
      price_as_of: null,
      grade: 'B',
      arbiter: 'optimistic_oracle',
      source_of_record: null,
    }),
    url: '/v1/questions/SVCX-0123456789',
    ...over,
  };
}

function questionPage(questions: QuestionSummary[], over: Partial<QuestionPage> = {}): QuestionPage {
  return { total: questions.length, count: questions.length, limit: 25, offset: 0, notice: null, questions, ...over };
}

describe('questionsPage', () => {
  it('lists each pair with both prices, their quote times, the divergence and what differs, linking to compare', () => {
    const related = summary({
      id: 'SVCR-ABCDEF0123',
      question_id: null,
      relation: 'related',
      divergence_points: null,
      divergence_note: 'A price is <missing>.',
      differences: [{ type: 'threshold', venue_a: '150000', venue_b: '<150k>' }],
    });
    const html = questionsPage({ params: {}, result: questionPage([summary(), related]), notice: null });
    expect(html).toContain('href="/questions/SVCX-0123456789">Bitcoin above $150,000 on December 31?</a>');
    expect(html).toContain('href="/questions/SVCR-ABCDEF0123"');
    expect(html).toContain('12.0%');
    expect(html).toContain('10.0%');
    expect(html).toContain('as of 2026-11-21 11:59 UTC');
    expect(html).toContain('no quote time');
    expect(html).toContain('2.0 pts');
    expect(html).toContain('<li>grade: A vs B</li>');
    expect(html).toContain('<li>arbiter: venue_a_staff vs optimistic_oracle</li>');
    expect(html).toContain('<li>source: CF Benchmarks vs none committed</li>');
    expect(html).toContain('<li>threshold: venue_a 150000 vs venue_b &lt;150k&gt;</li>');
    expect(html).toContain('A price is &lt;missing&gt;.');
    expect(html).toContain('near-equivalent question');
    expect(externalRefs(html)).toEqual([]);
  });

  it('escapes the echoed filters and says why an empty list is empty', () => {
    const html = questionsPage({
      params: { min_divergence: XSS, category: 'crypto' },
      result: questionPage([], { notice: { reason: 'No pair diverges by 90 points.', try: ['min_divergence=5'] } }),
      notice: null,
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('No pair diverges by 90 points.');
    expect(html).toContain('<li>min_divergence=5</li>');
    const fallback = questionsPage({ params: { relation: 'related' }, result: questionPage([]), notice: null });
    expect(fallback).toContain('No cross-venue pair matches these filters.');
    expect(fallback).toContain('remove a filter');
  });
});

describe('comparePage', () => {
  const comparison = (over: Partial<QuestionComparison> = {}): QuestionComparison => ({
    ...summary(),
    rules: {
      venue_a: 'Resolves YES if <b>BTC</b> closes above 150000.',
      venue_b: 'Resolves YES if BTC trades at 150k.',
    },
    rules_diff: {
      segments: [
        { op: 'same', text: 'Resolves YES if' },
        { op: 'a', text: '<b>BTC</b> closes above 150000.' },
        { op: 'b', text: 'BTC trades at 150k.' },
      ],
      words_a: 8,
      words_b: 7,
      same_words: 3,
      exact: true,
    },
    other_pairs: [],
    ...over,
  });

  it('puts both legs side by side with links to both event pages and the rule texts word-diffed, escaped', () => {
    const html = comparePage({ comparison: comparison(), notice: null });
    expect(html).toContain('<h2 id="leg-venue_a">venue_a');
    expect(html).toContain('<h2 id="leg-venue_b">venue_b');
    expect(html).toContain('href="/events/bitcoin-above-150k-dec-31#m-SVC-MKT-AAAAAAAAAA"');
    expect(html).toContain('href="/events/bitcoin-150k-by-dec-31#m-SVC-MKT-BBBBBBBBBB"');
    expect(html).toContain('the venue gave no quote time');
    expect(html).toContain('<strong>2.0 points apart</strong>');
    expect(html).toContain('&lt;b&gt;BTC&lt;/b&gt; closes above 150000.<span class="skip">]</span></del>');
    expect(html).toContain('BTC trades at 150k.<span class="skip">]</span></ins>');
    expect(html).not.toContain('<b>BTC</b>');
    expect(html).toContain('3 of 8 words (venue_a) and 7 words (venue_b) are shared');
    expect(html).toContain('href="/v1/questions/SVCX-0123456789"');
    expect(externalRefs(html)).toEqual([]);
  });

  it('names a multi-outcome leg by its subject beside the event-level question', () => {
    const base = comparison();
    const html = comparePage({
      comparison: {
        ...base,
        venue_a: { ...base.venue_a, question: 'Who will win the 2028 presidential election?', subject: 'J.D. Vance' },
      },
      notice: null,
    });
    expect(html).toContain('<strong>Who will win the 2028 presidential election?</strong> — J.D. Vance</p>');
  });

  it('says why there is no diff, explains a complement, and links the other pairs of the question', () => {
    const html = comparePage({
      comparison: comparison({
        relation: 'complement',
        rules: { venue_a: 'x', venue_b: null },
        rules_diff: null,
        other_pairs: ['SVCP-0123456789'],
      }),
      notice: null,
    });
    expect(html).toContain('No word diff: venue_b has no rules text.');
    expect(html).toContain("venue_b's YES is venue_a's NO");
    expect(html).toContain('href="/questions/SVCP-0123456789"');
  });
});

describe('eventPage twins', () => {
  it("links a twin to the other venue's event page and to the compare page; an unpublished twin to its record", () => {
    const event = makeEvent({ question: 'Bitcoin above $150,000?' });
    const market = makeMarket({
      event_id: event.event_id,
      question_id: 'SVCX-0123456789',
      also_on: [
        { venue: 'venue_b', market_id: 'SVC-MKT-BBBBBBBBBB', price: 0.1, relation: 'same' },
        { venue: 'venue_b', market_id: 'SVC-MKT-CCCCCCCCCC', price: 0.2, relation: 'complement' },
        {
          venue: 'venue_b',
          market_id: 'SVC-MKT-DDDDDDDDDD',
          price: 0.3,
          relation: 'related',
          differences: [{ type: 'threshold', venue_a: '150000', venue_b: '160000' }],
        },
      ],
    });
    const html = eventPage({
      event,
      markets: [market],
      marks: new Map(),
      log: [],
      twinEvents: new Map([['SVC-MKT-BBBBBBBBBB', 'bitcoin-150k-by-dec-31']]),
    });
    expect(html).toContain('href="/events/bitcoin-150k-by-dec-31#m-SVC-MKT-BBBBBBBBBB">SVC-MKT-BBBBBBBBBB</a>');
    expect(html).toContain('href="/v1/markets/SVC-MKT-CCCCCCCCCC">SVC-MKT-CCCCCCCCCC</a>');
    expect(html.match(/href="\/questions\/SVCX-0123456789">compare side by side<\/a>/g)).toHaveLength(2);
    // A related twin has its own pair id, the one /v1/questions serves it under.
    const related = pairIdFor('related', market.market_id, 'SVC-MKT-DDDDDDDDDD');
    expect(html).toContain(`href="/questions/${related}">compare side by side</a>`);
  });
});
