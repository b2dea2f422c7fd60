// Invariant: the grade report counts every market once per venue and once per category, unrated and
// unclassified markets included under their own labels.
import { describe, expect, it } from 'vitest';
import { gradeReport } from '../../src/commands/report.ts';
import { makeEvent, makeMarket } from '../support/records.ts';

describe('gradeReport', () => {
  it('groups grades, commitment subtypes and source statuses by venue and category', () => {
    const econ = makeEvent({ native: 'E1', category: 'economics' });
    const geo = makeEvent({ native: 'E2', category: 'geopolitics', venue: 'venue_b' });
    const rcg = (grade: 'A' | 'C') => ({
      grade,
      score: grade === 'A' ? 90 : 30,
      caps: [],
      applied_factors: 6,
      rubric_version: 'rcg-1.0.0',
      factors: [],
    });
    const markets = [
      makeMarket({
        native: 'M1',
        event_id: econ.event_id,
        rcg: rcg('A'),
        source_commitment_subtype: 'named',
        source_status: 'platform_named',
      }),
      makeMarket({
        native: '0x1',
        platform: 'venue_b',
        event_id: geo.event_id,
        rcg: rcg('C'),
        source_commitment_subtype: 'uncommitted_placeholder',
        source_status: 'no_committed_source',
      }),
      makeMarket({ native: '0x2', platform: 'venue_b', event_id: geo.event_id }),
    ];
    const r = gradeReport(markets, [econ, geo]);
    expect(r.markets).toBe(3);
    expect(r.by_venue.venue_b).toEqual({
      markets: 2,
      grade: { C: 1, pending: 1 },
      commitment: { uncommitted_placeholder: 1, unclassified: 1 },
      source_status: { no_committed_source: 1, unknown: 1 },
    });
    expect(r.by_category.economics?.grade).toEqual({ A: 1 });
    expect(r.by_category.geopolitics?.markets).toBe(2);
  });
});
