// The hourly grid from what the store keeps: one point per run hour with a value, the newest observation at that
// run's clock (an hourly row, or a newer daily mark of an earlier date), `carried_forward` when the market's venue
// failed in that run, a history-backfill daily mark keeping its own `obtained`, and no point before a first value.
import { describe, expect, it } from 'vitest';
import { HISTORY_QUOTE_FIELDS, type HistoryQuoteField, type MarkFacts } from '../../src/domain/index.ts';
import { hourlyPoints } from '../../src/serve/hourly-history.ts';
import type { HourlyMark, RunHour } from '../../src/store/index.ts';
import { makeMark } from '../store/records.ts';

const run = (hour: string, venue: 'ok' | 'failed' = 'ok'): RunHour => ({
  hour,
  run_id: 1,
  as_of: `${hour}:00:00.000Z`,
  venues: { venue_a: venue, venue_b: 'ok' },
  hourly_retention_days: 7,
});

/** No quote at all: each test row sets the fields it needs. */
const NO_QUOTE = Object.fromEntries(HISTORY_QUOTE_FIELDS.map((f) => [f, null])) as Record<HistoryQuoteField, null>;

const row = (hour: string, price: number): HourlyMark => ({
  market_id: 'M',
  snapshot_hour: hour,
  snapshot_at: `${hour}:00:00.000Z`,
  price_as_of: `${hour.slice(0, 10)}T00:00:00.000Z`,
  ...NO_QUOTE,
  yes_last_price: price,
  implied_probability: price,
  stale_flag: false,
});

function daily(date: string, price: number, overrides: Partial<MarkFacts> = {}): MarkFacts {
  const { raw_payload: _raw, ...mark } = makeMark(0, date, {
    snapshot_at: `${date}T23:00:00.000Z`,
    source_updated_at: `${date}T22:59:00.000Z`,
    yes_last_price: price,
    ...overrides,
  });
  return mark as MarkFacts;
}

describe('hourlyPoints', () => {
  it('takes the newest observation at each run clock, carried forward when the venue failed', () => {
    const points = hourlyPoints(
      [run('2026-03-02T01'), run('2026-03-02T02'), run('2026-03-02T04', 'failed'), run('2026-03-02T05')],
      [row('2026-03-01T20', 0.1), row('2026-03-02T02', 0.3)],
      [daily('2026-03-01', 0.2)],
      'venue_a',
    );
    expect(points.map((p) => [p.hour, p.yes_last_price, p.obtained, p.snapshot_at, p.price_as_of])).toEqual([
      // The daily mark of 03-01 (23:00) is newer than the 20:00 row: it is the value at 01:00.
      ['2026-03-02T01:00:00.000Z', 0.2, 'venue_snapshot', '2026-03-02T01:00:00.000Z', '2026-03-01T22:59:00.000Z'],
      ['2026-03-02T02:00:00.000Z', 0.3, 'venue_snapshot', '2026-03-02T02:00:00.000Z', '2026-03-02T00:00:00.000Z'],
      ['2026-03-02T04:00:00.000Z', 0.3, 'carried_forward', '2026-03-02T02:00:00.000Z', '2026-03-02T00:00:00.000Z'],
      ['2026-03-02T05:00:00.000Z', 0.3, 'venue_snapshot', '2026-03-02T05:00:00.000Z', '2026-03-02T00:00:00.000Z'],
    ]);
    expect(points[0]?.date).toBe('2026-03-02');
  });

  it('gives no point before the first value and keeps a backfilled mark as venue_history', () => {
    const history = daily('2026-03-02', 0.4, {
      snapshot_at: '2026-03-02T03:00:00.000Z',
      field_provenance: { snapshot_at: { source: 'platform_api', note: 'venue price history (daily)' } },
    });
    const points = hourlyPoints([run('2026-03-02T02'), run('2026-03-02T03')], [], [history], 'venue_a');
    expect(points.map((p) => [p.hour, p.obtained])).toEqual([['2026-03-02T03:00:00.000Z', 'venue_history']]);
  });
});
