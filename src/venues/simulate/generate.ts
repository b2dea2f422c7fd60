/**
 * `generateUniverse`: writes the simulated universe (both venues' raw shapes for two snapshot
 * days, history, spot, truth sidecar and manifest) into a folder the replay server serves.
 * Deterministic: the same seed, days, as-of and scale give byte-identical files.
 *
 * The price history (230 MB of JSON on the full universe, about a third of the generation) may be left for
 * later (`history: false`): the manifest then says so (`history_deferred`), and `generateHistory` writes it
 * when a run first needs it; the folder ends byte-identical to one generated whole. A first start serves sooner
 * that way, since its first runs fetch no history (issue 18).
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_TYPES, CATEGORIES } from '../../domain/index.ts';
import { DAY_MS, isoDay, parseDay } from './calendar.ts';
import { JsonStreamWriter, writeJsonFile } from './json-writer.ts';
import type { CoinId, Manifest, TruthPair } from './model.ts';
import { planUniverse } from './plan.ts';
import { hash32 } from './prng.ts';
import { candlesA, renderEventA, renderSeriesA } from './render-venue-a.ts';
import { pricesHistoryJsonB, renderBook, renderEventB } from './render-venue-b.ts';
import { buildRuntime } from './runtime.ts';
import { type Clock, type EventRt, makeClock, spotAt } from './timeline.ts';

export interface GenerateProgress {
  stage: 'plan' | 'simulate' | 'snapshot' | 'history' | 'truth' | 'done';
  done: number;
  total: number;
}

export interface GenerateOptions {
  outDir: string;
  seed: number;
  /** Days of history (default 14). */
  days?: number;
  /** The as-of snapshot date, YYYY-MM-DD (default: today's UTC date). */
  asOf?: string;
  /** Fraction of the full universe (tests use about 0.05); default 1. */
  scale?: number;
  /** False: write no price history yet (the manifest says `history_deferred`; see `generateHistory`). Default true. */
  history?: boolean;
  onProgress?: (p: GenerateProgress) => void;
}

/**
 * The simulated universe in memory: its clock, plan and runtime (the same for the same inputs). `simulating` is
 * called between the plan and the runtime (a progress report).
 */
function universeOf(seed: number, asOfMs: number, days: number, scale: number, simulating = () => {}) {
  const clock = makeClock(asOfMs, days);
  const plan = planUniverse(seed, asOfMs, scale);
  simulating();
  const rt = buildRuntime(plan, seed, clock);
  const eventsA = rt.events.filter((e) => e.draft.venue === 'venue_a');
  const eventsB = rt.events.filter((e) => e.draft.venue === 'venue_b');
  return { clock, plan, rt, eventsA, eventsB };
}

const EVENTS_PER_FILE = 1000;
const COIN_ORDER: readonly CoinId[] = ['bitcoin', 'ethereum', 'solana', 'ripple', 'dogecoin', 'cardano'];

/**
 * Generates the simulated universe into `outDir` and returns its manifest. The manifest is written
 * last, so a folder with a manifest is always complete.
 */
export async function generateUniverse(options: GenerateOptions): Promise<Manifest> {
  const days = options.days ?? 14;
  const scale = options.scale ?? 1;
  if (!Number.isInteger(options.seed)) throw new Error(`seed must be an integer, got ${options.seed}`);
  if (!Number.isInteger(days) || days < 2 || days > 90)
    throw new Error(`days must be an integer from 2 to 90, got ${days}`);
  if (!(scale > 0 && scale <= 1)) throw new Error(`scale must be in (0, 1], got ${scale}`);
  const asOf = options.asOf ?? new Date().toISOString().slice(0, 10);
  const asOfMs = parseDay(asOf);
  const progress = options.onProgress ?? (() => {});
  const out = options.outDir;
  for (const p of ['manifest.json', 'truth.json', 'snapshots', 'history']) {
    const full = join(out, p);
    if (existsSync(full)) rmSync(full, { recursive: true, force: true });
  }

  progress({ stage: 'plan', done: 0, total: 1 });
  const { clock, plan, rt, eventsA, eventsB } = universeOf(options.seed, asOfMs, days, scale, () =>
    progress({ stage: 'simulate', done: 0, total: 1 }),
  );

  const snapshots: [string, string] = [isoDay(asOfMs - DAY_MS), asOf];
  for (const [i, date] of snapshots.entries()) {
    progress({ stage: 'snapshot', done: i, total: snapshots.length });
    writeSnapshot(join(out, 'snapshots', date), parseDay(date), clock, eventsA, eventsB, rt.spots);
  }
  if (options.history !== false) {
    progress({ stage: 'history', done: 0, total: 2 });
    writeHistory(out, clock, eventsA, eventsB);
  }

  progress({ stage: 'truth', done: 0, total: 1 });
  const truth: TruthPair[] = plan.pairs.map((p) => {
    const a = rt.byDraft.get(p.a);
    const b = rt.byDraft.get(p.b);
    if (!a || !b) throw new Error('a truth pair references a market that was trimmed from the plan');
    return {
      a: { venue: 'venue_a', native_id: a.id },
      b: { venue: 'venue_b', native_id: b.id },
      label: p.label,
      ...(p.trapKind ? { trap_kind: p.trapKind } : {}),
      why: p.why,
    };
  });
  writeJsonFile(join(out, 'truth.json'), { pairs: truth });

  const byCategory: Record<string, number> = {};
  for (const c of CATEGORIES) byCategory[c] = 0;
  const byBundle: Record<string, number> = {};
  for (const b of BUNDLE_TYPES) byBundle[b] = 0;
  for (const e of rt.events) {
    byCategory[e.draft.category] = (byCategory[e.draft.category] ?? 0) + 1;
    byBundle[e.draft.bundle] = (byBundle[e.draft.bundle] ?? 0) + 1;
  }
  const countMarkets = (evs: EventRt[]): number => evs.reduce((s, e) => s + e.markets.length, 0);
  const manifest: Manifest = {
    seed: options.seed,
    days,
    as_of: asOf,
    generated_by: 'pmref simulate',
    data_source: 'simulated',
    snapshots,
    counts: {
      events: rt.events.length,
      markets: countMarkets(rt.events),
      venue_a: { events: eventsA.length, markets: countMarkets(eventsA) },
      venue_b: { events: eventsB.length, markets: countMarkets(eventsB) },
      by_category: byCategory,
      by_bundle_type: byBundle,
      twins: truth.filter((t) => t.label === 'same').length,
      complements: truth.filter((t) => t.label === 'complement').length,
      traps: truth.filter((t) => t.label === 'different').length,
    },
  };
  if (options.history === false) manifest.history_deferred = { scale };
  writeJsonFile(join(out, 'manifest.json'), manifest);
  progress({ stage: 'done', done: 1, total: 1 });
  return manifest;
}

/**
 * Writes the price history a universe was generated without (`history: false`), from its manifest's seed, days,
 * as-of and scale, then clears `history_deferred` from the manifest. The history is written beside and renamed
 * into place, and the manifest replaced after it, so a folder interrupted half-way still says its history is
 * deferred. Returns the manifest; a universe whose history is already there is left alone.
 * @example generateHistory('/var/lib/pmref/sim') // writes sim/history, manifest without history_deferred
 */
export function generateHistory(outDir: string): Manifest {
  const path = join(outDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  const deferred = manifest.history_deferred;
  if (deferred === undefined) return manifest;
  const { clock, eventsA, eventsB } = universeOf(
    manifest.seed,
    parseDay(manifest.as_of),
    manifest.days,
    deferred.scale,
  );
  const partial = join(outDir, `history-partial-${process.pid}`);
  rmSync(partial, { recursive: true, force: true });
  writeHistory(partial, clock, eventsA, eventsB, '');
  rmSync(join(outDir, 'history'), { recursive: true, force: true });
  renameSync(partial, join(outDir, 'history'));
  const { history_deferred: _done, ...complete } = manifest;
  writeJsonFile(`${path}.partial`, complete);
  renameSync(`${path}.partial`, path);
  return complete;
}

function writeSnapshot(
  dir: string,
  at: number,
  clock: Clock,
  eventsA: EventRt[],
  eventsB: EventRt[],
  spots: Record<CoinId, Float64Array>,
): void {
  writeJsonFile(join(dir, 'venue_a', 'series.json'), renderSeriesA(eventsA, at));
  writeChunks(join(dir, 'venue_a'), eventsA, (e) => renderEventA(e, at, clock));
  writeChunks(join(dir, 'venue_b'), eventsB, (e) => renderEventB(e, at, clock));
  const books = new JsonStreamWriter(join(dir, 'venue_b', 'books.json'), 'array');
  for (const e of eventsB) {
    for (const m of e.markets) {
      if (at < m.closeMs && at >= e.draft.openMs && hash32(`book:${m.id}`) % 100 < 8)
        books.push(renderBook(m, at, clock));
    }
  }
  books.close();
  const simple: Record<string, { usd: number; usd_24h_change: number; last_updated_at: number }> = {};
  for (const coin of COIN_ORDER) {
    const now = spotAt(spots, clock, coin, at);
    const before = spotAt(spots, clock, coin, at - DAY_MS);
    simple[coin] = {
      usd: Number(now.toPrecision(now > 100 ? 7 : 5)),
      usd_24h_change: ((now - before) / before) * 100,
      last_updated_at: Math.floor(at / 1000) - 30 - (hash32(coin) % 30),
    };
  }
  writeJsonFile(join(dir, 'spot', 'simple_price.json'), simple);
}

function writeChunks(dir: string, events: EventRt[], render: (e: EventRt) => unknown): void {
  for (let i = 0, n = 1; i < events.length || n === 1; i += EVENTS_PER_FILE, n++) {
    const w = new JsonStreamWriter(join(dir, `events-${String(n).padStart(4, '0')}.json`), 'array');
    for (const e of events.slice(i, i + EVENTS_PER_FILE)) w.push(render(e));
    w.close();
    if (i + EVENTS_PER_FILE >= events.length) break;
  }
}

/** Writes both venues' price history into `out/<folder>` (`history` by default). */
function writeHistory(out: string, clock: Clock, eventsA: EventRt[], eventsB: EventRt[], folder = 'history'): void {
  const candles = new JsonStreamWriter(join(out, folder, 'venue_a', 'candlesticks.json'), 'object');
  for (const e of eventsA) {
    for (const m of e.markets) {
      const c = candlesA(m, clock);
      if (c.length > 0) candles.entry(m.id, c);
    }
  }
  candles.close();
  const prices = new JsonStreamWriter(join(out, folder, 'venue_b', 'prices-history.json'), 'object');
  for (const e of eventsB) {
    for (const m of e.markets) {
      const h = pricesHistoryJsonB(m, clock);
      if (h !== '[]') prices.entryRaw(m.tokens[0], h);
    }
  }
  prices.close();
}
