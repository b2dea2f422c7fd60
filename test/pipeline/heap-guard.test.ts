// The pipeline thread's heap guard collects when the heap has grown well past what the last collection left, and
// measures growth from there: a run whose live data grows is not collected again and again.
import { describe, expect, it } from 'vitest';
import { grownEnough, startHeapGuard } from '../../src/pipeline/heap-guard.ts';

const MB = 1024 * 1024;

describe('grownEnough', () => {
  it('asks for half the baseline, and at least the minimum growth', () => {
    expect(grownEnough(601 * MB, 400 * MB)).toBe(true);
    expect(grownEnough(600 * MB, 400 * MB)).toBe(false);
    // A small heap: the minimum (192 MB) rules.
    expect(grownEnough(200 * MB, 50 * MB)).toBe(false);
    expect(grownEnough(243 * MB, 50 * MB)).toBe(true);
    expect(grownEnough(76 * MB, 50 * MB, 5 * MB)).toBe(true);
    expect(grownEnough(75 * MB, 50 * MB, 5 * MB)).toBe(false);
    // At a quarter (the stage boundaries'): 400 MB grows past 500 MB.
    expect(grownEnough(501 * MB, 400 * MB, 96 * MB, 1 / 4)).toBe(true);
    expect(grownEnough(500 * MB, 400 * MB, 96 * MB, 1 / 4)).toBe(false);
  });
});

describe('startHeapGuard', () => {
  it('collects garbage that piled up, then measures from what the collection left', () => {
    let heap = 400 * MB;
    let live = 400 * MB;
    const collections: number[] = [];
    const guard = startHeapGuard({
      collect: () => {
        collections.push(heap);
        heap = live;
      },
      usedBytes: () => heap,
      everyMs: 60_000,
    });
    try {
      heap = 550 * MB; // garbage below the threshold (600 MB)
      expect(guard.check()).toBe(false);
      heap = 900 * MB; // a backfill's garbage
      expect(guard.check()).toBe(true);
      expect(heap).toBe(400 * MB);
      // Live data grows: one collection finds it all alive; the baseline moves up and the next look does not collect.
      live = 700 * MB;
      heap = 700 * MB;
      expect(guard.check()).toBe(true);
      heap = 900 * MB;
      expect(guard.check()).toBe(false);
      expect(collections).toEqual([900 * MB, 700 * MB]);
      // A heap that shrank on its own lowers the baseline.
      live = 300 * MB;
      heap = 300 * MB;
      expect(guard.check()).toBe(false);
      heap = 500 * MB;
      expect(guard.check()).toBe(true);
    } finally {
      guard.stop();
    }
  });

  it('collects at a stage boundary at a quarter of growth (and 96 MB), where the timer would wait for a half', () => {
    let heap = 600 * MB;
    const guard = startHeapGuard({
      collect: () => {
        heap = 600 * MB;
      },
      usedBytes: () => heap,
      everyMs: 60_000,
    });
    try {
      heap = 740 * MB; // under a quarter (750 MB)
      expect(guard.checkAtBoundary()).toBe(false);
      heap = 760 * MB;
      expect(guard.check()).toBe(false); // the timer's threshold is 900 MB
      expect(guard.checkAtBoundary()).toBe(true);
      expect(heap).toBe(600 * MB);
    } finally {
      guard.stop();
    }
    // A small heap: at least 96 MB of growth.
    let small = 100 * MB;
    const smallGuard = startHeapGuard({ collect: () => {}, usedBytes: () => small, everyMs: 60_000 });
    try {
      small = 190 * MB;
      expect(smallGuard.checkAtBoundary()).toBe(false);
      small = 197 * MB;
      expect(smallGuard.checkAtBoundary()).toBe(true);
    } finally {
      smallGuard.stop();
    }
  });
});
