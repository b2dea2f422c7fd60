/**
 * The Prometheus endpoint: `GET /metrics` on a small `node:http` server of its own (PMREF_METRICS_HOST,
 * PMREF_METRICS_PORT), apart from the public API. It is not metered, not rate limited and not behind the app's
 * hooks, and the public port has no `/metrics`: what the operator scrapes (route names, limiter outages,
 * process memory) is not published to every client. Unset PMREF_METRICS_PORT: no server at all.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';

/** The log lines the server writes (a pino logger fits). */
export interface MetricsLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface MetricsServer {
  /** `http://host:port/metrics`. */
  url: string;
  /** Stops listening and closes open scrape connections (Prometheus keeps them alive). */
  close(): Promise<void>;
}

const PLAIN = 'text/plain; charset=utf-8';

function answer(registry: Registry, logger: MetricsLogger, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/metrics') {
    res.writeHead(404, { 'content-type': PLAIN }).end('not found: the metrics are at /metrics\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { 'content-type': PLAIN, allow: 'GET, HEAD' }).end('method not allowed\n');
    return;
  }
  registry.metrics().then(
    (text) => {
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
    },
    (err: unknown) => {
      logger.error({ err: err instanceof Error ? err.message : String(err) }, 'metrics: a collector failed');
      res.writeHead(500, { 'content-type': PLAIN }).end('internal error: see the log\n');
    },
  );
}

/**
 * Serves `registry` on PMREF_METRICS_HOST:PMREF_METRICS_PORT; null when PMREF_METRICS_PORT is unset. Port 0
 * picks a free port (the URL is logged and returned). A port that cannot be bound rejects, naming the setting.
 *
 * @example const metrics = await startMetricsServer(config, registry, logger); … await metrics?.close();
 */
export async function startMetricsServer(
  config: Pick<Config, 'PMREF_METRICS_PORT' | 'PMREF_METRICS_HOST'>,
  registry: Registry,
  logger: MetricsLogger,
): Promise<MetricsServer | null> {
  const port = config.PMREF_METRICS_PORT;
  if (port === undefined) return null;
  const host = config.PMREF_METRICS_HOST;
  const server = createServer((req, res) => answer(registry, logger, req, res));
  // Scrapes are small and periodic: a client that opens a connection and sends nothing is not kept for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(new Error(`PMREF_METRICS_PORT=${port} on PMREF_METRICS_HOST=${host}: ${err.message}`)),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`;
  logger.info({ url }, 'metrics: Prometheus endpoint listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
