// Crypto threshold markets are flagged when their price sits more than 25 points from the lognormal model given spot, and not otherwise.
import { describe, expect, it } from 'vitest';
import { type Market, SignalBulletinSchema } from '../../../src/domain/index.ts';
import { buildContext } from '../../../src/signals/context.ts';
import {
  DRIFT,
  detectBenchmarkDrift,
  modelProbability,
  probTerminalAbove,
  probTouch,
} from '../../../src/signals/detectors/index.ts';
import { emptyInput, eventWithMarket, makeMark, NOW, spotRow, TODAY } from '../builders.ts';

const CLOSE = '2026-06-30T21:00:00.000Z';

function btc(price: number, m: Partial<Market> = {}, spot = [spotRow('bitcoin', 100_000)]) {
  const { event, market } = eventWithMarket(
    'KXBTCD-26JUN30',
    { category: 'crypto', question: 'Bitcoin price on June 30?' },
    {
      question_raw: 'Will Bitcoin be above $150,000 on June 30, 2026?',
      threshold: 150_000,
      direction: 'above',
      settlement_style: 'terminal',
      close_at: CLOSE,
      ...m,
    },
  );
  return { ...emptyInput(), events: [event], markets: [market], marks: [makeMark(market, TODAY, price)], spot };
}

describe('benchmark-drift model', () => {
  it('gives the textbook values', () => {
    expect(probTerminalAbove(100, 100, 0.5, 1)).toBeCloseTo(0.4013, 3); // N(−σ/2)
    expect(probTouch(100, 100, 0.5, 1)).toBe(1);
    // s = σ√T = 0.25, b = ln 1.2: N(−b/s − s/2) + (S/K)·N(−b/s + s/2) = 0.19647 + 0.83333 × 0.27283.
    expect(probTouch(100, 120, 0.5, 0.25)).toBeCloseTo(0.4238, 4);
    expect(probTouch(100, 120, 0.5, 0.25)).toBeGreaterThan(probTerminalAbove(100, 120, 0.5, 0.25));
    expect(probTouch(100, 80, 0.5, 0.25)).toBeGreaterThan(1 - probTerminalAbove(100, 80, 0.5, 0.25));
  });

  it('reads below as the complement and touch markets as barrier hits', () => {
    const { markets } = btc(0.5);
    const m = markets[0] as Market;
    const years = 20 / 365.25;
    const above = modelProbability(m, 100_000, 0.5, years) ?? Number.NaN;
    const below = modelProbability({ ...m, direction: 'below' }, 100_000, 0.5, years) ?? Number.NaN;
    expect(above + below).toBeCloseTo(1, 12);
    expect(modelProbability({ ...m, direction: 'reach', settlement_style: 'touch' }, 100_000, 0.5, years)).toBeCloseTo(
      probTouch(100_000, 150_000, 0.5, years),
      12,
    );
    expect(modelProbability({ ...m, direction: 'between' }, 100_000, 0.5, years)).toBeNull();
  });
});

describe('benchmark drift', () => {
  it('fires when the market prices a far strike as likely', () => {
    const out = detectBenchmarkDrift(buildContext(btc(0.6)));
    expect(out).toHaveLength(1);
    const b = SignalBulletinSchema.parse(out[0]);
    expect(b.category_tag).toBe('VS_BENCHMARK_DRIFT');
    const n = Object.fromEntries(b.numbers.map((x) => [x.name, x]));
    expect(n.spot_price?.value).toBe(100_000);
    expect(n.spot_price?.provenance).toBe('mediated');
    expect(n.threshold?.value).toBe(150_000);
    expect(n.distance_to_threshold?.value).toBeCloseTo(0.5, 6);
    expect(n.days_to_close?.value).toBeCloseTo((Date.parse(CLOSE) - Date.parse(NOW)) / 86_400_000, 2);
    expect(n.model_probability?.value).toBeLessThan(0.01);
    expect(b.bullets.some((t) => t.includes('lognormal terminal model at 55% annualized volatility'))).toBe(true);
    expect(b.sources.length).toBeGreaterThanOrEqual(2);
  });

  it('fires on a touch market priced far below its barrier odds, and groups a ladder into one bulletin', () => {
    const input = btc(0.05, { threshold: 105_000, direction: 'reach', settlement_style: 'touch' });
    const { event } = eventWithMarket('KXBTCD-26JUN30', { category: 'crypto' });
    const second = {
      ...(input.markets[0] as Market),
      market_id: 'SVC-MKT-0000000002',
      platform_market_id: 'KXBTCD-26JUN30-T104000',
      threshold: 104_000,
    };
    input.markets.push(second);
    input.marks.push(makeMark(second, TODAY, 0.05));
    const out = detectBenchmarkDrift(buildContext(input));
    expect(out).toHaveLength(1);
    expect(out[0]?.target_event_id).toBe(event.event_id);
    expect(out[0]?.primary_market.market_id).toBe('SVC-MKT-0000000002'); // the nearer barrier: the wider gap
    expect(out[0]?.related_markets).toHaveLength(1);
  });

  it('stays silent on controls', () => {
    expect(detectBenchmarkDrift(buildContext(btc(0.01)))).toEqual([]);
    expect(detectBenchmarkDrift(buildContext(btc(DRIFT.band - 0.01)))).toEqual([]);
    expect(detectBenchmarkDrift(buildContext(btc(0.6, {}, [])))).toEqual([]);
    expect(
      detectBenchmarkDrift(buildContext(btc(0.6, {}, [spotRow('bitcoin', 100_000, '2026-06-09T06:00:00.000Z')]))),
    ).toEqual([]);
    expect(detectBenchmarkDrift(buildContext(btc(0.6, {}, [spotRow('ethereum', 100_000)])))).toEqual([]);
    expect(detectBenchmarkDrift(buildContext(btc(0.6, { direction: 'between' })))).toEqual([]);
    const carried = btc(0.6);
    carried.marks = carried.marks.map((m) => ({ ...m, mark_method: 'imputed_carry_forward' as const }));
    expect(detectBenchmarkDrift(buildContext(carried))).toEqual([]);
    expect(detectBenchmarkDrift(buildContext(btc(0.6, { status: 'closed' })))).toEqual([]);
    expect(detectBenchmarkDrift(buildContext(btc(0.6, { close_at: '2026-06-10T12:30:00.000Z' })))).toEqual([]);
    expect(
      detectBenchmarkDrift(
        buildContext(btc(0.6, { question_raw: 'Will the S&P 500 be above 150,000?', platform_market_id: 'KXINX-1' })),
      ),
    ).toEqual([]);
  });
});
