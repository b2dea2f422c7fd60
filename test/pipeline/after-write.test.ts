// After the write, a run screens every open market under both regimes, stores the catalyst calendar with
// events bound to it, pulls spot prices through the venue-shaped spot API and runs the signal wire — and a
// second run of the same input rewrites no market.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { afterWriteStage, runPipeline } from '../../src/pipeline/index.ts';
import type { Store } from '../../src/store/index.ts';
import { startReplayServer } from '../../src/venues/index.ts';
import { DAY1, DAY1_AT, memoryLogger, tempStore, venueOptions } from './harness.ts';

let store: Store;
let dispose: () => Promise<void>;
let dir: string;
beforeEach(async () => {
  ({ store, dispose } = await tempStore());
  dir = mkdtempSync(join(tmpdir(), 'pmref-aw-'));
  cpSync(DAY1, dir, { recursive: true });
  writeFileSync(
    join(dir, 'simple_price.json'),
    JSON.stringify({ bitcoin: { usd: 97000, last_updated_at: 1772366400 } }),
  );
});
afterEach(async () => {
  await dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function run() {
  const logger = memoryLogger();
  const server = await startReplayServer({ dir, port: 0 });
  try {
    return await runPipeline({
      store,
      source: 'replay',
      clock: () => new Date(DAY1_AT),
      logger,
      venues: venueOptions(server, logger),
      backfill: { maxCalls: null },
      afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
    });
  } finally {
    await server.close();
  }
}

describe('after-write stage', () => {
  it('screens open markets, stores catalysts and runs the wire', async () => {
    const summary = await run();
    const after = (summary as unknown as { after_write: Record<string, unknown> }).after_write;
    expect(after).toMatchObject({ catalysts: expect.any(Number), signals: { detected: expect.any(Number) } });
    const markets = await store.listMarkets();
    for (const m of markets) {
      if (m.status === 'open') {
        expect(m.eligibility_screens?.map((r) => r.regime).sort(), m.platform_market_id).toEqual([
          'cftc-40-11',
          'ciro-26-0076',
        ]);
      } else {
        expect(m.eligibility_screens).toBeNull();
      }
    }
    expect((await store.listCatalysts()).length).toBeGreaterThan(50);
  });

  it('a second run of the same input rewrites no market', async () => {
    await run();
    const before = JSON.stringify(await store.listMarkets());
    const second = await run();
    expect(second.markets_written).toBe(0);
    expect(JSON.stringify(await store.listMarkets())).toBe(before);
  });
});
