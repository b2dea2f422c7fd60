import { Redis } from 'ioredis';
import { destination, pino } from 'pino';
import { loadConfig } from '../config.ts';
import { createMetricsRegistry, pipelineMetrics, startMetricsServer } from '../metrics/index.ts';
import { logMallocArenaCap } from '../native-heap.ts';
import { type IngestResult, logProgress, startThreadWorker, startWorker } from '../pipeline/index.ts';
import { openStore, sqlitePathOf } from '../store/index.ts';
import { generationChannel, logRedisErrors } from './serve.ts';
import { type Command, parseFlags } from './types.ts';

/**
 * The announcer's ioredis options: while Redis is away a publish fails at once (replicas poll the store anyway)
 * rather than waiting in a queue that would hold up the run's end.
 */
const ANNOUNCER_OPTIONS = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2_000 } as const;

/** `pmref worker`: the refresh process of a scaled-out deployment (one leader per database). */
export const workerCommand: Command = {
  name: 'worker',
  summary: 'run the pipeline now if the store is stale, then hourly (one leader per database)',
  usage: `
Usage: pmref worker

Migrates the store named by PMREF_DB_URL, runs a pipeline at once when the store is empty or its
last run is older than PMREF_REFRESH_MINUTES, then refreshes hourly at minute 0 (UTC) from
PMREF_SOURCE (live | replay | simulated | auto). On PostgreSQL only one worker leads (advisory
lock); the others stand by and try to take the lead every PMREF_LEADER_POLL_SECONDS (10): when the
leader dies, one of them takes over, marks its interrupted run aborted and redoes it. SIGHUP asks for a
refresh now. The runs go on a pipeline thread whose heap is bounded by PMREF_PIPELINE_HEAP_MB (a run
that needs more ends with an error naming it, and nothing of it is published), as in pmref start; the
thread gives its memory back between runs. Logs are JSON lines on stderr. With PMREF_METRICS_PORT set,
the pipeline and venue metrics are served on PMREF_METRICS_HOST:PMREF_METRICS_PORT/metrics. Stops on
SIGINT or SIGTERM after the run in progress (exit 0).
`,
  async run(args) {
    parseFlags(args, {});
    const config = loadConfig();
    const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: 'worker' } }, destination(2));
    logMallocArenaCap(logger);
    const store = await openStore(config.PMREF_DB_URL);
    try {
      await store.migrate();
      // Pipeline and venue metrics (PMREF_METRICS_PORT), from the summary of each run this worker finishes.
      const registry = config.PMREF_METRICS_PORT === undefined ? null : createMetricsRegistry();
      const pipeline = registry ? pipelineMetrics(registry) : null;
      const metricsServer = registry ? await startMetricsServer(config, registry, logger) : null;
      // Replicas poll the store's generation; with Redis they also hear each published run at once.
      const redis = config.PMREF_REDIS_URL ? new Redis(config.PMREF_REDIS_URL, ANNOUNCER_OPTIONS) : null;
      if (redis) {
        logRedisErrors(redis, 'generation announcements; replicas fall back to polling', (level, msg, err) =>
          logger[level](err === undefined ? {} : { err }, msg),
        );
      }
      const channel = generationChannel(config.PMREF_REDIS_PREFIX);
      // The runs go on a pipeline thread, as in `pmref start`: its heap is bounded (PMREF_PIPELINE_HEAP_MB, a run that
      // needs more ends with an error naming it), and between hourly runs the thread gives back what a run grew to
      // (thread.ts). An in-memory SQLite database is not shared between connections: there the runs stay here.
      const workerOptions = {
        config,
        logger,
        command: 'worker',
        onProgress: logProgress(logger).listener,
        onRun: async (result: IngestResult) => {
          pipeline?.observe(result);
          const generation = result.runs[result.runs.length - 1]?.generation;
          if (redis && generation !== undefined) {
            await redis.publish(channel, String(generation)).catch((err: Error) => {
              logger.warn({ err: err.message }, 'could not announce the generation; replicas will poll');
            });
          }
        },
      };
      const worker =
        sqlitePathOf(config.PMREF_DB_URL) === ':memory:'
          ? startWorker({ ...workerOptions, store })
          : startThreadWorker(workerOptions);
      // SIGHUP: refresh now (the leader runs; a worker that does not lead says so and does nothing).
      const refreshNow = () => {
        logger.info({ signal: 'SIGHUP' }, 'refresh requested');
        void worker.runNow();
      };
      process.on('SIGHUP', refreshNow);
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info({ signal }, 'worker stopping after the run in progress');
          resolve();
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      process.off('SIGHUP', refreshNow);
      await worker.stop();
      await metricsServer?.close();
      redis?.disconnect();
      return 0;
    } finally {
      await store.close();
    }
  },
};
