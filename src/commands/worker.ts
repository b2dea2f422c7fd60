import { destination, pino } from 'pino';
import { loadConfig } from '../config.ts';
import { logProgress, startWorker } from '../pipeline/index.ts';
import { openStore } from '../store/index.ts';
import { type Command, parseFlags } from './types.ts';

/** `pmref worker`: the refresh process of a scaled-out deployment (one leader per database). */
export const workerCommand: Command = {
  name: 'worker',
  summary: 'run the pipeline now if the store is stale, then hourly (one leader per database)',
  usage: `
Usage: pmref worker

Migrates the store named by PMREF_DB_URL, runs a pipeline at once when the store is empty or its
last run is older than PMREF_REFRESH_MINUTES, then refreshes hourly at minute 0 (UTC) from
PMREF_SOURCE (live | replay | simulated | auto). On PostgreSQL only one worker leads (advisory
lock); the others wait and try again each hour. Logs are JSON lines on stderr. Stops on SIGINT or
SIGTERM after the run in progress.
`,
  async run(args) {
    parseFlags(args, {});
    const config = loadConfig();
    const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: 'worker' } }, destination(2));
    const store = await openStore(config.PMREF_DB_URL);
    try {
      await store.migrate();
      const worker = startWorker({ store, config, logger, onProgress: logProgress(logger).listener });
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info({ signal }, 'worker stopping after the run in progress');
          resolve();
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      await worker.stop();
      return 0;
    } finally {
      await store.close();
    }
  },
};
