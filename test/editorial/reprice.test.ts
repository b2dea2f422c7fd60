// repriceEvent (issue 18): an event whose inputs are unchanged but for its quotes gets, from what deriveEvent gave at
// earlier quotes read back from the store (JSON), exactly what deriveEvent gives at the new quotes, byte for byte.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/commands/bench-history.ts';
import type { Event, Market, VenueFacts } from '../../src/domain/index.ts';
import type { Overrides } from '../../src/editorial/canon/index.ts';
import { type NativeRecord, nativeRecordsOf, parseOverrides } from '../../src/editorial/canon/index.ts';
import { deriveEvent, type MarkSummary, repriceEvent } from '../../src/editorial/index.ts';
import { event as blankEventOf, NOW } from './canon/helpers.ts';
import { FIXTURE_DIR, loadFixtureMarkets } from './resolution/fixture-markets.ts';

interface TestEvent {
  event: Event;
  markets: { market: Market; facts: VenueFacts }[];
}

type Scenario = 'random' | 'descending' | 'ascending' | 'one-missing' | 'volume-tie' | 'no-marks';
const SCENARIOS: Scenario[] = ['random', 'descending', 'ascending', 'one-missing', 'volume-tie', 'no-marks'];

/** Quotes for an event's markets under one scenario: ladders monotone either way, a missing price, equal volumes. */
function quotes(ids: readonly string[], scenario: Scenario, seed: number): Map<string, MarkSummary> {
  // A deterministic generator, so a failure names a reproducible case.
  const next = mulberry32(seed);
  const out = new Map<string, MarkSummary>();
  if (scenario === 'no-marks') return out;
  ids.forEach((id, i) => {
    const step = (i + 1) / (ids.length + 1);
    const price =
      scenario === 'descending' ? 1 - step : scenario === 'ascending' ? step : Math.round(next() * 100) / 100;
    out.set(id, {
      last_price: scenario === 'one-missing' && i === 0 ? null : price,
      volume_24h_usd: scenario === 'volume-tie' ? 1000 : Math.round(next() * 5000),
      liquidity_usd: next() < 0.2 ? null : Math.round(next() * 900),
    });
  });
  return out;
}

/** What the store gives back for a record: its JSON read again. */
const stored = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** Asserts repriceEvent at `later` equals deriveEvent at `later`, from deriveEvent at `earlier`. */
function checkReprice(
  e: TestEvent,
  earlier: Map<string, MarkSummary>,
  later: Map<string, MarkSummary>,
  overrides?: Overrides,
) {
  const input = { event: e.event, markets: e.markets, now: NOW, ...(overrides ? { overrides } : {}) };
  const before = stored(deriveEvent({ ...input, marks: earlier }));
  const expected = deriveEvent({ ...input, marks: later });
  const repriced = repriceEvent({
    event: e.event,
    derived: before,
    facts: e.markets.map((m) => m.facts),
    marks: later,
    ...(overrides ? { overrides } : {}),
  });
  expect(repriced, `event ${e.event.event_id}: repriceEvent gave null`).not.toBeNull();
  expect(JSON.stringify(repriced), `event ${e.event.event_id}`).toBe(JSON.stringify(expected));
  return expected.event;
}

/** Events of native records grouped by their native event (a record without one is its own event). */
function eventsOf(records: readonly NativeRecord[]): TestEvent[] {
  const groups = new Map<string, NativeRecord[]>();
  for (const r of records) {
    const id = r.nativeEventId ?? r.market.platform_market_id;
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }
  return [...groups].map(([id, recs]) => ({
    event: blankEventOf(recs[0]?.market.platform ?? 'venue_a', id, recs[0]?.market.question_raw ?? id),
    markets: recs.map((r) => ({ market: r.market, facts: r.facts })),
  }));
}

describe('repriceEvent on self-written venue-shaped events', () => {
  const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/canon/bundles.json'), 'utf8'));
  const events = eventsOf(nativeRecordsOf(fixture, NOW));

  it('gives what deriveEvent gives at the new quotes, for every bundle type and quote scenario', () => {
    expect(
      new Set(events.map((e) => deriveEvent({ ...e, marks: new Map(), now: NOW }).event.bundle_type)).size,
    ).toBeGreaterThanOrEqual(4);
    for (const e of events) {
      const ids = e.markets.map((m) => m.market.market_id);
      for (const [i, from] of SCENARIOS.entries())
        for (const [j, to] of SCENARIOS.entries()) checkReprice(e, quotes(ids, from, i), quotes(ids, to, 100 + j));
    }
  });

  it('moves the primary market and the ladder with the quotes', () => {
    const ladder = events.find((e) => e.event.platform_event_id === 'TFED-26JUN');
    expect(ladder).toBeDefined();
    if (!ladder) return;
    const ids = ladder.markets.map((m) => m.market.market_id);
    const at = (prices: number[], volumes: number[]) =>
      new Map(
        ids.map((id, i) => [id, { last_price: prices[i] ?? null, volume_24h_usd: volumes[i] ?? 0, liquidity_usd: 0 }]),
      );
    const before = stored(deriveEvent({ ...ladder, marks: at([0.95, 0.6, 0.1], [10, 500, 20]), now: NOW }));
    const later = at([0.95, 0.5, 0.2], [900, 500, 20]);
    const out = repriceEvent({
      event: ladder.event,
      derived: before,
      facts: ladder.markets.map((m) => m.facts),
      marks: later,
    });
    expect(before.event.primary_market_id).toBe(ids[1]);
    expect(out?.event.primary_market_id).toBe(ids[0]);
    expect(out?.event.ladder_distribution?.points.map((p) => Number(p.probability.toFixed(2)))).toEqual([
      0.05, 0.45, 0.3, 0.2,
    ]);
    // The markets are what canon gave before: no market field reads a quote.
    expect(out?.markets).toEqual(before.markets);
  });

  it('keeps an override lock and a lock stored before the run, as deriveEvent does', () => {
    const e = events.find((x) => x.event.platform_event_id === 'TFED-26JUN');
    if (!e) throw new Error('fixture event TFED-26JUN missing');
    const ids = e.markets.map((m) => m.market.market_id);
    const overrides = parseOverrides({
      version: 1,
      overrides: [
        {
          id: 'lock-test',
          target: { venue: 'venue_a', event: 'TFED-26JUN' },
          primary_market: e.markets[2]?.market.platform_market_id,
          lock: true,
          why: 'a test lock',
        },
      ],
    });
    checkReprice(e, quotes(ids, 'random', 1), quotes(ids, 'random', 2), overrides);
    const locked: TestEvent = {
      ...e,
      event: { ...e.event, primary_market_locked: true, primary_market_id: ids[0] ?? null },
    };
    checkReprice(locked, quotes(ids, 'random', 3), quotes(ids, 'descending', 4));
  });

  it('gives null, so the caller derives, when the stored records lack what it reads back', () => {
    const e = events.find((x) => x.markets.length > 1);
    if (!e) throw new Error('no multi-market event in the fixture');
    const before = stored(deriveEvent({ ...e, marks: new Map(), now: NOW }));
    const facts = e.markets.map((m) => m.facts);
    const marks = new Map<string, MarkSummary>();
    expect(
      repriceEvent({
        event: e.event,
        derived: { ...before, event: { ...before.event, bundle_type: null } },
        facts,
        marks,
      }),
    ).toBeNull();
    expect(repriceEvent({ event: e.event, derived: before, facts: facts.slice(1), marks })).toBeNull();
    const broken = before.markets.map((m, i) => (i === 0 ? { ...m, claim_key: { op: 'sideways' } } : m));
    const anyKeyed = before.markets.some((m) => m.claim_key !== null);
    if (anyKeyed)
      expect(repriceEvent({ event: e.event, derived: { ...before, markets: broken }, facts, marks })).toBeNull();
  });
});

const present = existsSync(FIXTURE_DIR);
if (!present) console.warn(`repriceEvent on real markets skipped: venue fixtures not found at ${FIXTURE_DIR}`);

describe.skipIf(!present)('repriceEvent on every real fixture event', () => {
  it('gives what deriveEvent gives at the new quotes', () => {
    const groups = new Map<string, TestEvent>();
    for (const m of present ? loadFixtureMarkets() : []) {
      const id = m.event ?? `${m.venue}:${m.id}`;
      const group = groups.get(id) ?? { event: blankEventOf(m.venue, id, m.market.question_raw ?? id), markets: [] };
      group.markets.push({ market: m.market, facts: m.facts });
      groups.set(id, group);
    }
    const bundles = new Map<string, number>();
    let seed = 0;
    for (const e of groups.values()) {
      const ids = e.markets.map((m) => m.market.market_id);
      let bundle = '';
      for (const [from, to] of [
        ['random', 'random'],
        ['descending', 'one-missing'],
        ['no-marks', 'ascending'],
      ] as const) {
        bundle = String(checkReprice(e, quotes(ids, from, ++seed), quotes(ids, to, ++seed)).bundle_type);
      }
      bundles.set(bundle, (bundles.get(bundle) ?? 0) + 1);
    }
    console.info(`repriceEvent: ${groups.size} real events checked, by bundle type ${JSON.stringify([...bundles])}`);
    expect(groups.size).toBeGreaterThan(500);
    expect(bundles.size).toBeGreaterThanOrEqual(4);
  });
});
