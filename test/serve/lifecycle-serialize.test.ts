// At serve time a market past its close is closed (derived), a resolved market carries its final price, and price_as_of is the venue's time or null, never one of ours.
import { describe, expect, it } from 'vitest';
import type { Mark, ResolutionLogEntry } from '../../src/domain/index.ts';
import { finalPrice, isLiveMarket, priceFacts, servedLogEntry, servedStatus } from '../../src/serve/serialize.ts';
import { makeMarket } from '../support/records.ts';

const NOW = '2026-05-01T12:00:00.000Z';

function mark(sourceUpdatedAt: string, provenance: Mark['field_provenance']): Mark {
  return {
    mark_id: 1,
    market_id: makeMarket().market_id,
    snapshot_date: '2026-05-01',
    snapshot_at: NOW,
    source_updated_at: sourceUpdatedAt,
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: 0.4,
    implied_probability: 0.4,
    volume_24h_usd: null,
    volume_total_usd: null,
    open_interest_usd: null,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: null,
    spread: null,
    mid: null,
    divergence_from_primary: null,
    hours_since_source_update: null,
    field_provenance: provenance,
  };
}

describe('servedStatus', () => {
  it('serves an open market past its close closed, derived, and leaves every other status as stored', () => {
    const open = makeMarket({
      status: 'open',
      close_at: '2026-04-30T00:00:00.000Z',
      field_provenance: { status: { source: 'platform_api', note: 'status "active"' } },
    });
    expect(servedStatus(open, NOW)).toEqual({
      status: 'closed',
      provenance: {
        source: 'derived',
        rule: 'past_close',
        note: 'the venue last reported it open (status "active") but its close time 2026-04-30T00:00:00.000Z has passed: closed, derived from close_at',
      },
    });
    expect(isLiveMarket(open, NOW)).toBe(false);
    expect(isLiveMarket(open, '2026-04-29T00:00:00.000Z')).toBe(true);
    expect(servedStatus({ ...open, close_at: null }, NOW).status).toBe('open');
    const resolved = { ...open, status: 'resolved' as const };
    expect(servedStatus(resolved, NOW)).toEqual({
      status: 'resolved',
      provenance: { source: 'platform_api', note: 'status "active"' },
    });
  });
});

describe('final price', () => {
  it('is 1 for YES, 0 for NO, the value of a 50-50, and null before resolution', () => {
    const m = makeMarket({ status: 'resolved' });
    expect(finalPrice({ ...m, resolution_outcome: 'YES' })).toBe(1);
    expect(finalPrice({ ...m, resolution_outcome: 'NO' })).toBe(0);
    expect(finalPrice({ ...m, resolution_outcome: '0.5', resolution_value: 0.5 })).toBe(0.5);
    expect(finalPrice({ ...m, status: 'closed', resolution_outcome: null })).toBeNull();
  });

  it('is served on a resolved log entry from the stored diff when the outcome is not YES or NO', () => {
    const entry: ResolutionLogEntry = {
      log_id: 1,
      market_id: makeMarket().market_id,
      event_type: 'resolved',
      occurred_basis: 'venue_settlement',
      occurred_at: NOW,
      recorded_at: NOW,
      from_value: 'closed',
      to_value: '0.5',
      diff: { final_price: 0.5, resolution_value: 0.5 },
      source: 'platform_api',
      source_ref: null,
      actor: null,
    };
    expect(servedLogEntry(entry, 'venue_b').final_price).toBe(0.5);
    expect(
      servedLogEntry({ ...entry, event_type: 'disputed', to_value: 'disputed' }, 'venue_b').final_price,
    ).toBeNull();
  });
});

describe('price_as_of', () => {
  it("is the venue's time, and null when the stored time is the pull time standing in for a missing one", () => {
    const venueTime = mark('2026-05-01T11:00:00.000Z', { source_updated_at: { source: 'platform_api' } });
    expect(priceFacts(venueTime)).toMatchObject({ price_as_of: '2026-05-01T11:00:00.000Z', last_checked_at: NOW });
    const pullTime = mark(NOW, {
      source_updated_at: { source: 'imputed', note: 'venue gave no update time; the pull time is used' },
    });
    expect(priceFacts(pullTime)).toMatchObject({ price_as_of: null, last_checked_at: NOW });
  });
});
