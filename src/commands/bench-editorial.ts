/**
 * `pmref bench --editorial`: how fast the editorial functions run per market over the recorded venue
 * fixtures (`../shared/fixtures/venues` by default): resolution judgment (`judgeResolution`, the grade) and
 * claim keying (`claimKeyOf`, cross-venue identity). Both run once per market per pipeline run, ~39,000 times
 * on the full universe. Goals: well under a millisecond of CPU per market each. Writes bench/editorial.json.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { claimKeyOf, type NativeRecord, nativeRecordsOf } from '../editorial/canon/index.ts';
import { judgeResolution } from '../editorial/resolution/index.ts';

export const DEFAULT_FIXTURES = '../shared/fixtures/venues';
const ROUNDS = 4;
const UNIVERSE = 39_000;

interface Timing {
  /** Best round, wall clock, µs per market. */
  wall_us: number;
  /** Best round, process CPU, µs per market. */
  cpu_us: number;
  /** CPU seconds for the full universe at the best round's rate. */
  universe_cpu_s: number;
}

function time(records: readonly NativeRecord[], fn: (r: NativeRecord) => unknown): Timing {
  let wall = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (const r of records) fn(r);
    const c = process.cpuUsage(c0);
    wall = Math.min(wall, ((performance.now() - t0) * 1000) / records.length);
    cpu = Math.min(cpu, (c.user + c.system) / records.length);
  }
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return { wall_us: round1(wall), cpu_us: round1(cpu), universe_cpu_s: round1((cpu * UNIVERSE) / 1e6) };
}

/** Every market of the fixture folders (venue_a, venue_b, reference), once each (as `pmref canon` reads them). */
export function fixtureRecords(dir: string, now: string): NativeRecord[] {
  const seen = new Map<string, NativeRecord>();
  for (const folder of ['venue_a', 'venue_b', 'reference'].map((d) => join(dir, d)).filter((d) => existsSync(d))) {
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) {
      for (const r of nativeRecordsOf(JSON.parse(readFileSync(join(folder, file), 'utf8')), now)) {
        seen.set(`${r.market.platform}:${r.market.platform_market_id}`, r);
      }
    }
  }
  return [...seen.values()];
}

export function editorialBench(dir: string, now: Date) {
  const records = fixtureRecords(dir, now.toISOString());
  if (records.length === 0) throw new Error(`no venue market records under ${dir}`);
  return {
    fixtures: dir,
    markets: records.length,
    rounds: ROUNDS,
    judge_resolution: time(records, (r) => judgeResolution(r.market, r.facts)),
    claim_key: time(records, (r) => claimKeyOf(r.market, r.facts)),
    goal_us_per_market: 1000,
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', node: process.version },
    at: now.toISOString(),
  };
}
