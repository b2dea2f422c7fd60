// Invariant: every in-scope market lands under exactly one screen status with its reason codes, and the
// regime's JSON and CSV artifacts agree row for row.
import { describe, expect, it } from 'vitest';
import { EventSchema, MarketSchema } from '../../../src/domain/index.ts';
import {
  evaluateScreen,
  parseRegime,
  REGIMES,
  type Regime,
  SCREEN_CSV_COLUMNS,
  screenCsv,
  screenDocument,
  screenedMarkets,
} from '../../../src/signals/screens/index.ts';
import { makeEvent, makeMarket } from '../../support/records.ts';

const NOW = '2026-11-22T00:00:00.000Z';
const ciro = REGIMES.find((r) => r.regime === 'ciro-26-0076') as Regime;
const cftc = REGIMES.find((r) => r.regime === 'cftc-40-11') as Regime;

describe('regime files', () => {
  it('ship two valid regimes', () => {
    expect(REGIMES.map((r) => r.regime)).toEqual(['ciro-26-0076', 'cftc-40-11']);
  });
  it('a bad regime fails loudly, naming the file and the field', () => {
    expect(() => parseRegime({ ...ciro, min_days_to_resolution: -1 }, 'bad.json')).toThrow(
      /bad\.json[\s\S]*min_days_to_resolution/,
    );
  });
});

describe('evaluateScreen (CIRO shape)', () => {
  const event = makeEvent({ category: 'economics', question: 'CPI in June 2027?' });
  it('permits an economics market resolving in 7 months', () => {
    const r = evaluateScreen(ciro, makeMarket({ event_id: event.event_id }), event, NOW);
    expect(r).toEqual({
      regime: 'ciro-26-0076',
      screen_version: '1.0.0',
      status: 'eligible',
      reasons: [],
      permitted_category: 'economic_forecasts',
      review_cluster: null,
      screened_at: NOW,
    });
  });
  it('excludes venue_b, short-dated and dateless markets with their reasons', () => {
    expect(evaluateScreen(ciro, makeMarket({ platform: 'venue_b', native: '0xabc' }), event, NOW).reasons).toEqual([
      'venue_out_of_scope',
    ]);
    expect(
      evaluateScreen(ciro, makeMarket({ resolve_at: '2026-12-01T00:00:00Z', close_at: null }), event, NOW).reasons,
    ).toEqual(['under_min_maturity']);
    expect(evaluateScreen(ciro, makeMarket({ resolve_at: null, close_at: null }), event, NOW).reasons).toEqual([
      'no_resolution_date',
    ]);
  });
  it('sends political language inside economics to review, and politics to not eligible', () => {
    const tariff = makeEvent({ category: 'economics', question: 'Will Trump raise the tariff on steel?' });
    const r = evaluateScreen(ciro, makeMarket(), tariff, NOW);
    expect([r.status, r.reasons, r.review_cluster]).toEqual(['review', ['political_nature_s3'], 'political_language']);
    const politics = makeEvent({ category: 'politics', question: 'Who wins the election?' });
    expect(evaluateScreen(ciro, makeMarket(), politics, NOW)).toMatchObject({
      status: 'not_eligible',
      reasons: ['political_nature_s3'],
    });
  });
});

describe('evaluateScreen (17 CFR 40.11)', () => {
  it('excludes terrorism references and reviews war references', () => {
    const terror = makeEvent({ category: 'geopolitics', question: 'Terrorist attack in Paris by June?' });
    expect(evaluateScreen(cftc, makeMarket(), terror, NOW)).toMatchObject({
      status: 'not_eligible',
      reasons: ['cftc_40_11_terrorism'],
    });
    const war = makeEvent({ category: 'economics', question: 'Will the war end before oil hits $100?' });
    expect(evaluateScreen(cftc, makeMarket(), war, NOW)).toMatchObject({
      status: 'review',
      review_cluster: 'war_and_armed_conflict',
    });
  });
  it('does not match keywords inside other words', () => {
    const award = makeEvent({ category: 'technology', question: 'Will the award go to an AI lab?' });
    expect(evaluateScreen(cftc, makeMarket(), award, NOW).status).toBe('eligible');
  });
});

describe('artifacts', () => {
  const events = [
    makeEvent({ native: 'E1', category: 'economics', question: 'CPI above 3%?' }),
    makeEvent({ native: 'E2', category: 'politics', question: 'Who wins, "A, or B"?' }),
    makeEvent({ native: 'E3', category: 'crypto', question: 'Bitcoin above 100k?' }),
  ];
  const byId = new Map(events.map((e) => [e.event_id, e]));
  const markets = events.flatMap((e, i) =>
    [0, 1].map((j) => {
      const m = makeMarket({ native: `M${i}${j}`, event_id: e.event_id, question_raw: `${e.question} #${j}` });
      return { ...m, eligibility_screens: REGIMES.map((r) => evaluateScreen(r, m, e, NOW)) };
    }),
  );

  it('stored results still satisfy the domain schemas', () => {
    for (const m of markets) expect(MarketSchema.safeParse(m).success).toBe(true);
    for (const e of events) expect(EventSchema.safeParse(e).success).toBe(true);
  });

  for (const regime of REGIMES) {
    it(`${regime.regime}: JSON and CSV agree row for row; every market under exactly one status`, () => {
      const rows = screenedMarkets(regime, markets, byId);
      const doc = screenDocument(regime, rows);
      const csv = screenCsv(rows);
      expect(csv.startsWith('\uFEFF')).toBe(true);
      const lines = csv
        .slice(1)
        .split('\r\n')
        .filter((l) => l.length > 0);
      expect(lines[0]).toBe(SCREEN_CSV_COLUMNS.join(','));
      const csvRows = lines
        .slice(1)
        .map((l) => l.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.map((f) => f.replace(/,$/, '')) ?? []);
      expect(csvRows).toHaveLength(markets.length);
      for (const row of csvRows) {
        const id = row[0] ?? '';
        expect(doc.markets[id]?.status).toBe(row[4]);
      }
      const all = [...doc.market_ids.eligible, ...doc.market_ids.review, ...doc.market_ids.not_eligible];
      expect(all.sort()).toEqual(markets.map((m) => m.market_id).sort());
      expect(new Set(all).size).toBe(all.length);
      expect(doc.funnel.in_scope).toBe(doc.funnel.eligible + doc.funnel.review + doc.funnel.not_eligible);
    });
  }

  it('quotes fields per RFC 4180', () => {
    const rows = screenedMarkets(cftc, markets, byId);
    expect(screenCsv(rows)).toContain('"Who wins, ""A, or B""? #0"');
  });
});
