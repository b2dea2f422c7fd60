// A raw market's quote part (venues `rawQuoteFields`) is read by its quote alone: changing every field of it changes
// nothing normalization gives but that market's quote, and `requoteMarkets` reads that quote exactly as normalization
// does (issue 18, pipeline/requote.ts). Checked on every market of our own fixtures and, where present, of the
// recorded venue data, pulled through the venue clients from the replay server.
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventIdFor, marketIdFor } from '../../src/domain/index.ts';
import { pullVenue } from '../../src/pipeline/pull-stage.ts';
import {
  type IdResolver,
  type NormalizeResult,
  normalizePull,
  type RawVenuePull,
  type ReplayServer,
  rawMarketShape,
  rawQuoteFields,
  requoteMarkets,
  startReplayServer,
} from '../../src/venues/index.ts';
import { DAY1, memoryLogger, venueOptions } from '../pipeline/harness.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const realPresent = existsSync(REAL);
if (!realPresent) console.warn(`requote.test.ts: the recorded-data cases are skipped: ${REAL} is absent`);

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Another value of the same kind: a number or numeric text moved, a time an hour on, a list of prices moved. */
function moved(value: unknown): unknown {
  if (typeof value === 'number') return Math.abs(value) <= 1 ? Math.round((value * 0.9 + 0.05) * 1e4) / 1e4 : value + 7;
  if (typeof value === 'boolean') return !value;
  if (typeof value !== 'string') return value;
  if (value !== '' && Number.isFinite(Number(value))) return String(moved(Number(value)));
  if (/^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value)))
    return new Date(Date.parse(value) + 3_600_000).toISOString();
  if (value.startsWith('[')) {
    try {
      const list = JSON.parse(value) as unknown[];
      if (Array.isArray(list)) return JSON.stringify(list.map(moved));
    } catch {
      // not a list: text below
    }
  }
  return `${value} (moved)`;
}

/** What normalization gives but for the quotes, and each record's fate. */
function withoutQuotes(result: NormalizeResult) {
  return {
    events: result.events.map((n) => ({
      event: n.event,
      markets: n.markets.map(({ market, facts }) => ({ market, facts })),
    })),
    records: result.records,
  };
}

/** Every market of every event of a pull, its quote part moved, checked as the header says. */
function checkPull(pull: RawVenuePull): { markets: number; requoted: number; fields: number } {
  const ids: IdResolver = {
    eventId: (n) => eventIdFor(pull.venue, n, 0),
    marketId: (n) => marketIdFor(pull.venue, n, 0),
  };
  let markets = 0;
  let requoted = 0;
  let fields = 0;
  for (const rawEvent of pull.events) {
    if (!isRec(rawEvent) || !Array.isArray(rawEvent.markets)) continue;
    const single = { ...pull, events: [rawEvent] };
    const before = normalizePull(single, ids, NOW);
    rawEvent.markets.forEach((rawMarket, i) => {
      if (!isRec(rawMarket)) return;
      markets++;
      const quoteFields = rawQuoteFields(pull.venue, rawMarket);
      const changed: Rec = { ...rawMarket };
      for (const f of quoteFields) changed[f] = moved(rawMarket[f]);
      const event = { ...rawEvent, markets: (rawEvent.markets as unknown[]).map((m, j) => (j === i ? changed : m)) };
      expect(rawMarketShape(pull.venue, changed)).toBe(rawMarketShape(pull.venue, rawMarket));
      const [quote] = requoteMarkets(pull, event, [changed]);
      if (quote === null || quote === undefined) return;
      const after = normalizePull({ ...pull, events: [event] }, ids, NOW);
      const context = `${pull.venue} market ${String(rawMarket.ticker ?? rawMarket.conditionId)} (${quoteFields.join(', ')})`;
      expect(withoutQuotes(after), context).toEqual(withoutQuotes(before));
      const id = ids.marketId(String(rawMarket.ticker ?? rawMarket.conditionId));
      const normalized = after.events.flatMap((n) => n.markets).find((m) => m.market.market_id === id);
      // A market out of scope or rejected has a quote read all the same; requoting only ever reads stored ones.
      if (normalized === undefined) return;
      expect(normalized.quote, context).toEqual(quote);
      requoted++;
      fields += quoteFields.length;
    });
  }
  return { markets, requoted, fields };
}

async function pullBoth(dir: string): Promise<RawVenuePull[]> {
  const logger = memoryLogger();
  const server: ReplayServer = await startReplayServer({ dir, port: 0 });
  try {
    const options = venueOptions(server, logger, 30_000);
    options.venue_b.maxBookCalls = 50;
    return await Promise.all([pullVenue('venue_a', options, logger), pullVenue('venue_b', options, logger)]);
  } finally {
    await server.close();
  }
}

describe('the quote part of a raw market', () => {
  let pulls: RawVenuePull[];
  beforeAll(async () => {
    pulls = await pullBoth(DAY1);
  });

  it('changes nothing but its quote, on every market of the pipeline fixtures', () => {
    for (const pull of pulls) {
      expect(pull.error).toBeNull();
      const seen = checkPull(pull);
      expect(seen.markets).toBeGreaterThan(0);
      // Every market in scope reads a quote from its moved fields; prices, volume and times are among them.
      expect(seen.requoted).toBeGreaterThan(0);
      expect(seen.fields).toBeGreaterThan(seen.requoted * 3);
    }
  });

  it('holds the fields the venue names for prices and leaves the ones the records read in the shape', () => {
    const [a, b] = pulls as [RawVenuePull, RawVenuePull];
    const market = (pull: RawVenuePull) => ((pull.events[0] as Rec).markets as Rec[])[0] as Rec;
    const fieldsA = rawQuoteFields('venue_a', market(a));
    expect(fieldsA).toEqual(
      expect.arrayContaining(['last_price_dollars', 'yes_bid_dollars', 'volume_24h', 'updated_time']),
    );
    for (const f of ['ticker', 'status', 'result', 'rules_primary', 'close_time', 'floor_strike', 'notional_value'])
      expect(fieldsA).not.toContain(f);
    const open = { conditionId: '0x1', closed: false, outcomePrices: '["0.4","0.6"]', bestBid: 0.39, question: 'Q?' };
    expect(rawQuoteFields('venue_b', open)).toEqual(['outcomePrices', 'bestBid']);
    // A closed market's settlement is read off its prices: they are shape there.
    expect(rawQuoteFields('venue_b', { ...open, closed: true })).toEqual(['bestBid']);
    expect(
      rawQuoteFields('venue_b', { ...open, umaResolutionStatuses: '["proposed"]', umaResolutionStatus: 'resolved' }),
    ).toEqual(['bestBid']);
    expect(rawQuoteFields('venue_b', market(b))).not.toContain('question');
  });
});

describe.skipIf(!realPresent)('the quote part of a recorded raw market', () => {
  let pulls: RawVenuePull[];
  beforeAll(async () => {
    pulls = await pullBoth(REAL);
  }, 60_000);

  it('changes nothing but its quote, on every recorded market', () => {
    for (const pull of pulls) {
      expect(pull.error).toBeNull();
      const seen = checkPull(pull);
      console.log(`requote.test.ts: ${pull.venue}: ${JSON.stringify(seen)}`);
      expect(seen.requoted).toBeGreaterThan(100);
    }
  }, 120_000);
});
