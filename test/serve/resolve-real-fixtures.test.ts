// Every identifier the recorded venue data holds for a served market or event — pmref ids, tickers, event and series tickers, slugs, condition ids, CLOB token ids, Gamma ids, and page URLs of both venues built from them — resolves to that very record, and every market reference leads `GET /v1/markets/{id}` to its market.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Event, type MarketListItem, ResolveAnswerSchema } from '../../src/domain/index.ts';
import { buildReadModel, type ReadModel } from '../../src/serve/index.ts';
import { marketIdForRef, resolveRef } from '../../src/serve/resolve.ts';
import type { Store } from '../../src/store/index.ts';
import { loadReplayData } from '../../src/venues/index.ts';
import { runOn, tempStore } from '../pipeline/harness.ts';

const RUN_AT = '2026-09-01T12:00:00.000Z';
const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const present = existsSync(REAL);
if (!present)
  console.warn(`resolve-real-fixtures.test.ts skipped: ${REAL} is absent (it holds the recorded venue data)`);

type Rec = Record<string, unknown>;

/** One reference to try, the record it must lead to, and whether it names a group (series, question) by nature. */
interface Case {
  kind: string;
  ref: string;
  match: 'market' | 'event';
  id: string;
  group?: boolean;
  /** Needs the venue identifiers the Market record keeps in `venue_refs` (market slug, token ids, Gamma ids). */
  venueRefs?: boolean;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const idText = (v: unknown): string | null => (typeof v === 'number' ? String(v) : str(v));

function decodedList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== 'string' || v === '') return [];
  const parsed: unknown = JSON.parse(v);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** The cases of every served market and event, from the recorded records the pipeline read (de-duplicated). */
function casesOf(model: ReadModel): Case[] {
  const raw = loadReplayData(REAL);
  const aEvents = new Map(raw.venueA.events.map((e) => [String(e.event_ticker), e]));
  const bMarkets = new Map<string, Rec>();
  for (const m of raw.venueB.markets) {
    const c = str(m.conditionId);
    if (c) bMarkets.set(c, m);
  }
  const events = new Map<string, Event>(model.events.map((e) => [e.event.event_id, e.event]));
  const out = new Map<string, Case>();
  const add = (c: Case) => out.set(`${c.kind}\0${c.ref}`, c);
  for (const e of events.values()) {
    add({ kind: 'event_id', ref: e.event_id, match: 'event', id: e.event_id });
    add({ kind: 'event_id (lower case)', ref: e.event_id.toLowerCase(), match: 'event', id: e.event_id });
    add({ kind: 'event_slug (pmref)', ref: e.slug, match: 'event', id: e.event_id });
    add({ kind: 'pmref_url', ref: `https://pmref.example/events/${e.slug}`, match: 'event', id: e.event_id });
  }
  for (const m of model.catalog.rows.map((r): MarketListItem => r.item)) {
    const M = { match: 'market' as const, id: m.market_id };
    add({ kind: 'market_id', ref: m.market_id, ...M });
    add({ kind: 'pmref_url', ref: `https://pmref.example/v1/markets/${m.market_id}`, ...M });
    if (m.question_id) add({ kind: 'question_id', ref: m.question_id, ...M, group: true });
    const event = m.event_id === null ? undefined : events.get(m.event_id);
    const E = event ? { match: 'event' as const, id: event.event_id } : null;
    if (m.platform === 'venue_a') {
      const r = raw.venueA.markets.get(m.platform_market_id);
      if (!r) continue;
      const ticker = String(r.ticker);
      add({ kind: 'ticker', ref: ticker, ...M });
      add({ kind: 'ticker (lower case)', ref: ticker.toLowerCase(), ...M });
      const eventTicker = str(r.event_ticker);
      if (!eventTicker || !E) continue;
      add({ kind: 'event_ticker', ref: eventTicker, ...E });
      const recorded = str(aEvents.get(eventTicker)?.series_ticker);
      if (recorded) {
        // A series ticker that is not the event ticker's head is found only through the recorded one (venue_refs).
        const venueRefs = recorded !== eventTicker.split('-')[0];
        add({ kind: 'series_ticker', ref: recorded, ...E, group: true, venueRefs });
        const url = `https://kalshi.com/markets/${recorded.toLowerCase()}`;
        add({ kind: 'venue_a_url (series page)', ref: url, ...E, group: true, venueRefs });
      }
      const series = (recorded ?? eventTicker.split('-')[0] ?? '').toLowerCase();
      add({
        kind: 'venue_a_url (event page)',
        ref: `https://kalshi.com/markets/${series}/${event?.slug.split('-').slice(0, 4).join('-')}/${eventTicker.toLowerCase()}`,
        ...E,
      });
      add({ kind: 'venue_a_url (event page, www, query)', ref: `www.kalshi.com/markets/${eventTicker}/?ref=x`, ...E });
    } else {
      const r = bMarkets.get(m.platform_market_id);
      if (!r) continue;
      const condition = String(r.conditionId);
      add({ kind: 'condition_id', ref: condition, ...M });
      add({ kind: 'condition_id (upper case)', ref: `0x${condition.slice(2).toUpperCase()}`, ...M });
      const slug = str(r.slug);
      if (slug) add({ kind: 'market_slug', ref: slug, ...M, venueRefs: true });
      for (const token of decodedList(r.clobTokenIds)) add({ kind: 'token_id', ref: token, ...M, venueRefs: true });
      const q = str(r.questionID);
      if (q) add({ kind: 'venue_question_id', ref: q, ...M, venueRefs: true });
      const gammaId = idText(r.id);
      if (gammaId) add({ kind: 'venue_market_id', ref: gammaId, ...M, venueRefs: true });
      // The replay hands each market its parent as `events[0]`; an orphan market gets a parent made up from it
      // (id `market-<id>`), whose id is no venue identifier.
      const parent = Array.isArray(r.events) ? (r.events[0] as Rec | undefined) : undefined;
      const eventSlug = str(parent?.slug);
      if (!E || !parent) continue;
      const eventId = idText(parent.id);
      if (eventId && /^\d+$/.test(eventId)) add({ kind: 'venue_event_id', ref: eventId, ...E });
      if (!eventSlug) continue;
      add({ kind: 'event_slug (venue_b)', ref: eventSlug, ...E });
      add({ kind: 'venue_b_url (event page)', ref: `https://polymarket.com/event/${eventSlug}`, ...E });
      add({
        kind: 'venue_b_url (event page, www, locale, query, slash)',
        ref: `https://www.polymarket.com/es/event/${eventSlug}/?tid=1764045739181`,
        ...E,
      });
      if (!slug) continue;
      add({
        kind: 'venue_b_url (market page)',
        ref: `https://polymarket.com/event/${eventSlug}/${slug}`,
        ...M,
        venueRefs: true,
      });
      add({ kind: 'venue_b_url (/market/ page)', ref: `polymarket.com/market/${slug}`, ...M, venueRefs: true });
    }
  }
  return [...out.values()];
}

interface Tally {
  tried: number;
  resolved: number;
  ambiguous: number;
  missed: number;
}

describe.skipIf(!present)('every identifier of the recorded venue data resolves', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let model: ReadModel;
  let cases: Case[];
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    await runOn(store, REAL, RUN_AT, { timeoutMs: 30_000 });
    model = await buildReadModel(store, { origin: 'http://pmref.test', now: new Date(RUN_AT) });
    cases = casesOf(model);
  }, 120_000);
  afterAll(async () => {
    await dispose();
  });

  it('resolves each to its record (counts per kind printed; misses listed)', () => {
    const refsStored = model.refs.venueRefs.size > 0;
    if (!refsStored) {
      console.warn(
        'resolve-real-fixtures: no stored market carries venue_refs (market slug, CLOB token ids, Gamma ids), so ' +
          'those kinds are tallied but not asserted: the venue normalizers do not record them yet.',
      );
    }
    const tally = new Map<string, Tally>();
    const misses: string[] = [];
    const ambiguous: string[] = [];
    for (const c of cases) {
      const t = tally.get(c.kind) ?? { tried: 0, resolved: 0, ambiguous: 0, missed: 0 };
      tally.set(c.kind, t);
      t.tried++;
      const answer = resolveRef(model, c.ref);
      if (answer !== null && !ResolveAnswerSchema.safeParse(answer).success) misses.push(`${c.kind} ${c.ref}: shape`);
      const asserted = refsStored || !c.venueRefs;
      if (answer === null) {
        t.missed++;
        if (asserted) misses.push(`${c.kind} ${c.ref}: nothing matched (want ${c.match} ${c.id})`);
      } else if (answer.match === 'ambiguous') {
        const hit = answer.candidates.some((x) => x.match === c.match && x.id === c.id);
        if (hit) {
          t.ambiguous++;
          if (!c.group) ambiguous.push(`${c.kind} ${c.ref}: ${answer.total} candidates`);
        } else {
          t.missed++;
          if (asserted) misses.push(`${c.kind} ${c.ref}: ${answer.total} candidates, none ${c.match} ${c.id}`);
        }
      } else if (answer.match === c.match && answer.id === c.id) {
        t.resolved++;
      } else {
        t.missed++;
        if (asserted) misses.push(`${c.kind} ${c.ref}: got ${answer.match} ${answer.id}, want ${c.match} ${c.id}`);
      }
    }
    const rows = [...tally].sort(([a], [b]) => a.localeCompare(b));
    console.info(
      `resolve on the real fixtures (${model.catalog.rows.length} markets, ${model.events.length} events):\n` +
        rows
          .map(
            ([k, t]) =>
              `  ${k}: ${t.tried} tried, ${t.resolved} resolved, ${t.ambiguous} ambiguous, ${t.missed} missed`,
          )
          .join('\n') +
        `\n  misses: ${misses.length === 0 ? 'none' : `\n    ${misses.slice(0, 40).join('\n    ')}`}` +
        `\n  ambiguous (not a group kind): ${ambiguous.length === 0 ? 'none' : `\n    ${ambiguous.slice(0, 40).join('\n    ')}`}`,
    );
    expect(misses).toEqual([]);
    for (const kind of ['market_id', 'event_id', 'ticker', 'event_ticker', 'condition_id', 'event_slug (pmref)']) {
      expect(tally.get(kind)?.tried ?? 0, kind).toBeGreaterThan(0);
    }
  });

  it('leads every market reference to its market, as GET /v1/markets/{id} and get_market read it', () => {
    const refsStored = model.refs.venueRefs.size > 0;
    const wrong = cases
      .filter((c) => c.match === 'market' && !c.group && (refsStored || !c.venueRefs))
      .filter((c) => marketIdForRef(model, c.ref) !== c.id)
      .map((c) => `${c.kind} ${c.ref} → ${marketIdForRef(model, c.ref)}`);
    expect(wrong).toEqual([]);
  });
});
