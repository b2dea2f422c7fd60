// Catalyst binding keeps at most five relevant dates, before the last close, unique on (date, type) and ascending; the upcoming window is inclusive; the macro calendar validates with a source on the agency's site.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Catalyst, CatalystSchema, type Market } from '../../src/domain/index.ts';
import {
  bindCatalystDates,
  bindEvents,
  buildCatalysts,
  catalystRelevant,
  catalystsAndDates,
  derivedCatalystType,
  indexCatalysts,
  MACRO_TYPES,
  MacroCalendarSchema,
  macroCalendar,
  macroTypesFor,
  parseMacroCalendar,
  upcomingCatalysts,
} from '../../src/signals/index.ts';
import { makeEvent, makeMarket } from '../support/records.ts';
import { catalyst, NOW } from './builders.ts';

const HOSTS = {
  fomc: 'www.federalreserve.gov',
  cpi: 'www.bls.gov',
  jobs: 'www.bls.gov',
  ppi: 'www.bls.gov',
  gdp: 'www.bea.gov',
};

describe('macro calendar file', () => {
  const cal = macroCalendar();

  it('validates and every entry cites the agency that publishes it', () => {
    expect(MacroCalendarSchema.safeParse(cal).success).toBe(true);
    for (const e of cal.entries) expect(new URL(e.source_url).host, `${e.date} ${e.type}`).toBe(HOSTS[e.type]);
  });

  it('covers every macro type in 2025 and 2026, FOMC through 2027, with the known FOMC decision dates', () => {
    for (const type of MACRO_TYPES) {
      expect(
        cal.entries.some((e) => e.type === type && e.date.startsWith('2025')),
        `${type} 2025`,
      ).toBe(true);
    }
    const fomc = cal.entries.filter((e) => e.type === 'fomc').map((e) => e.date);
    expect(fomc.filter((d) => d.startsWith('2026'))).toEqual([
      '2026-01-28',
      '2026-03-18',
      '2026-04-29',
      '2026-06-17',
      '2026-07-29',
      '2026-09-16',
      '2026-10-28',
      '2026-12-09',
    ]);
    expect(fomc.filter((d) => d.startsWith('2027'))).toHaveLength(8);
  });

  it('rejects an entry without an authoritative source and a duplicate (date, type)', () => {
    const entry = { date: '2026-01-01', type: 'cpi', label: 'CPI', source_url: 'https://example.com/cpi' };
    expect(() => parseMacroCalendar({ description: '', coverage: {}, entries: [entry] })).toThrow(/agency site/);
    const { source_url: _drop, ...bare } = entry;
    expect(() => parseMacroCalendar({ description: '', coverage: {}, entries: [bare] })).toThrow();
    const ok = { ...entry, source_url: 'https://www.bls.gov/cpi/' };
    expect(() => parseMacroCalendar({ description: '', coverage: {}, entries: [ok, ok] })).toThrow(/unique/);
  });
});

describe('bindCatalystDates', () => {
  const event = makeEvent({
    native: 'KXFED-26DEC',
    question: 'Will the Fed cut rates in December?',
    category: 'economics',
  });
  const market = makeMarket({ event_id: event.event_id, close_at: '2026-09-16T18:00:00.000Z' });

  it('keeps relevant dates before the last close, unique and ascending, at most five', () => {
    const cs: Catalyst[] = [
      catalyst('2026-07-29', 'fomc'),
      catalyst('2026-06-17', 'fomc'),
      catalyst('2026-06-17', 'fomc'), // duplicate
      catalyst('2026-09-16', 'fomc'), // on the close day, before the 18:00 close
      catalyst('2026-10-28', 'fomc'), // after the close
      catalyst('2026-06-11', 'earnings:NVDA'), // not relevant
      catalyst('2026-06-01', 'fomc'), // before today
    ];
    const out = bindCatalystDates(event, [market], cs, NOW);
    expect(out.catalyst_dates.map((c) => c.date)).toEqual(['2026-06-17', '2026-07-29', '2026-09-16']);
    expect(out.catalyst_types).toEqual(['fomc']);
    expect(out.catalyst_dates[0]).toEqual({
      date: '2026-06-17',
      label: 'fomc on 2026-06-17',
      type: 'fomc',
      source_url: 'https://www.bls.gov/fomc',
    });
  });

  it('holds its invariants for any catalyst list', () => {
    const types = ['fomc', 'cpi', 'jobs', 'gdp', 'ppi', 'earnings:NVDA', 'election'];
    const arb = fc.array(
      fc.record({ day: fc.integer({ min: 0, max: 500 }), type: fc.constantFrom(...types), mine: fc.boolean() }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, fc.boolean(), (items, withNow) => {
        const cs = items.map((i) =>
          catalyst(
            new Date(Date.UTC(2026, 0, 1) + i.day * 86_400_000).toISOString().slice(0, 10),
            i.type,
            i.mine ? [event.event_id] : [],
          ),
        );
        const { catalyst_dates } = bindCatalystDates(event, [market], cs, withNow ? NOW : undefined);
        expect(catalyst_dates.length).toBeLessThanOrEqual(5);
        const keys = catalyst_dates.map((c) => `${c.date}|${c.type}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect([...keys].sort()).toEqual(keys);
        for (const c of catalyst_dates) {
          expect(Date.parse(`${c.date}T00:00:00Z`)).toBeLessThan(Date.parse(market.close_at ?? ''));
          if (withNow) expect(c.date >= '2026-06-10').toBe(true);
        }
      }),
    );
  });
});

describe('bindCatalystDates over an index', () => {
  const event = makeEvent({ question: 'Will the Fed cut rates in December?', category: 'economics' });
  /** Binding as it was before the index: every catalyst scanned from the first, each date parsed per event. */
  function reference(markets: Market[], cs: readonly Catalyst[], now?: string) {
    let close = Number.NEGATIVE_INFINITY;
    for (const m of markets) if (m.close_at) close = Math.max(close, Date.parse(m.close_at));
    const closeMs = close === Number.NEGATIVE_INFINITY ? Number.POSITIVE_INFINITY : close;
    const order = (a: Catalyst, b: Catalyst) => a.date.localeCompare(b.date) || a.type.localeCompare(b.type);
    const today = now?.slice(0, 10) ?? null;
    const seen = new Set<string>();
    const picked: Catalyst[] = [];
    for (const c of [...cs].sort(order)) {
      if (Date.parse(`${c.date}T00:00:00Z`) >= closeMs) break;
      if (today && c.date < today) continue;
      const key = `${c.date}|${c.type}`;
      if (seen.has(key) || !catalystRelevant(event, c)) continue;
      seen.add(key);
      picked.push(c);
    }
    const kept = today ? picked.slice(0, 5) : picked.slice(-5);
    return kept.map((c) => ({ date: c.date, label: c.label, type: c.type, source_url: c.source_url }));
  }

  it('binds as a scan of every catalyst does, given as a list or indexed once for many events', () => {
    const types = ['fomc', 'cpi', 'jobs', 'earnings:NVDA', 'election'];
    const arb = fc.array(
      fc.record({ day: fc.integer({ min: 0, max: 400 }), type: fc.constantFrom(...types), mine: fc.boolean() }),
      { maxLength: 40 },
    );
    const closeArb = fc.option(fc.integer({ min: 0, max: 400 }), { nil: null });
    fc.assert(
      fc.property(arb, fc.array(closeArb, { maxLength: 3 }), fc.boolean(), (items, closes, withNow) => {
        const day = (d: number) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString();
        const cs = items.map((i) => catalyst(day(i.day).slice(0, 10), i.type, i.mine ? [event.event_id] : []));
        const markets = closes.map((c) =>
          makeMarket({ event_id: event.event_id, close_at: c === null ? null : day(c) }),
        );
        const now = withNow ? NOW : undefined;
        const expected = reference(markets, cs, now);
        expect(bindCatalystDates(event, markets, cs, now).catalyst_dates).toEqual(expected);
        expect(bindCatalystDates(event, markets, indexCatalysts(cs), now).catalyst_dates).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('bindEvents', () => {
  it('keeps catalyst dates an editor set, and records provenance on the ones it sets', () => {
    const mine = makeEvent({ native: 'KXCPI-A', question: 'CPI above 3%?' });
    const edited = makeEvent({
      native: 'KXCPI-B',
      question: 'CPI above 3%?',
      catalyst_dates: [{ date: '2026-06-12', label: 'Editor pick' }],
      field_provenance: { catalyst_dates: { source: 'service_editorial' } },
    });
    const [a, b] = bindEvents({
      events: [mine, edited],
      markets: [],
      catalysts: [catalyst('2026-06-11', 'cpi')],
      now: NOW,
    });
    expect(a?.catalyst_dates.map((c) => c.date)).toEqual(['2026-06-11']);
    expect(a?.field_provenance.catalyst_dates?.source).toBe('derived');
    expect(b).toEqual(edited);
  });
});

describe('macro relevance and venue-derived catalysts', () => {
  it('reads macro sensitivity from the text, else from the category', () => {
    expect(macroTypesFor(makeEvent({ question: 'CPI year over year in May?', category: 'economics' }))).toEqual([
      'cpi',
    ]);
    expect(macroTypesFor(makeEvent({ question: 'Will the unemployment rate exceed 4.5%?' }))).toEqual(['jobs']);
    expect(macroTypesFor(makeEvent({ question: 'Bitcoin above 100k?', category: 'crypto' }))).toEqual(['fomc', 'cpi']);
    expect(macroTypesFor(makeEvent({ question: 'Who wins the Oscar?', category: 'technology' }))).toEqual([]);
  });

  it('derives earnings, election and decision catalysts, and leaves rate decisions to the calendar', () => {
    expect(derivedCatalystType(makeEvent({ question: 'Will NVIDIA beat earnings estimates?' }))).toBe('earnings:NVDA');
    expect(derivedCatalystType(makeEvent({ question: 'Earnings call mentions for Acme (ACME)?' }))).toBe(
      'earnings:ACME',
    );
    expect(derivedCatalystType(makeEvent({ question: 'Who will win the 2026 Ohio Senate election?' }))).toBe(
      'election',
    );
    expect(derivedCatalystType(makeEvent({ question: 'Will the Supreme Court rule on tariffs by June 30?' }))).toBe(
      'decision',
    );
    expect(derivedCatalystType(makeEvent({ question: 'Fed decision in July?' }))).toBeNull();
    expect(derivedCatalystType(makeEvent({ question: 'FDA approval of a universal flu vaccine?' }))).toBe('decision');
    expect(
      derivedCatalystType(makeEvent({ question: 'Presidential approval above 45% for the week ending Nov 28?' })),
    ).toBeNull();
  });

  it('builds the calendar plus venue catalysts, binds events, and lists the upcoming window inclusively', () => {
    const calendar = {
      description: '',
      coverage: {},
      entries: [
        {
          date: '2026-06-17',
          type: 'fomc' as const,
          label: 'FOMC rate decision',
          source_url: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
        },
      ],
    };
    const fed = makeEvent({ native: 'KXFED-26JUL', question: 'Fed funds rate after July?', category: 'economics' });
    const nvda = makeEvent({
      native: 'KXNVDA-26AUG',
      question: 'NVIDIA (NVDA) quarterly earnings beat?',
      category: 'companies',
    });
    const markets = [
      makeMarket({
        native: 'KXFED-26JUL-T4',
        event_id: fed.event_id,
        platform_event_id: 'KXFED-26JUL',
        close_at: '2026-07-29T18:00:00.000Z',
      }),
      makeMarket({
        native: 'KXNVDA-26AUG-Y',
        event_id: nvda.event_id,
        platform_event_id: 'KXNVDA-26AUG',
        close_at: '2026-08-26T20:00:00.000Z',
      }),
    ];
    const cats = buildCatalysts({ calendar, events: [fed, nvda], markets, now: NOW });
    for (const c of cats) CatalystSchema.parse(c);
    expect(cats.map((c) => [c.date, c.type, c.origin])).toEqual([
      ['2026-06-17', 'fomc', 'calendar'],
      ['2026-08-26', 'earnings:NVDA', 'venue'],
    ]);
    expect(cats[0]?.event_ids).toEqual([fed.event_id]);
    expect(cats[1]?.event_ids).toEqual([nvda.event_id]);
    expect(cats[1]?.source_url).toBe('https://kalshi.com/markets/kxnvda-26aug');
    const bound = bindEvents({ events: [fed, nvda], markets, catalysts: cats, now: NOW });
    expect(bound[0]?.catalyst_types).toEqual(['fomc']);
    expect(bound[1]?.catalyst_dates.map((c) => c.type)).toEqual(['earnings:NVDA']);
    expect(upcomingCatalysts(cats, NOW, 7).map((c) => c.date)).toEqual(['2026-06-17']); // today + 7, inclusive
    expect(upcomingCatalysts(cats, NOW, 6)).toEqual([]);
    expect(
      upcomingCatalysts([catalyst('2026-06-10', 'cpi'), catalyst('2026-06-09', 'cpi')], NOW, 1).map((c) => c.date),
    ).toEqual(['2026-06-10']);
    expect(upcomingCatalysts(cats, NOW, 9999)).toHaveLength(2); // clamped to 365
  });
});

describe('catalystsAndDates', () => {
  it('gives each event the dates that binding it again to the catalysts it returns gives, over the real calendar', () => {
    const questions = [
      ['Fed funds rate after the June meeting?', 'economics'],
      ['CPI year over year in July?', 'economics'],
      ['Will the unemployment rate exceed 4.5%?', 'economics'],
      ['NVIDIA (NVDA) quarterly earnings beat?', 'companies'],
      ['Will Apple beat earnings estimates?', 'companies'],
      ['Who will win the 2026 Ohio Senate election?', 'politics'],
      ['Will the Supreme Court rule on tariffs?', 'politics'],
      ['Bitcoin above 100k?', 'crypto'],
      ['Who wins the Oscar?', 'technology'],
    ] as const;
    const events = [];
    const markets: Market[] = [];
    for (let i = 0; i < 45; i++) {
      const [question, category] = questions[i % questions.length] as (typeof questions)[number];
      const event = makeEvent({ native: `EV-${i}`, question, category });
      events.push(event);
      // Closes from a week to a year out, several to an event, some markets of an event already closed.
      for (let k = 0; k < 1 + (i % 3); k++) {
        const close = new Date(Date.parse(NOW) + ((i * 37 + k * 11) % 360) * 86_400_000 + 7 * 86_400_000);
        markets.push(
          makeMarket({
            native: `EV-${i}-M${k}`,
            event_id: event.event_id,
            platform_event_id: `EV-${i}`,
            close_at: close.toISOString(),
            ...(k === 2 ? { status: 'closed' as const } : {}),
          }),
        );
      }
    }
    const input = { calendar: macroCalendar(), events, markets, now: NOW };
    const { catalysts, dates } = catalystsAndDates(input);
    expect(catalysts).toEqual(buildCatalysts(input));
    expect(catalysts.filter((c) => c.origin === 'venue').length).toBeGreaterThan(3);
    const index = indexCatalysts(catalysts);
    let capped = 0;
    for (const event of events) {
      const own = markets.filter((m) => m.event_id === event.event_id);
      const again = bindCatalystDates(event, own, index, NOW);
      expect(dates.get(event.event_id), event.question).toEqual(again);
      if (again.catalyst_dates.length === 5) capped++;
    }
    expect(capped).toBeGreaterThan(0);
  });
});
