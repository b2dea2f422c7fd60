// `pmref start` end to end, as `npm start` runs it: on an empty store it ingests the simulated universe through
// the replay server and the real pipeline (on its pipeline thread), serves its oldest snapshot once that is
// published, says it serves simulated data, swaps in the newest snapshot, then fetches the deferred price history
// in the background and swaps the read model again when it is in; a restart on the same store serves at once;
// SIGTERM stops it cleanly.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateUniverse } from '../../src/venues/simulate/index.ts';
import { glibc } from '../support/glibc.ts';

let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-start-'));
  await generateUniverse({ outDir: join(dir, 'sim'), seed: 7, days: 3, asOf: '2026-11-22', scale: 0.03 });
}, 120_000);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  /** What stdout said up to the "serving … events" line (written with the lines after it in one write). */
  banner: string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** What the interim listener answered while the first run built the catalog (first starts only). */
  interim: Promise<Interim> | null;
  /** Probes of the address every 20 ms from the interim listener's log line to the serving line (first starts). */
  watch: AddressWatch | null;
}

interface AddressWatch {
  stop(): void;
  probes: number;
  /** Probes that got no answer: connection refused, or reset (a connection caught in the closing listener's backlog). */
  refused: number;
  statuses: Record<number, number>;
}

/** Asks `url`/healthz every 20 ms until stopped, counting answers by status and refused connections. */
function watchAddress(url: string): AddressWatch {
  let running = true;
  const stop = (): void => {
    running = false;
  };
  const w: AddressWatch = { stop, probes: 0, refused: 0, statuses: {} };
  void (async () => {
    while (running) {
      w.probes++;
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        w.statuses[res.status] = (w.statuses[res.status] ?? 0) + 1;
      } catch (err) {
        const code = (err as { cause?: { code?: string } }).cause?.code;
        if (code === 'ECONNREFUSED' || code === 'ECONNRESET') w.refused++;
        else throw err;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return w;
}

interface Interim {
  healthz: number;
  readyz: { status: number; body: { ready: boolean; reason: string; generation: number } };
  api: { status: number; retryAfter: string | null; body: { code: string; error: string } };
}

/** Probes the first-start listener as soon as its log line names it, while the first run is still going. */
async function probeInterim(url: string): Promise<Interim> {
  const [h, r, a] = await Promise.all([
    fetch(`${url}/healthz`),
    fetch(`${url}/readyz`),
    fetch(`${url}/v1/events?limit=5`),
  ]);
  return {
    healthz: h.status,
    readyz: { status: r.status, body: (await r.json()) as Interim['readyz']['body'] },
    api: {
      status: a.status,
      retryAfter: a.headers.get('retry-after'),
      body: (await a.json()) as Interim['api']['body'],
    },
  };
}

/** `pmref start` on 127.0.0.1:`port` over the store at `dbPath` and the test's simulated universe. */
function spawnStart(port: number, dbPath: string): ChildProcess {
  const child = spawn(process.execPath, ['bin/pmref.js', 'start', '--port', String(port), '--host', '127.0.0.1'], {
    env: {
      ...process.env,
      PMREF_DB_URL: `sqlite:${dbPath}`,
      PMREF_SIM_DIR: join(dir, 'sim'),
      PMREF_SOURCE: 'simulated',
      PMREF_LOG_LEVEL: 'info',
      PMREF_BASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

function start(): Promise<Started> {
  const child = spawnStart(0, join(dir, 'pmref.sqlite'));
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let interim: Promise<Interim> | null = null;
  let watch: AddressWatch | null = null;
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
    const m = /"url":"(http:\/\/[^"]+)","msg":"first start: \/healthz answers 200/.exec(err);
    if (m?.[1] && interim === null) {
      interim = probeInterim(m[1]);
      watch = watchAddress(m[1]);
    }
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /pmref: serving .* on (http:\/\/\S+) .*/.exec(out);
      if (m?.[1]) {
        watch?.stop();
        resolve({ child, url: m[1], banner: out, stderr: () => err, exited, interim, watch });
      }
    });
    void exited.then((code) => reject(new Error(`start exited ${code}: ${err.slice(-2000)}`)));
  });
}

async function info(url: string): Promise<{ generation: number; data_source: string; events: number }> {
  const res = await fetch(`${url}/`);
  expect(res.status).toBe(200);
  return (await res.json()) as { generation: number; data_source: string; events: number };
}

/** `pmref start` on the store at `dbPath` with its address taken: its exit code and stderr. */
async function startOnTakenAddress(dbPath: string): Promise<{ code: number | null; port: number; stderr: string }> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const child = spawnStart(port, dbPath);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, port, stderr };
  } finally {
    taken.close();
  }
}

describe('pmref start', () => {
  it('first start: serves the oldest snapshot labelled, then swaps in the newest and the price history', async () => {
    const s = await start();
    expect(s.banner).toMatch(/generation 1, ready in [\d.]+s\) — SIMULATED data/);
    expect(s.banner).toContain('serving the oldest simulated snapshot while the newer ones are ingested');
    // While the first run built the catalog, the address answered: alive, not ready, and why.
    const interim = await s.interim;
    expect(interim?.healthz).toBe(200);
    expect(interim?.readyz.status).toBe(503);
    expect(interim?.readyz.body).toMatchObject({ ready: false, generation: 0 });
    expect(interim?.readyz.body.reason).toMatch(/^first start: building the catalog of an empty store before serving/);
    expect(interim?.api).toMatchObject({ status: 503, retryAfter: '15', body: { code: 'starting' } });
    expect(interim?.api.body.error).toContain('pmref is starting');
    // And it kept answering until the server took over, read model built: the first-start listener closes just
    // before the server listens (a window of a millisecond or two, which a probe may hit), not before the read
    // model builds (which had refused connections for seconds: hundreds of probes at this rate).
    const watch = s.watch as AddressWatch | null;
    expect(watch).not.toBeNull();
    expect(watch?.probes).toBeGreaterThan(20);
    console.info(
      `first start: ${watch?.probes} probes of the address from the first-start listener to the serving line, ${watch?.refused} unanswered, answers ${JSON.stringify(watch?.statuses)}`,
    );
    expect(watch?.refused).toBeLessThanOrEqual(2);
    const first = await info(s.url);
    expect(first).toMatchObject({ data_source: 'simulated', generation: 1 });
    expect(first.events).toBeGreaterThan(50);
    const list = await fetch(`${s.url}/v1/events?limit=5`);
    expect(list.status).toBe(200);
    const body = (await list.json()) as { _notice: { data_source?: string }; events: unknown[] };
    expect(body.events).toHaveLength(5);
    expect(JSON.stringify(body._notice)).toContain('simulated');
    // The first start ran on the pipeline thread, with progress reported through the server's log.
    expect(s.stderr()).toContain('"thread":"pipeline"');
    expect(s.stderr()).toContain('progress: ');
    // bin/pmref.js capped glibc's malloc arenas before anything loaded, and the command said so (malloc-arenas.mjs).
    expect(s.stderr()).toMatch(
      glibc ? /"malloc_arena_max":2,"msg":"malloc arenas capped/ : /malloc arenas left at the C library's default/,
    );

    // The newest snapshot's run publishes generation 2 and the server swaps it in; then the deferred history
    // arrives from the background run: generation 3. The catch-up waits for the first ingest, so 2 is served
    // for at least the catch-up's run.
    const deadline = Date.now() + 90_000;
    let now = first;
    const seen = new Set([now.generation]);
    while (now.generation < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      now = await info(s.url);
      seen.add(now.generation);
    }
    expect(now.generation).toBe(3);
    expect([...seen]).toEqual([1, 2, 3]);

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 180_000);

  it('a restart reuses the store and serves the same generation at once', async () => {
    const s = await start();
    expect(s.interim).toBeNull();
    expect(s.banner).toMatch(/generation 3, ready in/);
    expect((await info(s.url)).generation).toBe(3);
    // Its pipeline thread starts once it serves (issue 18), and says where its schedule stands.
    const deadline = Date.now() + 30_000;
    while (!/"thread":"pipeline".*"msg":"worker start: /.test(s.stderr()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(s.stderr()).toMatch(/"thread":"pipeline".*"msg":"worker start: the last run finished/);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 60_000);

  it('ends, saying why, when its address is taken: no pipeline goes on in a process that cannot serve', async () => {
    // A first start: it fails before any pipeline work.
    const empty = mkdtempSync(join(tmpdir(), 'pmref-start-taken-'));
    try {
      const first = await startOnTakenAddress(join(empty, 'pmref.sqlite'));
      expect(first.code).toBe(1);
      expect(first.stderr).toContain(`EADDRINUSE: address already in use 127.0.0.1:${first.port}`);
      expect(first.stderr).not.toContain('simulated snapshot');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    // A restart starts its pipeline thread once it serves (issue 18: the thread's start competed with loading the
    // read model): here it never serves, so no thread started, and the process ends.
    const again = await startOnTakenAddress(join(dir, 'pmref.sqlite'));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`EADDRINUSE: address already in use 127.0.0.1:${again.port}`);
    expect(again.stderr).toContain('"msg":"not serving"');
    expect(again.stderr).not.toContain('"thread":"pipeline"');
  }, 60_000);
});
