// Through the pipeline and the read model, a market past its close is never served open, a settled one is served resolved with its outcome and final price, an event's resolved flag agrees with its markets, and every venue resolution step is logged exactly once however often the same data is run.
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventListItem, MarketDetail, ResolutionLogEntry } from '../../src/domain/index.ts';
import { buildReadModel, type ReadModel } from '../../src/serve/read-model.ts';
import type { Store } from '../../src/store/index.ts';
import { runOn, tempStore } from './harness.ts';

const DIR = fileURLToPath(new URL('../fixtures/venues/lifecycle/', import.meta.url));
const RUN1 = `${DIR}run1`;
const RUN2 = `${DIR}run2`;
const RUN1_AT = '2026-05-01T12:00:00.000Z';
const RUN2_AT = '2026-05-02T12:00:00.000Z';
const hourAfter = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString();

let store: Store;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
});
afterEach(async () => {
  await dispose();
});

async function nativeOf(): Promise<Map<string, string>> {
  return new Map((await store.listMarkets()).map((m) => [m.market_id, m.platform_market_id]));
}

/** Log rows as [native id, type, from, to, basis, occurred_at], in append order. */
async function rows(entries: ResolutionLogEntry[]) {
  const natives = await nativeOf();
  return entries.map((e) => [
    natives.get(e.market_id),
    e.event_type,
    e.from_value,
    e.to_value,
    e.occurred_basis,
    e.occurred_at,
  ]);
}

function servedMarkets(model: ReadModel): Map<string, MarketDetail> {
  const out = new Map<string, MarketDetail>();
  for (const entry of model.marketById.values()) {
    const m = JSON.parse(entry.detail.bytes.toString()) as MarketDetail;
    out.set(m.platform_market_id, m);
  }
  return out;
}

function market(model: ReadModel, native: string): MarketDetail {
  const m = servedMarkets(model).get(native);
  if (!m) throw new Error(`${native} is not served`);
  return m;
}

/** Every event's list item next to the statuses of its served markets. */
function eventsWithMarkets(model: ReadModel) {
  return model.events.map((e) => ({
    item: JSON.parse(e.item) as EventListItem,
    markets: (JSON.parse(e.full.bytes.toString()) as { markets: Array<{ status: string }> }).markets,
  }));
}

describe('lifecycle through the pipeline', () => {
  it('logs first sightings: derived closes, settlements, and every UMA and settlement step', async () => {
    await runOn(store, RUN1, RUN1_AT);
    const got = await rows(await store.listLog());
    const first = 'first_observed';
    expect(got).toEqual(
      expect.arrayContaining([
        ['PLCPI-26APR-PAST', 'status_change', null, 'closed', first, RUN1_AT],
        ['PLCPI-26APR-DET', 'status_change', null, 'closed', first, RUN1_AT],
        ['PLCPI-26APR-DET', 'resolution_proposed', null, 'proposed', first, RUN1_AT],
        ['PLCPI-26APR-DISP', 'status_change', null, 'closed', first, RUN1_AT],
        ['PLCPI-26APR-DISP', 'disputed', null, 'disputed', first, RUN1_AT],
        ['PLCPI-26APR-FIN', 'status_change', null, 'resolved', first, RUN1_AT],
        ['PLCPI-26APR-FIN', 'resolved', null, 'YES', 'venue_settlement', '2026-04-21T14:00:00.000Z'],
        ['0xb1', 'status_change', null, 'closed', first, RUN1_AT],
        ['0xb2', 'status_change', null, 'resolved', first, RUN1_AT],
        ['0xb2', 'resolution_proposed', null, 'proposed', first, RUN1_AT],
        ['0xb2', 'disputed', 'proposed', 'disputed', first, RUN1_AT],
        ['0xb2', 'resolution_proposed', 'disputed', 'proposed', first, RUN1_AT],
        ['0xb2', 'resolved', null, 'YES', 'venue_settlement', '2026-04-12T10:00:00.000Z'],
        ['0xb4', 'status_change', null, 'resolved', first, RUN1_AT],
        ['0xb4', 'resolution_proposed', null, 'proposed', first, RUN1_AT],
        ['0xb4', 'resolved', null, 'NO', 'venue_settlement', '2026-04-13T09:00:00.000Z'],
        ['0xb3', 'resolution_proposed', null, 'proposed', first, RUN1_AT],
      ]),
    );
    expect(got).toHaveLength(17);
    const log = await store.listLog();
    expect(log.every((e) => e.source === 'platform_api' && e.source_ref === null)).toBe(true);
  });

  it('appends nothing when the same data runs again, and exactly the new steps when the venues move', async () => {
    await runOn(store, RUN1, RUN1_AT);
    const again = await runOn(store, RUN1, hourAfter(RUN1_AT));
    expect(again).toMatchObject({ log_entries: 0, markets_written: 0 });

    const before = (await store.listLog()).length;
    const moved = await runOn(store, RUN2, RUN2_AT);
    const added = (await store.listLog()).slice(before);
    expect(moved.log_entries).toBe(added.length);
    expect(await rows(added)).toEqual(
      expect.arrayContaining([
        // determined → finalized: the proposal became the outcome, at the venue's settlement time.
        ['PLCPI-26APR-DET', 'status_change', 'closed', 'resolved', 'venue_settlement', '2026-05-01T18:00:00.000Z'],
        ['PLCPI-26APR-DET', 'resolved', 'closed', 'YES', 'venue_settlement', '2026-05-01T18:00:00.000Z'],
        // disputed → determined: a new determination.
        ['PLCPI-26APR-DISP', 'resolution_proposed', 'disputed', 'proposed', 'first_observed', RUN2_AT],
        // UMA history ["proposed"] → ["proposed", "disputed"]: one dispute.
        ['0xb3', 'disputed', 'proposed', 'disputed', 'first_observed', RUN2_AT],
      ]),
    );
    expect(added).toHaveLength(4);
    expect((await runOn(store, RUN2, hourAfter(RUN2_AT))).log_entries).toBe(0);
  });

  it('serves statuses, outcomes, disputes and price times that agree with the venues and with each other', async () => {
    await runOn(store, RUN1, RUN1_AT);
    await runOn(store, RUN2, RUN2_AT);
    const model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(RUN2_AT) });

    const past = market(model, 'PLCPI-26APR-PAST');
    expect(past.status).toBe('closed');
    expect(past.status_provenance).toMatchObject({ source: 'derived', rule: 'past_close' });
    expect(past.price_as_of).toBeNull();
    expect(past.last_checked_at).toBe(RUN2_AT);

    const det = market(model, 'PLCPI-26APR-DET');
    expect([det.status, det.resolution_outcome, det.final_price, det.resolved_at]).toEqual([
      'resolved',
      'YES',
      1,
      '2026-05-01T18:00:00.000Z',
    ]);
    expect(det.resolution.disputes).toEqual({
      disputed: false,
      count: 0,
      last_at: null,
      proposals: 1,
      state: 'finalized',
    });

    const no = market(model, '0xb4');
    expect([no.status, no.resolution_outcome, no.final_price]).toEqual(['resolved', 'NO', 0]);
    expect(market(model, '0xb2').resolution.disputes).toEqual({
      disputed: true,
      count: 1,
      last_at: RUN1_AT,
      proposals: 2,
      state: 'resolved',
    });
    const pending = market(model, '0xb3');
    expect([pending.status, pending.resolution_outcome, pending.final_price]).toEqual(['open', null, null]);
    expect(pending.resolution.disputes).toEqual({
      disputed: true,
      count: 1,
      last_at: RUN2_AT,
      proposals: 1,
      state: 'disputed',
    });
    expect(market(model, 'PLCPI-26MAY-OPEN').price_as_of).toBe('2026-04-30T11:55:00.000Z');

    const served = [...servedMarkets(model).values()];
    expect(served.filter((m) => m.status === 'open' && m.close_at !== null && m.close_at <= RUN2_AT)).toEqual([]);
    for (const { item, markets } of eventsWithMarkets(model)) {
      expect(item.resolved).toBe(!markets.some((m) => m.status === 'open'));
      if (item.status === 'open') expect(item.resolved).toBe(false);
    }
    expect(
      eventsWithMarkets(model)
        .map(({ item }) => item.resolved)
        .sort(),
    ).toEqual([false, false, true, true]);
  });

  it('closes at serve time a market whose close passed after the last run, and its event with it', async () => {
    await runOn(store, RUN1, RUN1_AT);
    const later = '2026-06-02T00:00:00.000Z';
    const model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(later) });
    const open = market(model, 'PLCPI-26MAY-OPEN');
    expect(open.status).toBe('closed');
    expect(open.status_provenance).toMatchObject({ source: 'derived', rule: 'past_close' });
    // Its event had no other market: it is no longer live, and the one still-open venue_b event is.
    expect(
      eventsWithMarkets(model)
        .filter(({ item }) => !item.resolved)
        .map(({ item }) => item.slug),
    ).toEqual(['snb-by-july']);
  });
});
