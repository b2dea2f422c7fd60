/**
 * `pmref serve [--port N] [--host H]`: serves HTTP from an existing store and never runs the pipeline (the
 * stateless replica of DESIGN.md §2). Learns of new generations by polling the store every few seconds and,
 * when PMREF_REDIS_URL is set, from the `pmref:generation` channel; rebuilds in the background and swaps.
 */
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { type Config, loadConfig } from '../config.ts';
import { type App, buildApp, defaultLimits, type Limits, memoryMeter, redisMeter } from '../http/index.ts';
import { ReadModelHolder } from '../serve/index.ts';
import { openStore, type Store } from '../store/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

/** Redis channel the worker publishes the new generation number on after each published run. */
export const GENERATION_CHANNEL = 'pmref:generation';
const POLL_MS = 5_000;

export interface RunningServer {
  app: App;
  url: string;
  holder: ReadModelHolder;
  close(): Promise<void>;
}

/**
 * Embedded SQLite keeps a read-model pack beside its database file, so a restart serves at once; PostgreSQL
 * replicas build from the store (they share no disk).
 */
function packPathFor(dbUrl: string): { packPath?: string } {
  if (!dbUrl.startsWith('sqlite:')) return {};
  const file = dbUrl.slice('sqlite:'.length);
  if (file === ':memory:' || file === '') return {};
  return { packPath: join(dirname(resolve(file)), 'read-model.pack') };
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Opens the store, builds the read model, listens. Shared by `serve` and anything else that serves HTTP.
 * With port 0 a free port is chosen first, so the origin in every body names the real port.
 */
export async function runServer(
  config: Config,
  listen: { port: number; host: string },
  existingStore?: Store,
): Promise<RunningServer> {
  const logger = pino({ level: config.PMREF_LOG_LEVEL });
  const port = listen.port === 0 ? await freePort(listen.host) : listen.port;
  const origin = (config.PMREF_BASE_URL ?? `http://${listen.host}:${port}`).replace(/\/+$/, '');
  const store = existingStore ?? (await openStore(config.PMREF_DB_URL));
  if (!existingStore) await store.migrate();
  const holder = await ReadModelHolder.create(store, {
    origin,
    clock: () => new Date(),
    onError: (err) => logger.error({ err }, 'read model rebuild failed; still serving the previous generation'),
    onSwap: (m, ms) => logger.info({ generation: m.generation, events: m.events.length, ms }, 'read model swapped'),
    ...packPathFor(config.PMREF_DB_URL),
  });
  holder.startPolling(POLL_MS);

  const redisClients: Redis[] = [];
  let limits: Limits = defaultLimits({
    meter: memoryMeter(),
    anonDaily: config.PMREF_ANON_DAILY_LIMIT,
    keyDaily: config.PMREF_KEY_DAILY_LIMIT,
  });
  if (config.PMREF_REDIS_URL) {
    const counters = new Redis(config.PMREF_REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    const sub = new Redis(config.PMREF_REDIS_URL);
    redisClients.push(counters, sub);
    for (const c of redisClients) c.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
    limits = {
      ...limits,
      meter: redisMeter(counters, config.PMREF_REDIS_PREFIX, (err) =>
        logger.error({ err }, 'rate-limit store failed; serving without counting (fail open)'),
      ),
    };
    await sub.subscribe(GENERATION_CHANNEL);
    sub.on('message', () => void holder.refresh());
  }

  const app = await buildApp({
    store,
    readModel: holder,
    config: { origin, trustProxy: config.PMREF_TRUST_PROXY, refreshMinutes: config.PMREF_REFRESH_MINUTES },
    logger,
    limits,
  });
  await app.listen({ port, host: listen.host });
  return {
    app,
    url: `http://${listen.host}:${port}`,
    holder,
    close: async () => {
      holder.stopPolling();
      await app.close();
      for (const c of redisClients) c.disconnect();
      if (!existingStore) await store.close();
    },
  };
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the HTTP API from an existing store (no pipeline)',
  usage: `
Usage: pmref serve [--port N] [--host H]

Serves REST /v1, /openapi.json, /llms.txt, /schemas and /docs from the store named by PMREF_DB_URL.
Never runs the pipeline. Picks up new generations by polling the store every 5 s and, when
PMREF_REDIS_URL is set, from the Redis channel ${GENERATION_CHANNEL} (rate-limit counters then live in
Redis too, shared by every replica). --port 0 picks a free port. Defaults: PORT, HOST.
`,
  async run(args) {
    const { values } = parseFlags(args, { port: { type: 'string' }, host: { type: 'string' } });
    const config = loadConfig();
    const port = values.port === undefined ? config.PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0..65535');
    const host = values.host ?? config.HOST;
    const server = await runServer(config, { port, host });
    const model = server.holder.current();
    process.stdout.write(
      `pmref serve: listening on ${server.url} (generation ${model.generation}, ${model.events.length} events${model.dataSource === 'simulated' ? ', SIMULATED data' : ''})\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void server.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};
