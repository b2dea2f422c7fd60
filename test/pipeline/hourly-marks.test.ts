// Which marks of a run become hourly detail: a mark the run read from the venue whose quote differs from the market's
// previous mark (or that has none), stamped with the run's hour and the venue's quote time; never an unchanged quote,
// a carried-forward mark, an editorial override or a history-backfill mark. The retention window is whole UTC days.
import { describe, expect, it } from 'vitest';
import { type NewMark, VENUE_HISTORY_NOTE } from '../../src/domain/index.ts';
import { hourlyMarksOf, hourlyPruneBefore, observedNow, sameQuote } from '../../src/pipeline/hourly-marks.ts';
import { hourlyRetentionStart } from '../../src/store/index.ts';
import { makeMark, marketId } from '../store/records.ts';

const NOW = '2026-03-02T14:00:07.250Z';
const mark = (n: number, overrides: Partial<NewMark> = {}) =>
  makeMark(n, '2026-03-02', { snapshot_at: NOW, source_updated_at: '2026-03-02T13:59:30.000Z', ...overrides });

describe('hourlyMarksOf', () => {
  const previous = new Map([
    [marketId(0), makeMark(0, '2026-03-02')], // same quote as mark(0)
    [marketId(1), makeMark(1, '2026-03-01')], // yesterday's mark: the price moves below
    [marketId(2), makeMark(2, '2026-03-02')],
    [marketId(3), makeMark(3, '2026-03-02')],
    [marketId(4), makeMark(4, '2026-03-02')],
  ]);

  it('writes a changed or new quote, skips an unchanged, carried, overridden or history mark', () => {
    const rows = hourlyMarksOf(
      [
        mark(0), // unchanged
        mark(1, { yes_last_price: 0.9, implied_probability: 0.9 }), // changed
        mark(2, { mark_method: 'imputed_carry_forward', yes_last_price: 0.1 }), // carried: the venue was not read
        mark(3, { mark_method: 'editorial_override', yes_last_price: 0.2 }),
        mark(4, {
          yes_last_price: 0.3,
          field_provenance: { snapshot_at: { source: 'platform_api', note: VENUE_HISTORY_NOTE } },
        }),
        mark(5), // no previous mark: its first observation
        mark(0, { market_id: marketId(6), volume_24h_usd: 1 }), // only a size/volume field moved
      ],
      new Map([...previous, [marketId(6), makeMark(6, '2026-03-02', { market_id: marketId(6) })]]),
      NOW,
    );
    expect(rows.map((r) => [r.market_id, r.snapshot_hour, r.yes_last_price])).toEqual([
      [marketId(1), '2026-03-02T14', 0.9],
      [marketId(5), '2026-03-02T14', 0.87],
      [marketId(6), '2026-03-02T14', 0.87],
    ]);
    expect(rows[0]).toEqual({
      market_id: marketId(1),
      snapshot_hour: '2026-03-02T14',
      snapshot_at: NOW,
      price_as_of: '2026-03-02T13:59:30.000Z',
      yes_bid: 0.86,
      yes_ask: 0.88,
      no_bid: 0.12,
      no_ask: 0.14,
      yes_bid_size_usd: 1720,
      yes_ask_size_usd: 2640.5,
      no_bid_size_usd: 300,
      no_ask_size_usd: 410,
      yes_last_price: 0.9,
      implied_probability: 0.9,
      mid: 0.87,
      spread: 0.02,
      volume_24h_usd: 125000.25,
      volume_total_usd: 4810000,
      open_interest_usd: 2200000,
      stale_flag: false,
    });
  });

  it('keeps no venue time when the venue gave none (imputed), as price_as_of does', () => {
    const [row] = hourlyMarksOf(
      [mark(7, { field_provenance: { source_updated_at: { source: 'imputed', note: 'no time from venue' } } })],
      new Map(),
      NOW,
    );
    expect(row?.price_as_of).toBeNull();
  });

  it('treats a staleness flip as a change and compares nulls exactly', () => {
    const before = makeMark(0);
    expect(sameQuote(before, { ...before })).toBe(true);
    expect(sameQuote(before, { ...before, stale_flag: true })).toBe(false);
    expect(sameQuote(before, { ...before, yes_bid: null })).toBe(false);
    expect(observedNow(makeMark(0))).toBe(true);
    expect(observedNow(makeMark(0, '2026-03-02', { mark_method: 'imputed_carry_forward' }))).toBe(false);
  });
});

describe('retention window', () => {
  it('keeps the last N whole days and today; 0 keeps nothing', () => {
    expect(hourlyRetentionStart(NOW, 7)).toBe('2026-02-23T00');
    expect(hourlyRetentionStart('2026-03-02T00:00:00.000Z', 1)).toBe('2026-03-01T00');
    expect(hourlyPruneBefore(NOW, 7)).toBe('2026-02-23T00');
    // Every real hour key sorts before the 0-day cut.
    expect('9999-12-31T23' < hourlyPruneBefore(NOW, 0)).toBe(true);
  });
});
