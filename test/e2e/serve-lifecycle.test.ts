// `pmref serve` as operators run it (issue 19): probes and Prometheus metrics on their own port (never on the API); on SIGTERM /readyz turns 503 at once, no new connection is accepted, idle kept-alive connections are closed, in-flight requests finish with their answer, and the process exits 0 — also when PMREF_SHUTDOWN_GRACE_SECONDS runs out, which it logs as a forced close.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStore } from '../serve/seed.ts';
import { parseResponses, type RawResponse } from './raw-http.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let dbUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-lifecycle-'));
  dbUrl = `sqlite:${join(dir, 'pmref.sqlite')}`;
  await (await seedStore(dbUrl)).close();
}, 60_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

interface Served {
  child: ChildProcess;
  base: string;
  port: number;
  metricsPort: number;
  /** Everything written to stdout so far (the banner and pino's JSON lines). */
  out(): string;
  /** Resolves once stdout matches `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawn(process.execPath, ['bin/pmref.js', 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PMREF_DB_URL: dbUrl,
      PMREF_LOG_LEVEL: 'info',
      PMREF_BASE_URL: '',
      PMREF_METRICS_PORT: String(metricsPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  const watchers: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of watchers.splice(0)) {
      if (w.pattern.test(out)) w.resolve();
      else watchers.push(w);
    }
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(out)) return resolve();
      watchers.push({ pattern, resolve });
      void exited.then((code) => reject(new Error(`serve exited ${code} before ${pattern}: ${out}${err}`)));
    });
  await waitFor(/pmref serve: listening on/);
  return { child, base: `http://127.0.0.1:${port}`, port, metricsPort, out: () => out, waitFor, exited };
}

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: pmref.test\r\n\r\n';

/**
 * A kept-alive connection that holds a request half-sent until told to finish it, and collects what comes back.
 * The half request follows a whole `/healthz` in the same write, and `open` resolves once that one is answered:
 * by then the server has read the half request too, so it is in flight (not an idle connection) when the test
 * goes on, with no sleep to guess how long that takes.
 */
class HeldRequest {
  private readonly socket: Socket;
  private data = Buffer.alloc(0);
  readonly closed: Promise<void>;

  private constructor(port: number, partial: string) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (d: Buffer) => {
      this.data = Buffer.concat([this.data, d]);
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
    this.socket.write(HEALTHZ + partial);
  }

  /** Connects, sends a whole /healthz and then `partial`, and waits for the /healthz answer. */
  static async open(port: number, partial = ''): Promise<HeldRequest> {
    const held = new HeldRequest(port, partial);
    await expect.poll(() => held.responses().length, { timeout: 10_000 }).toBe(1);
    return held;
  }

  finish(rest: string): void {
    this.socket.write(rest);
  }

  responses(): RawResponse[] {
    return parseResponses(this.data);
  }
}

/** Resolves with the connection error code (ECONNREFUSED expected), or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

async function text(url: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const MCP_HEAD =
  'POST /mcp HTTP/1.1\r\nHost: pmref.test\r\nContent-Type: application/json\r\n' +
  `Accept: application/json, text/event-stream\r\nContent-Length: ${TOOLS_LIST.length}\r\n\r\n`;

describe('pmref serve: probes, metrics and a graceful stop', () => {
  it('serves probes and metrics, then drains on SIGTERM and exits 0', async () => {
    const s = await serve({ PMREF_SHUTDOWN_GRACE_SECONDS: '20' });
    expect((await text(`${s.base}/healthz`)).body).toBe('{"status":"ok"}');
    const ready = await text(`${s.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ ready: true, generation: 1, data_source: 'simulated' });
    expect((await text(`${s.base}/v1/events?limit=2`)).status).toBe(200);
    expect((await text(`${s.base}/v1/events/fed-upper-bound-december-2026`)).status).toBe(200);
    // /metrics is not on the API ...
    expect((await text(`${s.base}/metrics`)).status).toBe(404);
    // ... but on its own port.
    const scrape = await text(`http://127.0.0.1:${s.metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.body).toContain('pmref_http_requests_total{route="/v1/events",method="GET",status="200"} 1');
    expect(scrape.body).toContain('pmref_http_requests_total{route="/v1/events/:slug",method="GET",status="200"} 1');
    expect(scrape.body).toContain('pmref_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(scrape.body).toMatch(
      /^pmref_http_request_duration_seconds_bucket\{le="0.005",route="\/readyz",method="GET"\} \d/m,
    );
    expect(scrape.body).toContain('pmref_read_model_generation 1');
    expect(scrape.body).toMatch(/^pmref_read_model_data_age_seconds \d/m);

    // Three connections when the stop begins: an MCP call whose body is half sent, a readyz whose headers are
    // half sent (both in flight), and an idle kept-alive connection.
    const post = await HeldRequest.open(s.port, MCP_HEAD + TOOLS_LIST.slice(0, 10));
    const probe = await HeldRequest.open(s.port, 'GET /readyz HTTP/1.1\r\nHost: pmref.test\r\n');
    const idle = await HeldRequest.open(s.port);

    s.child.kill('SIGTERM');
    await s.waitFor(/drain: refusing new connections/);
    await idle.closed; // closed at once, not after its keep-alive timeout
    expect(await tryConnect(s.port)).toBe('ECONNREFUSED');

    // A request that arrives on an open connection during the drain is answered, readyz with 503 and a reason,
    // and its connection closes after it.
    probe.finish('\r\n');
    await probe.closed;
    const [, notReady] = probe.responses();
    expect(notReady?.status).toBe(503);
    expect(notReady?.headers.connection).toBe('close');
    expect(JSON.parse(notReady?.body ?? '{}')).toMatchObject({
      ready: false,
      reason: 'shutting down: in-flight requests are finishing; send new ones elsewhere',
      generation: 1,
    });

    // The in-flight call completes with its answer.
    post.finish(TOOLS_LIST.slice(10));
    await post.closed;
    const [, answered] = post.responses();
    expect(answered?.status).toBe(200);
    expect(JSON.parse(answered?.body ?? '{}')).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { tools: expect.any(Array) },
    });

    expect(await s.exited).toBe(0);
    expect(s.out()).toContain('"forced":false');
    expect(s.out()).toContain('stopped (drained)');
    // The metrics endpoint went with it.
    expect(await tryConnect(s.metricsPort)).toBe('ECONNREFUSED');
  }, 60_000);

  it('closes what is still open once PMREF_SHUTDOWN_GRACE_SECONDS has passed, says so, and still exits 0', async () => {
    const s = await serve({ PMREF_SHUTDOWN_GRACE_SECONDS: '1' });
    const stuck = await HeldRequest.open(s.port, MCP_HEAD + TOOLS_LIST.slice(0, 10));
    s.child.kill('SIGTERM');
    await stuck.closed;
    expect(stuck.responses()).toHaveLength(1); // the /healthz before it; the held call got no answer
    expect(await s.exited).toBe(0);
    expect(s.out()).toMatch(
      /"open_connections":1,"grace_s":1,"msg":"drain: forced; closing the connections still open/,
    );
    expect(s.out()).toContain('stopped (drain forced)');
  }, 60_000);

  it('answers /readyz 503 on an empty store (generation 0) while /healthz is 200', async () => {
    const empty = `sqlite:${join(dir, 'empty.sqlite')}`;
    const s = await serve({ PMREF_DB_URL: empty });
    expect((await text(`${s.base}/healthz`)).status).toBe(200);
    const res = await text(`${s.base}/readyz`);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({ ready: false, generation: 0 });
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  }, 60_000);
});
