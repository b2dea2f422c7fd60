/**
 * The Store contract, continued for the storage of migration 0006 (issue 18): marks as typed columns and
 * repeated JSON stored once in `content` change nothing a Store method returns (every number bit-identical,
 * every string and key order identical, null and absent kept apart), store each distinct content once, and
 * collect content nothing references. Runs inside runStoreContract, on every engine.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Event, Market, NewMark } from '../../src/domain/index.ts';
import { unpackText } from '../../src/store/content-codec.ts';
import type { SqlStore } from '../../src/store/index.ts';
import { makeEvent, makeMark, makeMarket, marketId } from './records.ts';

const OWNER = { host: 'test', pid: 1, process_started_at: '2026-03-01T00:00:00.000Z' };

/** Every number of a mark with its exact bits: -0 and 0 told apart, any last-bit difference shown. */
function bits(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : value.toString(36);
  if (Array.isArray(value)) return value.map(bits);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).map(([k, v]) => [k, bits(v)]);
  }
  return value;
}

/** What a stored mark must read back as: the value itself (keys in order), every number bit for bit. */
function expectSame(read: unknown, written: unknown): void {
  expect(read).toEqual(written);
  expect(JSON.stringify(read)).toBe(JSON.stringify(written));
  expect(bits(read)).toEqual(bits(written));
}

const withoutId = ({ mark_id: _id, ...rest }: NewMark & { mark_id?: number }) => rest;

/** The text of every content row, by id. */
async function contentTexts(store: SqlStore): Promise<Map<number, string>> {
  const rows = await store.db.selectFrom('content').select(['content_id', 'body']).execute();
  return new Map(rows.map((r) => [Number(r.content_id), unpackText(r.body)]));
}

/** Marks with every kind of value the typed columns must keep exactly, and some only `overflow` can. */
export function oddMarks(): NewMark[] {
  const nulls = {
    yes_bid: null,
    yes_ask: null,
    no_bid: null,
    no_ask: null,
    yes_bid_size_usd: null,
    yes_ask_size_usd: null,
    no_bid_size_usd: null,
    no_ask_size_usd: null,
    yes_last_price: null,
    implied_probability: null,
    volume_24h_usd: null,
    volume_total_usd: null,
    open_interest_usd: null,
    raw_payload: null,
    spread: null,
    mid: null,
    divergence_from_primary: null,
    hours_since_source_update: null,
  };
  const reordered = makeMark(5, '2026-03-01', { snapshot_at: '2026-03-01T08:00:00.000Z' }) as unknown as Record<
    string,
    unknown
  >;
  const { field_provenance, market_id, ...rest } = reordered;
  return [
    // Canonical times (stored as offsets), prices of up to 6 places (stored scaled).
    makeMark(0, '2026-03-01', {
      snapshot_at: '2026-03-01T12:00:00.000Z',
      source_updated_at: '2026-02-28T23:59:59.999Z',
      mark_method: 'imputed_carry_forward',
      stale_flag: true,
      source_count: 0,
      hours_since_source_update: 12.0001,
    }),
    // Values no scale keeps: raw, or in overflow when they are integers too large for their scale.
    makeMark(1, '2026-03-01', {
      snapshot_at: '2026-03-01T12:00:00+02:00',
      source_updated_at: '2026-03-01T10:00:00Z',
      yes_bid: 0.1 + 0.2,
      yes_ask: 1e-7,
      no_bid: 0,
      no_ask: 1,
      yes_bid_size_usd: 98_765_432_101_234.56,
      yes_ask_size_usd: Number.MAX_SAFE_INTEGER,
      no_bid_size_usd: 2 ** 60,
      no_ask_size_usd: 1e21,
      yes_last_price: 1 / 3,
      implied_probability: 5e-324,
      volume_24h_usd: 125_000.005,
      volume_total_usd: 4_810_000_000_000,
      open_interest_usd: 0.001,
      spread: -0.02,
      mid: 0.5,
      divergence_from_primary: 1234.5678901,
      hours_since_source_update: Math.PI,
      mark_method: 'editorial_override',
      source_count: 3,
      raw_payload: { nested: { list: [1, 'two', null, true, 0.1 + 0.2] }, text: 'é ≠ 😀 "quoted" \\ back' },
    }),
    // Every nullable field null.
    makeMark(2, '2026-03-01', { ...nulls, field_provenance: {} }),
    // Every nullable field null, and a time spelled as a date.
    makeMark(3, '2026-03-02', { ...nulls, snapshot_at: '2026-03-02', source_updated_at: 'unknown' }),
    // What no MarkSchema mark has: an unknown method, a non-boolean flag, a fractional count, an extra key.
    {
      ...makeMark(4, '2026-03-02'),
      mark_method: 'model_fair_value',
      stale_flag: 'yes',
      source_count: 1.5,
      venue_note: { kept: true },
    } as unknown as NewMark,
    // Another key order.
    { field_provenance, ...rest, market_id } as unknown as NewMark,
  ];
}

export function typedStorageContract(engine: string, current: () => SqlStore): void {
  it('marks: typed columns keep every value exactly, with its key order, through upsert and staging', async () => {
    const store = current();
    const marks = oddMarks();
    await store.upsertMarkets(Array.from({ length: 7 }, (_, i) => makeMarket(i)));
    await store.upsertMarks(marks);
    const byKey = (m: { market_id: string; snapshot_date: string }) => `${m.market_id}|${m.snapshot_date}`;
    const read = new Map((await store.listMarks()).map((m) => [byKey(m), m]));
    expect(read.size).toBe(marks.length);
    for (const mark of marks) {
      const stored = read.get(byKey(mark));
      expect(Object.keys(stored ?? {})[0]).toBe('mark_id');
      expectSame(withoutId(stored as NewMark), mark);
    }
    for (const latest of await store.latestMarks()) expectSame(latest, read.get(byKey(latest)));
    for (const mark of marks) {
      expectSame(await store.listMarks({ marketIds: [mark.market_id] }), [read.get(byKey(mark))]);
    }

    // Staged, then published: the same values again, and never over a stored mark.
    const run = await store.beginRun('replay', '2026-03-03T00:00:00.000Z', OWNER);
    const history = marks.map((m) => ({ ...m, snapshot_date: '2026-02-27' }));
    await store.stageMarks(run.run_id, [...history, marks[0] as NewMark]);
    const staged = await store.listStagedMarks(run.run_id);
    expect(staged).toHaveLength(marks.length + 1);
    for (const m of history)
      expectSame(
        staged.find((s) => byKey(s) === byKey(m)),
        m,
      );
    await store.publishRun(
      run.run_id,
      (tx) => tx.publishStagedMarks(run.run_id),
      () => ({ status: 'ok', summary: {}, finishedAt: '2026-03-03T00:01:00.000Z' }),
    );
    await run.release();
    const after = new Map((await store.listMarks()).map((m) => [byKey(m), m]));
    expect(after.size).toBe(marks.length * 2);
    for (const m of history) expectSame(withoutId(after.get(byKey(m)) as NewMark), m);
    for (const m of marks) expectSame(after.get(byKey(m)), read.get(byKey(m)));
  });

  it('marks: a raw payload shared by two marks and one provenance shared by many are each stored once', async () => {
    const store = current();
    const markets = Array.from({ length: 40 }, (_, i) => makeMarket(i));
    await store.upsertMarkets(markets);
    const before = (await contentTexts(store)).size;
    const point = { t: 1_772_323_200, p: 0.0355 };
    const marks = markets.map((_, i) => makeMark(i, '2026-03-01', { raw_payload: i < 2 ? point : { t: i, p: 0.5 } }));
    await store.upsertMarks(marks);
    const texts = await contentTexts(store);
    // 39 distinct raw payloads and one provenance.
    expect(texts.size - before).toBe(39 + 1);
    expect([...texts.values()].filter((t) => t === JSON.stringify(point))).toHaveLength(1);
    const rows = await store.db
      .selectFrom('marks')
      .select(['market_id', 'raw_payload_id', 'field_provenance_id'])
      .execute();
    const rawOf = new Map(rows.map((r) => [r.market_id, r.raw_payload_id]));
    expect(rawOf.get(marketId(0))).toBe(rawOf.get(marketId(1)));
    expect(new Set(rows.map((r) => r.field_provenance_id)).size).toBe(1);
    // Written again, nothing new is stored.
    await store.upsertMarks(marks);
    expect((await contentTexts(store)).size).toBe(texts.size);
  });

  it('markets and events: shared parts stored once; records round-trip with their key order, parts absent or null', async () => {
    const store = current();
    const plain = makeMarket(0);
    const { field_provenance: _f, eligibility_screens: _e, ...partless } = makeMarket(1);
    const nulled = makeMarket(2, {
      resolution_source_list: null as unknown as Market['resolution_source_list'],
      field_provenance: {},
    });
    const markets = [plain, partless as Market, nulled, ...Array.from({ length: 30 }, (_, i) => makeMarket(i + 3))];
    await store.upsertMarkets(markets);
    for (const m of markets) expectSame(await store.getMarket(m.market_id), m);
    const listed = await store.listMarkets();
    expectSame(
      listed,
      [...markets].sort((a, b) => (a.market_id < b.market_id ? -1 : 1)),
    );
    const provenance = await store.db.selectFrom('markets').select('field_provenance_id').distinct().execute();
    // makeMarket's provenance, nulled's {}, and none for the market without it.
    expect(provenance.map((r) => r.field_provenance_id === null).sort()).toEqual([false, false, true]);

    const { field_provenance: _p, ...eventWithout } = makeEvent(1);
    const events = [makeEvent(0), eventWithout as Event, makeEvent(2, { field_provenance: {} })];
    await store.upsertEvents(events);
    expectSame(
      await store.listEvents(),
      [...events].sort((a, b) => (a.event_id < b.event_id ? -1 : 1)),
    );
  });

  it('content no row references is collected: by a publish (the first, then every 24th), or on demand', async () => {
    const store = current();
    await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
    const shared = { ticker: 'SHARED', yes_bid: 50 };
    await store.upsertMarks([
      makeMark(0, '2026-03-01', { raw_payload: { ticker: 'REPLACED' } }),
      makeMark(0, '2026-03-02', { raw_payload: shared }),
      makeMark(1, '2026-03-02', { raw_payload: shared }),
    ]);
    const has = async (value: unknown) => [...(await contentTexts(store)).values()].includes(JSON.stringify(value));
    // Replacing one mark's payload, and one of two marks sharing a payload.
    await store.upsertMarks([
      makeMark(0, '2026-03-01', { raw_payload: { ticker: 'NEW' } }),
      makeMark(1, '2026-03-02', { raw_payload: null }),
    ]);
    expect(await has({ ticker: 'REPLACED' })).toBe(true);
    expect(await store.collectContent()).toBe(1);
    expect(await has({ ticker: 'REPLACED' })).toBe(false);
    expect(await has(shared)).toBe(true);
    expect(await has({ ticker: 'NEW' })).toBe(true);
    expect(await store.collectContent()).toBe(0);

    // An aborted run's staged content goes with the next publish.
    const aborted = await store.beginRun('replay', '2026-03-03T00:00:00.000Z', OWNER);
    await store.stageMarks(aborted.run_id, [makeMark(1, '2026-02-20', { raw_payload: { ticker: 'STAGED' } })]);
    await aborted.release();
    expect(await store.abortRun(aborted.run_id, { error: 'test' }, '2026-03-03T00:01:00.000Z')).toBe(true);
    expect(await has({ ticker: 'STAGED' })).toBe(true);
    const run = await store.beginRun('replay', '2026-03-03T01:00:00.000Z', OWNER);
    await store.publishRun(
      run.run_id,
      (tx) => tx.upsertMarks([makeMark(0, '2026-03-01', { raw_payload: { ticker: 'NEWER' } })]),
      () => ({ status: 'ok', summary: {}, finishedAt: '2026-03-03T01:01:00.000Z' }),
    );
    await run.release();
    expect(await has({ ticker: 'STAGED' })).toBe(false);
    expect(await has({ ticker: 'NEW' })).toBe(false);
    expect(await has({ ticker: 'NEWER' })).toBe(true);
    expect(await has(shared)).toBe(true);
    // Market and mark provenance are referenced and stay.
    expect(await has(makeMark(0).field_provenance)).toBe(true);
    expect(await has(makeMarket(0).field_provenance)).toBe(true);
    // The publishes between collections leave what they replaced; the 25th generation collects it.
    const publish = async (ticker: string) => {
      const next = await store.beginRun('replay', '2026-03-03T02:00:00.000Z', OWNER);
      await store.publishRun(
        next.run_id,
        (tx) => tx.upsertMarks([makeMark(0, '2026-03-01', { raw_payload: { ticker } })]),
        () => ({ status: 'ok', summary: {}, finishedAt: '2026-03-03T02:01:00.000Z' }),
      );
      await next.release();
    };
    for (let generation = 2; generation <= 24; generation++) await publish(`G${generation}`);
    expect(await store.generation()).toBe(24);
    expect(await has({ ticker: 'NEWER' })).toBe(true);
    expect(await has({ ticker: 'G23' })).toBe(true);
    await publish('G25');
    expect(await has({ ticker: 'NEWER' })).toBe(false);
    expect(await has({ ticker: 'G24' })).toBe(false);
    expect(await has({ ticker: 'G25' })).toBe(true);
    const payloads = new Map(
      (await store.listMarks()).map((m) => [`${m.market_id}|${m.snapshot_date}`, m.raw_payload]),
    );
    expect(payloads).toEqual(
      new Map<string, unknown>([
        [`${marketId(0)}|2026-03-01`, { ticker: 'G25' }],
        [`${marketId(0)}|2026-03-02`, shared],
        [`${marketId(1)}|2026-03-02`, null],
      ]),
    );
  });

  it.skipIf(engine !== 'postgres')(
    'postgres: no collection while another transaction may be reusing content',
    async () => {
      const store = current();
      await store.db.transaction().execute(async (trx) => {
        // What every content writer holds until it commits (content-store.ts, LOCK_CONTENT).
        await sql`SELECT pg_advisory_xact_lock_shared(7346203)`.execute(trx);
        expect(await store.collectContent()).toBeNull();
      });
      expect(await store.collectContent()).toBe(0);
    },
  );
}
