// Search finds what users ask for: over the query set in test/golden/search-queries.json (recorded venue data and a simulated universe), recall@10 of the served search is at least 0.9; the numbers of the old token-AND search are printed beside it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryService, type ReadModel } from '../../src/serve/index.ts';
import { baselineMatches } from '../../src/serve/search/baseline.ts';
import { REAL_FIXTURES, realModel, simModel } from './search-stores.ts';

interface GoldenQuery {
  q: string;
  corpus: 'real' | 'sim';
  level: 'events' | 'markets';
  relevant: string[];
  why: string;
}

const GOLDEN = JSON.parse(readFileSync(new URL('../golden/search-queries.json', import.meta.url), 'utf8')) as {
  queries: GoldenQuery[];
};

/** A relevant-identifier pattern: exact, or a glob with `*`. */
function matcher(pattern: string): (id: string | null) => boolean {
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  return (id) => id !== null && re.test(id);
}

interface Scored {
  recall: number;
  rr: number;
}

/** recall@10 and the reciprocal rank of the first relevant answer within the top 10. */
function score(ranked: readonly string[], relevant: ReadonlySet<string>): Scored {
  const top = ranked.slice(0, 10);
  const hits = top.filter((id) => relevant.has(id)).length;
  const first = top.findIndex((id) => relevant.has(id));
  return { recall: hits / Math.min(relevant.size, 10), rr: first < 0 ? 0 : 1 / (first + 1) };
}

/** Relevant event ids (or market ids) of a query in a model. */
function relevantOf(model: ReadModel, g: GoldenQuery): Set<string> {
  const tests = g.relevant.map(matcher);
  if (g.level === 'events') {
    return new Set(
      model.events
        .filter((e) => tests.some((t) => t(e.event.platform_event_id) || t(e.event.slug)))
        .map((e) => e.event.event_id),
    );
  }
  return new Set(
    model.catalog.rows.filter((r) => tests.some((t) => t(r.item.platform_market_id))).map((r) => r.item.market_id),
  );
}

/** The old search: events whose title and tags contain every token, in list order; their markets in order. */
function baselineRanking(model: ReadModel, g: GoldenQuery): string[] {
  const events = model.events.filter((e) => baselineMatches(e.searchText, g.q));
  if (g.level === 'events') return events.map((e) => e.event.event_id);
  const ids = new Set(events.map((e) => e.event.event_id));
  return model.catalog.rows
    .filter((r) => r.item.event_id !== null && ids.has(r.item.event_id))
    .map((r) => r.item.market_id);
}

function servedRanking(model: ReadModel, g: GoldenQuery): string[] {
  const service = new QueryService({ current: () => model });
  return g.level === 'events'
    ? service.findEvents({ q: g.q, limit: 10 }).events.map((e) => e.event_id)
    : service.findMarkets({ q: g.q, limit: 10 }).markets.map((m) => m.market_id);
}

const models: Partial<Record<'real' | 'sim', ReadModel | null>> = {};
const rows: Array<{ g: GoldenQuery; relevant: number; before: Scored; after: Scored }> = [];

beforeAll(async () => {
  models.sim = await simModel();
  models.real = await realModel();
  if (!models.real) console.warn(`search-quality: the real-fixture queries are skipped: ${REAL_FIXTURES} is absent`);
}, 240_000);

afterAll(() => {
  if (rows.length === 0) return;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const lines = rows.map(
    (r) =>
      `${r.g.corpus.padEnd(4)} ${r.g.level.padEnd(7)} ${JSON.stringify(r.g.q).padEnd(40)} rel ${String(r.relevant).padStart(3)}  ` +
      `before R@10 ${r.before.recall.toFixed(2)} RR ${r.before.rr.toFixed(2)}  after R@10 ${r.after.recall.toFixed(2)} RR ${r.after.rr.toFixed(2)}`,
  );
  console.info(
    `${lines.join('\n')}\n${rows.length} queries: recall@10 ${mean(rows.map((r) => r.before.recall)).toFixed(3)} → ` +
      `${mean(rows.map((r) => r.after.recall)).toFixed(3)}; MRR ${mean(rows.map((r) => r.before.rr)).toFixed(3)} → ` +
      `${mean(rows.map((r) => r.after.rr)).toFixed(3)}`,
  );
});

describe('search quality over the query set', () => {
  it('holds at least 40 queries, each with relevant answers in its corpus', () => {
    expect(GOLDEN.queries.length).toBeGreaterThanOrEqual(40);
    for (const g of GOLDEN.queries) {
      const model = models[g.corpus];
      if (!model) continue;
      expect(relevantOf(model, g).size, `${g.corpus} "${g.q}" has no relevant answer`).toBeGreaterThan(0);
    }
  });

  it('reaches recall@10 ≥ 0.9 over the query set (the old search is measured alongside)', () => {
    for (const g of GOLDEN.queries) {
      const model = models[g.corpus];
      if (!model) continue;
      const relevant = relevantOf(model, g);
      rows.push({
        g,
        relevant: relevant.size,
        before: score(baselineRanking(model, g), relevant),
        after: score(servedRanking(model, g), relevant),
      });
    }
    const recall = rows.reduce((n, r) => n + r.after.recall, 0) / rows.length;
    const before = rows.reduce((n, r) => n + r.before.recall, 0) / rows.length;
    expect(recall).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThan(before);
  });
});
