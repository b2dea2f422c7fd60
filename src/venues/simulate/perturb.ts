/**
 * Hourly change on the simulated universe (issue 18): the universe is otherwise static (its two snapshot days
 * are all there is), so an hourly refresh over it changes nothing and measures nothing. `perturbSnapshot`
 * writes a copy of one snapshot in which about `fraction` of the markets changed per hour, deterministically:
 * hour `hours` is the snapshot with the changes of hours 1…`hours` applied in turn, so two consecutive hours
 * differ in about `fraction` of the markets (those chosen for the later hour), as an hourly refresh would see.
 *
 * A market is chosen for hour h when FNV-1a(`perturb:h:<native id>`) / 2³² < fraction. What changes (by the
 * same hash): 18 in 20 a quote move (the 24 h and total volume up, and the yes price by 1–4 cents while the
 * market trades), 1 in 20 a rules clarification appended (a `rule_change`), 1 in 20 the market closes early
 * (open markets only; the others move their quote). Venue shapes are kept: venue_a's cents and `*_dollars` fields, venue_b's JSON-in-string
 * `outcomePrices`. Everything else of the snapshot (series, books, spot) is linked unchanged.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JsonStreamWriter } from './json-writer.ts';
import { hash32 } from './prng.ts';

export interface PerturbOptions {
  /** Share of the markets that change per hour, in [0, 1]. */
  fraction: number;
  /** Hours after the snapshot (≥ 1): the changes of hours 1…hours, applied in turn. */
  hours: number;
}

export interface PerturbReport {
  markets: number;
  /** Markets that differ from the snapshot (changed in any of the hours). */
  changed: number;
  /** Markets changed in the last hour: what a refresh after the previous hour sees change. */
  changed_last_hour: number;
}

type Rec = Record<string, unknown>;
type Change = 'quote' | 'rules' | 'close';

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const TWO_32 = 2 ** 32;

/** What hour `hour` does to the market with native id `id`, or null when it leaves it alone. */
export function changeAt(hour: number, id: string, fraction: number): Change | null {
  if (hash32(`perturb:${hour}:${id}`) / TWO_32 >= fraction) return null;
  const k = hash32(`perturb-kind:${hour}:${id}`) % 20;
  return k === 0 ? 'rules' : k === 1 ? 'close' : 'quote';
}

const CLARIFICATION = ' Clarification (simulated hourly change): the figure published first by the source counts.';
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** A nonzero price move of 1–4 (cents) and a volume added (USD), from the market's own hash. */
function moveOf(hour: number, id: string): { cents: number; volume: number } {
  const h = hash32(`perturb-move:${hour}:${id}`);
  const size = 1 + (h % 4);
  return { cents: (h >>> 2) % 2 === 0 ? size : -size, volume: 50 + ((h >>> 3) % 2000) };
}

function venueAChange(m: Rec, hour: number, change: Change): void {
  const id = String(m.ticker);
  if (change === 'close' && m.status === 'active') {
    m.status = 'closed';
    return;
  }
  if (change === 'rules') {
    m.rules_secondary = `${typeof m.rules_secondary === 'string' ? m.rules_secondary : ''}${CLARIFICATION}`;
    return;
  }
  const { cents, volume } = moveOf(hour, id);
  const add = (fpField: string, intField: string) => {
    const next = Number(m[fpField] ?? 0) + volume;
    m[fpField] = next.toFixed(2);
    if (typeof m[intField] === 'number') m[intField] = Math.round(next);
  };
  add('volume_24h_fp', 'volume_24h');
  add('volume_fp', 'volume');
  // A closed or settled market trades no more: its prices stay (they carry its settlement).
  if (m.status !== 'active') return;
  const price = (dollarsField: string, centsField: string, delta: number) => {
    const now = Math.round(Number(m[dollarsField] ?? 0) * 100);
    const next = clamp(now + delta, 1, 99);
    m[dollarsField] = (next / 100).toFixed(4);
    if (typeof m[centsField] === 'number') m[centsField] = next;
  };
  price('last_price_dollars', 'last_price', cents);
  price('yes_bid_dollars', 'yes_bid', cents);
  price('yes_ask_dollars', 'yes_ask', cents);
  price('no_bid_dollars', 'no_bid', -cents);
  price('no_ask_dollars', 'no_ask', -cents);
}

function venueBChange(m: Rec, hour: number, change: Change): void {
  const id = String(m.conditionId);
  if (change === 'close' && m.closed !== true) {
    m.closed = true;
    m.acceptingOrders = false;
    return;
  }
  if (change === 'rules') {
    m.description = `${typeof m.description === 'string' ? m.description : ''}${CLARIFICATION}`;
    return;
  }
  const { cents, volume } = moveOf(hour, id);
  const total = Number(m.volumeNum ?? 0) + volume;
  m.volume24hr = Number(m.volume24hr ?? 0) + volume;
  m.volumeNum = total;
  m.volume = String(total);
  m.volumeClob = total;
  // A closed market trades no more: its prices stay (they carry its settlement).
  if (m.closed === true) return;
  const move = (x: unknown) => Math.round(clamp(Number(x) + cents / 100, 0.001, 0.999) * 1000) / 1000;
  try {
    const prices = JSON.parse(String(m.outcomePrices)) as string[];
    const yes = move(prices[0]);
    m.outcomePrices = JSON.stringify([String(yes), String(Math.round((1 - yes) * 10_000) / 10_000)]);
  } catch {
    // A market without readable prices keeps them.
  }
  if (typeof m.lastTradePrice === 'number') m.lastTradePrice = move(m.lastTradePrice);
  if (typeof m.bestBid === 'number') m.bestBid = move(m.bestBid);
  if (typeof m.bestAsk === 'number') m.bestAsk = move(m.bestAsk);
}

/**
 * Writes `snapshotDir` with the changes of hours 1…`hours` into `outDir` (created; event pages rewritten,
 * every other file linked) and says how many markets changed.
 * @example perturbSnapshot('sim/snapshots/2026-03-02', '/tmp/stage/snapshot', { fraction: 0.05, hours: 3 })
 */
export function perturbSnapshot(snapshotDir: string, outDir: string, options: PerturbOptions): PerturbReport {
  const { fraction, hours } = options;
  if (!(fraction >= 0 && fraction <= 1)) throw new Error(`fraction must be in [0, 1], got ${fraction}`);
  if (!Number.isInteger(hours) || hours < 1) throw new Error(`hours must be an integer ≥ 1, got ${hours}`);
  const report: PerturbReport = { markets: 0, changed: 0, changed_last_hour: 0 };
  const perturbMarket = (m: Rec) => {
    const venue = typeof m.ticker === 'string' ? 'venue_a' : typeof m.conditionId === 'string' ? 'venue_b' : null;
    if (venue === null) return;
    report.markets++;
    const id = String(venue === 'venue_a' ? m.ticker : m.conditionId);
    let changed = false;
    for (let hour = 1; hour <= hours; hour++) {
      const change = changeAt(hour, id, fraction);
      if (change === null) continue;
      changed = true;
      if (hour === hours) report.changed_last_hour++;
      if (venue === 'venue_a') venueAChange(m, hour, change);
      else venueBChange(m, hour, change);
    }
    if (changed) report.changed++;
  };
  const perturbEvents = (events: readonly unknown[]) => {
    for (const event of events) {
      if (isRec(event) && Array.isArray(event.markets)) for (const m of event.markets) if (isRec(m)) perturbMarket(m);
    }
  };
  // An event page: an array of events with nested markets (the generator's files), or `{events: [...]}`.
  const eventsIn = (json: unknown): unknown[] | null => {
    const list = Array.isArray(json) ? json : isRec(json) && Array.isArray(json.events) ? json.events : null;
    return list?.some((e) => isRec(e) && Array.isArray(e.markets)) ? list : null;
  };
  const copy = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from).sort()) {
      const src = join(from, name);
      const dst = join(to, name);
      if (statSync(src).isDirectory()) {
        copy(src, dst);
        continue;
      }
      const json: unknown = name.endsWith('.json') ? JSON.parse(readFileSync(src, 'utf8')) : null;
      const events = eventsIn(json);
      if (events === null) {
        symlinkSync(resolve(src), dst);
      } else if (Array.isArray(json)) {
        perturbEvents(events);
        const out = new JsonStreamWriter(dst, 'array');
        for (const e of events) out.push(e);
        out.close();
      } else {
        perturbEvents(events);
        writeFileSync(dst, JSON.stringify(json));
      }
    }
  };
  copy(snapshotDir, outDir);
  return report;
}
