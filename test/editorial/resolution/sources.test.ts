// Source extraction takes only names and links that occur verbatim in venue text or fields, and skips what is not a source (venue placeholder rows, background links, rulebooks, hedged names); the commitment classes of issue 16 (illustrative hedges, venue source fields, republishers vs originating publishers, primary with fallback, multi-source lists) are decided by general rules with evidence.
import { describe, expect, it } from 'vitest';
import { canonicalInput, judgeResolution } from '../../../src/editorial/resolution/index.ts';

const judge = (input: Record<string, unknown>) => {
  const { market, facts } = canonicalInput({
    platform: 'venue_b',
    platform_market_id: 't',
    question_raw: 'Q?',
    ...input,
  });
  return judgeResolution(market, facts);
};

describe('resolution sources', () => {
  it('keeps venue-listed sources as platform_api and prose finds as service_editorial', () => {
    const j = judge({
      description_raw: 'The resolution source for this market will be information from the NBA.',
      resolution_source_list: [{ name: null, url: 'https://www.nba.com/', provenance: 'platform_api' }],
    });
    expect(j.resolution_source_list).toEqual([
      { name: null, url: 'https://www.nba.com/', provenance: 'platform_api' },
      { name: 'NBA', url: null, provenance: 'service_editorial' },
    ]);
    expect(j.source_of_record).toBe('NBA');
    expect(j.source_citation).toBe('https://www.nba.com/');
  });

  it("drops venue_a placeholder rows that point at the venue's own site", () => {
    const j = judge({
      platform: 'venue_a',
      resolution_rules_raw: 'If they release a song together before Jan 1, 2030, then the market resolves to Yes.',
      resolution_source_list: [
        { name: 'artist 1', url: 'https://kalshi.com/', provenance: 'platform_api' },
        { name: 'Spotify', url: 'https://www.spotify.com', provenance: 'platform_api' },
      ],
    });
    expect(j.resolution_source_list?.map((s) => s.name)).toEqual(['Spotify']);
  });

  it('ignores background links, rulebooks and hedged names', () => {
    const j = judge({
      description_raw:
        'Trump is scheduled to meet the Prime Minister on November 18, 2025 (see https://www.reuters.com/world/x). Ties are broken according to the official FIFA tiebreak criteria. Traders may check a source like Google Finance or Coinbase.',
    });
    // Hedged names stay listed (they occur verbatim) but commit nothing; the background link and the rulebook are not listed.
    expect(j.resolution_source_list?.map((s) => s.name)).toEqual(['Google Finance', 'Coinbase']);
    expect(j.source_commitment_subtype).toBe('uncommitted_illustrative');
    expect(j.source_hedge_text).toContain('Google Finance');
  });

  it('treats one source per leg as non-competing', () => {
    const j = judge({
      description_raw:
        'The resolution source for the release of GTA VI is official information from Rockstar Games. The resolution source for Bitcoin is Binance, specifically the BTCUSDT prices available at https://www.binance.com/en/trade/BTC_USDT.',
    });
    expect(j.source_commitment_subtype).toBe('named');
    expect(j.rcg.factors.find((f) => f.factor === 'source_conflict_rule')?.rating).toBe('not_applicable');
  });

  it('does not demote a committed source for a fallback that applies only if it is unavailable', () => {
    const j = judge({
      description_raw:
        'The resolution source will be the FY 2025 ICE Annual Report. If the FY 2025 ICE Annual Report is not published by February 28, 2026, 11:59 PM ET, another credible resolution source will be used.',
    });
    expect(j.source_commitment_subtype).toBe('named');
    expect(j.source_of_record).toBe('ICE Annual Report');
  });

  const conflictOf = (j: ReturnType<typeof judge>) => j.rcg.factors.find((f) => f.factor === 'source_conflict_rule');

  it('reads a hedged venue source field ("For example, <provider>") as illustrative, not a commitment', () => {
    const j = judge({
      platform: 'venue_a',
      resolution_rules_raw: 'If the S&P 500 closes above 6000 on Mar 31, 2026, then the market resolves to Yes.',
      resolution_source_list: [
        { name: 'For example, Google Finance', url: 'https://www.google.com/finance', provenance: 'platform_api' },
      ],
    });
    expect(j.source_commitment_subtype).toBe('uncommitted_illustrative');
    expect(j.source_hedge_text).toBe('For example, Google Finance');
    expect(j.resolution_source_list?.map((s) => s.name)).toEqual(['Google Finance']);
    expect(j.rcg.caps).toContain('commitment_uncommitted_illustrative');
  });

  it('reads "e.g.", "such as" and "including but not limited to" before names as hedges', () => {
    for (const hedge of ['e.g.', 'such as', 'including but not limited to'])
      expect(
        judge({
          description_raw: `Traders may use information from quote pages, ${hedge} Yahoo Finance or Google Finance.`,
        }).source_commitment_subtype,
        hedge,
      ).toBe('uncommitted_illustrative');
  });

  it('takes the venue source field as evidence when the rules name nothing: an aggregator is secondhand, an index provider named', () => {
    const rules = 'If the index closes above 6000 on Mar 31, 2026, then the market resolves to Yes.';
    const aggregator = judge({
      platform: 'venue_a',
      resolution_rules_raw: rules,
      resolution_source_list: [
        { name: 'Trading Economics', url: 'https://tradingeconomics.com/x', provenance: 'platform_api' },
      ],
    });
    expect([aggregator.source_commitment_subtype, aggregator.source_of_record]).toEqual([
      'committed_secondhand',
      'Trading Economics',
    ]);
    expect(aggregator.rcg.caps).toContain('commitment_committed_secondhand');
    const index = judge({
      platform: 'venue_a',
      resolution_rules_raw: rules,
      resolution_source_list: [
        { name: 'S&P Dow Jones Indices', url: 'https://www.spglobal.com/spdji/', provenance: 'platform_api' },
      ],
    });
    expect(index.source_commitment_subtype).toBe('named');
  });

  it("keeps a real name paired with the venue's own URL, but drops template rows", () => {
    const j = judge({
      platform: 'venue_a',
      resolution_rules_raw: 'If they release a song together before Jan 1, 2030, then the market resolves to Yes.',
      resolution_source_list: [
        { name: 'artist 1', url: 'https://kalshi.com/', provenance: 'platform_api' },
        { name: 'Complex', url: 'https://kalshi.com/', provenance: 'platform_api' },
      ],
    });
    expect(j.resolution_source_list).toEqual([{ name: 'Complex', url: null, provenance: 'platform_api' }]);
  });

  it('names the originating publisher of its own product ("according to the ISW map"), with the cue as evidence', () => {
    const j = judge({
      description_raw:
        'This market will resolve to "Yes" if, according to the ISW map, Russia captures any territory in the oblast by February 28, 2025.',
    });
    expect([j.source_commitment_subtype, j.source_of_record]).toEqual(['named', 'ISW map']);
    expect(j.field_provenance.source_commitment?.rule).toBe('commit.originating_publisher');
    const poll = judge({
      description_raw:
        "This market's resolution source will be Silver Bulletin's approval rating for the resolution date.",
    });
    expect(poll.source_commitment_subtype).toBe('named');
  });

  it('reads an unregistered official body or government host as an authority', () => {
    const j = judge({
      description_raw:
        'The resolution source for this market is information released by the Reserve Bank of New Zealand after its February 17, 2026 decision.',
    });
    expect(j.source_commitment_subtype).toBe('named');
    const host = judge({
      description_raw:
        'The resolution source for this market will be the daily figure at https://www.tsa.gov/travel/passenger-volumes.',
    });
    expect(host.source_commitment_subtype).toBe('named');
  });

  it('reads a named primary with a media fallback as named, precedence, with the fallback recorded and the conflict judged', () => {
    const declared = judge({
      description_raw:
        'The primary resolution source for this market will be the official website of the Federal Reserve, however a consensus of credible reporting may also be used.',
    });
    expect([declared.source_commitment_subtype, declared.source_mechanism, declared.source_of_record]).toEqual([
      'named',
      'precedence',
      'Federal Reserve',
    ]);
    expect(declared.source_hedge_text).toBe('however a consensus of credible reporting may also be used');
    expect(conflictOf(declared)?.rule).toBe('conflict.primary_declared_fallback');
    const undeclared = judge({
      description_raw:
        'The resolution source for this market will be official information from the Federal Reserve, however a consensus of credible reporting may also be used.',
    });
    expect(conflictOf(undeclared)?.rule).toBe('conflict.no_rule');
    expect(undeclared.rcg.caps).toContain('multi_source_no_conflict_rule');
    const conditional = judge({
      description_raw:
        'The resolution source will be the Federal Reserve. If the Federal Reserve does not publish a statement by May 1, 2026, a consensus of credible reporting will be used.',
    });
    expect([conditional.source_mechanism, conflictOf(conditional)?.rule]).toEqual([
      'precedence',
      'conflict.precedence_stated',
    ]);
  });

  it('keeps a co-equal menu with a placeholder uncommitted', () => {
    const j = judge({
      description_raw:
        'The primary resolution source for this market will be the channel page (https://www.youtube.com/@x) or a consensus of credible reporting.',
    });
    expect(j.source_commitment_subtype).toBe('uncommitted_placeholder');
  });

  it('judges the conflict rule of multi-source lists instead of calling them a single source', () => {
    const agencies = judge({
      platform: 'venue_a',
      resolution_rules_raw:
        'If at least two of the Source Agencies report the event before Jan 1, 2027, then the market resolves to Yes.',
    });
    expect(conflictOf(agencies)?.rule).toBe('conflict.quorum_stated');
    const anyOne = judge({
      platform: 'venue_a',
      resolution_rules_raw:
        'Such announcements must be reported by at least one Source Agency to be considered official.',
    });
    expect(conflictOf(anyOne)?.rule).toBe('conflict.no_rule');
    const outlets = judge({
      description_raw:
        'Resolution is based on reporting from major media outlets including The New York Times, Vogue, and verified photography.',
    });
    expect([outlets.source_commitment_subtype, conflictOf(outlets)?.rule]).toEqual([
      'uncommitted_placeholder',
      'conflict.no_rule',
    ]);
  });
});
