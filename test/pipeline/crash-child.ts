/**
 * The process the kill-at-stage test kills (kill-at-stage.test.ts): one pipeline run over a replay folder, as
 * `pmref ingest --source replay` runs it (after-write stage with spot on; history marks staged one per batch so
 * that `mid_backfill` falls between two batches), ending itself with SIGKILL — no exit handlers, no cleanup, as
 * kill -9 or an OOM kill would — at the stage boundary named on the command line.
 *
 * Usage: node --import tsx test/pipeline/crash-child.ts '{"dbUrl":…,"pgSchema":…,"replayDir":…,"at":…,"stage":…}'
 * Exit status 3 means the run finished without reaching the stage (a test bug, never a pass).
 */
import { afterWriteStage, type RunCheckpoint, runPipeline } from '../../src/pipeline/index.ts';
import { openStore } from '../../src/store/index.ts';
import { startReplayServer } from '../../src/venues/index.ts';

interface CrashArgs {
  dbUrl: string;
  pgSchema?: string;
  replayDir: string;
  at: string;
  stage: RunCheckpoint;
}

const args = JSON.parse(process.argv[2] ?? '{}') as CrashArgs;
const silent = { info() {}, warn() {}, error() {}, debug() {} };
const store = await openStore(args.dbUrl, args.pgSchema ? { pgSchema: args.pgSchema } : {});
const server = await startReplayServer({ dir: args.replayDir, port: 0 });
const fast = { ratePerSecond: Number.POSITIVE_INFINITY, concurrency: 8, logger: silent };
await runPipeline({
  store,
  source: 'replay',
  clock: () => new Date(args.at),
  logger: silent,
  venues: {
    venue_a: { ...fast, baseUrl: server.venueAUrl },
    venue_b: { ...fast, baseUrl: server.venueBUrl, clobBaseUrl: server.clobUrl },
  },
  backfill: { maxCalls: null, concurrency: 8, batchSize: 1 },
  afterWrite: afterWriteStage({ spotBaseUrl: server.spotUrl }),
  checkpoint: (at) => {
    if (at === args.stage) process.kill(process.pid, 'SIGKILL');
  },
});
await server.close();
await store.close();
process.exit(3);
