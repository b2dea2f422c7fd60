// Over real HTTP: each regime's JSON and CSV agree row for row, every screened market appears under exactly one
// status, and a market's eligibility_screens in /v1/markets/{id} match the regime files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screensFor } from '../../src/pipeline/index.ts';
import { REGIMES } from '../../src/signals/screens/index.ts';
import { allMarkets, btcA, btcB, fed, NOW, seedStore, treaty } from '../serve/seed.ts';
import { call, type Started, startServer } from './rest-helpers.ts';

let server: Started;
const events = new Map([fed, btcA, btcB, treaty].map((e) => [e.event_id, e]));

beforeAll(async () => {
  const store = await seedStore();
  const runId = await store.startRun('simulated', NOW.toISOString());
  await store.transaction(async (tx) => {
    await tx.upsertMarkets(
      allMarkets.map((m) => ({
        ...m,
        eligibility_screens: screensFor(m, events.get(m.event_id ?? '') ?? null, NOW.toISOString()),
      })),
    );
  });
  await store.finishRun(runId, 'ok', {}, NOW.toISOString(), true);
  server = await startServer({ store });
});
afterAll(async () => {
  await server?.close();
});

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('screen artifacts over HTTP', () => {
  for (const regime of REGIMES) {
    it(`${regime.regime}: JSON, CSV and /v1/markets agree`, async () => {
      const json = await call(server.base, `/screens/${regime.regime}.json`);
      expect(json.status).toBe(200);
      const doc = json.body as {
        markets: Record<string, { status: string; reasons: string[] }>;
        market_ids: Record<'eligible' | 'review' | 'not_eligible', string[]>;
      };
      const csv = await call(server.base, `/screens/${regime.regime}.csv`);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const [header, ...rows] = parseCsv(csv.text.replace(/^\uFEFF/, ''));
      expect(header?.[0]).toBe('svc_market_id');
      expect(rows.map((r) => [r[0], r[4], r[5]])).toEqual(
        Object.entries(doc.markets)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([id, m]) => [id, m.status, m.reasons.join(';')]),
      );
      const grouped = [...doc.market_ids.eligible, ...doc.market_ids.review, ...doc.market_ids.not_eligible];
      expect(grouped.sort()).toEqual(Object.keys(doc.markets).sort());
      expect(new Set(grouped).size).toBe(grouped.length);
      expect(grouped.length).toBeGreaterThan(0);
      for (const id of grouped) {
        const market = (await call(server.base, `/v1/markets/${id}`)).body as {
          eligibility_screens: Array<{ regime: string; status: string; reasons: string[] }> | null;
        };
        const own = market.eligibility_screens?.find((r) => r.regime === regime.regime);
        expect(own && { status: own.status, reasons: own.reasons }, id).toEqual({
          status: doc.markets[id]?.status,
          reasons: doc.markets[id]?.reasons,
        });
      }
    });
  }

  it('an unknown regime is a 404 in the common error shape', async () => {
    const r = await call(server.base, '/screens/nope.json');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'not_found' });
  });
});
