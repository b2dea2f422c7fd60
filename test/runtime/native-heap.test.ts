import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTrim, nativeHeapTrim, trimNativeHeap } from '../../src/native-heap.ts';
import { collectGarbage } from '../../src/serve/gc.ts';
import { glibc } from '../support/glibc.ts';

/** Resident anonymous memory of this process, in bytes (Linux). */
function anonymousBytes(): number {
  const line = readFileSync('/proc/self/smaps_rollup', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Anonymous:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

const MB = 1024 * 1024;

describe('native heap trim', () => {
  it('says why it cannot trim where there is no glibc or no binding', () => {
    expect(loadTrim('darwin').state).toEqual({ available: false, reason: 'no glibc malloc_trim on darwin' });
    const missing = loadTrim('linux', () => {
      throw new Error("Cannot find module 'koffi'");
    });
    expect(missing.trim).toBeNull();
    expect(missing.state.available).toBe(false);
    expect(missing.state.reason).toBe("glibc malloc_trim could not be loaded: Cannot find module 'koffi'");
  });

  it.runIf(glibc)('gives back the free pages a build leaves in the middle of the C heap', async () => {
    expect(nativeHeapTrim()).toEqual({ available: true, reason: null });
    // What a build leaves: many small malloc'd buffers, most freed, a few kept between them, so no arena's top is
    // free and glibc keeps the freed pages resident.
    const kept: Buffer[] = [];
    let all: Buffer[] | null = [];
    for (let i = 0; i < 160_000; i++) {
      const b = Buffer.allocUnsafeSlow(1000);
      b.fill(i & 0xff);
      all.push(b);
      if (i % 16 === 0) kept.push(b);
    }
    all = null;
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 200)); // backing stores are freed after the collection
    collectGarbage();
    const before = anonymousBytes();
    expect(trimNativeHeap()).toBe(true);
    const after = anonymousBytes();
    expect(before - after).toBeGreaterThan(40 * MB);
    expect(kept.every((b, i) => b[0] === ((i * 16) & 0xff))).toBe(true);
  });
});
