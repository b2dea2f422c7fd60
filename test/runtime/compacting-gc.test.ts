// A compacting collection sets V8's compaction flag for that one collection and always clears it after: left set,
// every later full collection of the process (a run's, in the pipeline thread) would compact, which on a heap of
// 600 MB alive spiked a first start to 2.2 GB.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { withCompaction } from '../../src/compacting-gc.ts';

describe('withCompaction', () => {
  it('sets the flag around the collection, and clears it when the collection throws', () => {
    const seen: string[] = [];
    withCompaction(
      () => seen.push('collect'),
      (flags) => seen.push(flags),
    );
    expect(seen).toEqual(['--compact-on-every-full-gc', 'collect', '--no-compact-on-every-full-gc']);
    seen.length = 0;
    expect(() =>
      withCompaction(
        () => {
          throw new Error('collection failed');
        },
        (flags) => seen.push(flags),
      ),
    ).toThrow('collection failed');
    expect(seen).toEqual(['--compact-on-every-full-gc', '--no-compact-on-every-full-gc']);
  });

  it("runs a real collection with V8's own flags", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // 200,000 objects made and dropped: garbage until a collection.
    const made = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` })).length;
    const held = getHeapStatistics().used_heap_size;
    withCompaction(gc);
    expect(made).toBe(200_000);
    expect(getHeapStatistics().used_heap_size).toBeLessThan(held);
  });
});
