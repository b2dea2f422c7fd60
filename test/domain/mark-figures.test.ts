// Mark order and figures shared by the store and the pipeline: marks sort by date then market, and a mark's
// figures are exactly its MARK_FIGURE_FIELDS.
import { describe, expect, it } from 'vitest';
import { byMarkDateThenMarket, MARK_FIGURE_FIELDS, markFiguresOf } from '../../src/domain/index.ts';

describe('byMarkDateThenMarket', () => {
  it('sorts by snapshot_date, then market_id, as the store lists marks', () => {
    const marks = [
      { snapshot_date: '2026-03-02', market_id: 'A' },
      { snapshot_date: '2026-03-01', market_id: 'B' },
      { snapshot_date: '2026-03-01', market_id: 'A' },
      { snapshot_date: '2026-03-02', market_id: 'A' },
    ];
    expect([...marks].sort(byMarkDateThenMarket).map((m) => `${m.snapshot_date}|${m.market_id}`)).toEqual([
      '2026-03-01|A',
      '2026-03-01|B',
      '2026-03-02|A',
      '2026-03-02|A',
    ]);
  });
});

describe('markFiguresOf', () => {
  it('keeps the figure fields, in their order, and nothing else', () => {
    const mark = {
      market_id: 'M',
      snapshot_date: '2026-03-01',
      snapshot_at: '2026-03-01T12:00:00.000Z',
      yes_last_price: 0.4,
      implied_probability: null,
      volume_24h_usd: 10,
      yes_ask_size_usd: null,
      no_ask_size_usd: 5,
      mark_method: 'venue_snapshot' as const,
      stale_flag: false,
      raw_payload: { x: 1 },
    };
    const figures = markFiguresOf(mark);
    expect(Object.keys(figures)).toEqual([...MARK_FIGURE_FIELDS]);
    expect(figures).toMatchObject({ market_id: 'M', yes_last_price: 0.4, no_ask_size_usd: 5, stale_flag: false });
  });
});
