// On a simulated universe's truth.json: no trap linked, complements linked as complements, recall ≥ 0.8 and precision ≥ 0.95 over the pairs the truth labels.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventIdFor, type Market, marketIdFor } from '../../../src/domain/index.ts';
import { canonEvent, crossVenueLinks, linkAcrossVenues, NO_OVERRIDES } from '../../../src/editorial/canon/index.ts';
import { normalizePull } from '../../../src/venues/index.ts';

// Point PMREF_CANON_SIM_DIR at a folder written by `generateUniverse` (snapshots/ + truth.json).
const dir = process.env.PMREF_CANON_SIM_DIR ?? '';
const present = dir !== '' && existsSync(`${dir}/truth.json`);
if (!present)
  console.warn('simulated-universe canon check skipped: set PMREF_CANON_SIM_DIR to a generated universe folder');

interface TruthPair {
  a: { native_id: string };
  b: { native_id: string };
  label: 'same' | 'complement' | 'different';
}

describe.skipIf(!present)('canon on the simulated universe', () => {
  it('meets the precision, recall and trap targets', () => {
    const snap = readdirSync(`${dir}/snapshots`).sort().at(-1);
    const now = '2026-01-01T00:00:00.000Z';
    const markets: Market[] = [];
    for (const venue of ['venue_a', 'venue_b'] as const) {
      const vdir = `${dir}/snapshots/${snap}/${venue}`;
      const events = readdirSync(vdir)
        .filter((f) => f.startsWith('events'))
        .flatMap((f) => {
          const j = JSON.parse(readFileSync(`${vdir}/${f}`, 'utf8')) as unknown;
          return Array.isArray(j) ? j : ((j as { events?: unknown[] }).events ?? []);
        });
      const ids = { eventId: (n: string) => eventIdFor(venue, n), marketId: (n: string) => marketIdFor(venue, n) };
      for (const ne of normalizePull(
        { venue, events, series: {}, books: {}, pulled: events.length, error: null },
        ids,
        now,
      ).events) {
        const out = canonEvent({
          event: ne.event,
          markets: ne.markets.map((m) => ({ market: m.market, facts: m.facts })),
          marks: new Map(),
          overrides: NO_OVERRIDES,
          now,
        });
        markets.push(...out.markets);
      }
    }
    const links = crossVenueLinks(linkAcrossVenues(markets, new Map()));
    const truth = (JSON.parse(readFileSync(`${dir}/truth.json`, 'utf8')) as { pairs: TruthPair[] }).pairs;
    const label = new Map(truth.map((p) => [`${p.a.native_id}|${p.b.native_id}`, p.label]));
    const made = new Map(links.map((l) => [`${l.a.platform_market_id}|${l.b.platform_market_id}`, l.kind]));
    const listed = links.filter((l) => label.has(`${l.a.platform_market_id}|${l.b.platform_market_id}`));
    const correct = listed.filter((l) => label.get(`${l.a.platform_market_id}|${l.b.platform_market_id}`) === l.kind);
    const positives = truth.filter((p) => p.label !== 'different');
    const found = positives.filter((p) => made.get(`${p.a.native_id}|${p.b.native_id}`) === p.label);
    const traps = truth.filter((p) => p.label === 'different' && made.has(`${p.a.native_id}|${p.b.native_id}`));
    const precision = listed.length === 0 ? 1 : correct.length / listed.length;
    const recall = positives.length === 0 ? 1 : found.length / positives.length;
    console.info(
      `sim canon: ${markets.length} markets, ${links.length} links (${links.length - listed.length} between pairs the truth does not list), precision over listed ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, traps linked ${traps.length}`,
    );
    expect(traps.map((t) => `${t.a.native_id} ~ ${t.b.native_id}`)).toEqual([]);
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });
});
