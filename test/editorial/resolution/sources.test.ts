// Source extraction takes only names and links that occur verbatim in venue text or fields, and skips what is not a source (venue placeholder rows, background links, rulebooks, hedged names).
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
});
