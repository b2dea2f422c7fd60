// The lifecycle log appends exactly the status, rule, resolution, proposal and dispute moves between two states of a market, and nothing for an unchanged one.
import { describe, expect, it } from 'vitest';
import type { ResolutionHistory } from '../../src/domain/index.ts';
import { diffMarkets, newResolutionSteps } from '../../src/pipeline/diff.ts';
import { makeMarket } from '../support/records.ts';

const NOW = '2026-03-02T12:00:00.000Z';

describe('diffMarkets', () => {
  const open = makeMarket({
    status: 'open',
    resolution_rules_raw: 'Resolves YES if CPI > 3%.',
    description_raw: 'CPI question',
    close_at: '2026-03-01T00:00:00.000Z',
    resolve_at: null,
  });

  it('appends nothing for an unchanged market or an open first sighting', () => {
    expect(diffMarkets(open, { ...open }, NOW)).toEqual([]);
    expect(diffMarkets(null, open, NOW)).toEqual([]);
  });

  it('records open → closed at the passed deadline', () => {
    expect(diffMarkets(open, { ...open, status: 'closed' }, NOW)).toEqual([
      {
        market_id: open.market_id,
        event_type: 'status_change',
        occurred_basis: 'deadline',
        occurred_at: '2026-03-01T00:00:00.000Z',
        recorded_at: NOW,
        from_value: 'open',
        to_value: 'closed',
        diff: null,
        source: 'platform_api',
        source_ref: null,
        actor: null,
      },
    ]);
  });

  it('records a closure before the deadline as first observed', () => {
    const early = { ...open, close_at: '2026-04-01T00:00:00.000Z' };
    const [e] = diffMarkets(early, { ...early, status: 'closed' }, NOW);
    expect(e).toMatchObject({ occurred_basis: 'first_observed', occurred_at: NOW });
  });

  it('gives a market first seen closed one status_change with basis first_observed', () => {
    const entries = diffMarkets(null, { ...open, status: 'closed' }, NOW);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      event_type: 'status_change',
      from_value: null,
      to_value: 'closed',
      occurred_basis: 'first_observed',
      occurred_at: NOW,
    });
  });

  it('records a rule edit with the before/after of each changed field', () => {
    const next = { ...open, resolution_rules_raw: 'Resolves YES if CPI > 3.5%.' };
    expect(diffMarkets(open, next, NOW)).toEqual([
      expect.objectContaining({
        event_type: 'rule_change',
        occurred_basis: 'first_observed',
        occurred_at: NOW,
        diff: { resolution_rules_raw: { before: 'Resolves YES if CPI > 3%.', after: 'Resolves YES if CPI > 3.5%.' } },
      }),
    ]);
    const both = { ...next, description_raw: 'CPI question, edited' };
    expect(diffMarkets(open, both, NOW)[0]?.diff).toEqual({
      resolution_rules_raw: { before: 'Resolves YES if CPI > 3%.', after: 'Resolves YES if CPI > 3.5%.' },
      description_raw: { before: 'CPI question', after: 'CPI question, edited' },
    });
  });

  it('records a resolution at the venue settlement time with outcome and final price', () => {
    const resolved = {
      ...open,
      status: 'resolved' as const,
      resolution_outcome: 'YES',
      resolution_value: 1,
      resolved_at: '2026-03-01T18:30:00.000Z',
    };
    const entries = diffMarkets(open, resolved, NOW);
    expect(entries.map((e) => e.event_type)).toEqual(['status_change', 'resolved']);
    expect(entries[1]).toMatchObject({
      to_value: 'YES',
      occurred_basis: 'venue_settlement',
      occurred_at: '2026-03-01T18:30:00.000Z',
      diff: { final_price: 1, resolution_value: 1 },
    });
  });

  it('falls back to the deadline, then first observed, when the venue gives no settlement time', () => {
    const noTime = {
      ...open,
      status: 'resolved' as const,
      resolution_outcome: 'NO',
      resolution_value: 0,
      resolved_at: null,
    };
    expect(diffMarkets(open, noTime, NOW)[1]).toMatchObject({
      occurred_basis: 'deadline',
      occurred_at: '2026-03-01T00:00:00.000Z',
      diff: { final_price: 0 },
    });
    const noDeadline = { ...noTime, close_at: null };
    expect(diffMarkets({ ...open, close_at: null }, noDeadline, NOW)[1]).toMatchObject({
      occurred_basis: 'first_observed',
      occurred_at: NOW,
    });
  });

  it('does not treat an editorial resolved_at as a venue settlement time', () => {
    const derived = {
      ...open,
      status: 'resolved' as const,
      resolution_outcome: 'YES',
      resolution_value: 1,
      resolved_at: '2026-03-01T18:30:00.000Z',
      field_provenance: { resolved_at: { source: 'derived' as const } },
    };
    expect(diffMarkets(open, derived, NOW)[1]?.occurred_basis).toBe('deadline');
  });

  it('emits the resolved entry once: a second sighting of the same resolution adds nothing', () => {
    const resolved = { ...open, status: 'resolved' as const, resolution_outcome: 'NO', resolution_value: 0 };
    expect(diffMarkets(null, resolved, NOW).map((e) => e.event_type)).toEqual(['status_change', 'resolved']);
    expect(diffMarkets(resolved, { ...resolved }, NOW)).toEqual([]);
  });

  it('waits for the outcome: resolved without an outcome is a status change only, the outcome comes later', () => {
    const pending = { ...open, status: 'resolved' as const, resolution_outcome: null };
    expect(diffMarkets(open, pending, NOW).map((e) => e.event_type)).toEqual(['status_change']);
    const later = { ...pending, resolution_outcome: 'YES', resolution_value: 1 };
    expect(diffMarkets(pending, later, NOW).map((e) => e.event_type)).toEqual(['resolved']);
  });
});

describe('resolution steps (proposals, disputes, amendments)', () => {
  const history = (statuses: string[]): ResolutionHistory => ({
    state: statuses.at(-1) ?? null,
    statuses,
    proposals: statuses.filter((x) => x === 'proposed' || x === 'determined').length,
    disputes: statuses.filter((x) => x === 'disputed').length,
  });
  const base = makeMarket({
    platform: 'venue_b',
    native: '0xabc',
    status: 'open',
    close_at: '2026-04-01T00:00:00.000Z',
  });
  const withHistory = (statuses: string[]) => ({ ...base, resolution_history: history(statuses) });
  const steps = (prev: string[] | null, next: string[]) =>
    diffMarkets(prev === null ? null : withHistory(prev), withHistory(next), NOW).map((e) => [
      e.event_type,
      e.from_value,
      e.to_value,
      e.occurred_basis,
    ]);

  it('logs a whole UMA history on first sight, each step from the state before it', () => {
    expect(steps(null, ['proposed', 'disputed', 'proposed'])).toEqual([
      ['resolution_proposed', null, 'proposed', 'first_observed'],
      ['disputed', 'proposed', 'disputed', 'first_observed'],
      ['resolution_proposed', 'disputed', 'proposed', 'first_observed'],
    ]);
  });

  it('logs only the steps a growing history adds, and nothing for the same history or a final resolved step', () => {
    expect(steps(['proposed'], ['proposed', 'disputed'])).toEqual([
      ['disputed', 'proposed', 'disputed', 'first_observed'],
    ]);
    expect(steps(['proposed', 'disputed'], ['proposed', 'disputed'])).toEqual([]);
    expect(steps(['proposed'], ['proposed', 'resolved'])).toEqual([]);
  });

  it("follows venue_a's one-state snapshots: each new state once, a repeated one never", () => {
    expect(steps(null, ['determined'])).toEqual([['resolution_proposed', null, 'proposed', 'first_observed']]);
    expect(steps(['determined'], ['disputed'])).toEqual([['disputed', 'determined', 'disputed', 'first_observed']]);
    expect(steps(['disputed'], ['determined'])).toEqual([
      ['resolution_proposed', 'disputed', 'proposed', 'first_observed'],
    ]);
    expect(steps(['determined'], ['amended'])).toEqual([['amended', 'determined', 'amended', 'first_observed']]);
    expect(steps(['determined'], ['finalized'])).toEqual([]);
    expect(steps(['disputed'], ['disputed'])).toEqual([]);
  });

  it('treats a record stored before histories existed as having none, and carries the list in the diff', () => {
    expect(newResolutionSteps(undefined, history(['proposed']))).toEqual([
      { state: 'proposed', before: null, index: 0 },
    ]);
    const [entry] = diffMarkets(base, withHistory(['proposed']), NOW);
    expect(entry).toMatchObject({
      event_type: 'resolution_proposed',
      source: 'platform_api',
      source_ref: null,
      occurred_at: NOW,
      recorded_at: NOW,
      diff: { venue_state: 'proposed', step: 1, statuses: ['proposed'] },
    });
  });
});
