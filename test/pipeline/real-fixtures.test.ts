// Every record of the recorded venue data is stored, out of scope with a reason, or rejected with a reason, and a second identical run changes nothing.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/pipeline/index.ts';
import type { Store } from '../../src/store/index.ts';
import { runOn, tempStore } from './harness.ts';

const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const present = existsSync(REAL);
if (!present) console.warn(`real-fixtures.test.ts skipped: ${REAL} is absent (it holds the recorded venue data)`);

describe.skipIf(!present)('the recorded venue data through the replay server', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let first: RunSummary;
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    first = await runOn(store, REAL, '2026-09-01T12:00:00.000Z', { timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await dispose();
  });

  it('accounts for every pulled record: stored + out of scope + rejected = pulled, with no venue error', () => {
    for (const v of Object.values(first.venues)) {
      const sum = (r: Record<string, number>) => Object.values(r).reduce((n, x) => n + x, 0);
      expect(v.error).toBeNull();
      expect(v.stored + sum(v.out_of_scope) + sum(v.rejected)).toBe(v.pulled);
      expect(v.stored).toBeGreaterThan(0);
    }
    expect(first.status).toBe('ok');
    expect(first.marks).toBe(first.venues.venue_a.stored + first.venues.venue_b.stored);
  });

  it('is idempotent over the whole set', async () => {
    const markets = await store.listMarkets();
    const log = await store.listLog();
    const again = await runOn(store, REAL, '2026-09-01T13:00:00.000Z', { timeoutMs: 30_000 });
    expect(again).toMatchObject({ log_entries: 0, markets_written: 0, events_written: 0 });
    expect(await store.listMarkets()).toEqual(markets);
    expect(await store.listLog()).toEqual(log);
  });
});
