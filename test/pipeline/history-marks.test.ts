// Venue price history becomes exactly one mark per past UTC date inside the window, in both venues' shapes, with the limits of each venue said in provenance.
import { describe, expect, it } from 'vitest';
import { MarkSchema } from '../../src/domain/index.ts';
import { backfillWindow, marksFromCandles, marksFromPriceHistory } from '../../src/pipeline/history-marks.ts';
import { makeMarket } from '../support/records.ts';

const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const window = backfillWindow('2026-03-05', 3);

describe('backfillWindow', () => {
  it('covers the given number of dates before today, today excluded', () => {
    expect(window).toEqual({ from: '2026-03-02', toExclusive: '2026-03-05' });
  });
});

describe('marksFromCandles (venue_a)', () => {
  const market = makeMarket();
  const candle = (endDate: string, close: string, extra: Record<string, unknown> = {}) => ({
    end_period_ts: day(endDate),
    yes_bid: { close_dollars: (Number(close) - 0.01).toFixed(4) },
    yes_ask: { close: Math.round((Number(close) + 0.01) * 100) },
    price: { close_dollars: close, mean_dollars: close },
    volume_fp: '100.00',
    open_interest_fp: '1000.00',
    ...extra,
  });

  it('dates each candle by the UTC date of its period end and keeps only the window', () => {
    const marks = marksFromCandles(
      market,
      [
        candle('2026-03-02', '0.40'),
        candle('2026-03-03', '0.41'),
        candle('2026-03-05', '0.42'),
        candle('2026-03-06', '0.43'),
      ],
      window,
    );
    expect(marks.map((m) => [m.snapshot_date, m.yes_last_price])).toEqual([
      ['2026-03-02', 0.4],
      ['2026-03-03', 0.41],
    ]);
    for (const m of marks) expect(MarkSchema.omit({ mark_id: true }).parse(m)).toEqual(m);
  });

  it('reads both price schemas and derives the rest', () => {
    const [mark] = marksFromCandles(market, [candle('2026-03-03', '0.50')], window);
    expect(mark).toMatchObject({
      snapshot_at: '2026-03-03T00:00:00.000Z',
      yes_bid: 0.49,
      yes_ask: 0.51,
      no_bid: 0.49,
      no_ask: 0.51,
      spread: 0.02,
      mid: 0.5,
      volume_24h_usd: 50,
      open_interest_usd: 1000,
      volume_total_usd: null,
      mark_method: 'venue_snapshot',
    });
    expect(mark?.field_provenance.volume_24h_usd?.source).toBe('imputed');
    expect(mark?.field_provenance.yes_bid_size_usd?.source).toBe('null_by_venue_limitation');
  });

  it('uses the previous price when no trade happened in the period', () => {
    const [mark] = marksFromCandles(
      market,
      [candle('2026-03-03', '0.50', { price: { close: null, close_dollars: null, previous_dollars: '0.3300' } })],
      window,
    );
    expect(mark?.yes_last_price).toBe(0.33);
  });
});

describe('marksFromPriceHistory (venue_b)', () => {
  const market = makeMarket({ platform: 'venue_b', native: '0xabc' });

  it('keeps the last point of each UTC date, with book and volume null by venue limitation', () => {
    const t = (iso: string) => Date.parse(iso) / 1000;
    const marks = marksFromPriceHistory(
      market,
      [
        { t: t('2026-03-02T10:00:00Z'), p: 0.2 },
        { t: t('2026-03-02T20:00:00Z'), p: 0.25 },
        { t: t('2026-03-03T05:00:00Z'), p: 0.3 },
        { t: t('2026-03-05T05:00:00Z'), p: 0.9 },
        { t: 'bad', p: 0.1 },
      ],
      window,
    );
    expect(marks.map((m) => [m.snapshot_date, m.yes_last_price, m.snapshot_at])).toEqual([
      ['2026-03-02', 0.25, '2026-03-02T20:00:00.000Z'],
      ['2026-03-03', 0.3, '2026-03-03T05:00:00.000Z'],
    ]);
    expect(marks[0]).toMatchObject({ yes_bid: null, volume_24h_usd: null, open_interest_usd: null });
    expect(marks[0]?.field_provenance.volume_24h_usd?.source).toBe('null_by_venue_limitation');
    for (const m of marks) expect(MarkSchema.omit({ mark_id: true }).parse(m)).toEqual(m);
  });
});
