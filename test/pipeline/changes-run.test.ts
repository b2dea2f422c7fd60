// A pipeline run publishes its change-feed entries with its generation: the first run over an empty store reports
// every market it adds, a rerun of the same input appends nothing, and a second day's lifecycle log entries appear in
// the feed one for one, with their log_ids.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, runOn, tempStore } from './harness.ts';

describe('change feed from pipeline runs', () => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ store, dispose } = await tempStore());
  });
  afterEach(async () => {
    await dispose();
  });

  it('reports every added market on the first run, nothing on a rerun, and each new log entry on the next day', async () => {
    const first = await runOn(store, DAY1, DAY1_AT);
    const markets = await store.listMarkets();
    const day1 = await store.listChanges();
    expect(day1.map((c) => c.seq)).toEqual(day1.map((_, i) => i + 1));
    expect(day1.every((c) => c.generation === first.generation)).toBe(true);
    const added = day1.filter((c) => c.kind === 'market_added').map((c) => c.market_id);
    expect(added).toEqual(markets.map((m) => m.market_id));
    // A market that arrives with a twin on the other venue also reports its link (a question_id alone is none); the
    // first run's log (first-seen settlements) is lifecycle.
    // (These fixtures key markets without pairing any across the venues: none may report a link.)
    const linked = markets.filter((m) => (m.also_on ?? []).length > 0);
    expect(markets.some((m) => m.question_id !== null && (m.also_on ?? []).length === 0)).toBe(true);
    expect(day1.filter((c) => c.kind === 'link_added').map((c) => c.market_id)).toEqual(linked.map((m) => m.market_id));
    const log1 = await store.listLog();
    expect(day1.filter((c) => c.kind === 'lifecycle').map((c) => c.detail.log_id)).toEqual(log1.map((e) => e.log_id));

    const rerun = await runOn(store, DAY1, DAY1_AT);
    expect(rerun.generation).toBe(first.generation + 1);
    expect(await store.lastChangeSeq()).toBe(day1.length);

    const second = await runOn(store, DAY2, DAY2_AT);
    const day2 = await store.listChanges({ after: day1.length });
    expect(day2.length).toBeGreaterThan(0);
    expect(day2[0]?.seq).toBe(day1.length + 1);
    expect(day2.every((c) => c.generation === second.generation && c.published_at === DAY2_AT)).toBe(true);
    const log2 = (await store.listLog()).slice(log1.length);
    expect(log2).toHaveLength(8);
    expect(
      day2
        .filter((c) => c.kind === 'lifecycle')
        .map((c) => [c.market_id, c.detail.log_id, c.detail.event_type, c.detail.from, c.detail.to]),
    ).toEqual(log2.map((e) => [e.market_id, e.log_id, e.event_type, e.from_value, e.to_value]));

    // Day 2 again: nothing more.
    await runOn(store, DAY2, DAY2_AT);
    expect(await store.lastChangeSeq()).toBe(day1.length + day2.length);
  });
});
