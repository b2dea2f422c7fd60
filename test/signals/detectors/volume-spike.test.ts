// A market whose latest 24 h volume is at least 3× its trailing average over 3+ prior venue snapshots is flagged; thinner histories and carried-forward marks are not.
import { describe, expect, it } from 'vitest';
import { type Mark, type Market, SignalBulletinSchema } from '../../../src/domain/index.ts';
import { buildContext } from '../../../src/signals/context.ts';
import { detectVolumeSpike } from '../../../src/signals/detectors/index.ts';
import { emptyInput, eventWithMarket, makeMark, TODAY } from '../builders.ts';

const HISTORY = ['2026-06-06', '2026-06-07', '2026-06-08', '2026-06-09'];

function spike(
  today: number,
  history: (number | null)[] = [1000, 2000, 3000, 2000],
  extra: Partial<Mark> = {},
  m: Partial<Market> = {},
) {
  const { event, market } = eventWithMarket('KXNBA-26', { category: 'companies', question: 'Who wins?' }, m);
  const marks = history.map((v, i) => makeMark(market, HISTORY[i] ?? TODAY, 0.5, v));
  marks.push(makeMark(market, TODAY, 0.55, today, extra));
  return { ...emptyInput(), events: [event], markets: [market], marks };
}

describe('volume spike', () => {
  it('fires at 3× the trailing average and reports the numbers', () => {
    const out = detectVolumeSpike(buildContext(spike(6000)));
    expect(out).toHaveLength(1);
    const b = SignalBulletinSchema.parse(out[0]);
    expect(b.category_tag).toBe('VOLUME_SPIKE');
    const n = Object.fromEntries(b.numbers.map((x) => [x.name, x.value]));
    expect(n).toMatchObject({
      volume_24h_usd: 6000,
      trailing_avg_volume_24h_usd: 2000,
      volume_multiple: 3,
      history_days: 4,
      price: 0.55,
    });
    expect(b.headline).toBe('Volume 3.00× its trailing average: Who wins?');
    expect(b.bullets[0]).toContain('$6,000');
  });

  it('stays silent on controls', () => {
    expect(detectVolumeSpike(buildContext(spike(5999)))).toEqual([]); // 2.9995×
    expect(detectVolumeSpike(buildContext(spike(60_000, [1000, 2000])))).toEqual([]); // two days of history
    expect(detectVolumeSpike(buildContext(spike(60_000, [1000, null, null, 2000])))).toEqual([]); // two usable days
    expect(detectVolumeSpike(buildContext(spike(900, [100, 100, 100])))).toEqual([]); // 9× but under $1,000
    expect(detectVolumeSpike(buildContext(spike(60_000, [0, 0, 0])))).toEqual([]); // no trailing volume
    expect(detectVolumeSpike(buildContext(spike(60_000, undefined, { mark_method: 'imputed_carry_forward' })))).toEqual(
      [],
    );
    expect(detectVolumeSpike(buildContext(spike(60_000, undefined, {}, { status: 'resolved' })))).toEqual([]);
  });
});
