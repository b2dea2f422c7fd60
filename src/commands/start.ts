/**
 * `pmref start` (what `npm start` runs): the one-process service of DESIGN.md §2 — serve + worker.
 *
 * Migrates the store; when it holds no catalog yet, runs the first pipeline before listening (from
 * PMREF_SOURCE; `auto` tries the live venues briefly and falls back to the simulated universe, saying so
 * loudly; on the simulated universe it listens once the oldest snapshot is published), showing progress as
 * it goes; then serves HTTP and refreshes on the hourly schedule, swapping
 * the read model after each published run. A later start finds the catalog and serves at once; a stale
 * catalog is refreshed in the background while the previous generation keeps serving.
 *
 * With PMREF_METRICS_PORT set, one registry holds the request, rate-limiter and read-model metrics of the server
 * and the pipeline metrics of the runs the pipeline thread reports; its endpoint starts before the first run, so
 * a long first start can be watched. On SIGTERM/SIGINT the server drains (see serve.ts `drain`) while the
 * pipeline finishes the run in progress.
 */
import { performance } from 'node:perf_hooks';
import { destination, pino } from 'pino';
import { loadConfig } from '../config.ts';
import { startFirstStartServer } from '../http/index.ts';
import { createMetricsRegistry, pipelineMetrics, startMetricsServer } from '../metrics/index.ts';
import { logMallocArenaCap, nativeHeapTrim } from '../native-heap.ts';
import {
  describeProgress,
  type IngestResult,
  type ProgressEvent,
  startThreadWorker,
  startWorker,
} from '../pipeline/index.ts';
import { logProgress, type ProgressReporter, ttyProgress } from '../pipeline/progress.ts';
import { openStore, sqlitePathOf } from '../store/index.ts';
import { listenForStop, type RunningServer, runServer } from './serve.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

/**
 * What `pmref start` prints once it serves. A function of its own so the model it reads is not a local of the
 * command, whose frame lives as long as the process: a model kept there stayed in memory after every later swap
 * (about 300 MB of heap on the full simulated universe).
 */
function servingLines(server: RunningServer, seconds: number, olderSnapshot: boolean): string {
  const model = server.holder.current();
  const simulated = model.dataSource === 'simulated';
  return (
    `pmref: serving ${model.events.length} events on ${server.url} (generation ${model.generation}, ready in ${seconds.toFixed(1)}s)${simulated ? ' — SIMULATED data: the live venues could not be reached or PMREF_SOURCE=simulated' : ''}\n` +
    `pmref: try ${server.url}/v1/events  ·  docs ${server.url}/docs  ·  MCP ${server.url}/mcp\n` +
    (olderSnapshot
      ? 'pmref: serving the oldest simulated snapshot while the newer ones are ingested; they swap in as their runs publish\n'
      : '')
  );
}

/** How long a start that cannot serve lets a pipeline run in progress finish before ending its thread. */
const STOP_ON_FAILURE_MS = 2_000;

export const startCommand: Command = {
  name: 'start',
  summary: 'run the whole service in one process: first ingest if needed, serve, refresh hourly',
  usage: `
Usage: pmref start [--port N] [--host H]

Migrates the store (PMREF_DB_URL, default sqlite:./data/pmref.sqlite). When the store is empty, runs
the first pipeline from PMREF_SOURCE before serving (auto: live venues, or the simulated universe when
they cannot be reached — the log and every response say so); meanwhile HOST:PORT answers /healthz 200
and everything else 503 with the run's progress. On the simulated universe it serves once the oldest
snapshot is published, swaps in the newest when its run publishes, then fetches the price history in
the background. Then serves HTTP on HOST:PORT and refreshes hourly at minute 0. A restart reuses the store and serves at once. Stop with
Ctrl-C or SIGTERM: /readyz turns 503, in-flight requests finish (for up to PMREF_SHUTDOWN_GRACE_SECONDS)
and so does the pipeline run in progress; exit 0. GET /healthz and GET /readyz are the probes; with
PMREF_METRICS_PORT set, Prometheus metrics are served on PMREF_METRICS_HOST:PMREF_METRICS_PORT/metrics.
`,
  async run(args) {
    const { values } = parseFlags(args, { port: { type: 'string' }, host: { type: 'string' } });
    const config = loadConfig();
    const port = values.port === undefined ? config.PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0..65535');
    const host = values.host ?? config.HOST;
    const logger = pino({ level: config.PMREF_LOG_LEVEL, base: { cmd: 'start' } }, destination(2));
    const t0 = performance.now();
    logMallocArenaCap(logger);
    const trim = nativeHeapTrim();
    if (!trim.available)
      logger.warn(
        { reason: trim.reason },
        'memory freed by read-model builds and pipeline runs may stay resident: the C heap cannot be trimmed here',
      );

    // Pipeline metrics come from the summaries the pipeline thread delivers to onRun, on this thread's registry.
    const registry = config.PMREF_METRICS_PORT === undefined ? null : createMetricsRegistry();
    const pipeline = registry ? pipelineMetrics(registry) : null;
    const metricsServer = registry ? await startMetricsServer(config, registry, logger) : null;

    // Whatever ends the command, the metrics endpoint goes with it (an open listener would keep the process alive).
    try {
      const store = await openStore(config.PMREF_DB_URL);
      await store.migrate();
      const empty = (await store.counts()).markets === 0;
      const progress: ProgressReporter = process.stderr.isTTY ? ttyProgress(process.stderr) : logProgress(logger);
      let server: RunningServer | null = null;
      // The first run's latest progress, for what answers while it builds (first-start-server.ts).
      let firstProgress: string | null = null;
      // The first generation an ingest published: on the simulated universe, its oldest snapshot's run.
      let onFirstPublished: (() => void) | null = null;
      const firstPublished = new Promise<'published'>((resolve) => {
        onFirstPublished = () => resolve('published');
      });
      // Settles once the first model serves and is quiet (its indexes warmed, its pack written, the heap compacted),
      // or once the start failed: the first ingest's next run (the newest simulated snapshot) waits for it, so that
      // run's working set and the first model's build are never in memory at once.
      let settleFirstServed: () => void = () => {};
      const firstServed = new Promise<void>((resolve) => {
        settleFirstServed = resolve;
      });
      const workerOptions = {
        config,
        logger,
        onProgress: (e: ProgressEvent) => {
          if (server === null) firstProgress = describeProgress(e);
          progress.listener(e);
        },
        deferFirstHistory: true,
        onPublished: () => {
          onFirstPublished?.();
          return firstServed;
        },
        onRun: async (result: IngestResult) => {
          pipeline?.observe(result);
          progress.finish();
          // A stopping server takes no new model: it is only finishing the requests it has.
          if (server && !server.draining()) await server.holder.refresh();
        },
      };
      let listenPort = port;
      // The first-start listener stays up until the real server is about to listen on its address (after its read
      // model is built): closed then, or when anything before that fails. It listens before any work starts, so
      // an address in use ends the command at once.
      let closeInterim: (() => Promise<void>) | null = null;
      if (empty) {
        logger.info({}, 'first start: the store is empty; building the catalog before serving (progress below)');
        // Meanwhile the address answers: /healthz 200, /readyz and everything else 503 with the progress.
        const interim = await startFirstStartServer({ port, host, progress: () => firstProgress });
        listenPort = interim.port;
        logger.info(
          { url: `http://${host}:${interim.port}` },
          'first start: /healthz answers 200, /readyz and every other path 503 until the catalog serves',
        );
        let interimOpen = true;
        closeInterim = async () => {
          if (!interimOpen) return;
          interimOpen = false;
          await interim.close();
        };
      }
      // Pipelines run on their own thread so requests never wait on one; an in-memory SQLite database is not
      // shared between connections, so there the worker stays on the server's thread.
      const startPipeline = () =>
        sqlitePathOf(config.PMREF_DB_URL) === ':memory:'
          ? startWorker({ ...workerOptions, store })
          : startThreadWorker(workerOptions);
      // A first start needs its pipeline before it can serve. A restart serves first and starts its pipeline then:
      // the thread's start (loading its own compiled module, about a second of CPU) would otherwise compete with
      // loading the read model on a 2-core host (issue 18: restart to first 200 ≤ 3 s). A stale catalog is still
      // refreshed at once, a second or two later.
      const firstWorker = empty ? startPipeline() : null;
      /** True while the first start serves an older snapshot and its first ingest still runs. */
      let initialPending = false;
      try {
        if (firstWorker) {
          // Serving starts with the first published generation: on the simulated universe that is its oldest
          // snapshot (yesterday's), and the newest swaps in when its run publishes, about half a minute later
          // (that run starts once this model serves: see firstServed). Until then /v1/status names the run in
          // progress.
          const first = await Promise.race([firstWorker.initial, firstPublished]);
          if (first === 'published') {
            initialPending = true;
            void firstWorker.initial.finally(() => {
              initialPending = false;
            });
          } else {
            progress.finish();
            if (!first) logger.error({}, 'the first pipeline run did not complete; serving what the store holds');
          }
        }
        server = await runServer(config, { port: listenPort, host }, store, {
          registry,
          ...(closeInterim ? { beforeListen: closeInterim } : {}),
        });
        void server.holder.quiet().finally(settleFirstServed);
      } catch (err) {
        settleFirstServed();
        // Nothing will serve (the address is taken, the store cannot be read…): a first start's pipeline thread must
        // not go on in a process that only looks alive. A run in progress has a moment to finish; else it ends
        // unpublished and the next start marks it aborted. A restart has started none.
        const reason = err instanceof Error ? err.message : String(err);
        logger.error({ err: reason }, firstWorker ? 'not serving: stopping the pipeline' : 'not serving');
        await firstWorker?.stop(STOP_ON_FAILURE_MS);
        throw err;
      } finally {
        await closeInterim?.();
      }
      const worker = firstWorker ?? startPipeline();
      process.stdout.write(servingLines(server, (performance.now() - t0) / 1000, initialPending));
      // A first start on the simulated universe deferred its price history: once its first ingest is done and the
      // server has swapped in what it published, written its pack and compacted its heap, fetch it in the
      // background while the catalog serves; the read model swaps again when it is in. (Not alongside that build
      // and write, which would hold two models and the catch-up's working set at once: one first start that did
      // peaked at 3.4 GB.)
      const serving = server;
      void worker.initial
        .catch(() => null)
        .then(() => (serving.draining() ? false : serving.holder.refresh()))
        .then(() => serving.holder.quiet())
        .then(async () => {
          const pending =
            ((await store.lastRun())?.summary.backfill as { pending?: number } | null | undefined)?.pending ?? 0;
          // A stopping server starts no run (its worker is stopping too).
          if (pending > 0 && !serving.draining()) {
            logger.info({ pending }, 'fetching the deferred price history in the background');
            void worker.runNow();
          }
        })
        .catch((err: unknown) => logger.error({ err }, 'could not start the deferred price history'));
      const signals = listenForStop();
      const signal = await signals.first;
      logger.info(
        { signal, grace_s: config.PMREF_SHUTDOWN_GRACE_SECONDS },
        'stopping: draining HTTP requests and finishing the run in progress',
      );
      const running = server;
      signals.onRepeat((again) => {
        logger.warn({ signal: again }, 'second stop signal: closing every HTTP connection now');
        running.forceClose();
      });
      const [{ forced }] = await Promise.all([running.close(), worker.stop()]);
      signals.dispose();
      await store.close();
      logger.info({ forced }, forced ? 'stopped (HTTP drain forced)' : 'stopped');
      return 0;
    } finally {
      await metricsServer?.close();
    }
  },
};
