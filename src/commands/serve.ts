/**
 * `pmref serve [--port N] [--host H]`: serves HTTP from an existing store and never runs the pipeline (the
 * stateless replica of DESIGN.md §2). Learns of new generations by polling the store every few seconds and,
 * when PMREF_REDIS_URL is set, from the `${PMREF_REDIS_PREFIX}:generation` channel; rebuilds in the background and
 * swaps. With PMREF_METRICS_PORT set it also serves Prometheus metrics on a port of their own. On SIGTERM or
 * SIGINT it drains (issue 19): `/readyz` turns 503 at once, no new connection is accepted, in-flight requests
 * finish, idle kept-alive connections are closed, and after PMREF_SHUTDOWN_GRACE_SECONDS whatever is left is
 * closed; it exits 0 either way (a forced close is logged as a warning).
 */
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import type { Registry } from 'prom-client';
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
import {
  createMetricsRegistry,
  HttpMetrics,
  type MetricsServer,
  type ReadModelFacts,
  readModelMetrics,
  startMetricsServer,
} from '../metrics/index.ts';
import { logMallocArenaCap } from '../native-heap.ts';
import { packPathFor, ReadModelHolder } from '../serve/index.ts';
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
  /** The metrics endpoint this server started (PMREF_METRICS_PORT set, no registry passed in); else null. */
  metricsUrl: string | null;
  /** True from the moment `close()` begins. */
  draining(): boolean;
  /**
   * Stops gracefully (see `drain`), then releases everything the server opened (pollers, Redis clients, the
   * metrics endpoint it started, the store it opened), so the process can exit. `forced`: the grace period ran
   * out (or `forceClose()` was called) and open connections were closed.
   */
  close(): Promise<{ forced: boolean }>;
  /** Cuts a drain short: closes every connection now (a second SIGINT/SIGTERM). */
  forceClose(): void;
}

export interface RunServerOptions {
  /**
   * A metrics registry the caller owns and serves (`pmref start`: shared with its pipeline metrics); the
   * server adds its request, rate-limiter and read-model metrics to it. Unset: the server creates a registry and
   * serves it itself when PMREF_METRICS_PORT is set. null: no metrics.
   */
  registry?: Registry | null;
  /**
   * Called once the read model is built, just before the server listens: `pmref start` closes its first-start
   * listener here, so the address never refuses a connection while the read model builds.
   */
  beforeListen?: () => Promise<void>;
}

/** How often a draining server closes the connections whose last response just finished. */
const DRAIN_SWEEP_MS = 50;

/**
 * The graceful stop of an app that listens: no new connections (the listener closes), idle kept-alive
 * connections closed at once, in-flight requests answered (with `Connection: close`), each connection closed as
 * soon as its response is out, and once `graceMs` has passed every remaining connection closed. node keeps a
 * connection whose response finished during the drain open for its keep-alive timeout (Fastify's 72 s), so
 * the sweep closes those every few milliseconds rather than letting them hold the drain. Resolves when the
 * server has closed; `force()` ends the grace period early.
 */
function drain(
  app: App,
  graceMs: number,
  logger: Pick<Logger, 'info' | 'warn'>,
): { done: Promise<{ forced: boolean }>; force: () => void } {
  const server = app.server;
  let forced = false;
  const force = (): void => {
    if (forced) return;
    forced = true;
    server.getConnections((_err, open) =>
      logger.warn(
        { open_connections: open, grace_s: graceMs / 1000 },
        'drain: forced; closing the connections still open (their requests get no answer)',
      ),
    );
    server.closeAllConnections();
  };
  const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
  const deadline = setTimeout(force, graceMs);
  server.getConnections((_err, open) =>
    logger.info(
      { open_connections: open, grace_s: graceMs / 1000 },
      'drain: refusing new connections; finishing in-flight requests',
    ),
  );
  const done = app.close().then(() => {
    clearInterval(sweep);
    clearTimeout(deadline);
    return { forced };
  });
  return { done, force };
}

/** The stop signals of a serving process, as its commands wait for them. */
export interface StopSignals {
  /** The first SIGINT or SIGTERM. */
  first: Promise<NodeJS.Signals>;
  /** Called on every later signal (cut the drain short) until `dispose()`. */
  onRepeat(handler: (signal: NodeJS.Signals) => void): void;
  /** Removes the handlers: a signal after the stop gets node's default behaviour again. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM. The first starts the stop; a second one (an impatient Ctrl-C, or a supervisor
 * that repeats itself) calls the repeat handler instead of being ignored.
 */
export function listenForStop(): StopSignals {
  let resolveFirst: (signal: NodeJS.Signals) => void = () => {};
  const first = new Promise<NodeJS.Signals>((resolve) => {
    resolveFirst = resolve;
  });
  let seen = false;
  let repeat: (signal: NodeJS.Signals) => void = () => {};
  const handler = (signal: NodeJS.Signals): void => {
    if (seen) {
      repeat(signal);
      return;
    }
    seen = true;
    resolveFirst(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    first,
    onRepeat: (h) => {
      repeat = h;
    },
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/**
 * The line `pmref serve` prints once it listens. A function of its own so the model it reads is not a local of the
 * command, whose frame lives as long as the process: a model kept there stays in memory after every later swap
 * (about 300 MB on the full simulated universe).
 */
function listeningLine(server: RunningServer): string {
  const model = server.holder.current();
  return `pmref serve: listening on ${server.url} (generation ${model.generation}, ${model.events.length} events${model.dataSource === 'simulated' ? ', SIMULATED data' : ''})\n`;
}

/** The read model's facts for the metrics, read from the holder at each scrape. */
function factsOf(holder: ReadModelHolder): ReadModelFacts {
  const model = holder.current();
  const served = holder.served();
  return {
    generation: model.generation,
    builtAt: model.builtAt,
    publishedAt: served.publishedAt,
    buildMs: served.buildMs,
    rebuildFailures: served.rebuildFailures,
  };
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
 * Opens the store (unless the caller passes one it opened and closes), builds the read model, listens. Shared by
 * `serve` and anything else that serves HTTP. With port 0 a free port is chosen first, so the origin in every
 * body names the real port.
 */
export async function runServer(
  config: Config,
  listen: { port: number; host: string },
  existingStore?: Store,
  options: RunServerOptions = {},
): Promise<RunningServer> {
  const logger = pino({ level: config.PMREF_LOG_LEVEL });
  if (config.PMREF_READY_MAX_AGE_MINUTES <= config.PMREF_REFRESH_MINUTES) {
    logger.warn(
      { ready_max_age_minutes: config.PMREF_READY_MAX_AGE_MINUTES, refresh_minutes: config.PMREF_REFRESH_MINUTES },
      'PMREF_READY_MAX_AGE_MINUTES is not above PMREF_REFRESH_MINUTES: /readyz will turn 503 between refreshes',
    );
  }
  const ownsRegistry = options.registry === undefined;
  const registry =
    options.registry !== undefined
      ? options.registry
      : config.PMREF_METRICS_PORT === undefined
        ? null
        : createMetricsRegistry();
  const httpMetrics = registry ? new HttpMetrics(registry) : null;
  /** True from the moment `close()` begins: /readyz answers 503 and no new model is taken. */
  let draining = false;
  const port = listen.port === 0 ? await freePort(listen.host) : listen.port;
  const origin = (config.PMREF_BASE_URL ?? `http://${listen.host}:${port}`).replace(/\/+$/, '');
  const store = existingStore ?? (await openStore(config.PMREF_DB_URL));
  if (!existingStore) await store.migrate();
  const packPath = packPathFor(config.PMREF_DB_URL);
  const holder = await ReadModelHolder.create(store, {
    origin,
    clock: () => new Date(),
    onError: (err) =>
      logger.error(
        { err },
        'read model: a rebuild, pack write or warm-up failed (err says which); serving the model in hand',
      ),
    onSwap: (m, ms) => {
      // How many search documents the rebuild normalized, and how many it took from the model it replaced.
      const docs = m.catalog.normalization();
      const searchDocs = docs && {
        normalized: docs.docs.events.length + docs.docs.markets.length - docs.reused,
        reused: docs.reused,
      };
      logger.info(
        { generation: m.generation, events: m.events.length, ms, search_documents: searchDocs },
        'read model swapped',
      );
    },
    bodyCacheBytes: config.PMREF_BODY_CACHE_MB * 1024 * 1024,
    // Embedded SQLite keeps a read-model pack beside its database file, so a restart serves at once (pack-file.ts).
    ...(packPath === null ? {} : { packPath }),
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
    const meter = redisMeter(counters, {
      prefix: config.PMREF_REDIS_PREFIX,
      log: (level, fields, msg) => logger[level](fields, msg),
      ...(httpMetrics ? { onLocalCount: (reason) => httpMetrics.limiterFallback(reason) } : {}),
    });
    httpMetrics?.watchMeter(() => meter.health());
    limits = { ...limits, meter };
    const channel = generationChannel(config.PMREF_REDIS_PREFIX);
    sub.on('message', (got: string) => {
      // A draining server takes no new model: it is only finishing the requests it has.
      if (got === channel && !draining) void holder.refresh();
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
    readiness: { maxAgeMinutes: config.PMREF_READY_MAX_AGE_MINUTES, draining: () => draining },
    changes: { heartbeatMs: config.PMREF_CHANGES_HEARTBEAT_SECONDS * 1000 },
    ...(httpMetrics ? { metrics: httpMetrics } : {}),
  });
  if (registry) readModelMetrics(registry, () => factsOf(holder));

  let metricsServer: MetricsServer | null = null;
  const release = async (): Promise<void> => {
    holder.stopPolling();
    await metricsServer?.close();
    for (const c of redisClients) c.disconnect();
    if (!existingStore) await store.close();
  };
  try {
    if (registry && ownsRegistry) metricsServer = await startMetricsServer(config, registry, logger);
    await options.beforeListen?.();
    await app.listen({ port, host: listen.host });
  } catch (err) {
    await app.close();
    await release();
    throw err;
  }

  let stopping: { done: Promise<{ forced: boolean }>; force: () => void } | null = null;
  let closed: Promise<{ forced: boolean }> | null = null;
  const close = async (): Promise<{ forced: boolean }> => {
    draining = true;
    holder.stopPolling();
    stopping = drain(app, config.PMREF_SHUTDOWN_GRACE_SECONDS * 1000, logger);
    const result = await stopping.done;
    await release();
    return result;
  };
  return {
    app,
    url: `http://${listen.host}:${port}`,
    holder,
    metricsUrl: metricsServer?.url ?? null,
    draining: () => draining,
    close: () => {
      closed ??= close();
      return closed;
    },
    forceClose: () => stopping?.force(),
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

GET /healthz answers 200 while the process runs; GET /readyz 503 with a reason until a generation is
published, when the data is older than PMREF_READY_MAX_AGE_MINUTES, or while stopping. With
PMREF_METRICS_PORT set, Prometheus metrics are served on PMREF_METRICS_HOST:PMREF_METRICS_PORT/metrics.
SIGTERM/SIGINT drain in-flight requests for up to PMREF_SHUTDOWN_GRACE_SECONDS (a second signal cuts
the drain short), then exit 0.
`,
  async run(args) {
    const { values } = parseFlags(args, { port: { type: 'string' }, host: { type: 'string' } });
    const config = loadConfig();
    const port = values.port === undefined ? config.PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0..65535');
    const host = values.host ?? config.HOST;
    const server = await runServer(config, { port, host });
    logMallocArenaCap(server.app.log);
    process.stdout.write(listeningLine(server));
    const signals = listenForStop();
    const signal = await signals.first;
    server.app.log.info({ signal, grace_s: config.PMREF_SHUTDOWN_GRACE_SECONDS }, 'stopping: draining');
    signals.onRepeat((again) => {
      server.app.log.warn({ signal: again }, 'second stop signal: closing every connection now');
      server.forceClose();
    });
    const { forced } = await server.close();
    signals.dispose();
    server.app.log.info({ forced }, forced ? 'stopped (drain forced)' : 'stopped (drained)');
    return 0;
  },
};
