// Hourly detail in the store (migration 0008), on both engines: an hourly mark reads back exactly as written (prices,
// sizes, times, a venue with no quote time), an upsert on (market, hour) replaces, one market's hours come oldest
// first with the newest row before the range in front, pruning deletes every hour before the cut and nothing after,
// and runHours lists the published runs' hours (the last run of an hour) with each venue's outcome and retention.
import { afterEach, describe, expect, it } from 'vitest';
import { HOURLY_COLUMNS, type HourlyMark } from '../../src/store/hourly-codec.ts';
import { openStore, type SqlStore } from '../../src/store/index.ts';
import { FROZEN_0008_HOURLY_COLUMNS } from '../../src/store/migrations.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { marketId } from './records.ts';

function hourly(n: number, hour: string, overrides: Partial<HourlyMark> = {}): HourlyMark {
  return {
    market_id: marketId(n),
    snapshot_hour: hour,
    snapshot_at: `${hour}:00:05.123Z`,
    price_as_of: `${hour.slice(0, 10)}T${String(Number(hour.slice(11)) - 1).padStart(2, '0')}:59:58.000Z`,
    yes_bid: 0.41,
    yes_ask: 0.43,
    no_bid: 0.57,
    no_ask: 0.59,
    yes_bid_size_usd: 1234.56,
    yes_ask_size_usd: 10,
    no_bid_size_usd: null,
    no_ask_size_usd: 0.01,
    yes_last_price: 0.42,
    implied_probability: 0.42,
    mid: 0.42,
    spread: 0.02,
    volume_24h_usd: 98765.43,
    volume_total_usd: 1_234_567.89,
    open_interest_usd: 5000,
    stale_flag: false,
    ...overrides,
  };
}

async function publishRun(
  store: SqlStore,
  at: string,
  venues: Record<string, { error: string | null }>,
  retention: number | null,
): Promise<void> {
  const run = await store.startRun('replay', at);
  await store.publishRun(
    run,
    async () => {},
    () => ({
      status: 'ok',
      summary: { as_of: at, venues, ...(retention === null ? {} : { hourly: { retention_days: retention } }) },
      finishedAt: at,
    }),
  );
}

function hourlyContract(name: string, newStore: () => Promise<SqlStore>) {
  describe(`hourly marks: ${name}`, () => {
    let store: SqlStore;
    afterEach(async () => {
      await store?.close();
    });

    it('round-trips exactly, upserts on (market, hour), lists a market oldest first after the row before the range', async () => {
      store = await newStore();
      await store.migrate();
      const a = hourly(0, '2026-03-01T10');
      const b = hourly(0, '2026-03-01T12', { yes_last_price: 0.5, price_as_of: null, stale_flag: true, mid: 0.123457 });
      const c = hourly(0, '2026-03-01T14', { yes_bid: null, volume_24h_usd: 1e-7 });
      const other = hourly(1, '2026-03-01T12', { yes_last_price: 0.9 });
      expect(await store.upsertHourlyMarks([c, a, other, { ...b, yes_last_price: 0.49 }])).toBe(4);
      // The later write of an hour replaces the earlier.
      await store.transaction((tx) => tx.upsertHourlyMarks([b]));
      expect(await store.listHourlyMarks(marketId(0), '2026-03-01T00', '2026-03-01T23')).toEqual([a, b, c]);
      // The newest row before the range leads, then the rows in it.
      expect(await store.listHourlyMarks(marketId(0), '2026-03-01T13', '2026-03-01T14')).toEqual([b, c]);
      expect(await store.listHourlyMarks(marketId(0), '2026-03-01T11', '2026-03-01T12')).toEqual([a, b]);
      expect(await store.listHourlyMarks(marketId(1), '2026-03-01T00', '2026-03-01T11')).toEqual([]);
      expect(await store.listHourlyMarks(marketId(2), '2026-03-01T00', '2026-03-02T00')).toEqual([]);
      // A time outside its hour would make the key lie.
      await expect(store.upsertHourlyMarks([{ ...a, snapshot_at: '2026-03-01T11:00:00.000Z' }])).rejects.toThrow(
        /not in hour/,
      );
    });

    it('prunes the hours before the cut, in the publish transaction, and nothing after', async () => {
      store = await newStore();
      await store.migrate();
      await store.upsertHourlyMarks([
        hourly(0, '2026-02-20T23'),
        hourly(0, '2026-02-21T00'),
        hourly(1, '2026-02-22T05'),
        hourly(1, '2026-03-01T10'),
      ]);
      const run = await store.startRun('replay', '2026-03-01T10:00:00.000Z');
      await store.publishRun(
        run,
        (tx) => tx.pruneHourlyMarks('2026-02-21T00'),
        (pruned) => {
          expect(pruned).toBe(1);
          return { status: 'ok', summary: {}, finishedAt: '2026-03-01T10:00:00.000Z' };
        },
      );
      expect(
        (await store.listHourlyMarks(marketId(0), '2026-01-01T00', '2026-03-31T23')).map((m) => m.snapshot_hour),
      ).toEqual(['2026-02-21T00']);
      expect(await store.pruneHourlyMarks('9999-12-31T99')).toBe(3);
      expect(await store.listHourlyMarks(marketId(1), '2026-01-01T00', '2026-03-31T23')).toEqual([]);
    });

    it('lists the hours of published runs with their venues and retention, the last run of an hour winning', async () => {
      store = await newStore();
      await store.migrate();
      await publishRun(store, '2026-03-01T10:00:00.000Z', { venue_a: { error: null }, venue_b: { error: null } }, null);
      await publishRun(
        store,
        '2026-03-01T11:00:00.000Z',
        { venue_a: { error: null }, venue_b: { error: 'HTTP 503' } },
        7,
      );
      await publishRun(store, '2026-03-01T11:30:00.000Z', { venue_a: { error: 'timeout' } }, 7);
      // Started, never published: not an hour of the grid.
      await store.startRun('replay', '2026-03-01T12:00:00.000Z');
      await publishRun(store, '2026-03-01T13:00:00.000Z', { venue_a: { error: null }, venue_b: { error: null } }, 0);
      const hours = await store.runHours('2026-03-01T10', '2026-03-01T12');
      expect(hours.map((h) => [h.hour, h.as_of, h.venues, h.hourly_retention_days])).toEqual([
        ['2026-03-01T10', '2026-03-01T10:00:00.000Z', { venue_a: 'ok', venue_b: 'ok' }, null],
        ['2026-03-01T11', '2026-03-01T11:30:00.000Z', { venue_a: 'failed' }, 7],
      ]);
      expect((await store.runHours('2026-03-01T11', '2026-03-01T13')).map((h) => h.hour)).toEqual([
        '2026-03-01T11',
        '2026-03-01T13',
      ]);
      expect(await store.runHours('2026-03-02T00', '2026-03-02T23')).toEqual([]);
    });
  });
}

describe('hourly_marks columns', () => {
  it('are the ones migration 0008 froze', () => {
    expect(HOURLY_COLUMNS).toEqual(FROZEN_0008_HOURLY_COLUMNS);
  });
});

hourlyContract('sqlite', () => openStore('sqlite::memory:'));

const pg = usePostgresDatabase('store/hourly-marks');
if (!pg) {
  describe.skip('hourly marks: postgres (PMREF_TEST_POSTGRES_URL is not set)', () => {
    it('needs PostgreSQL', () => {});
  });
} else {
  hourlyContract('postgres', () => pg.newStore());
}
