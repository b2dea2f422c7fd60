// Invariant: free text is routed to the skill a person means: "what does X mean" to glossary, "compare …" / "same bet on the other venue" / a question id to compare_question, "stats" / "how common" to get_stats (with the venue, grade, commitment and category it names), and ids, slugs, calendar words and searches as before.
import { describe, expect, it } from 'vitest';
import { routeText } from '../../src/agents/a2a-routing.ts';

const route = (text: string) => {
  const r = routeText(text, (s) => s === 'fed-upper-bound-december-2026');
  return { skill: r.skill, args: r.args };
};

describe('routeText', () => {
  it('sends "what does X mean" and "glossary" to the glossary, a kind word as kind', () => {
    expect(route('What does clarity.no_committed_source mean?')).toEqual({
      skill: 'glossary',
      args: { term: 'clarity.no_committed_source' },
    });
    expect(route('what does `commitment_none` stand for')).toEqual({
      skill: 'glossary',
      args: { term: 'commitment_none' },
    });
    expect(route('define uncommitted_placeholder')).toEqual({
      skill: 'glossary',
      args: { term: 'uncommitted_placeholder' },
    });
    expect(route('glossary caps')).toEqual({ skill: 'glossary', args: { kind: 'cap' } });
    expect(route('what do the reason codes mean?')).toEqual({ skill: 'glossary', args: { kind: 'reason_code' } });
    expect(route('glossary')).toEqual({ skill: 'glossary', args: {} });
  });

  it('sends comparisons to compare_question: a market, a question id, or the list', () => {
    expect(route('Is KXFED-26DEC-T4.25 the same bet on the other venue?')).toEqual({
      skill: 'compare_question',
      args: { market_id: 'KXFED-26DEC-T4.25' },
    });
    expect(route('compare svc-mkt-0123456789 across venues')).toEqual({
      skill: 'compare_question',
      args: { market_id: 'SVC-MKT-0123456789' },
    });
    expect(route('show me SVCX-0123456789')).toEqual({
      skill: 'compare_question',
      args: { question_id: 'SVCX-0123456789' },
    });
    expect(route('cross-venue questions in crypto')).toEqual({
      skill: 'compare_question',
      args: { category: 'crypto', limit: 10 },
    });
  });

  it('sends "stats" and "how common" to get_stats with the filters it names', () => {
    expect(route('How common is it that a venue_b market commits to no source?')).toEqual({
      skill: 'get_stats',
      args: { venue: 'venue_b', source_commitment_subtype: 'none' },
    });
    expect(route('what share of economics markets are graded A')).toEqual({
      skill: 'get_stats',
      args: { grade: 'A', category: 'economics' },
    });
    expect(route('stats')).toEqual({ skill: 'get_stats', args: {} });
  });

  it('keeps the earlier routes: ticker, event slug, calendar, search', () => {
    expect(route('Can I trust how KXFED-26DEC-T4.25 settles?').skill).toBe('get_market');
    expect(route('fed-upper-bound-december-2026')).toEqual({
      skill: 'get_event',
      args: { slug: 'fed-upper-bound-december-2026', detail: 'concise' },
    });
    expect(route('upcoming catalysts in 14 days')).toEqual({ skill: 'list_upcoming_catalysts', args: { days: 14 } });
    expect(route('what is the price of the fed upper bound market?').skill).toMatch(/^(list_events|search_markets)$/);
  });
});
