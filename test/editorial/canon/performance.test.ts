// Claim keying is fast enough for ~39,000 markets per run: it measures µs per market over the real fixtures and fails only when grossly slow.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimKeyOf, type NativeRecord, nativeRecordsOf } from '../../../src/editorial/canon/index.ts';
import { NOW } from './helpers.ts';

const dir = resolve(import.meta.dirname, '../../../../shared/fixtures/venues');
const present = existsSync(dir);
if (!present) console.warn(`canon performance skipped: venue fixtures not found at ${dir}`);

describe.skipIf(!present)('claim keying speed', () => {
  it('keys every fixture market in well under a millisecond each', () => {
    const recs: NativeRecord[] = ['venue_a', 'venue_b', 'reference'].flatMap((d) =>
      readdirSync(`${dir}/${d}`)
        .filter((f) => f.endsWith('.json'))
        .flatMap((f) => nativeRecordsOf(JSON.parse(readFileSync(`${dir}/${d}/${f}`, 'utf8')), NOW)),
    );
    let best = Number.POSITIVE_INFINITY;
    let bestCpu = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 4; round++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (const r of recs) claimKeyOf(r.market, r.facts);
      const cpu = process.cpuUsage(c0);
      best = Math.min(best, ((performance.now() - t0) * 1000) / recs.length);
      bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / recs.length);
    }
    console.info(
      `canon: ${recs.length} fixture markets, best of 4 rounds ${best.toFixed(1)} µs/market wall, ${bestCpu.toFixed(1)} µs/market CPU (~${((bestCpu * 39_000) / 1e6).toFixed(1)} s CPU for 39,000)`,
    );
    // Generous bound: CI machines are shared; the point is to catch a regression to per-market chrono or registry scans.
    expect(best).toBeLessThan(2000);
  });
});
