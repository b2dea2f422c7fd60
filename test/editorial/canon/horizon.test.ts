// Horizons normalize every venue date wording to one ET form: "before D" is by the day before, "in YEAR" is by its last day, windows and instants in ET.
import { describe, expect, it } from 'vitest';
import { easternOffsetHours, horizonOf } from '../../../src/editorial/canon/index.ts';

const ref = new Date('2026-03-01T12:00:00Z');

describe('horizonOf', () => {
  it.each([
    ['Will X happen before Jan 1, 2027?', 'by:2026-12-31'],
    ['Will X happen by December 31, 2026?', 'by:2026-12-31'],
    ['US recognizes Reza Pahlavi as leader of Iran in 2026?', 'by:2026-12-31'],
    ['Will X happen before 2027?', 'by:2026-12-31'],
    ['Will Ali Khamenei leave office before 2026-04-01T14:00:00.000Z?', 'by:2026-03-31'],
    ['Will Iran close Strait of Hormuz before May 2026?', 'by:2026-04-30'],
    ['Khamenei out as Supreme Leader of Iran by March 31?', 'by:2026-03-31'],
    ['Will the US next strike Iran on February 2, 2026 (ET)?', 'on:2026-02-02'],
    ['Major cyberattack on Iran in June 2026?', 'in:2026-06'],
    ['Will the price of Bitcoin be above $124,000 on March 4 at 12PM ET?', 'at:2026-03-04T12:00'],
    ['Bitcoin Up or Down - February 20, 9:15PM-9:30PM ET', 'window:2026-02-20T21:15/21:30'],
    ['Solana Up or Down - February 20, 2:00PM-2:15PM UTC', 'window:2026-02-20T09:00/09:15'],
    [
      "Will the upper bound of the federal funds rate be above 3.25% following the Fed's Apr 29, 2026 meeting?",
      'meeting:2026-04',
    ],
    ['Will the Fed decrease interest rates by 50+ bps after the April 2026 meeting?', 'meeting:2026-04'],
    ['Will Trump invoke the Insurrection Act during his presidency?', 'by:2029-01-19'],
    ['Will Moonshot have the top AI model at the end of the quarter?', 'by:2026-03-31'],
    ['Will the US agree to a new Iranian nuclear deal this year?', 'by:2026-12-31'],
  ])('%s → %s', (text, expected) => {
    expect(horizonOf(text, ref)?.value).toBe(expected);
  });

  it('returns null without a date, and for a year-less date without a reference time', () => {
    expect(horizonOf('Will Elon Musk visit Mars?', ref)).toBeNull();
    expect(horizonOf('Khamenei out by March 31?', null)).toBeNull();
  });

  it('reports the span it read so the claim phrase can drop it', () => {
    const text = 'Will Iran hold a presidential election before Jul 1, 2026?';
    const h = horizonOf(text, ref);
    expect(h && text.slice(h.start, h.end)).toBe('before Jul 1, 2026');
  });

  it('knows US daylight saving time', () => {
    expect(easternOffsetHours(new Date('2026-01-15T12:00:00Z'))).toBe(-5);
    expect(easternOffsetHours(new Date('2026-07-15T12:00:00Z'))).toBe(-4);
  });
});
