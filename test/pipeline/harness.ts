/** Shared set-up for pipeline integration tests: a temp SQLite store, a replay server, fast venue options. */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EditorialFunctions, RunPipelineOptions, RunSummary } from '../../src/pipeline/index.ts';
import { runPipeline } from '../../src/pipeline/index.ts';
import type { VenuePullOptions } from '../../src/pipeline/pull-stage.ts';
import type { PipelineLogger } from '../../src/pipeline/types.ts';
import type { Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { ReplayServer } from '../../src/venues/index.ts';
import { startReplayServer } from '../../src/venues/index.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures/pipeline/', import.meta.url));
export const DAY1 = join(FIXTURES, 'day1');
export const DAY2 = join(FIXTURES, 'day2');
export const DAY1_AT = '2026-03-01T12:00:00.000Z';
export const DAY2_AT = '2026-03-02T12:00:00.000Z';

/**
 * Writes a two-day universe in the simulated generator's layout into `dir`, made of the pipeline fixtures: both days'
 * snapshots, day 1's history and a manifest that lists the snapshots in the order given (readers sort them).
 */
export function twoDayUniverse(dir: string, listed: readonly string[] = ['2026-03-01', '2026-03-02']): string {
  cpSync(DAY1, join(dir, 'snapshots', '2026-03-01'), { recursive: true, filter: (p) => !p.includes('history') });
  cpSync(DAY2, join(dir, 'snapshots', '2026-03-02'), { recursive: true });
  cpSync(join(DAY1, 'history'), join(dir, 'history'), { recursive: true });
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ seed: 7, days: 14, as_of: '2026-03-02', snapshots: listed, counts: {} }),
  );
  return dir;
}

export interface LogLine {
  level: string;
  msg: string | undefined;
  o: object;
}

/** A logger that keeps its lines for assertions and prints nothing. */
export function memoryLogger(): PipelineLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (o: object, msg?: string) => {
    lines.push({ level, msg, o });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

export async function tempStore(): Promise<{ store: Store; dispose(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-pipeline-'));
  const store = await openStore(`sqlite:${join(dir, 'test.sqlite')}`);
  await store.migrate();
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Venue options against a replay server: short timeouts, one retry, no real waiting between tries. */
export function venueOptions(server: ReplayServer, logger: PipelineLogger, timeoutMs = 400): VenuePullOptions {
  const common = {
    timeoutMs,
    maxRetries: 1,
    ratePerSecond: Number.POSITIVE_INFINITY,
    logger,
    clock: { sleep: async () => {} },
  };
  return {
    venue_a: { ...common, baseUrl: server.venueAUrl },
    venue_b: { ...common, baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl, maxBookCalls: 0 },
  };
}

/** Serves `dir` (with optional faults) and runs the pipeline once with the clock at `at`. */
export async function runOn(
  store: Store,
  dir: string,
  at: string,
  opts: {
    faults?: string;
    logger?: PipelineLogger;
    timeoutMs?: number;
    editorial?: EditorialFunctions;
    afterWrite?: RunPipelineOptions['afterWrite'];
    /** Runs as the run's `afterPull` (the simulated source lets the replay server release its catalog there). */
    afterPull?: (server: ReplayServer) => void;
    onProgress?: RunPipelineOptions['onProgress'];
    /** False: re-normalize and re-derive every event (RunPipelineOptions.incremental). */
    incremental?: boolean;
  } = {},
): Promise<RunSummary> {
  const logger = opts.logger ?? memoryLogger();
  const server = await startReplayServer({ dir, port: 0, ...(opts.faults ? { faults: opts.faults } : {}) });
  try {
    return await runPipeline({
      store,
      source: 'replay',
      clock: () => new Date(at),
      logger,
      venues: venueOptions(server, logger, opts.timeoutMs),
      backfill: { maxCalls: null },
      ...(opts.editorial ? { editorial: opts.editorial } : {}),
      ...(opts.afterWrite ? { afterWrite: opts.afterWrite } : {}),
      ...(opts.afterPull ? { afterPull: () => opts.afterPull?.(server) } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.incremental === undefined ? {} : { incremental: opts.incremental }),
    });
  } finally {
    await server.close();
  }
}
