// A pipeline run over replayed venue folders is idempotent and appends exactly the lifecycle entries that the venues' changes imply.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveEvent, linkAcrossVenues } from '../../src/editorial/index.ts';
import type { Store } from '../../src/store/index.ts';
import type { ReplayServer } from '../../src/venues/index.ts';
import { DAY1, DAY1_AT, DAY2, DAY2_AT, runOn, tempStore } from './harness.ts';

let store: Store;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
});
afterEach(async () => {
  await dispose();
});

const nativeOf = async () => new Map((await store.listMarkets()).map((m) => [m.market_id, m.platform_market_id]));

describe('runPipeline over replay folders', () => {
  it('stores every in-scope record, counts the rest with a reason, and publishes a generation', async () => {
    const summary = await runOn(store, DAY1, DAY1_AT);
    expect(summary.venues).toEqual({
      venue_a: {
        pulled: 5,
        stored: 4,
        out_of_scope: { 'category:sports': 1 },
        rejected: {},
        error: null,
        requests: expect.any(Number),
        retries: 0,
        drift: expect.objectContaining({ document: expect.stringMatching(/^Kalshi Trade API/) }),
      },
      venue_b: {
        pulled: 3,
        stored: 3,
        out_of_scope: {},
        rejected: {},
        error: null,
        requests: 2,
        retries: 0,
        drift: expect.objectContaining({ document: expect.stringMatching(/^Markets API/) }),
      },
    });
    // What the pull cost each venue, over HTTP to the replay server.
    expect(summary.venues.venue_a.requests).toBeGreaterThan(0);
    expect(summary).toMatchObject({ status: 'ok', generation: 1, marks: 7, log_entries: 2, markets_written: 7 });
    expect(await store.counts()).toMatchObject({ events: 5, markets: 7 });
    const run = await store.lastRun();
    expect(run).toMatchObject({ status: 'ok', generation: 1, source: 'replay' });
    expect(run?.summary.venues?.venue_a?.stored).toBe(4);
  });

  it('is idempotent: the same input again appends nothing and leaves events and markets identical', async () => {
    await runOn(store, DAY1, DAY1_AT);
    const events = await store.listEvents();
    const markets = await store.listMarkets();
    const log = await store.listLog();
    const later = new Date(Date.parse(DAY1_AT) + 3_600_000).toISOString();
    const again = await runOn(store, DAY1, later);
    expect(again).toMatchObject({ log_entries: 0, events_written: 0, markets_written: 0, status: 'ok', generation: 2 });
    expect(await store.listEvents()).toEqual(events);
    expect(await store.listMarkets()).toEqual(markets);
    expect(await store.listLog()).toEqual(log);
    // The hourly rerun overwrote today's marks instead of adding rows.
    const today = await store.listMarks({ snapshotDates: ['2026-03-01'] });
    expect(today).toHaveLength(7);
    expect(today.every((m) => m.snapshot_at === later)).toBe(true);
  });

  it('hands the after-write stage exactly what the store holds after the publish, while the store shows none of it', async () => {
    await runOn(store, DAY1, DAY1_AT);
    const before = { counts: await store.counts(), markets: await store.listMarkets(), generation: 1 };
    let seen = null as { events: unknown[]; markets: unknown[]; marks: unknown[] } | null;
    await runOn(store, DAY2, DAY2_AT, {
      afterWrite: async (ctx) => {
        // Nothing of the run is visible yet: not its markets, not its marks, not its generation.
        expect(await store.counts()).toEqual(before.counts);
        expect(await store.listMarkets()).toEqual(before.markets);
        expect(await store.generation()).toBe(before.generation);
        seen = { events: [...ctx.events], markets: [...ctx.markets], marks: await ctx.marksSince('2026-02-20') };
        return {
          writes: { spot: [], catalysts: [], events: [], markets: [], signals: [] },
          degraded: [],
          fallbacks: [],
          report: () => ({}),
        };
      },
    });
    expect(seen?.events).toEqual(await store.listEvents());
    expect(seen?.markets).toEqual(await store.listMarkets());
    // Their figures (all the signals read), the same marks as the store's.
    expect(seen?.marks).toEqual(await store.listMarks({ since: '2026-02-20', figuresOnly: true }));
    expect(seen?.marks.length).toBeGreaterThan(0);
    expect(seen?.markets.length).toBeGreaterThan(0);
  });

  it('logs a first-seen settled market once, with the venue settlement time', async () => {
    await runOn(store, DAY1, DAY1_AT);
    const natives = await nativeOf();
    const log = (await store.listLog()).map((e) => ({ ...e, market: natives.get(e.market_id) }));
    expect(log.map((e) => [e.market, e.event_type, e.from_value, e.to_value, e.occurred_basis, e.occurred_at])).toEqual(
      [
        ['PMCPI-26JAN-T1', 'status_change', null, 'resolved', 'first_observed', DAY1_AT],
        ['PMCPI-26JAN-T1', 'resolved', null, 'YES', 'venue_settlement', '2026-02-12T14:00:00.000Z'],
      ],
    );
  });

  it('turns a second folder with closed, resolved and edited markets into exactly the expected entries', async () => {
    await runOn(store, DAY1, DAY1_AT);
    const before = (await store.listLog()).length;
    const summary = await runOn(store, DAY2, DAY2_AT);
    const natives = await nativeOf();
    const added = (await store.listLog()).slice(before);
    expect(summary.log_entries).toBe(added.length);
    const rows = added.map((e) => [
      natives.get(e.market_id),
      e.event_type,
      e.from_value,
      e.to_value,
      e.occurred_basis,
      e.occurred_at,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['PMCPI-26FEB-T1', 'status_change', 'open', 'closed', 'deadline', '2026-03-01T20:00:00.000Z'],
        ['PMCPI-26FEB-T2', 'rule_change', null, null, 'first_observed', DAY2_AT],
        // Still "active" at the venue, but its close time has passed: closed, derived (issue 15).
        ['PMCPI-26FEB-T2', 'status_change', 'open', 'closed', 'deadline', '2026-03-01T20:00:00.000Z'],
        ['PMGOLD-26MAR01-3000', 'status_change', 'open', 'resolved', 'venue_settlement', '2026-03-01T21:00:00.000Z'],
        ['PMGOLD-26MAR01-3000', 'resolved', 'open', 'NO', 'venue_settlement', '2026-03-01T21:00:00.000Z'],
        ['0xaaa1', 'status_change', 'open', 'resolved', 'venue_settlement', '2026-03-01T22:00:00.000Z'],
        ['0xaaa1', 'resolved', 'open', 'YES', 'venue_settlement', '2026-03-01T22:00:00.000Z'],
        ['0xaaa2', 'rule_change', null, null, 'first_observed', DAY2_AT],
      ]),
    );
    expect(rows).toHaveLength(8);
    const t2 = added.find((e) => natives.get(e.market_id) === 'PMCPI-26FEB-T2' && e.event_type === 'rule_change');
    expect(t2?.diff).toEqual({
      resolution_rules_raw: {
        before: expect.stringContaining('is above 3.5%, then'),
        after: expect.stringContaining('is strictly above 3.5% (seasonally adjusted), then'),
      },
    });
    const gold = added.find((e) => natives.get(e.market_id) === 'PMGOLD-26MAR01-3000' && e.event_type === 'resolved');
    expect(gold?.diff).toMatchObject({ final_price: 0 });
    expect(added.every((e) => e.source === 'platform_api' && e.source_ref === null && e.recorded_at === DAY2_AT)).toBe(
      true,
    );

    // Running day 2 again appends nothing more.
    expect((await runOn(store, DAY2, DAY2_AT)).log_entries).toBe(0);
  });

  it.each([
    ['keeps its catalog', false],
    ['lets go of its catalog after the pull (afterPull)', true],
  ])(
    'backfills past dates from venue history, one mark per date, without touching today (the source %s)',
    async (_, release) => {
      const seen: string[] = [];
      const afterPull = (server: ReplayServer) => {
        seen.push('afterPull');
        server.releaseCatalog();
      };
      const summary = await runOn(store, DAY1, DAY1_AT, {
        onProgress: (e) => seen.push(`${e.stage} ${e.done}/${e.total}`),
        ...(release ? { afterPull } : {}),
      });
      // Once, when both venues are pulled and before anything is normalized.
      const pulled = seen.indexOf('pull 2/2');
      expect(seen.slice(pulled, pulled + 3)).toEqual(
        release ? ['pull 2/2', 'afterPull', 'normalize 0/2'] : ['pull 2/2', 'normalize 0/2', 'normalize 1/2'],
      );
      // Nothing after the pull asks for the catalog: a released one would answer 410 and degrade the run.
      expect(summary).toMatchObject({ status: 'ok', degraded: [] });
      expect(summary.backfill).toMatchObject({ marks: 5, markets_with_history: 2, pending: 0, skipped: {} });
      const natives = await nativeOf();
      const marks = await store.listMarks();
      const dates = (native: string) =>
        marks.filter((m) => natives.get(m.market_id) === native).map((m) => [m.snapshot_date, m.yes_last_price]);
      expect(dates('PMCPI-26FEB-T1')).toEqual([
        ['2026-02-27', 0.35],
        ['2026-02-28', 0.37],
        ['2026-03-01', 0.41],
      ]);
      expect(dates('0xaaa1')).toEqual([
        ['2026-02-26', 0.22],
        ['2026-02-27', 0.25],
        ['2026-02-28', 0.28],
        ['2026-03-01', 0.3],
      ]);
      // A market already marked is not fetched again on the next run.
      expect((await runOn(store, DAY1, DAY2_AT)).backfill).toBeNull();
    },
  );

  it('writes no history marks when the venue has no history for the markets', async () => {
    const summary = await runOn(store, DAY2, DAY1_AT);
    expect(summary.status).toBe('ok');
    expect(summary.backfill).toMatchObject({ marks: 0, pending: 0 });
    expect(summary.backfill?.calls).toBeGreaterThan(0);
  });

  it('survives an editorial fault without losing data: stored records kept, new ones stored as normalized', async () => {
    const failingB = {
      deriveEvent: (input: Parameters<typeof deriveEvent>[0]) => {
        if (input.event.venue === 'venue_b') throw new Error('boom in editorial');
        return deriveEvent(input);
      },
      linkAcrossVenues,
    };
    const first = await runOn(store, DAY1, DAY1_AT, { editorial: failingB });
    expect(first.venues.venue_b).toMatchObject({ stored: 3, rejected: {} });
    expect(first.editorial_failures).toBe(2);
    expect(first.fallbacks.join('\n')).toMatch(
      /editorial failed on 2 events \(3 markets; first error: boom in editorial\)/,
    );
    expect((await store.listMarkets({ venue: 'venue_b' })).length).toBe(3);

    await runOn(store, DAY1, DAY1_AT);
    const storedB = await store.listMarkets({ venue: 'venue_b' });
    const before = (await store.listLog()).length;
    const second = await runOn(store, DAY2, DAY2_AT, { editorial: failingB });
    expect(await store.listMarkets({ venue: 'venue_b' })).toEqual(storedB);
    const natives = await nativeOf();
    const added = (await store.listLog()).slice(before).map((e) => natives.get(e.market_id));
    expect(added.every((n) => n?.startsWith('PM'))).toBe(true);
    // venue_a's day-2 moves: T1 closed, T2's rule edit and its derived close (past close_at), gold resolved (2).
    expect(second.log_entries).toBe(5);
    const todayB = await store.listMarks({ snapshotDates: ['2026-03-02'], marketIds: storedB.map((m) => m.market_id) });
    expect(todayB.map((m) => m.mark_method)).toEqual(['venue_snapshot', 'venue_snapshot', 'venue_snapshot']);
  });
});
