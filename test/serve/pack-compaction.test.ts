// After a pack write the holder collects and compacts the heap: the write's garbage (the header's JSON, the bodies'
// frames) would otherwise stay resident in an idle server until V8 collects on its own, which may be minutes.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from './seed.ts';

/** For each compaction: whether the pack file was in place when it began. */
const compactions: boolean[] = [];
let packPath = '';

vi.mock('../../src/serve/gc.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/serve/gc.ts')>();
  return {
    ...original,
    compactHeap: async (maxRounds?: number) => {
      compactions.push(packPath !== '' && existsSync(packPath));
      await original.compactHeap(maxRounds);
    },
  };
});

let store: Store;
let dir: string;

beforeAll(async () => {
  store = await seedStore();
  dir = mkdtempSync(join(tmpdir(), 'pmref-pack-compact-'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pack write and the heap', () => {
  it('compacts the heap once a pack write has landed', async () => {
    packPath = join(dir, 'a.pack');
    const holder = await ReadModelHolder.create(store, { origin: 'http://compact.test', clock: () => NOW, packPath });
    await holder.packWritten();
    // The settling compaction starts before the write; the last one began with the pack in place.
    expect(existsSync(packPath)).toBe(true);
    expect(compactions.at(-1)).toBe(true);
  });
});
