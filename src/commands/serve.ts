/**
 * `pmref serve [--port N] [--host H]`: serves HTTP from an existing store and never runs the pipeline (the
 * stateless replica of DESIGN.md §2). Learns of new generations by polling the store every few seconds and,
 * when PMREF_REDIS_URL is set, from the `${PMREF_REDIS_PREFIX}:generation` channel; rebuilds in the background and
 * swaps.
 */
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { type Config, loadConfig } from '../config.ts';
import {
  type App,
  buildApp,
  defaultLimits,
  type Limits,
  memoryMeter,
  REDIS_COUNTER_OPTIONS,
  redisMeter,
} from '../http/index.ts';
import { ReadModelHolder } from '../serve/index.ts';
import { openStore, type Store } from '../store/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

/**
 * Redis channel the worker publishes the new generation number on after each published run: under
 * PMREF_REDIS_PREFIX like every other key, so deployments sharing one Redis do not hear each other's runs.
 */
export function generationChannel(prefix: string): string {
  return `${prefix}:generation`;
}

/** How often a Redis client that keeps failing may repeat its error line (the first one is logged at once). */
const REDIS_ERROR_LOG_EVERY_MS = 60_000;

/** Logs a Redis client's errors: the first of an outage at once, then at most once a minute, and the reconnection. */
export function logRedisErrors(
  client: Redis,
  name: string,
  log: (level: 'warn' | 'info', msg: string, err?: string) => void,
): void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let failing = false;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastAt < REDIS_ERROR_LOG_EVERY_MS) return;
    lastAt = now;
    failing = true;
    log('warn', `redis (${name}): connection failing; this line repeats at most once a minute`, err.message);
  });
  client.on('ready', () => {
    if (!failing) return;
    failing = false;
    lastAt = Number.NEGATIVE_INFINITY;
    log('info', `redis (${name}): connected again`);
  });
}

const POLL_MS = 5_000;
/** How long boot waits for the generation subscription before serving anyway. */
const SUBSCRIBE_WAIT_MS = 2_000;

export interface RunningServer {
  app: App;
  url: string;
  holder: ReadModelHolder;
  close(): Promise<void>;
}

/**
 * Embedded SQLite keeps a read-model pack beside its database file, so a restart serves at once; PostgreSQL
 * replicas build from the store (they share no disk). The pack is named after its database file
 * (`pmref.sqlite` → `pmref.sqlite.pack`), so two stores in one folder keep a pack each; the pack also records
 * the store's identity, so a pack that outlived its database is never served (pack.ts).
 */
function packPathFor(dbUrl: string): { packPath?: string } {
  if (!dbUrl.startsWith('sqlite:')) return {};
  const file = dbUrl.slice('sqlite:'.length);
  if (file === ':memory:' || file === '') return {};
  return { packPath: `${resolve(file)}.pack` };
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
    bodyCacheBytes: config.PMREF_BODY_CACHE_MB * 1024 * 1024,
    ...packPathFor(config.PMREF_DB_URL),
  });
  holder.startPolling(POLL_MS);

  const redisClients: Redis[] = [];
  let limits: Limits = defaultLimits({
    meter: memoryMeter(),
    anonDaily: config.PMREF_ANON_DAILY_LIMIT,
    keyDaily: config.PMREF_KEY_DAILY_LIMIT,
    keyCreationDaily: config.PMREF_KEY_CREATION_DAILY_LIMIT,
  });
  if (config.PMREF_REDIS_URL) {
    // Counters: no offline queue and a command timeout, so a call while Redis is away fails at once and is
    // counted in this process (limits.ts) instead of stalling the request.
    const counters = new Redis(config.PMREF_REDIS_URL, REDIS_COUNTER_OPTIONS);
    // The subscription waits for Redis however long it is away (ioredis renews it on every reconnection).
    const sub = new Redis(config.PMREF_REDIS_URL, { maxRetriesPerRequest: null });
    redisClients.push(counters, sub);
    const logAs = (level: 'warn' | 'info', msg: string, err?: string): void =>
      logger[level](err === undefined ? {} : { err }, msg);
    logRedisErrors(counters, 'rate-limit counters', logAs);
    logRedisErrors(sub, 'generation announcements', logAs);
    limits = {
      ...limits,
      meter: redisMeter(counters, {
        prefix: config.PMREF_REDIS_PREFIX,
        log: (level, fields, msg) => logger[level](fields, msg),
      }),
    };
    const channel = generationChannel(config.PMREF_REDIS_PREFIX);
    sub.on('message', (got: string) => {
      if (got === channel) void holder.refresh();
    });
    // A Redis that is away at boot must not stop the replica serving (it polls the store meanwhile): the
    // subscription waits in ioredis's queue and is renewed on every reconnection.
    await Promise.race([
      sub
        .subscribe(channel)
        .catch((err: Error) => logAs('warn', 'redis: could not subscribe yet; polling the store', err.message)),
      new Promise<void>((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref()),
    ]);
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
PMREF_REDIS_URL is set, from the Redis channel $PMREF_REDIS_PREFIX:generation (rate-limit counters then
live in Redis too, shared by every replica; while Redis is unreachable each replica counts on its own).
--port 0 picks a free port. Defaults: PORT, HOST.
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
