// Bundle typing follows the venue structure (strike fields, exclusivity, negative risk, deadlines), and ladder distributions are normalized or null with a reason.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BundleChild,
  bundleTypeOf,
  claimKeyOf,
  ladderDistributionOf,
  type NativeRecord,
  nativeRecordsOf,
  resolutionReferenceOf,
} from '../../../src/editorial/canon/index.ts';
import { NOW } from './helpers.ts';

function eventsOf(json: unknown): Map<string, NativeRecord[]> {
  const groups = new Map<string, NativeRecord[]>();
  for (const r of nativeRecordsOf(json, NOW)) {
    const id = r.nativeEventId ?? r.market.platform_market_id;
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }
  return groups;
}
const childrenOf = (recs: NativeRecord[]): BundleChild[] =>
  recs.map((r) => ({ market: r.market, facts: r.facts, claim: claimKeyOf(r.market, r.facts) }));

describe('bundle typing on self-written venue-shaped events', () => {
  const fixture = JSON.parse(
    readFileSync(resolve(import.meta.dirname, '../../fixtures/canon/bundles.json'), 'utf8'),
  ) as {
    expected: Record<string, string>;
  };
  const groups = eventsOf(fixture);

  it.each(Object.entries(fixture.expected))('%s is %s', (id, expected) => {
    const recs = groups.get(id);
    expect(recs, `event ${id} in fixture`).toBeDefined();
    expect(bundleTypeOf(childrenOf(recs ?? []))).toBe(expected);
  });

  it('normalizes an exclusive bundle to probabilities summing to 1 and keeps the raw sum', () => {
    const children = childrenOf(groups.get('900001') ?? []);
    const prices = new Map(children.map((c, i) => [c.market.market_id, [0.7, 0.2, 0.2][i] ?? null]));
    const { distribution, reason } = ladderDistributionOf(children, 'augmented_negrisk', prices);
    expect(reason).toBeNull();
    expect(distribution?.raw_sum).toBeCloseTo(1.1);
    expect(distribution?.points.reduce((s, p) => s + p.probability, 0)).toBeCloseTo(1);
  });

  it('turns a cumulative strike ladder into bracket masses', () => {
    const children = childrenOf(groups.get('TFED-26JUN') ?? []);
    const prices = new Map(children.map((c, i) => [c.market.market_id, [0.95, 0.6, 0.1][i] ?? null]));
    const { distribution } = ladderDistributionOf(children, 'strike_ladder', prices);
    expect(distribution?.points.map((p) => [p.label, Number(p.probability.toFixed(2))])).toEqual([
      ['<= 3.25', 0.05],
      ['> 3.25 and <= 3.5', 0.35],
      ['> 3.5 and <= 3.75', 0.5],
      ['> 3.75', 0.1],
    ]);
  });

  it('gives null with a reason for a non-monotone ladder and for missing prices', () => {
    const children = childrenOf(groups.get('TFED-26JUN') ?? []);
    const bad = new Map(children.map((c, i) => [c.market.market_id, [0.5, 0.6, 0.1][i] ?? null]));
    expect(ladderDistributionOf(children, 'strike_ladder', bad)).toMatchObject({
      distribution: null,
      reason: expect.stringMatching(/monotone/),
    });
    expect(ladderDistributionOf(children, 'strike_ladder', new Map())).toMatchObject({
      distribution: null,
      reason: expect.stringMatching(/no price/),
    });
  });

  it('turns a date ladder into interval masses ending with "not by the last date"', () => {
    const children = childrenOf(groups.get('900004') ?? []);
    const prices = new Map(children.map((c, i) => [c.market.market_id, [0.2, 0.35][i] ?? null]));
    const { distribution } = ladderDistributionOf(children, 'date_ladder', prices);
    expect(distribution?.points.map((p) => Number(p.probability.toFixed(2)))).toEqual([0.2, 0.15, 0.65]);
  });

  it('writes a subject-free resolution reference for a categorical bundle', () => {
    const children = childrenOf(groups.get('TPOPE-30') ?? []);
    const ref = resolutionReferenceOf(children, 'categorical');
    expect(ref).toContain('the listed outcome');
    expect(ref).not.toContain('Parolin');
  });
});

const dir = resolve(import.meta.dirname, '../../../../shared/fixtures/venues');
const present = existsSync(dir);
if (!present) console.warn(`real-fixture bundle typing skipped: venue fixtures not found at ${dir}`);

describe.skipIf(!present)('bundle typing on real venue_a ladders and venue_b negative-risk events', () => {
  const cases: Array<[string, string, string]> = [
    ['venue_a/kalshi_events_nested_2026-03-01_iran_fed.json', 'KXALBUMSALES-ARI', 'strike_ladder'],
    ['venue_a/kalshi_events_nested_2025-12-23.json', 'KXU3MAX-30', 'strike_ladder'],
    ['venue_a/kalshi_events_nested_2026-03-01_iran_fed.json', 'KXKHAMENEIOUT-AKHA', 'date_ladder'],
    ['venue_a/kalshi_events_nested_2026-03-01_iran_fed.json', 'KXCLOSEHORMUZ-27JAN', 'date_ladder'],
    ['venue_a/kalshi_events_nested_2026-03-01_iran_fed.json', 'KXMENWORLDCUP-26', 'categorical'],
    ['venue_a/kalshi_events_nested_2026-03-01_iran_fed.json', 'KXNEXTIRANLEADER-45JAN01', 'categorical'],
    ['venue_a/kalshi_events_nested_2026-03-01_iran_fed.json', 'KXRECOGPERSONIRAN-26', 'singleton'],
    ['venue_b/polymarket_events_nested_2026-03-01_iran_fed.json', '189845', 'categorical'],
    ['venue_b/polymarket_events_nested_2026-03-01_iran_fed.json', '114242', 'date_ladder'],
    ['venue_b/polymarket_events_nested_2026-03-01_iran_fed.json', '145523', 'singleton'],
    ['venue_b/polymarket_events_nested_2025-06.json', '15398', 'augmented_negrisk'],
    ['venue_b/polymarket_events_nested_2025-06.json', '16168', 'strike_ladder'],
    ['venue_b/polymarket_events_nested_2025-06.json', '16096', 'strike_ladder'],
    ['venue_b/polymarket_events_nested_2025-06.json', '16085', 'categorical'],
  ];
  const loaded = new Map<string, Map<string, NativeRecord[]>>();
  it.each(cases)('%s %s is %s', (file, id, expected) => {
    let groups = loaded.get(file);
    if (!groups) {
      groups = eventsOf(JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')));
      loaded.set(file, groups);
    }
    const recs = groups.get(id);
    expect(recs, `event ${id} in ${file}`).toBeDefined();
    expect(bundleTypeOf(childrenOf(recs ?? []))).toBe(expected);
  });
});
