// Under every replay fault mode a venue pull either recovers (retries honouring Retry-After through the injected clock) or returns a pull with `error` set — it never throws.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../src/domain/index.ts';
import {
  normalizePull,
  parseFaultSpec,
  pullVenueA,
  pullVenueB,
  type RawVenuePull,
  type ReplayServer,
  startReplayServer,
} from '../../src/venues/index.ts';
import { BASIC_DIR, fakeClock, idsFor, NOW } from './helpers.ts';

let server: ReplayServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(faults: string): Promise<ReplayServer> {
  server = await startReplayServer({ dir: BASIC_DIR, faults });
  return server;
}
const pullA = (s: ReplayServer, clock = fakeClock(), extra = {}) =>
  pullVenueA({ baseUrl: s.venueAUrl, clock, pageSize: 2, maxRetries: 3, ...extra });
const pullB = (s: ReplayServer, clock = fakeClock(), extra = {}) =>
  pullVenueB({ baseUrl: s.venueBUrl, clobBaseUrl: s.clobUrl, clock, pageSize: 2, maxRetries: 3, ...extra });
const marketsOf = (p: RawVenuePull): Market[] =>
  normalizePull(p, idsFor(p.venue), NOW).events.flatMap((e) => e.markets.map((m) => m.market));

let cleanA: Market[];
let cleanB: Market[];
beforeAll(async () => {
  const s = await startReplayServer({ dir: BASIC_DIR });
  cleanA = marketsOf(await pullA(s));
  cleanB = marketsOf(await pullB(s));
  await s.close();
  expect(cleanA.length).toBeGreaterThan(0);
  expect(cleanB.length).toBeGreaterThan(0);
});

describe('recovering faults', () => {
  it('5xx: retries with full-jitter backoff and ends with the clean result', async () => {
    const s = await serve('venue_a:5xx:count=2');
    const clock = fakeClock();
    const pull = await pullA(s, clock);
    expect(pull.error).toBeNull();
    expect(pull.retries).toBe(2);
    expect(clock.sleeps).toEqual([125, 250]); // random() = 0.5 of 250·2^0 and 250·2^1
    expect(marketsOf(pull)).toEqual(cleanA);
    expect(s.stats().faultsInjected).toBe(2);
  });

  it('429: waits exactly the Retry-After the venue sent', async () => {
    const s = await serve('venue_b:429:retry-after=3:count=1');
    const clock = fakeClock();
    const pull = await pullB(s, clock);
    expect(pull.error).toBeNull();
    expect(clock.sleeps).toContain(3000);
    expect(pull.retries).toBe(1);
    expect(marketsOf(pull)).toEqual(cleanB);
  });

  it('slow: a response slower than usual but inside the timeout is simply awaited', async () => {
    const s = await serve('venue_a:slow:delay=30:count=2');
    const pull = await pullA(s, fakeClock(), { timeoutMs: 5_000 });
    expect(pull.error).toBeNull();
    expect(pull.retries).toBe(0);
    expect(marketsOf(pull)).toEqual(cleanA);
  });

  it('unknown-fields: extra fields everywhere change nothing', async () => {
    const s = await serve('venue_a:unknown-fields,venue_b:unknown-fields');
    const [pa, pb] = await Promise.all([pullA(s), pullB(s)]);
    expect(pa.error).toBeNull();
    expect(pb.error).toBeNull();
    expect((pa.events[0] as Record<string, unknown>).x_replay_unknown_field).toBeDefined();
    expect(marketsOf(pa)).toEqual(cleanA);
    expect(marketsOf(pb)).toEqual(cleanB);
  });

  it('truncated once: a cut-off body is retried', async () => {
    const s = await serve('venue_b:truncated:count=1');
    const pull = await pullB(s);
    expect(pull.error).toBeNull();
    expect(pull.retries).toBe(1);
    expect(marketsOf(pull)).toEqual(cleanB);
  });

  it('CLOB down: the pull succeeds and book sizes are null by venue limitation', async () => {
    const s = await serve('clob:5xx');
    const pull = await pullB(s, fakeClock(), { maxRetries: 1 });
    expect(pull.error).toBeNull();
    expect(pull.books).toEqual({});
    const m = normalizePull(pull, idsFor('venue_b'), NOW)
      .events.flatMap((e) => e.markets)
      .find((x) => x.market.platform_market_id === '0xaaa1');
    expect(m?.quote.yes_bid_size_usd).toBeNull();
    expect(m?.quote.provenance.yes_bid_size_usd?.source).toBe('null_by_venue_limitation');
  });
});

describe('failing faults return data, not exceptions', () => {
  it('5xx that never ends: error set after maxRetries, no throw', async () => {
    const s = await serve('venue_a:5xx');
    const pull = await pullA(s, fakeClock(), { maxRetries: 2 });
    expect(pull.error).toMatch(/HTTP 503/);
    expect(pull.events).toEqual([]);
    expect(pull.pulled).toBe(0);
  });

  it('5xx after the first page: the error is set and the partial pull is marked by it', async () => {
    const s = await serve('venue_a:5xx:after=1');
    const pull = await pullA(s, fakeClock(), { maxRetries: 0 });
    expect(pull.error).toMatch(/HTTP 503/);
    expect(pull.events).toHaveLength(2); // first page only
  });

  it('timeout: a venue that never answers gives error set within the timeout budget', async () => {
    const s = await serve('venue_a:timeout');
    const pull = await pullA(s, fakeClock(), { timeoutMs: 150, maxRetries: 1 });
    expect(pull.error).toMatch(/no response within 150 ms/);
    expect(pull.retries).toBe(1);
  });

  it('malformed: unparseable JSON is reported, not retried, not thrown', async () => {
    const s = await serve('venue_b:malformed');
    const pull = await pullB(s);
    expect(pull.error).toMatch(/malformed JSON/);
    expect(pull.retries).toBe(0);
  });

  it('truncated every time: error set after retries', async () => {
    const s = await serve('venue_a:truncated');
    const pull = await pullA(s, fakeClock(), { maxRetries: 1 });
    expect(pull.error).toMatch(/cut off|truncated/);
    expect(pull.events).toEqual([]);
  });

  it('429 that never ends: error set, each wait the Retry-After', async () => {
    const s = await serve('venue_b:429:retry-after=2');
    const clock = fakeClock();
    const pull = await pullB(s, clock, { maxRetries: 2 });
    expect(pull.error).toMatch(/HTTP 429/);
    expect(clock.sleeps).toEqual([2000, 2000]);
  });
});

describe('parseFaultSpec', () => {
  it('reads targets, modes and options', () => {
    expect(parseFaultSpec('venue_a:5xx:status=502:after=3:count=2, venue_b:429:retry-after=1')).toEqual([
      { target: 'venue_a', mode: '5xx', after: 3, count: 2, retryAfterS: 1, status: 502, delayMs: null },
      {
        target: 'venue_b',
        mode: '429',
        after: 0,
        count: Number.POSITIVE_INFINITY,
        retryAfterS: 1,
        status: 503,
        delayMs: null,
      },
    ]);
    expect(parseFaultSpec('')).toEqual([]);
  });

  it('says what to fix for a bad spec', () => {
    expect(() => parseFaultSpec('venue_c:5xx')).toThrow(/target must be one of venue_a, venue_b/);
    expect(() => parseFaultSpec('venue_a:explode')).toThrow(/mode must be one of 5xx, 429/);
    expect(() => parseFaultSpec('venue_a:5xx:count=-1')).toThrow(/name=non-negative number/);
    expect(() => parseFaultSpec('venue_a:5xx:colour=1')).toThrow(/unknown option "colour"/);
  });
});
