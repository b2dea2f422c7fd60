// Venue categories and tags map onto the nine service categories by documented tables, and the keyword classifier puts untagged records in or out of scope with the word that decided.
import { describe, expect, it } from 'vitest';
import {
  categoryFromKeywords,
  categoryFromVenueA,
  categoryFromVenueBTags,
  refinePolitics,
} from '../../src/venues/index.ts';

describe('venue_a category table', () => {
  it('maps the venue names and leaves others out of scope by name', () => {
    expect(categoryFromVenueA('Economics')).toMatchObject({ kind: 'in', category: 'economics', via: 'venue' });
    expect(categoryFromVenueA('Science and Technology')).toMatchObject({ kind: 'in', category: 'technology' });
    expect(categoryFromVenueA('World')).toMatchObject({ kind: 'in', category: 'geopolitics' });
    expect(categoryFromVenueA('Elections')).toMatchObject({ kind: 'in', category: 'politics' });
    expect(categoryFromVenueA('Climate and Weather')).toMatchObject({ kind: 'in', category: 'climate' });
    expect(categoryFromVenueA('Sports')).toMatchObject({ kind: 'out', reason: 'category:sports' });
    expect(categoryFromVenueA('Entertainment')).toMatchObject({ kind: 'out', reason: 'category:entertainment' });
    expect(categoryFromVenueA('')).toBeNull();
    expect(categoryFromVenueA('Something New')).toBeNull();
  });
});

describe('venue_b tag table', () => {
  it('takes the first tag that maps, by slug or label', () => {
    const tags = (...slugs: string[]) => slugs.map((slug) => ({ slug, label: null }));
    expect(categoryFromVenueBTags(tags('featured', 'geopolitics', 'politics'))).toMatchObject({
      category: 'geopolitics',
      matched: 'geopolitics',
    });
    expect(categoryFromVenueBTags(tags('2025-predictions', 'crypto-prices'))).toMatchObject({ category: 'crypto' });
    expect(categoryFromVenueBTags(tags('nba', 'sports'))).toMatchObject({ kind: 'out', reason: 'category:sports' });
    expect(categoryFromVenueBTags([{ slug: null, label: 'Fed Rates' }])).toMatchObject({ category: 'economics' });
    expect(categoryFromVenueBTags(tags('featured', 'hide-from-new'))).toBeNull();
  });
});

describe('keyword classifier', () => {
  it.each([
    ['Will the price of Bitcoin be above $110,000 on September 26?', 'crypto'],
    ['Fed decreases interest rates by 50+ bps after December 2025 meeting?', 'economics'],
    ['US strikes Iran by June 30?', 'geopolitics'],
    ['Democratic Presidential Nominee 2028', 'politics'],
    ['Highest temperature in London on February 7?', 'climate'],
    ['Will Gold (GC) settle over $8,000 in June?', 'financials'],
    ['OpenAI IPO Closing Market Cap', 'companies'],
    ['Gemini 3.0 released by June?', 'technology'],
    ['Measles cases in the US in 2026?', 'health'],
  ])('%s → %s', (text, category) => {
    expect(categoryFromKeywords(text)).toMatchObject({ kind: 'in', category, via: 'keywords' });
  });

  it.each([
    ['Lamar Cardinals vs. New Orleans Privateers', 'category:sports'],
    ['Will Trump attend the Super Bowl?', 'category:sports'],
    ['Oscars 2026: Best Actress Winner', 'category:entertainment'],
    ['What will Trump say during the State of the Union address?', 'category:mentions'],
    ['Will Ben Armstrong cry?', 'category:unclassified'],
  ])('%s → out (%s)', (text, reason) => {
    expect(categoryFromKeywords(text)).toMatchObject({ kind: 'out', reason });
  });
});

describe('refinePolitics', () => {
  it('moves venue politics to geopolitics when the title is about wars, strikes or foreign leaders', () => {
    const politics = categoryFromVenueA('Politics');
    if (!politics) throw new Error('Politics must map');
    expect(refinePolitics(politics, 'Who will be the next Supreme Leader of Iran?')).toMatchObject({
      category: 'geopolitics',
      via: 'keywords',
    });
    expect(refinePolitics(politics, 'Will the GOP use the nuclear option?')).toBe(politics);
    expect(refinePolitics(politics, 'Who will win the 2028 presidential election?')).toBe(politics);
  });
});
