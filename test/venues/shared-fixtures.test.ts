// Every record in the recorded venue data (../shared/fixtures/venues), pulled through the replay server, ends normalized and schema-valid, out of scope with a reason, or rejected with an explained reason.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSchema, MarketSchema } from '../../src/domain/index.ts';
import {
  type NormalizeResult,
  normalizePull,
  pullVenueA,
  pullVenueB,
  type RawVenuePull,
  type ReplayServer,
  startReplayServer,
} from '../../src/venues/index.ts';
import { fakeClock, idsFor, NOW, SHARED_VENUES_DIR } from './helpers.ts';

const present = existsSync(SHARED_VENUES_DIR);
if (!present) console.warn(`skipping the shared venue fixture suite: ${SHARED_VENUES_DIR} is absent`);

/** Rejections we expect in recorded data, with the reason they are correct. Anything else fails. */
const EXPLAINED_REJECTIONS: Record<string, string> = {
  missing_condition_id: 'a deployed venue_b market without its identity key cannot be stored',
  duplicate_market_in_pull: 'the venue listed one market under two events; the first copy is kept',
};

interface FileCounts {
  pulled: number;
  normalized: number;
  out_of_scope: Record<string, number>;
  rejected: Record<string, number>;
}

describe.skipIf(!present)('shared recorded venue fixtures through replay', () => {
  let server: ReplayServer;
  let pulls: RawVenuePull[];
  let results: NormalizeResult[];

  beforeAll(async () => {
    server = await startReplayServer({ dir: SHARED_VENUES_DIR });
    const opts = { clock: fakeClock(), concurrency: 16, ratePerSecond: 1e6, maxBookCalls: 20 };
    pulls = await Promise.all([
      pullVenueA({ baseUrl: server.venueAUrl, ...opts }),
      pullVenueB({ baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl, ...opts }),
    ]);
    results = pulls.map((p) => normalizePull(p, idsFor(p.venue), NOW));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('pulls every loaded record without error', () => {
    for (const p of pulls) expect(p.error).toBeNull();
    const d = server.data;
    const aMarkets = d.venueA.markets.size;
    const aBare = d.venueA.events.filter((e) => (e.markets as unknown[]).length === 0).length;
    expect(pulls[0]?.pulled).toBe(aMarkets + aBare);
    expect(pulls[1]?.pulled).toBe(d.venueB.markets.length);
    // venue-notes.md: 1,836 unique venue_a markets, 1,736 unique venue_b markets.
    expect(aMarkets).toBe(1836);
    expect(d.venueB.markets.length).toBe(1736);
  });

  it('accounts for every record, per file, with no unexplained rejection', () => {
    const perFile = new Map<string, FileCounts>();
    for (const [i, r] of results.entries()) {
      const venue = pulls[i]?.venue ?? 'venue_a';
      expect(r.records).toHaveLength(pulls[i]?.pulled ?? -1);
      for (const rec of r.records) {
        const key = rec.kind === 'event' ? `${venue}:event:${rec.native_id}` : `${venue}:${rec.native_id}`;
        const file = server.data.origin.get(key) ?? `(unknown origin of ${key})`;
        const c = perFile.get(file) ?? { pulled: 0, normalized: 0, out_of_scope: {}, rejected: {} };
        c.pulled++;
        if (rec.outcome === 'normalized') c.normalized++;
        else {
          expect(rec.reason, `${key} ${rec.outcome}`).toBeTruthy();
          const bucket = rec.outcome === 'out_of_scope' ? c.out_of_scope : c.rejected;
          bucket[rec.reason ?? '?'] = (bucket[rec.reason ?? '?'] ?? 0) + 1;
        }
        perFile.set(file, c);
      }
      for (const reason of Object.keys(r.rejected)) {
        expect(EXPLAINED_REJECTIONS[reason], `unexplained rejection "${reason}" (${r.rejected[reason]})`).toBeDefined();
      }
    }
    const rows = [...perFile].sort(([a], [b]) => a.localeCompare(b));
    const fmt = (o: Record<string, number>) =>
      Object.entries(o)
        .sort(([, x], [, y]) => y - x)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || '-';
    console.log(
      [
        'per-file outcome counts (pulled / normalized / out of scope by reason / rejected by reason):',
        ...rows.map(([f, c]) => `  ${f}: ${c.pulled} / ${c.normalized} / ${fmt(c.out_of_scope)} / ${fmt(c.rejected)}`),
        ...results.map(
          (r, i) =>
            `  TOTAL ${pulls[i]?.venue}: ${pulls[i]?.pulled} pulled, ${r.events.reduce((s, e) => s + e.markets.length, 0)} markets in ${r.events.length} events; out of scope ${fmt(r.outOfScope)}; rejected ${fmt(r.rejected)}`,
        ),
      ].join('\n'),
    );
    expect([...perFile.keys()].filter((f) => f.startsWith('(unknown'))).toEqual([]);
    for (const [, c] of rows) {
      const accounted =
        c.normalized +
        Object.values(c.out_of_scope).reduce((s, n) => s + n, 0) +
        Object.values(c.rejected).reduce((s, n) => s + n, 0);
      expect(accounted).toBe(c.pulled);
    }
  });

  it('normalizes into schema-valid records, both venues, in scope only', () => {
    for (const r of results) {
      expect(r.events.length).toBeGreaterThan(100);
      for (const e of r.events) {
        expect(EventSchema.safeParse(e.event).error).toBeUndefined();
        for (const m of e.markets) expect(MarketSchema.safeParse(m.market).error).toBeUndefined();
      }
    }
    const [a, b] = results;
    expect(a?.outOfScope.multivariate_combo).toBe(200);
    expect(a?.outOfScope['category:sports']).toBeGreaterThan(0);
    expect(b?.outOfScope['category:sports']).toBeGreaterThan(0);
    const resolvedB = b?.events.flatMap((e) => e.markets).filter((m) => m.market.status === 'resolved') ?? [];
    expect(resolvedB.length).toBeGreaterThan(50);
    for (const m of resolvedB) expect(m.market.resolution_outcome).not.toBeNull();
  });
});
