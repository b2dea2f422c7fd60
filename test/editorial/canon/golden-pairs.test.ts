// Labelled real cross-venue pairs (test/golden/pairs.json): the matcher never links a pair labelled different, never links twins with the wrong side, and its recall is printed.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { questionIdFor } from '../../../src/domain/index.ts';
import { claimKeyOf, type NativeRecord, nativeRecordsOf } from '../../../src/editorial/canon/index.ts';
import golden from '../../golden/pairs.json' with { type: 'json' };

const dir = resolve(import.meta.dirname, '../../../../shared/fixtures/venues');
const present = existsSync(dir);
if (!present) console.warn(`golden pairs skipped: venue fixtures not found at ${dir}`);

interface Side {
  file: string;
  native_id: string;
}
interface Pair {
  a: Side;
  b: Side;
  label: 'same' | 'complement' | 'different';
  why: string;
}

describe.skipIf(!present)('golden cross-venue pairs', () => {
  const cache = new Map<string, Map<string, NativeRecord>>();
  const recordOf = (s: Side): NativeRecord => {
    let byId = cache.get(s.file);
    if (!byId) {
      const recs = nativeRecordsOf(JSON.parse(readFileSync(`${dir}/${s.file}`, 'utf8')), '2026-03-02T00:00:00Z');
      byId = new Map(recs.map((r) => [r.market.platform_market_id, r]));
      cache.set(s.file, byId);
    }
    const r = byId.get(s.native_id);
    if (!r) throw new Error(`${s.file}: no market ${s.native_id}`);
    return r;
  };
  const pairs = golden.pairs as Pair[];

  it('has at least 40 labelled pairs across venues', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(40);
    for (const p of pairs) expect(recordOf(p.a).market.platform).not.toBe(recordOf(p.b).market.platform);
  });

  it('makes zero false links and reports recall', () => {
    const falseLinks: string[] = [];
    const misses: string[] = [];
    let positives = 0;
    let found = 0;
    for (const p of pairs) {
      const [ka, kb] = [recordOf(p.a), recordOf(p.b)].map((r) => claimKeyOf(r.market, r.facts));
      if (!ka || !kb) throw new Error('unreachable');
      const linked =
        ka.status === 'keyed' && kb.status === 'keyed' && questionIdFor(ka.normalized) === questionIdFor(kb.normalized);
      const kind =
        linked && ka.status === 'keyed' && kb.status === 'keyed'
          ? ka.key.direction === kb.key.direction
            ? 'same'
            : 'complement'
          : null;
      const desc = `${p.a.native_id} ~ ${p.b.native_id.slice(0, 18)} (${p.label}): ${p.why}`;
      if (p.label === 'different') {
        if (linked) falseLinks.push(desc);
        continue;
      }
      positives++;
      if (kind === p.label) found++;
      else if (linked) falseLinks.push(`${desc} — linked as ${kind}`);
      else
        misses.push(
          `${desc} — ${ka.status === 'unkeyed' ? ka.reason : kb.status === 'unkeyed' ? kb.reason : 'different keys'}`,
        );
    }
    const recall = positives === 0 ? 1 : found / positives;
    console.info(
      `golden pairs: ${pairs.length} pairs, ${positives} true links, ${found} found, recall ${recall.toFixed(3)}, false links ${falseLinks.length}` +
        (misses.length ? `\n  misses:\n    ${misses.join('\n    ')}` : ''),
    );
    expect(falseLinks).toEqual([]);
  });
});
