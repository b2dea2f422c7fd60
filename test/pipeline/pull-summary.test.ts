// A venue's outcome keeps a summary of its pull (counts, fallbacks, venue_b's YES tokens), never its pages: they are
// the largest thing a run holds, and the outcome lives through the editorial stage, where a run's heap peaks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeVenue, summarizePull } from '../../src/pipeline/pull-stage.ts';
import { yesTokensOf } from '../../src/pipeline/venue-tokens.ts';
import type { Store } from '../../src/store/index.ts';
import type { RawVenuePull } from '../../src/venues/index.ts';
import { DAY1, DAY1_AT, tempStore } from './harness.ts';

const events = JSON.parse(readFileSync(join(DAY1, 'venue_b_events.json'), 'utf8')) as unknown[];
const pull: RawVenuePull = {
  venue: 'venue_b',
  events,
  series: {},
  books: { tok: { bids: [] } },
  pulled: 12,
  error: null,
  degraded: { order_books: 'one book missing' },
  requests: 3,
  retries: 1,
};

let store: Store;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ store, dispose } = await tempStore());
});
afterAll(async () => {
  await dispose();
});

describe('the pull summary a venue outcome keeps', () => {
  it("keeps the counts, the fallbacks and venue_b's YES tokens, not the pages", () => {
    const summary = summarizePull(pull);
    expect(summary).toEqual({
      venue: 'venue_b',
      pulled: 12,
      error: null,
      degraded: { order_books: 'one book missing' },
      requests: 3,
      retries: 1,
      yesTokens: yesTokensOf(pull),
    });
    expect(summary.yesTokens.size).toBeGreaterThan(0);
    expect(summarizePull({ ...pull, venue: 'venue_a' }).yesTokens.size).toBe(0);
    expect(summarizePull({ ...pull, error: 'pull failed: timeout' }).yesTokens.size).toBe(0);
  });

  it('is what normalizeVenue hands on, beside the normalized events', async () => {
    const outcome = await normalizeVenue(store, pull, DAY1_AT);
    expect(outcome.error).toBeNull();
    expect(outcome.items.length).toBeGreaterThan(0);
    expect(Object.keys(outcome.pull).sort()).toEqual([
      'degraded',
      'error',
      'pulled',
      'requests',
      'retries',
      'venue',
      'yesTokens',
    ]);
    expect(outcome.pull.yesTokens).toEqual(yesTokensOf(pull));
  });
});
