/**
 * What `pmref start` answers while its first run builds the catalog of an empty store (minutes on the full
 * universe): a plain node:http listener on the service's own address, so probes and clients learn what is going
 * on instead of meeting a refused connection.
 *
 * - `GET /healthz`: 200 `{"status":"ok"}` (the process is alive: an orchestrator must not restart it mid-build).
 * - `GET /readyz`: 503, the /readyz body with `reason` naming the stage the first run is at.
 * - anything else: 503 in the one error shape, code `starting`, with `Retry-After` and the same progress.
 *
 * It reads nothing and serves no data (nothing is published yet). It is closed once the real server has built its
 * read model, just before that server listens on the same address, so the address answers throughout. Every answer
 * says `Connection: close`: no client holds a kept-alive connection into the handover, so a client sees an answer
 * or (for the millisecond between the two listeners) a refused connection, never a reset mid-request.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { errorBody } from './errors.ts';
import type { Readyz } from './routes/readyz.get.ts';
import { JSON_TYPE } from './send.ts';

/** How long a client is asked to wait before trying again. */
const RETRY_AFTER_S = 15;

/** How long a closing listener waits for requests in flight (its answers are immediate) before ending them. */
const CLOSE_GRACE_MS = 1_000;

export interface FirstStartServer {
  /** The port it listens on (the one asked for, or the free one chosen for port 0). */
  port: number;
  /** Stops listening, lets requests in flight finish (at most CLOSE_GRACE_MS), then closes every connection. */
  close(): Promise<void>;
}

export interface FirstStartOptions {
  port: number;
  host: string;
  /** Where the first run is, in words (e.g. "editorial 1,200/39,200"); null before its first progress report. */
  progress: () => string | null;
  /** Wall clock (tests inject one). */
  clock?: () => Date;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': JSON_TYPE,
    'content-length': String(bytes.length),
    'cache-control': 'no-store',
    connection: 'close',
    ...headers,
  });
  res.end(bytes);
}

/**
 * Listens on `host:port` until closed.
 * @example const interim = await startFirstStartServer({ port, host, progress: () => 'pulling venues 1/2' });
 */
export async function startFirstStartServer(options: FirstStartOptions): Promise<FirstStartServer> {
  const clock = options.clock ?? (() => new Date());
  const startedAt = clock().toISOString();
  const reason = (): string => {
    const at = options.progress();
    return `first start: building the catalog of an empty store before serving${at ? ` (${at})` : ''}`;
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId);
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      send(res, 200, { status: 'ok' });
      return;
    }
    if (path === '/readyz' && (req.method === 'GET' || req.method === 'HEAD')) {
      const body: Readyz = {
        ready: false,
        reason: reason(),
        generation: 0,
        data_source: null,
        published_at: null,
        age_s: null,
        max_age_s: null,
        built_at: startedAt,
        rebuild_failed_at: null,
      };
      send(res, 503, body, { 'retry-after': String(RETRY_AFTER_S) });
      return;
    }
    const message = `pmref is starting: ${reason()}; nothing is served until it has published`;
    send(
      res,
      503,
      errorBody('starting', message, requestId, 'Try again shortly; GET /readyz answers 200 once ready.'),
      {
        'retry-after': String(RETRY_AFTER_S),
      },
    );
  };
  const server: Server = createServer((req, res) => {
    // The body of a request is not read: drain it so the connection can answer.
    req.resume();
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : options.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
