// Three or more markets sharing an entity tag across two or more events that each move 10+ points day over day make one news-cycle bulletin, with the nearest catalyst.
import { describe, expect, it } from 'vitest';
import { type Event, type Market, SignalBulletinSchema } from '../../../src/domain/index.ts';
import { buildContext } from '../../../src/signals/context.ts';
import { detectNewsCycle, nearestCatalyst } from '../../../src/signals/detectors/index.ts';
import { catalyst, emptyInput, eventWithMarket, makeMark, TODAY } from '../builders.ts';

const PRIOR = '2026-06-09';

/** `moves[i]` is market i's day-over-day change; markets 0,1 share event A, the rest have their own events. */
function universe(moves: number[], opts: { tags?: string[]; prior?: string; oneEvent?: boolean } = {}) {
  const tags = opts.tags ?? ['tariffs'];
  const events: Event[] = [];
  const markets: Market[] = [];
  const input = emptyInput();
  moves.forEach((delta, i) => {
    const shared = opts.oneEvent || i < 2;
    const native = shared ? 'KXTARIFF-A' : `KXTARIFF-${i}`;
    const { event, market } = eventWithMarket(
      native,
      { category: 'politics', tags, question: `Tariff question ${native}` },
      { native: `KXTARIFF-M${i}`, question_raw: `Tariff market ${i}` },
    );
    if (!events.some((e) => e.event_id === event.event_id)) events.push(event);
    markets.push(market);
    input.marks.push(makeMark(market, opts.prior ?? PRIOR, 0.4), makeMark(market, TODAY, 0.4 + delta));
  });
  return { ...input, events, markets };
}

describe('news cycle', () => {
  it('fires on a tag-wide repricing and names the nearest catalyst', () => {
    const input = universe([0.15, -0.12, 0.2]);
    const target = input.events.find((e) => e.platform_event_id === 'KXTARIFF-2');
    input.catalysts = [
      catalyst('2026-06-13', 'decision', [target?.event_id ?? '']),
      catalyst('2026-07-30', 'gdp', [target?.event_id ?? '']),
      catalyst('2026-06-11', 'cpi', []), // nearer, but bound to none of these events
    ];
    const out = detectNewsCycle(buildContext(input));
    expect(out).toHaveLength(1);
    const b = SignalBulletinSchema.parse(out[0]);
    expect(b.detection_path).toBe('news_cycle');
    expect(b.record_slug).toBe(`news-cycle-tariffs-${TODAY}`);
    expect(b.primary_market.question_raw).toBe('Tariff market 2');
    expect(b.primary_market.current_price).toBeCloseTo(0.6, 10);
    expect(b.related_markets).toHaveLength(2);
    expect(b.linked_event_ids).toHaveLength(1);
    expect(b.pre_news_classification).toBe('pre_news');
    expect(b.bullets.join(' ')).toContain(
      'Nearest catalyst: decision on 2026-06-13 on 2026-06-13 (3 days after the move)',
    );
    expect(b.sources.map((s) => s.url)).toContain('https://www.bls.gov/decision');
    expect(b.bullets[0]).toContain('(2 up, 1 down)');
  });

  it('picks the nearest catalyst, earlier on a tie, within 14 days', () => {
    const ids = new Set(['E']);
    const cs = [
      catalyst('2026-06-12', 'b', ['E']),
      catalyst('2026-06-08', 'a', ['E']),
      catalyst('2026-06-30', 'c', ['E']),
    ];
    expect(nearestCatalyst(cs, ids, TODAY)?.type).toBe('a');
    expect(nearestCatalyst([catalyst('2026-06-30', 'c', ['E'])], ids, TODAY)).toBeNull();
  });

  it('reports one bulletin for a group that two tags share', () => {
    expect(
      detectNewsCycle(buildContext(universe([0.15, -0.12, 0.2], { tags: ['tariffs', 'trade-war'] }))),
    ).toHaveLength(1);
  });

  it('stays silent on controls', () => {
    expect(detectNewsCycle(buildContext(universe([0.15, -0.12])))).toEqual([]); // two markets
    expect(detectNewsCycle(buildContext(universe([0.15, -0.12, 0.09])))).toEqual([]); // third below 10 points
    expect(detectNewsCycle(buildContext(universe([0.15, -0.12, 0.2], { oneEvent: true })))).toEqual([]); // one ladder
    expect(detectNewsCycle(buildContext(universe([0.15, -0.12, 0.2], { tags: ['politics'] })))).toEqual([]); // a category is no entity
    expect(detectNewsCycle(buildContext(universe([0.15, -0.12, 0.2], { prior: '2026-06-05' })))).toEqual([]); // snapshots too far apart
  });
});
