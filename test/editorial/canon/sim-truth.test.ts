// On a simulated universe's truth.json: no trap shares a question_id, complements are linked as complements,
// recall ≥ 0.8 and precision ≥ 0.95 over every same/complement link made (the generator plants no twin outside
// truth.json, so an unlisted one is a false link), and a trap linked as related names the one typed part it differs in.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdFor, type LinkDifferenceType, type Market, marketIdFor } from '../../../src/domain/index.ts';
import { canonEvent, crossVenueLinks, linkAcrossVenues, NO_OVERRIDES } from '../../../src/editorial/canon/index.ts';
import { normalizePull } from '../../../src/venues/index.ts';
import { generateUniverse } from '../../../src/venues/simulate/index.ts';

// PMREF_CANON_SIM_DIR may name a full-size universe written by `pmref simulate`; otherwise the test generates
// a 10% universe (seed 42) of its own.
const given = process.env.PMREF_CANON_SIM_DIR ?? '';
let dir = given;
let generated: string | null = null;

beforeAll(async () => {
  if (given !== '' && existsSync(`${given}/truth.json`)) return;
  generated = mkdtempSync(join(tmpdir(), 'pmref-canon-sim-'));
  dir = generated;
  await generateUniverse({ outDir: generated, seed: 42, days: 2, asOf: '2026-11-22', scale: 0.1 });
}, 120_000);
afterAll(() => {
  if (generated) rmSync(generated, { recursive: true, force: true });
});

interface TruthPair {
  a: { native_id: string };
  b: { native_id: string };
  label: 'same' | 'complement' | 'different';
  trap_kind?: 'deadline' | 'threshold' | 'window' | 'price_source' | 'event_definition';
  why: string;
}

/** The typed difference a related link on each kind of trap must name (a window never relaxes: none). */
const TRAP_DIFFERENCE: Record<NonNullable<TruthPair['trap_kind']>, LinkDifferenceType | null> = {
  deadline: 'horizon',
  threshold: 'threshold',
  window: null,
  price_source: 'source',
  event_definition: 'resolves_on',
};

const countBy = (xs: readonly string[]) =>
  Object.fromEntries([...new Set(xs)].map((x) => [x, xs.filter((y) => y === x).length]));

describe('canon on the simulated universe', () => {
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
    const all = crossVenueLinks(linkAcrossVenues(markets, new Map()));
    const links = all.filter((l) => l.kind !== 'related');
    const related = all.filter((l) => l.kind === 'related');
    const truth = (JSON.parse(readFileSync(`${dir}/truth.json`, 'utf8')) as { pairs: TruthPair[] }).pairs;
    const label = new Map(truth.map((p) => [`${p.a.native_id}|${p.b.native_id}`, p] as const));
    const made = new Map(all.map((l) => [`${l.a.platform_market_id}|${l.b.platform_market_id}`, l] as const));
    const listed = links.filter((l) => label.has(`${l.a.platform_market_id}|${l.b.platform_market_id}`));
    const correct = listed.filter(
      (l) => label.get(`${l.a.platform_market_id}|${l.b.platform_market_id}`)?.label === l.kind,
    );
    const positives = truth.filter((p) => p.label !== 'different');
    const found = positives.filter((p) => made.get(`${p.a.native_id}|${p.b.native_id}`)?.kind === p.label);
    const traps = truth.filter((p) => p.label === 'different');
    const trapsShared = traps.filter((p) => {
      const kind = made.get(`${p.a.native_id}|${p.b.native_id}`)?.kind;
      return kind === 'same' || kind === 'complement';
    });
    // A trap differs in one typed part by construction: related is right for it only with that difference.
    const trapsRelated = traps.filter((p) => made.get(`${p.a.native_id}|${p.b.native_id}`)?.kind === 'related');
    const wrongDifference = trapsRelated.filter((p) => {
      const types = (made.get(`${p.a.native_id}|${p.b.native_id}`)?.differences ?? []).map((d) => d.type);
      const expected = p.trap_kind ? TRAP_DIFFERENCE[p.trap_kind] : null;
      return expected === null || !types.includes(expected);
    });
    const precision = links.length === 0 ? 1 : correct.length / links.length;
    const recall = positives.length === 0 ? 1 : found.length / positives.length;
    console.info(
      `sim canon: ${markets.length} markets, ${links.length} same/complement links (${links.length - listed.length} between pairs the truth does not list), precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, traps linked as same/complement ${trapsShared.length}; ${related.length} related links, ${trapsRelated.length} of them on traps (by trap kind: ${JSON.stringify(countBy(trapsRelated.map((p) => p.trap_kind ?? '?')))})`,
    );
    expect(trapsShared.map((t) => `${t.a.native_id} ~ ${t.b.native_id}`)).toEqual([]);
    expect(wrongDifference.map((t) => `${t.trap_kind}: ${t.why}`)).toEqual([]);
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.8);
    const complements = truth.filter((p) => p.label === 'complement');
    const wrongSide = complements.filter((p) => made.get(`${p.a.native_id}|${p.b.native_id}`)?.kind === 'same');
    expect(wrongSide).toEqual([]);
  });
});
