// Every record of the recorded venue data is stored, out of scope with a reason, or rejected with a reason; no market is served open past its close, no event's resolved flag contradicts its markets, every UMA proposal and dispute is logged; and a second identical run changes nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventListItem, MarketDetail } from '../../src/domain/index.ts';
import type { RunSummary } from '../../src/pipeline/index.ts';
import { buildReadModel } from '../../src/serve/read-model.ts';
import type { Store } from '../../src/store/index.ts';
import { SqlTx } from '../../src/store/sql-tx.ts';
import { runOn, tempStore } from './harness.ts';

const RUN_AT = '2026-09-01T12:00:00.000Z';

/** venue_b market records in the recorded files, with their UMA history lists (Gamma sends them as JSON text). */
function recordedUmaHistories(dir: string): Array<{ conditionId: string; statuses: string[] }> {
  const out: Array<{ conditionId: string; statuses: string[] }> = [];
  const visit = (m: unknown) => {
    if (typeof m !== 'object' || m === null) return;
    const rec = m as { conditionId?: unknown; umaResolutionStatuses?: unknown };
    if (typeof rec.conditionId !== 'string') return;
    let list: unknown = rec.umaResolutionStatuses;
    if (typeof list === 'string') list = list === '' ? [] : JSON.parse(list);
    out.push({ conditionId: rec.conditionId, statuses: Array.isArray(list) ? list.map(String) : [] });
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const data: unknown = JSON.parse(readFileSync(`${dir}${file}`, 'utf8'));
    const items: unknown[] = Array.isArray(data) ? data : [data];
    for (const item of items) {
      const markets = (item as { markets?: unknown }).markets;
      if (Array.isArray(markets)) markets.forEach(visit);
      else visit(item);
    }
  }
  return out;
}

const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const present = existsSync(REAL);
if (!present) console.warn(`real-fixtures.test.ts skipped: ${REAL} is absent (it holds the recorded venue data)`);

describe.skipIf(!present)('the recorded venue data through the replay server', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let first: RunSummary;
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    first = await runOn(store, REAL, RUN_AT, { timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await dispose();
  });

  it('accounts for every pulled record: stored + out of scope + rejected = pulled, with no venue error', () => {
    for (const v of Object.values(first.venues)) {
      const sum = (r: Record<string, number>) => Object.values(r).reduce((n, x) => n + x, 0);
      expect(v.error).toBeNull();
      expect(v.stored + sum(v.out_of_scope) + sum(v.rejected)).toBe(v.pulled);
      expect(v.stored).toBeGreaterThan(0);
    }
    expect(first.status).toBe('ok');
    expect(first.marks).toBe(first.venues.venue_a.stored + first.venues.venue_b.stored);
  });

  it('serves no market open past its close and no event whose resolved flag contradicts its markets', async () => {
    const model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(RUN_AT) });
    const markets = [...model.marketById.values()].map((e) => JSON.parse(e.detail.bytes.toString()) as MarketDetail);
    const openPastClose = markets.filter((m) => m.status === 'open' && m.close_at !== null && m.close_at <= RUN_AT);
    let contradicting = 0;
    for (const entry of model.events) {
      const item = JSON.parse(entry.item) as EventListItem;
      const served = (JSON.parse(entry.full.bytes.toString()) as { markets: Array<{ status: string }> }).markets;
      const anyOpen = served.some((m) => m.status === 'open');
      if (item.resolved === anyOpen || (item.status === 'open' && item.resolved)) contradicting++;
    }
    const resolved = markets.filter((m) => m.status === 'resolved');
    const derived = markets.filter((m) => m.status_provenance.source === 'derived');
    console.info(
      `real fixtures: ${markets.length} markets served, ${openPastClose.length} open past close, ` +
        `${derived.length} closed by derivation, ${resolved.length} resolved; ${model.events.length} events, ` +
        `${contradicting} contradicting their markets`,
    );
    expect(openPastClose.map((m) => m.platform_market_id)).toEqual([]);
    expect(contradicting).toBe(0);
    expect(derived.length).toBeGreaterThan(0);
    // Every resolved market says how it resolved: the outcome and the final price.
    expect(resolved.filter((m) => m.resolution_outcome === null || m.final_price === null)).toEqual([]);
  });

  it("keeps each market's own fee fields: venue_b fees enabled (no net figure) or disabled (no fee), venue_a series terms", async () => {
    // What the recorded venue_b market objects say (data/fees/venue_b.json): feesEnabled true, false, or absent.
    const recorded = new Map<string, boolean | null>();
    const visit = (m: unknown) => {
      const rec = m as { conditionId?: unknown; feesEnabled?: unknown };
      if (typeof rec?.conditionId === 'string')
        recorded.set(rec.conditionId, typeof rec.feesEnabled === 'boolean' ? rec.feesEnabled : null);
    };
    for (const file of readdirSync(`${REAL}venue_b/`).filter((f) => f.endsWith('.json'))) {
      const data: unknown = JSON.parse(readFileSync(`${REAL}venue_b/${file}`, 'utf8'));
      for (const item of Array.isArray(data) ? data : [data]) {
        const markets = (item as { markets?: unknown }).markets;
        if (Array.isArray(markets)) markets.forEach(visit);
        else visit(item);
      }
    }
    const kinds = { unpriced: 0, none: 0, schedule: 0 };
    for (const m of await store.listMarkets({ venue: 'venue_b' })) {
      const said = recorded.get(m.platform_market_id);
      const terms = m.fee_terms ?? null;
      if (said === true) {
        expect([m.platform_market_id, terms?.taker_multiplier, terms?.venue_fields.feesEnabled]).toEqual([
          m.platform_market_id,
          null,
          true,
        ]);
        kinds.unpriced++;
      } else if (said === false) {
        expect([m.platform_market_id, terms?.taker_multiplier]).toEqual([m.platform_market_id, 0]);
        kinds.none++;
      } else {
        expect([m.platform_market_id, terms]).toEqual([m.platform_market_id, null]);
        kinds.schedule++;
      }
    }
    const a = await store.listMarkets({ venue: 'venue_a' });
    const withSeriesTerms = a.filter((m) => m.fee_terms?.basis === 'venue_series');
    for (const m of withSeriesTerms) expect(m.fee_terms?.taker_multiplier).toBeGreaterThan(0);
    console.info(
      `real fixtures: venue_b fee terms: ${kinds.unpriced} fee-enabled (no net figure), ${kinds.none} fees disabled, ` +
        `${kinds.schedule} without fee fields; venue_a: ${withSeriesTerms.length} of ${a.length} markets under a series with fee fields`,
    );
    expect(kinds.none).toBeGreaterThan(100);
  });

  it('logs every UMA proposal and dispute of the stored venue_b markets, once per step', async () => {
    const recorded = recordedUmaHistories(`${REAL}venue_b/`);
    const withProposal = recorded.filter((r) => r.statuses.includes('proposed'));
    const withDispute = new Set(recorded.filter((r) => r.statuses.includes('disputed')).map((r) => r.conditionId));
    // What the recorded data holds (venue-notes.md): 519 records with a proposal history, 512 distinct markets
    // (7 appear in two files), 19 markets with a dispute.
    expect([withProposal.length, new Set(withProposal.map((r) => r.conditionId)).size, withDispute.size]).toEqual([
      519, 512, 19,
    ]);

    const stored = (await store.listMarkets({ venue: 'venue_b' })).filter((m) => m.resolution_history);
    const log = await store.listLog();
    const count = (type: string) => {
      const byMarket = new Map<string, number>();
      for (const e of log) if (e.event_type === type) byMarket.set(e.market_id, (byMarket.get(e.market_id) ?? 0) + 1);
      return byMarket;
    };
    const proposed = count('resolution_proposed');
    const disputed = count('disputed');
    for (const m of stored) {
      expect([m.platform_market_id, proposed.get(m.market_id) ?? 0]).toEqual([
        m.platform_market_id,
        m.resolution_history?.proposals,
      ]);
      expect([m.platform_market_id, disputed.get(m.market_id) ?? 0]).toEqual([
        m.platform_market_id,
        m.resolution_history?.disputes,
      ]);
    }
    const storedIds = new Set((await store.listMarkets({ venue: 'venue_b' })).map((m) => m.platform_market_id));
    const inScopeWithProposal = new Set(withProposal.map((r) => r.conditionId).filter((c) => storedIds.has(c)));
    const inScopeWithDispute = [...withDispute].filter((c) => storedIds.has(c));
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    console.info(
      `real fixtures: ${inScopeWithProposal.size} of 512 markets with a proposal history are in scope and stored, ` +
        `${inScopeWithDispute.length} of 19 with a dispute; log: ${sum(proposed)} resolution_proposed entries on ` +
        `${proposed.size} markets, ${sum(disputed)} disputed entries on ${disputed.size} markets`,
    );
    // Every dispute market is in scope; the proposal markets left out are out of scope (sports, entertainment…).
    expect(inScopeWithDispute).toHaveLength(19);
    expect(proposed.size).toBeGreaterThanOrEqual(inScopeWithProposal.size);
    expect(disputed.size).toBeGreaterThanOrEqual(19);
  });

  it('is idempotent over the whole set', async () => {
    const markets = await store.listMarkets();
    const log = await store.listLog();
    const again = await runOn(store, REAL, '2026-09-01T13:00:00.000Z', { timeoutMs: 30_000 });
    expect(again).toMatchObject({ log_entries: 0, markets_written: 0, events_written: 0 });
    expect(await store.listMarkets()).toEqual(markets);
    expect(await store.listLog()).toEqual(log);
    // Real records read by their catalog entries are the records read whole, byte for byte.
    expect(again.stored_markets?.read).toBe(markets.length);
    const lazy = await store.listMarkets({ lazy: true });
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(markets));
  });

  it('stores on a refresh the marks a full run stores, most of them moved in place (their time columns only)', async () => {
    // The suite's store refreshes incrementally at 13:30 (its memo from the 13:00 run); a second store runs the same
    // recorded data in full at 12:00 and 13:30. Real venue payloads and update times go through the same-day move.
    const moved = vi.spyOn(SqlTx.prototype, 'retimeMarks');
    let given: number;
    let handedBack: number;
    try {
      await runOn(store, REAL, '2026-09-01T13:30:00.000Z', { timeoutMs: 30_000 });
      given = moved.mock.calls.reduce((n, [marks]) => n + marks.length, 0);
      const results = await Promise.all(moved.mock.results.map((r) => r.value as Promise<unknown[]>));
      handedBack = results.reduce((n, left) => n + left.length, 0);
    } finally {
      moved.mockRestore();
    }
    const full = await tempStore();
    try {
      await runOn(full.store, REAL, RUN_AT, { timeoutMs: 30_000, incremental: false });
      await runOn(full.store, REAL, '2026-09-01T13:30:00.000Z', { timeoutMs: 30_000, incremental: false });
      const withoutIds = async (s: Store) => (await s.listMarks()).map(({ mark_id: _id, ...m }) => m);
      const marks = await withoutIds(store);
      expect(marks).toEqual(await withoutIds(full.store));
      const today = marks.filter((m) => m.snapshot_date === '2026-09-01');
      console.info(
        `real fixtures: a refresh moved ${given - handedBack} of ${today.length} of today's marks in place (${handedBack} handed back to the upsert)`,
      );
      expect(today.every((m) => m.snapshot_at === '2026-09-01T13:30:00.000Z')).toBe(true);
      expect(given - handedBack).toBeGreaterThan(today.length / 2);
    } finally {
      await full.dispose();
    }
  });

  it('writes nothing when every event is derived again: each derived market stands as its stored record', async () => {
    // A full run derives every event; a derived market equal to its stored record (screens and links aside) is
    // replaced by that record at once (editorial-stage.ts sameAsDerived), and none may come out changed.
    const markets = await store.listMarkets();
    const events = await store.listEvents();
    const again = await runOn(store, REAL, '2026-09-01T14:00:00.000Z', { timeoutMs: 30_000, incremental: false });
    expect(again.events?.derived).toBe(again.events?.pulled);
    expect(again.events?.pulled).toBeGreaterThan(500); // 604 recorded events in scope
    expect(again).toMatchObject({ log_entries: 0, markets_written: 0, events_written: 0 });
    expect(await store.listMarkets()).toEqual(markets);
    expect(await store.listEvents()).toEqual(events);
  });
});
