/**
 * The Store contract: every adapter stores and returns each record exactly, keeps one run's writes
 * all-or-nothing, counts generations monotonically, never changes a registered id, and refuses to
 * rewrite the resolution log — checked here once and run against every engine (with the storage of
 * migration 0006 in contract-typed.ts).
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MARK_FIGURE_FIELDS,
  type Mark,
  type Market,
  MarketSchema,
  marketIdFor,
  type NewMark,
} from '../../src/domain/index.ts';
import { MIGRATIONS, type SqlStore } from '../../src/store/index.ts';
import { oddMarks, typedStorageContract } from './contract-typed.ts';
import {
  eventId,
  makeCatalyst,
  makeEvent,
  makeLogEntry,
  makeMark,
  makeMarket,
  makeSignal,
  makeSpot,
  marketId,
} from './records.ts';

export interface StoreContractOptions {
  name: string;
  /** A fresh, empty, not yet migrated store. The suite migrates and closes it. */
  newStore: () => Promise<SqlStore>;
}

export function runStoreContract({ name, newStore }: StoreContractOptions): void {
  describe(`Store contract: ${name}`, () => {
    let store: SqlStore;

    beforeEach(async () => {
      store = await newStore();
      expect(await store.migrate()).toEqual(MIGRATIONS.map((m) => m.version));
    });
    afterEach(async () => {
      await store.close();
    });

    it('migrations are versioned and idempotent', async () => {
      expect(await store.migrate()).toEqual([]);
      const rows = await sql<{ version: string }>`SELECT version FROM schema_migrations ORDER BY version`.execute(
        store.db,
      );
      expect(rows.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await store.counts()).toEqual({ events: 0, markets: 0, marks: 0, log: 0, signals: 0 });
      expect(await store.generation()).toBe(0);
      expect(await store.lastRun()).toBeNull();
    });

    it('events: upsert inserts, replaces the whole record by event_id, and round-trips exactly', async () => {
      const events = [makeEvent(2), makeEvent(0), makeEvent(1)];
      await store.upsertEvents(events);
      const sorted = [...events].sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
      expect(await store.listEvents()).toEqual(sorted);

      const renamed = makeEvent(1, { slug: 'renamed', editorial_notes: 'checked by hand', catalyst_dates: [] });
      await store.upsertEvents([renamed]);
      const listed = await store.listEvents();
      expect(listed).toHaveLength(3);
      expect(listed.find((e) => e.event_id === renamed.event_id)).toEqual(renamed);
    });

    it('markets: upsert, get, list by venue; records with rcg and sources round-trip exactly', async () => {
      const a = makeMarket(0);
      const b = makeMarket(1, {
        platform: 'venue_b',
        market_id: marketIdFor('venue_b', '0xabc1'),
        platform_market_id: '0xabc1',
        settlement_currency: 'USDC',
        arbitration_model: 'optimistic_oracle',
        resolution_proposer: 'permissionless',
        rcg: null,
        also_on: null,
      });
      expect(MarketSchema.parse(a)).toEqual(a);
      await store.upsertMarkets([a, b]);
      expect(await store.getMarket(a.market_id)).toEqual(a);
      expect(await store.getMarket(b.market_id)).toEqual(b);
      expect(await store.getMarket('SVC-MKT-NOSUCHMKT0')).toBeNull();
      expect(await store.listMarkets({ venue: 'venue_b' })).toEqual([b]);
      expect(await store.listMarkets({ venue: 'venue_a' })).toEqual([a]);
      expect((await store.listMarkets()).map((m) => m.market_id)).toEqual([a.market_id, b.market_id].sort());
      expect(await store.listMarketIds()).toEqual([a.market_id, b.market_id].sort());
      const [low, high] = [a, b].sort((x, y) => (x.market_id < y.market_id ? -1 : 1));
      expect(await store.listMarkets({ limit: 1 })).toEqual([low]);
      expect(await store.listMarkets({ after: low?.market_id, limit: 5 })).toEqual([high]);
      expect(await store.listMarkets({ after: high?.market_id })).toEqual([]);
      expect(await store.listMarkets({ venue: low?.platform, after: low?.market_id })).toEqual([]);

      const resolved = makeMarket(0, { status: 'resolved', resolution_outcome: 'YES', resolution_value: 1 });
      await store.upsertMarkets([resolved]);
      expect(await store.getMarket(a.market_id)).toEqual(resolved);
      expect((await store.counts()).markets).toBe(2);
    });

    it('markets: a part stored once is read as one shared value, frozen, so no record can change another', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
      const [a, b] = await store.listMarkets();
      expect(a?.field_provenance).toEqual(b?.field_provenance);
      expect(a?.field_provenance).toBe(b?.field_provenance);
      expect(Object.isFrozen(a?.field_provenance)).toBe(true);
      expect(() => {
        (a?.field_provenance as Record<string, unknown>).status = null;
      }).toThrow(TypeError);
      // A changed record is a new object with a new part: written back, the other market keeps its own.
      await store.upsertMarkets([
        { ...(a as Market), field_provenance: { ...a?.field_provenance, status: { source: 'service_editorial' } } },
      ]);
      const other = await store.getMarket((b as Market).market_id);
      expect(other?.field_provenance).toEqual(b?.field_provenance);
    });

    it('markets: the same venue market under a second market_id is refused', async () => {
      await store.upsertMarkets([makeMarket(0)]);
      const twin = makeMarket(0, { market_id: marketId(99) });
      await expect(store.upsertMarkets([twin])).rejects.toThrow();
      expect(await store.listMarkets()).toEqual([makeMarket(0)]);
    });

    it('marks: upsert is unique on (market_id, snapshot_date), keeps mark_id, and round-trips', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
      await store.upsertMarks([makeMark(0, '2026-03-01'), makeMark(1, '2026-03-01'), makeMark(0, '2026-03-02')]);
      const first = await store.listMarks();
      expect(first).toHaveLength(3);
      expect(new Set(first.map((m) => m.mark_id)).size).toBe(3);
      for (const m of first) {
        const { mark_id, ...rest } = m;
        expect(Number.isInteger(mark_id)).toBe(true);
        expect(rest).toEqual(makeMark(m.market_id === marketId(0) ? 0 : 1, m.snapshot_date));
      }

      const repriced = makeMark(0, '2026-03-02', { yes_last_price: 0.9, implied_probability: 0.9, stale_flag: true });
      await store.upsertMarks([repriced]);
      const after = await store.listMarks({ marketIds: [marketId(0)], snapshotDates: ['2026-03-02'] });
      const before = first.find((m) => m.market_id === marketId(0) && m.snapshot_date === '2026-03-02');
      expect(after).toEqual([{ ...repriced, mark_id: before?.mark_id }]);
      expect((await store.counts()).marks).toBe(3);

      // The database itself refuses a second row for the same market and date.
      const provenance = await store.db.selectFrom('marks').select('field_provenance_id').executeTakeFirst();
      await expect(
        sql`INSERT INTO marks (market_id, snapshot_date, field_provenance_id)
            VALUES (${marketId(0)}, '2026-03-02', ${provenance?.field_provenance_id ?? null})`.execute(store.db),
      ).rejects.toThrow(/unique|UNIQUE|duplicate/);
    });

    it('marks: queries, latest per market and distinct dates', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
      await store.upsertMarks([
        makeMark(0, '2026-03-01'),
        makeMark(0, '2026-03-02'),
        makeMark(0, '2026-03-03'),
        makeMark(1, '2026-03-01'),
        makeMark(1, '2026-03-02'),
      ]);
      const label = (m: { market_id: string; snapshot_date: string }) =>
        `${m.snapshot_date} ${m.market_id === marketId(0) ? 0 : 1}`;
      const labels = async (query: Parameters<typeof store.listMarks>[0]) => (await store.listMarks(query)).map(label);
      // Ordered by date, then market_id.
      const m0First = marketId(0) < marketId(1);
      expect(await labels({ since: '2026-03-02' })).toEqual([
        ...(m0First ? ['2026-03-02 0', '2026-03-02 1'] : ['2026-03-02 1', '2026-03-02 0']),
        '2026-03-03 0',
      ]);
      expect(await labels({ marketIds: [marketId(1)] })).toEqual(['2026-03-01 1', '2026-03-02 1']);
      expect(await labels({ snapshotDates: ['2026-03-01', '2026-03-03'], marketIds: [marketId(0)] })).toEqual([
        '2026-03-01 0',
        '2026-03-03 0',
      ]);
      expect(await labels({ since: '2026-03-02', marketIds: [marketId(1)] })).toEqual(['2026-03-02 1']);
      expect(await store.listMarks({ marketIds: [] })).toEqual([]);
      // Keyset pages: after a (date, market) key, at most `limit`, in order; they tile the whole set.
      const all = await labels({});
      const paged: string[] = [];
      let after: { snapshot_date: string; market_id: string } | undefined;
      for (;;) {
        const page = await store.listMarks({ since: '2026-03-01', limit: 2, ...(after ? { after } : {}) });
        expect(page.length).toBeLessThanOrEqual(2);
        if (page.length === 0) break;
        paged.push(...page.map(label));
        const last = page[page.length - 1] as { snapshot_date: string; market_id: string };
        after = { snapshot_date: last.snapshot_date, market_id: last.market_id };
      }
      expect(paged).toEqual(all);
      expect(all).toHaveLength(5);
      expect(await labels({ after: { snapshot_date: '2026-03-02', market_id: marketId(m0First ? 0 : 1) } })).toEqual([
        m0First ? '2026-03-02 1' : '2026-03-02 0',
        '2026-03-03 0',
      ]);

      const latest = await store.latestMarks();
      expect(latest.map((m) => [m.market_id, m.snapshot_date])).toEqual(
        [
          [marketId(0), '2026-03-03'],
          [marketId(1), '2026-03-02'],
        ].sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1)),
      );
      expect(latest.find((m) => m.market_id === marketId(1))).toMatchObject(makeMark(1, '2026-03-02'));

      expect(await store.markDates()).toEqual(['2026-03-03', '2026-03-02', '2026-03-01']);
      expect(await store.markDates(2)).toEqual(['2026-03-03', '2026-03-02']);
    });

    it('marks: latestMarkFacts is latestMarks without the raw payloads, which a later mark keeps by content id', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
      await store.upsertMarks([makeMark(0, '2026-03-01'), makeMark(1, '2026-03-01', { raw_payload: null })]);
      const facts = await store.latestMarkFacts();
      expect(facts.map((f) => f.mark)).toEqual((await store.latestMarks()).map(({ raw_payload: _r, ...m }) => m));
      const byMarket = new Map(facts.map((f) => [f.mark.market_id, f]));
      const kept = byMarket.get(marketId(0))?.rawPayloadId;
      expect(kept).toEqual(expect.any(Number));
      expect(byMarket.get(marketId(1))?.rawPayloadId).toBeNull();

      // A later day's mark and a rewrite of the same day both keep the stored payload.
      const nextDay = makeMark(0, '2026-03-02', { raw_payload: null, yes_bid: 0.85 });
      const sameDay = makeMark(0, '2026-03-01', { raw_payload: null, snapshot_at: '2026-03-01T11:00:00Z' });
      await store.upsertMarks([nextDay, sameDay], {
        rawPayloadIds: new Map([
          [nextDay, kept as number],
          [sameDay, kept as number],
        ]),
      });
      const read = await store.listMarks({ marketIds: [marketId(0)] });
      expect(read.map((m) => [m.snapshot_date, m.snapshot_at, m.yes_bid, m.raw_payload])).toEqual([
        ['2026-03-01', '2026-03-01T11:00:00Z', 0.86, makeMark(0).raw_payload],
        ['2026-03-02', '2026-03-02T10:00:00Z', 0.85, makeMark(0).raw_payload],
      ]);

      // A mark carries one payload or the other; a kept id that is not stored fails the write, which writes nothing.
      const both = makeMark(0, '2026-03-03');
      await expect(store.upsertMarks([both], { rawPayloadIds: new Map([[both, kept as number]]) })).rejects.toThrow(
        /a kept raw payload and one of its own/,
      );
      const gone = makeMark(1, '2026-03-03', { raw_payload: null });
      await expect(
        store.upsertMarks([gone], { rawPayloadIds: new Map([[gone, (kept as number) + 1_000_000]]) }),
      ).rejects.toThrow(/1 of the raw payloads kept by content id are no longer stored/);
      expect(await store.listMarks({ snapshotDates: ['2026-03-03'] })).toEqual([]);
    });

    it('marks: retimeMarks moves stored marks of the same day in place, and returns the marks it cannot move', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1), makeMarket(2)]);
      const at = (h: number) => `2026-03-01T${String(h).padStart(2, '0')}:00:00.000Z`;
      const first = (n: number) =>
        makeMark(n, '2026-03-01', { snapshot_at: at(10), source_updated_at: at(9), hours_since_source_update: 1 });
      // Market 2's stored mark keeps a time outside the typed columns (its snapshot_at in overflow).
      const odd = makeMark(2, '2026-03-01', { snapshot_at: '2026-03-01T10:00:00+00:00', source_updated_at: at(9) });
      await store.upsertMarks([first(0), first(1), odd]);
      const stored = new Map((await store.listMarks()).map((m) => [m.market_id, m]));
      const later = (n: number) => ({
        ...first(n),
        snapshot_at: at(15),
        hours_since_source_update: 6,
        stale_flag: true,
      });
      const moved = [later(0), later(1)];
      const elsewhere = makeMark(1, '2026-03-02', { snapshot_at: '2026-03-02T01:00:00.000Z' });
      const oddLater = { ...later(2) };
      const left = await store.retimeMarks([...moved, elsewhere, oddLater]);
      expect(left).toEqual([elsewhere, oddLater]);
      for (const mark of moved) {
        const [read] = await store.listMarks({ marketIds: [mark.market_id] });
        // Its id and raw payload are the stored mark's; its time fields the new ones.
        expect(read).toEqual({ ...mark, mark_id: stored.get(mark.market_id)?.mark_id });
      }
      expect((await store.listMarks({ marketIds: [marketId(2)] }))[0]?.snapshot_at).toBe('2026-03-01T10:00:00+00:00');
      expect(await store.listMarks({ snapshotDates: ['2026-03-02'] })).toEqual([]);
      // A mark whose keys are not MarkSchema's, in order, is not moved either.
      const { source_count: count, ...rest } = later(0);
      const reordered = { ...rest, source_count: count } as NewMark;
      expect(await store.retimeMarks([reordered])).toEqual([reordered]);
    });

    it('marks: until bounds the dates; withoutRaw reads the same marks without their raw payload', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
      const raw = { ticker: 'X', yes_bid: 41 };
      await store.upsertMarks([
        makeMark(0, '2026-03-01', { raw_payload: raw }),
        makeMark(0, '2026-03-02', { raw_payload: raw }),
        makeMark(0, '2026-03-03', { raw_payload: raw }),
        makeMark(1, '2026-03-02', { raw_payload: null }),
      ]);
      const full = await store.listMarks({ marketIds: [marketId(0)], since: '2026-03-02', until: '2026-03-02' });
      expect(full.map((m) => m.snapshot_date)).toEqual(['2026-03-02']);
      expect(full[0]?.raw_payload).toEqual(raw);
      expect((await store.listMarks({ until: '2026-03-02' })).map((m) => m.snapshot_date)).toEqual([
        '2026-03-01',
        '2026-03-02',
        '2026-03-02',
      ]);

      const everything = await store.listMarks();
      const facts = await store.listMarks({ withoutRaw: true });
      expect(facts).toHaveLength(everything.length);
      for (const [i, m] of facts.entries()) {
        expect('raw_payload' in m).toBe(false);
        const { raw_payload: _raw, ...rest } = everything[i] as Mark;
        expect(m).toEqual(rest);
      }
      // Every query form takes it: by market (the history route's), by date and keyset-paged (the marks feed's).
      const history = await store.listMarks({
        marketIds: [marketId(0)],
        since: '2026-03-01',
        until: '2026-03-02',
        withoutRaw: true,
      });
      expect(history.map((m) => [m.snapshot_date, 'raw_payload' in m])).toEqual([
        ['2026-03-01', false],
        ['2026-03-02', false],
      ]);
      const page = await store.listMarks({
        since: '2026-03-02',
        limit: 1,
        after: { snapshot_date: '2026-03-02', market_id: '' },
        withoutRaw: true,
      });
      expect(page).toHaveLength(1);
      expect('raw_payload' in (page[0] as object)).toBe(false);
    });

    it('marks: figuresOnly reads the figures of each mark, the same as the whole mark has, overflow included', async () => {
      await store.upsertMarkets(Array.from({ length: 7 }, (_, i) => makeMarket(i)));
      await store.upsertMarks(oddMarks());
      const pick = (m: object) =>
        Object.fromEntries(MARK_FIGURE_FIELDS.map((f) => [f, (m as Record<string, unknown>)[f]]));
      const everything = await store.listMarks();
      const figures = await store.listMarks({ figuresOnly: true });
      expect(figures).toEqual(everything.map(pick));
      for (const f of figures) expect(Object.keys(f).sort()).toEqual([...MARK_FIGURE_FIELDS].sort());
      const dates = [...new Set(everything.map((m) => m.snapshot_date))];
      expect(await store.listMarks({ snapshotDates: dates.slice(0, 1), figuresOnly: true })).toEqual(
        everything.filter((m) => m.snapshot_date === dates[0]).map(pick),
      );
    });

    it('marks and log entries must belong to a stored market (checked at commit)', async () => {
      await expect(store.upsertMarks([makeMark(7)])).rejects.toThrow();
      await expect(store.appendLog([makeLogEntry(7)])).rejects.toThrow();
      // Order inside one transaction does not matter: the market may come after its mark.
      await store.transaction(async (tx) => {
        await tx.upsertMarks([makeMark(7)]);
        await tx.appendLog([makeLogEntry(7)]);
        await tx.upsertMarkets([makeMarket(7)]);
      });
      expect(await store.counts()).toMatchObject({ markets: 1, marks: 1, log: 1 });
    });

    it('resolution log: appends in order, filters by market, and round-trips', async () => {
      await store.upsertMarkets([makeMarket(0), makeMarket(1)]);
      const entries = [
        makeLogEntry(0),
        makeLogEntry(1, { event_type: 'rule_change', diff: { resolution_rules_raw: { from: 'a', to: 'b' } } }),
        makeLogEntry(0, {
          event_type: 'resolved',
          occurred_basis: 'venue_settlement',
          from_value: 'closed',
          to_value: 'YES',
          actor: 'venue_a',
        }),
      ];
      expect(await store.appendLog(entries)).toBe(3);
      const all = await store.listLog();
      expect(all.map(({ log_id: _id, ...rest }) => rest)).toEqual(entries);
      expect(all.map((e) => e.log_id)).toEqual([...all.map((e) => e.log_id)].sort((a, b) => a - b));
      expect(new Set(all.map((e) => e.log_id)).size).toBe(3);
      expect((await store.listLog({ marketIds: [marketId(0)] })).map((e) => e.event_type)).toEqual([
        'status_change',
        'resolved',
      ]);
      expect(await store.listLog({ marketIds: [] })).toEqual([]);
    });

    it('resolution log: the database rejects UPDATE and DELETE', async () => {
      await store.upsertMarkets([makeMarket(0)]);
      await store.appendLog([makeLogEntry(0), makeLogEntry(0, { event_type: 'resolved' })]);
      const before = await store.listLog();

      await expect(sql`UPDATE resolution_log SET event_type = 'reversed'`.execute(store.db)).rejects.toThrow(
        /append-only/,
      );
      await expect(
        sql`UPDATE resolution_log SET record = '{}' WHERE log_id = ${before[0]?.log_id ?? 0}`.execute(store.db),
      ).rejects.toThrow(/append-only/);
      await expect(sql`DELETE FROM resolution_log`.execute(store.db)).rejects.toThrow(/append-only/);
      await expect(
        sql`DELETE FROM resolution_log WHERE log_id = ${before[1]?.log_id ?? 0}`.execute(store.db),
      ).rejects.toThrow(/append-only/);

      expect(await store.listLog()).toEqual(before);
    });

    it('catalysts: replace swaps the whole calendar; listed by date', async () => {
      const cpi = makeCatalyst({ date: '2026-03-11', type: 'cpi', label: 'CPI (Feb)', event_ids: [] });
      const fomc = makeCatalyst();
      const earnings = makeCatalyst({
        date: '2026-03-11',
        type: 'earnings:NVDA',
        label: 'NVIDIA earnings',
        origin: 'venue',
        source_url: 'https://investor.nvidia.com/',
      });
      await store.replaceCatalysts([fomc, cpi, earnings]);
      expect(await store.listCatalysts()).toEqual([cpi, earnings, fomc]);
      await store.replaceCatalysts([fomc]);
      expect(await store.listCatalysts()).toEqual([fomc]);
      await store.replaceCatalysts([]);
      expect(await store.listCatalysts()).toEqual([]);
    });

    it('signals: a slug is stored once and never rewritten; newest first', async () => {
      const older = makeSignal('fed-hold-repricing');
      const newer = makeSignal('btc-drift', {
        published_at: '2026-03-03T08:00:00Z',
        category_tag: 'VS_BENCHMARK_DRIFT',
        detection_path: 'benchmark_drift',
      });
      expect(await store.insertSignals([older, newer])).toBe(2);
      expect(await store.insertSignals([{ ...older, headline: 'rewritten' }, makeSignal('third')])).toBe(1);
      expect(await store.listSignals()).toEqual([newer, makeSignal('third'), older].sort(bySignalOrder));
      expect((await store.counts()).signals).toBe(3);
    });

    it('spot prices: upsert on (coin, as_of); latest row per coin', async () => {
      await store.insertSpot([
        makeSpot('bitcoin', '2026-03-02T10:00:00Z', 87000.5),
        makeSpot('bitcoin', '2026-03-02T11:00:00Z', 87100.25),
        makeSpot('ethereum', '2026-03-02T10:00:00Z', 3100.1),
      ]);
      await store.insertSpot([makeSpot('ethereum', '2026-03-02T10:00:00Z', 3105)]);
      expect(await store.latestSpot()).toEqual([
        makeSpot('bitcoin', '2026-03-02T11:00:00Z', 87100.25),
        makeSpot('ethereum', '2026-03-02T10:00:00Z', 3105),
      ]);
    });

    it('api keys: stored by hash, found by hash, one row per hash', async () => {
      const record = {
        key_hash: 'a'.repeat(64),
        email: 'dev@example.org',
        daily_limit: 10000,
        created_at: '2026-03-02T10:00:00Z',
      };
      await store.insertApiKey(record);
      expect(await store.findApiKey(record.key_hash)).toEqual(record);
      expect(await store.findApiKey('b'.repeat(64))).toBeNull();
      await expect(store.insertApiKey({ ...record, email: 'other@example.org' })).rejects.toThrow();
    });

    it('api keys: one issued per email address, atomically, and nothing stored for a refused second one', async () => {
      const first = { key_hash: 'c'.repeat(64), email: 'dev@example.org', daily_limit: 10000, created_at: 'x' };
      const second = { ...first, key_hash: 'd'.repeat(64), email: 'dev@example.org' };
      const other = { ...first, key_hash: 'e'.repeat(64), email: 'ops@example.org' };
      const outcomes = await Promise.all([store.issueApiKey(first), store.issueApiKey(second)]);
      expect([...outcomes].sort()).toEqual(['email_taken', 'issued']);
      const found = [await store.findApiKey(first.key_hash), await store.findApiKey(second.key_hash)];
      expect(found.filter((r) => r !== null)).toHaveLength(1);
      expect(await store.issueApiKey(other)).toBe('issued');
      expect(await store.findApiKey(other.key_hash)).toEqual(other);
    });

    it('transaction: commits every write together and returns the callback value', async () => {
      const result = await store.transaction(async (tx) => {
        await tx.upsertEvents([makeEvent(0)]);
        await tx.upsertMarkets([makeMarket(0)]);
        await tx.upsertMarks([makeMark(0)]);
        await tx.appendLog([makeLogEntry(0)]);
        await tx.insertSignals([makeSignal()]);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await store.counts()).toEqual({ events: 1, markets: 1, marks: 1, log: 1, signals: 1 });
    });

    it('transaction: a throw rolls back every write of every table', async () => {
      await store.upsertEvents([makeEvent(0)]);
      await store.replaceCatalysts([makeCatalyst()]);
      const failure = new Error('venue pull failed half way');
      await expect(
        store.transaction(async (tx) => {
          await tx.upsertEvents([makeEvent(0, { slug: 'changed' }), makeEvent(1)]);
          await tx.upsertMarkets([makeMarket(0), makeMarket(1)]);
          await tx.upsertMarks([makeMark(0), makeMark(1)]);
          await tx.appendLog([makeLogEntry(0)]);
          await tx.replaceCatalysts([]);
          await tx.insertSignals([makeSignal()]);
          await tx.insertSpot([makeSpot()]);
          await tx.resolveId('event', 'venue_a:ROLLED-BACK', () => eventId(42));
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await store.counts()).toEqual({ events: 1, markets: 0, marks: 0, log: 0, signals: 0 });
      expect(await store.listEvents()).toEqual([makeEvent(0)]);
      expect(await store.listCatalysts()).toEqual([makeCatalyst()]);
      expect(await store.latestSpot()).toEqual([]);
      // The registration inside the rolled-back transaction is gone too: a new makeId is honoured.
      expect(await store.resolveId('event', 'venue_a:ROLLED-BACK', () => eventId(43))).toBe(eventId(43));
    });

    it('transaction: calling the store itself inside the callback fails loudly', async () => {
      await expect(store.transaction(async () => store.listEvents())).rejects.toThrow(/use the tx argument/);
      await expect(store.transaction(async () => store.transaction(async () => 1))).rejects.toThrow(
        /use the tx argument/,
      );
    });

    it('writes outside a transaction are each atomic', async () => {
      // The second market breaks the unique (platform, platform_market_id) rule: nothing of the call lands.
      await expect(
        store.upsertMarkets([makeMarket(0), makeMarket(1, { platform_market_id: makeMarket(0).platform_market_id })]),
      ).rejects.toThrow();
      expect(await store.listMarkets()).toEqual([]);
    });

    it('generation: 0 before any publish, +1 per published run, unchanged by unpublished runs', async () => {
      expect(await store.generation()).toBe(0);
      const r1 = await store.startRun('simulated', '2026-03-02T10:00:00Z');
      expect(await store.lastRun({ published: true })).toBeNull();
      expect(await store.lastRun()).toEqual({
        run_id: r1,
        started_at: '2026-03-02T10:00:00Z',
        finished_at: null,
        source: 'simulated',
        status: 'running',
        generation: 0,
        summary: {},
      });
      const summary = {
        venues: { venue_a: { pulled: 10, stored: 9, out_of_scope: { combo: 1 }, rejected: {}, error: null } },
      };
      expect(await store.finishRun(r1, 'ok', summary, '2026-03-02T10:05:00Z', true)).toBe(1);
      expect(await store.generation()).toBe(1);

      const r2 = await store.startRun('live', '2026-03-02T11:00:00Z');
      expect(r2).toBeGreaterThan(r1);
      expect(await store.generation()).toBe(1);
      expect(await store.finishRun(r2, 'failed', { error: 'both venues down' }, '2026-03-02T11:01:00Z', false)).toBe(1);
      expect(await store.generation()).toBe(1);
      expect(await store.lastRun()).toMatchObject({ run_id: r2, status: 'failed', generation: 0 });
      expect(await store.lastRun({ published: true })).toMatchObject({ run_id: r1, status: 'ok', generation: 1 });

      const r3 = await store.startRun('live', '2026-03-02T12:00:00Z');
      expect(await store.finishRun(r3, 'partial', summary, '2026-03-02T12:04:00Z', true)).toBe(2);
      expect(await store.generation()).toBe(2);
      expect(await store.lastRun()).toEqual({
        run_id: r3,
        started_at: '2026-03-02T12:00:00Z',
        finished_at: '2026-03-02T12:04:00Z',
        source: 'live',
        status: 'partial',
        generation: 2,
        summary,
      });
      await expect(store.finishRun(r3 + 100, 'ok', {}, '2026-03-02T12:05:00Z', true)).rejects.toThrow(
        /no pipeline run/,
      );
      expect(await store.generation()).toBe(2);
      // Finishing a published run again without publishing never takes the counter back.
      expect(await store.finishRun(r3, 'ok', summary, '2026-03-02T12:06:00Z', false)).toBe(2);
      expect(await store.generation()).toBe(2);
      expect(await store.lastRun()).toMatchObject({ run_id: r3, status: 'ok', generation: 2 });
      await store.startRun('live', '2026-03-02T13:00:00Z');
      expect(await store.lastRun({ published: true })).toMatchObject({ run_id: r3, generation: 2 });
    });

    it('id registry: the same native key gets the same id forever, whatever makeId says later', async () => {
      const key = 'venue_a:KXFEDDECISION-26APR';
      const first = await store.resolveId('event', key, (attempt) => eventId(attempt));
      expect(first).toBe(eventId(0));
      expect(await store.resolveId('event', key, () => 'SVC-EVT-SOMETHING0')).toBe(first);
      expect(await store.resolveIds('event', [key], () => 'SVC-EVT-SOMETHING0')).toEqual([first]);
      // Kinds are separate namespaces of native keys.
      expect(await store.resolveId('market', key, () => marketId(5))).toBe(marketId(5));
    });

    it('id registry: batch resolution keeps input order, repeats, and agrees with single resolution', async () => {
      const keys = Array.from({ length: 2500 }, (_, i) => `venue_b:0x${i.toString(16).padStart(6, '0')}`);
      const make = (key: string, attempt: number) => marketIdFor('venue_b', key, attempt);
      const single = await store.resolveId('market', keys[7] ?? '', (attempt) => make(keys[7] ?? '', attempt));
      const withRepeats = [...keys, keys[0] ?? '', keys[7] ?? ''];
      const ids = await store.resolveIds('market', withRepeats, make);
      expect(ids).toHaveLength(withRepeats.length);
      expect(ids.slice(0, keys.length)).toEqual(keys.map((k) => make(k, 0)));
      expect(ids[7]).toBe(single);
      expect(ids.at(-2)).toBe(ids[0]);
      expect(ids.at(-1)).toBe(single);
      expect(await store.resolveIds('market', [], make)).toEqual([]);
    });

    it('id registry: a colliding id is salted with attempt 1, 2, … and the salt is recorded', async () => {
      const fixed = 'SVC-MKT-COLLIDE000';
      // makeId returns the same id for every key at attempt 0: a forced hash collision.
      const makeId = (key: string, attempt: number) =>
        attempt === 0 ? fixed : `SVC-MKT-${key.slice(-1)}SALT${String(attempt).padStart(5, '0')}`;
      const a = await store.resolveId('market', 'venue_a:KEY-A', (attempt) => makeId('A', attempt));
      const b = await store.resolveId('market', 'venue_a:KEY-B', (attempt) => makeId('B', attempt));
      expect(a).toBe(fixed);
      expect(b).toBe('SVC-MKT-BSALT00001');

      // In one batch: C and D both collide with the fixed id, and D's first salt collides with C's.
      const batchMake = (key: string, attempt: number) =>
        attempt === 0 ? fixed : attempt === 1 ? 'SVC-MKT-SHARED0001' : `SVC-MKT-${key.slice(-1)}SALT${attempt}0000`;
      const [c, d, again] = await store.resolveIds(
        'market',
        ['venue_a:KEY-C', 'venue_a:KEY-D', 'venue_a:KEY-A'],
        batchMake,
      );
      expect(c).toBe('SVC-MKT-SHARED0001');
      expect(d).toBe('SVC-MKT-DSALT20000');
      expect(again).toBe(fixed);

      const rows = await sql<{ native_key: string; id: string; attempt: number }>`
        SELECT native_key, id, attempt FROM id_registry WHERE kind = 'market' ORDER BY native_key`.execute(store.db);
      expect(rows.rows.map((r) => ({ ...r, attempt: Number(r.attempt) }))).toEqual([
        { native_key: 'venue_a:KEY-A', id: fixed, attempt: 0 },
        { native_key: 'venue_a:KEY-B', id: 'SVC-MKT-BSALT00001', attempt: 1 },
        { native_key: 'venue_a:KEY-C', id: 'SVC-MKT-SHARED0001', attempt: 1 },
        { native_key: 'venue_a:KEY-D', id: 'SVC-MKT-DSALT20000', attempt: 2 },
      ]);
    });

    it('id registry: a makeId that never stops colliding is an error, not a loop', async () => {
      await store.resolveId('market', 'venue_a:ONE', () => 'SVC-MKT-ALWAYS0000');
      await expect(store.resolveId('market', 'venue_a:TWO', () => 'SVC-MKT-ALWAYS0000')).rejects.toThrow(
        /no free market id/,
      );
    });

    it('bulk: thousands of markets and marks in one transaction round-trip exactly', async () => {
      const markets = Array.from({ length: 2400 }, (_, i) => makeMarket(i));
      const marks = markets.map((_, i) => makeMark(i, '2026-03-02'));
      await store.transaction(async (tx) => {
        await tx.upsertMarkets(markets);
        await tx.upsertMarks(marks);
      });
      const sorted = [...markets].sort((a, b) => (a.market_id < b.market_id ? -1 : 1));
      expect(await store.listMarkets()).toEqual(sorted);
      const byMarket = await store.listMarks({ marketIds: markets.map((m) => m.market_id) });
      expect(byMarket).toHaveLength(marks.length);
      expect(byMarket.map(({ mark_id: _id, ...rest }) => rest)).toEqual(
        [...marks].sort((a, b) => (a.market_id < b.market_id ? -1 : 1)),
      );
      expect((await store.latestMarks()).length).toBe(markets.length);
    });

    typedStorageContract(name, () => store);
  });
}

function bySignalOrder(a: { published_at: string; record_slug: string }, b: typeof a): number {
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return a.record_slug < b.record_slug ? -1 : 1;
}
