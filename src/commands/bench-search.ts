/**
 * The search part of `pmref bench` (issue 17): query latency in process against the read model's search index
 * (p50/p99 over the query set in test/golden/search-queries.json, each query as an event search and as a market
 * search through the query service, uncached), the index's heap (measured around a rebuild from the model's
 * normalized documents, as a pack load does) and the rebuild time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { collectGarbage, QueryService, type ReadModel, SearchIndex } from '../serve/index.ts';

export const SEARCH_QUERIES = 'test/golden/search-queries.json';
/** The goals of issue 17. */
const GOAL_P99_MS = 5;
const GOAL_INDEX_MB = 100;

export interface SearchBench {
  queries: number;
  rounds: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  index_heap_mb: number;
  rows_heap_mb: number;
  index_rebuild_ms: number;
  goals: { p99_ms: number; index_mb: number };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The query strings of the query set (deduplicated), or a few built-in ones when the file is absent. */
export function benchQueries(path = SEARCH_QUERIES): string[] {
  if (!existsSync(path)) return ['fed', 'fomc', 'bitcoin price', 'bitcon', 'cpi', 'KXFED', 'election 2028'];
  const golden = JSON.parse(readFileSync(path, 'utf8')) as { queries: Array<{ q: string }> };
  return [...new Set(golden.queries.map((g) => g.q))];
}

export function searchBench(model: ReadModel, queries: readonly string[], rounds = 20): SearchBench {
  const service = new QueryService({ current: () => model });
  const times: number[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    for (const q of queries) {
      for (const level of ['events', 'markets'] as const) {
        const t = performance.now();
        if (level === 'events') service.findEvents({ q, limit: 10 });
        else service.findMarkets({ q, limit: 10 });
        if (round > 0) times.push(performance.now() - t); // round 0 warms up
      }
    }
  }
  times.sort((a, b) => a - b);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const t = performance.now();
  const index = SearchIndex.build(model.catalog.docs);
  const rebuildMs = performance.now() - t;
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  // The rows (one list item per market) are measured by a structured copy.
  collectGarbage();
  const beforeRows = process.memoryUsage().heapUsed;
  const rows = structuredClone(model.catalog.rows);
  collectGarbage();
  const afterRows = process.memoryUsage().heapUsed;
  if (!index || rows.length < 0) throw new Error('unreachable');
  return {
    queries: queries.length * 2,
    rounds,
    p50_ms: Math.round(quantile(times, 0.5) * 1000) / 1000,
    p99_ms: Math.round(quantile(times, 0.99) * 1000) / 1000,
    max_ms: Math.round((times.at(-1) ?? 0) * 1000) / 1000,
    index_heap_mb: mb(after - before),
    rows_heap_mb: mb(afterRows - beforeRows),
    index_rebuild_ms: Math.round(rebuildMs),
    goals: { p99_ms: GOAL_P99_MS, index_mb: GOAL_INDEX_MB },
  };
}
