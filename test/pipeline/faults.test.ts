// Whatever fault a venue throws (5xx, 429, timeout, malformed, truncated, unknown fields), a run keeps every stored record, records the failure, and carries the failed venue's marks forward; with every venue down it publishes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Venue } from '../../src/domain/index.ts';
import type { Store } from '../../src/store/index.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, runOn, tempStore } from './harness.ts';

let store: Store;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
  await runOn(store, DAY1, DAY1_AT);
});
afterEach(async () => {
  await dispose();
});

const FAILING: ReadonlyArray<[string, Venue, RegExp]> = [
  ['venue_a:5xx', 'venue_a', /HTTP 503/],
  ['venue_b:429:retry-after=1', 'venue_b', /HTTP 429/],
  ['venue_a:timeout', 'venue_a', /no response within/],
  ['venue_b:malformed', 'venue_b', /malformed JSON/],
  ['venue_a:truncated', 'venue_a', /truncated JSON|cut off/],
];

describe('fault modes', () => {
  for (const [spec, venue, message] of FAILING) {
    it(`${spec}: the run completes partial, keeps stored data and carries ${venue} marks forward`, async () => {
      const events = await store.listEvents();
      const markets = await store.listMarkets();
      const log = await store.listLog();
      const failedMarkets = markets.filter((m) => m.platform === venue).map((m) => m.market_id);

      // Day 2 changes states on both venues: none of the failed venue's changes may land.
      const summary = await runOn(store, DAY2, DAY2_AT, { faults: spec });

      expect(summary.status).toBe('partial');
      expect(summary.degraded).toEqual([venue]);
      expect(summary.venues[venue].error).toMatch(message);
      expect(summary.venues[venue].stored).toBe(0);
      const other = venue === 'venue_a' ? 'venue_b' : 'venue_a';
      expect(summary.venues[other].error).toBeNull();
      expect(summary.fallbacks.join('\n')).toContain(`${venue} could not be read`);
      const run = await store.lastRun();
      expect(run?.status).toBe('partial');
      expect(run?.summary.venues?.[venue]?.error).toMatch(message);

      // Nothing stored before is lost; the failed venue's records are exactly as they were.
      const after = new Map((await store.listMarkets()).map((m) => [m.market_id, m]));
      for (const m of markets) expect(after.has(m.market_id)).toBe(true);
      for (const m of markets.filter((x) => x.platform === venue)) expect(after.get(m.market_id)).toEqual(m);
      const eventsAfter = new Map((await store.listEvents()).map((e) => [e.event_id, e]));
      for (const e of events) expect(eventsAfter.has(e.event_id)).toBe(true);
      for (const e of events.filter((x) => x.venue === venue)) expect(eventsAfter.get(e.event_id)).toEqual(e);
      const logAfter = await store.listLog();
      expect(logAfter.slice(0, log.length)).toEqual(log);
      expect(logAfter.slice(log.length).some((e) => failedMarkets.includes(e.market_id))).toBe(false);

      // Every failed-venue market got today's mark, carried from yesterday's.
      const today = await store.listMarks({ snapshotDates: ['2026-03-02'], marketIds: failedMarkets });
      expect(today.map((m) => m.market_id).sort()).toEqual([...failedMarkets].sort());
      const yesterday = new Map(
        (await store.listMarks({ snapshotDates: ['2026-03-01'], marketIds: failedMarkets })).map((m) => [
          m.market_id,
          m,
        ]),
      );
      for (const mark of today) {
        expect(mark.mark_method).toBe('imputed_carry_forward');
        expect(mark.yes_last_price).toBe(yesterday.get(mark.market_id)?.yes_last_price);
        expect(mark.stale_flag).toBe(true);
      }
      expect(summary.marks_carried_forward).toBe(failedMarkets.length);
    });
  }

  it('venue_b:unknown-fields: extra fields are ignored, the run is ok and the data unchanged', async () => {
    // The same data a day on, unfaulted first: what time alone changes (markets now past their close) is not the fault's.
    await runOn(store, DAY1, DAY2_AT);
    const markets = await store.listMarkets();
    const summary = await runOn(store, DAY1, DAY2_AT, { faults: 'venue_b:unknown-fields' });
    expect(summary.status).toBe('ok');
    expect(summary.venues.venue_b).toMatchObject({ error: null, stored: 3 });
    expect(summary).toMatchObject({ log_entries: 0, markets_written: 0, marks_carried_forward: 0 });
    expect(await store.listMarkets()).toEqual(markets);
    const today = await store.listMarks({ snapshotDates: ['2026-03-02'] });
    expect(today).toHaveLength(markets.length);
    expect(today.every((m) => m.mark_method === 'venue_snapshot')).toBe(true);
  });

  it('both venues down: the run is recorded failed, keeps everything and publishes nothing', async () => {
    const markets = await store.listMarkets();
    const counts = await store.counts();
    const summary = await runOn(store, DAY2, DAY2_AT, { faults: 'all:5xx' });
    expect(summary).toMatchObject({ status: 'failed', degraded: ['venue_a', 'venue_b'], generation: 1, marks: 0 });
    expect(await store.generation()).toBe(1);
    expect(await store.counts()).toEqual(counts);
    expect(await store.listMarkets()).toEqual(markets);
    expect(await store.lastRun()).toMatchObject({ status: 'failed', generation: 0 });
  });
});
