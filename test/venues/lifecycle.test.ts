// A normalized market is never open past its close time (closed, derived, with provenance saying so), is resolved only with the venue's outcome, carries the venue's resolution history, and quotes the venue's own time or none.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Market } from '../../src/domain/index.ts';
import { normalizePull, type RawVenuePull, type VenueQuote } from '../../src/venues/index.ts';
import { venueAResolutionHistory, venueAStatus } from '../../src/venues/venue-a/normalize.ts';
import { settlementOf, venueBResolutionHistory } from '../../src/venues/venue-b/normalize.ts';
import { idsFor } from './helpers.ts';

const DIR = fileURLToPath(new URL('../fixtures/venues/lifecycle/run1/', import.meta.url));
const RUN1_AT = '2026-05-01T12:00:00.000Z';
const read = (file: string): unknown => JSON.parse(readFileSync(`${DIR}${file}`, 'utf8'));

function pullA(): RawVenuePull {
  const page = read('venue_a_events.json') as { events: unknown[] };
  const series = (read('venue_a_series.json') as { series: Array<{ ticker: string }> }).series;
  return {
    venue: 'venue_a',
    events: page.events,
    series: Object.fromEntries(series.map((s) => [s.ticker, s])),
    books: {},
    pulled: 0,
    error: null,
  } as RawVenuePull;
}

function pullB(): RawVenuePull {
  return {
    venue: 'venue_b',
    events: read('venue_b_events.json') as unknown[],
    series: {},
    books: {},
    pulled: 0,
    error: null,
  } as RawVenuePull;
}

/** Normalized markets by native id, with their quotes. */
function normalized(pull: RawVenuePull, now = RUN1_AT): Map<string, { market: Market; quote: VenueQuote }> {
  const result = normalizePull(pull, idsFor(pull.venue), now);
  expect(result.rejected).toEqual({});
  const out = new Map<string, { market: Market; quote: VenueQuote }>();
  for (const e of result.events) for (const m of e.markets) out.set(m.market.platform_market_id, m);
  return out;
}

function get<T>(map: Map<string, T>, key: string): T {
  const v = map.get(key);
  if (v === undefined) throw new Error(`no ${key} in ${[...map.keys()].join(', ')}`);
  return v;
}

describe('venue_a lifecycle', () => {
  const a = normalized(pullA());

  it('closes an "active" market past its close time, derived, and keeps one before it open', () => {
    const past = get(a, 'PLCPI-26APR-PAST').market;
    expect(past.status).toBe('closed');
    expect(past.field_provenance.status).toEqual({
      source: 'derived',
      rule: 'past_close',
      note: 'the venue reports it open (status "active") but its close time 2026-04-15T20:00:00.000Z has passed: closed, derived from close_at and the run clock',
    });
    const open = get(a, 'PLCPI-26MAY-OPEN').market;
    expect(open.status).toBe('open');
    expect(open.field_provenance.status).toEqual({ source: 'platform_api', note: 'status "active"' });
  });

  it('keeps a determined or disputed outcome proposed (closed, no outcome) and resolves a finalized one', () => {
    const det = get(a, 'PLCPI-26APR-DET').market;
    expect([det.status, det.resolution_outcome, det.resolved_at]).toEqual(['closed', null, null]);
    expect(det.resolution_history).toEqual({
      state: 'determined',
      statuses: ['determined'],
      proposals: 1,
      disputes: 0,
    });
    const disp = get(a, 'PLCPI-26APR-DISP').market;
    expect([disp.status, disp.resolution_outcome]).toEqual(['closed', null]);
    expect(disp.resolution_history).toEqual({ state: 'disputed', statuses: ['disputed'], proposals: 0, disputes: 1 });
    const fin = get(a, 'PLCPI-26APR-FIN').market;
    expect([fin.status, fin.resolution_outcome, fin.resolved_at]).toEqual([
      'resolved',
      'YES',
      '2026-04-21T14:00:00.000Z',
    ]);
    expect(fin.field_provenance.resolved_at).toEqual({ source: 'platform_api', note: 'settlement_ts' });
  });

  it("quotes the venue's update time, and no time at all when the venue gives none", () => {
    expect(get(a, 'PLCPI-26MAY-OPEN').quote.source_updated_at).toBe('2026-04-30T11:55:00.000Z');
    const none = get(a, 'PLCPI-26APR-PAST').quote;
    expect(none.source_updated_at).toBeNull();
    expect(none.provenance.source_updated_at?.source).toBe('null_by_venue_limitation');
  });

  it('maps every Kalshi v2 status, and only the settlement states make a resolution history', () => {
    const statuses = ['initialized', 'inactive', 'active', 'closed', 'determined', 'disputed', 'amended', 'finalized'];
    expect(statuses.map(venueAStatus)).toEqual([
      'open',
      'closed',
      'open',
      'closed',
      'closed',
      'closed',
      'amended',
      'resolved',
    ]);
    expect(venueAStatus('unheard_of')).toBeNull();
    expect(venueAResolutionHistory('active')).toBeNull();
    expect(venueAResolutionHistory('finalized')).toEqual({
      state: 'finalized',
      statuses: ['finalized'],
      proposals: 0,
      disputes: 0,
    });
  });
});

describe('venue_b lifecycle', () => {
  const b = normalized(pullB());

  it('closes a market Gamma still lists open past its endDate, derived', () => {
    const m = get(b, '0xb1').market;
    expect(m.status).toBe('closed');
    expect(m.field_provenance.status).toMatchObject({ source: 'derived', rule: 'past_close' });
    expect(m.resolution_outcome).toBeNull();
  });

  it('resolves a UMA-resolved market with its outcome and settlement time, reading float dust as 1/0', () => {
    const yes = get(b, '0xb2').market;
    expect([yes.status, yes.resolution_outcome, yes.resolved_at]).toEqual([
      'resolved',
      'YES',
      '2026-04-12T10:00:00.000Z',
    ]);
    expect(yes.resolution_history).toEqual({
      state: 'resolved',
      statuses: ['proposed', 'disputed', 'proposed', 'resolved'],
      proposals: 2,
      disputes: 1,
    });
    const no = get(b, '0xb4').market;
    expect([no.status, no.resolution_outcome, no.resolution_value]).toEqual(['resolved', 'NO', null]);
    // Gamma sent ["proposed"] with status resolved: the current state completes the history.
    expect(no.resolution_history?.statuses).toEqual(['proposed', 'resolved']);
  });

  it('keeps an open market with a pending proposal open, with its history', () => {
    const m = get(b, '0xb3').market;
    expect(m.status).toBe('open');
    expect(m.resolution_history).toEqual({ state: 'proposed', statuses: ['proposed'], proposals: 1, disputes: 0 });
    expect(get(b, '0xb3').quote.source_updated_at).toBe('2026-04-30T08:00:00.000Z');
  });

  it('reads outcomes only off settled prices and histories only off what Gamma sends', () => {
    expect([settlementOf([1, 0]), settlementOf([0, 1]), settlementOf([0.5, 0.5]), settlementOf([0.97, 0.03])]).toEqual([
      { outcome: 'YES', value: null },
      { outcome: 'NO', value: null },
      { outcome: '0.5', value: 0.5 },
      null,
    ]);
    expect(venueBResolutionHistory([], null)).toBeNull();
    expect(venueBResolutionHistory([], 'disputed')).toEqual({
      state: 'disputed',
      statuses: ['disputed'],
      proposals: 0,
      disputes: 1,
    });
    expect(venueBResolutionHistory(['proposed', 'disputed'], 'disputed')?.statuses).toEqual(['proposed', 'disputed']);
  });
});
