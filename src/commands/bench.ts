/**
 * `pmref bench`: measures the REST face on an existing store (the full simulated universe: run
 * `pmref ingest --source simulated` first). For each endpoint, autocannon runs in a separate process against
 * the real app, then against a bare node:http server that answers the very same bytes (the ceiling), at 32
 * connections. Writes bench/results.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { buildApp, defaultLimits, memoryMeter } from '../http/index.ts';
import { ReadModelHolder } from '../serve/index.ts';
import { openStore } from '../store/index.ts';
import { DEFAULT_FIXTURES, editorialBench } from './bench-editorial.ts';
import { FOOTPRINT_USAGE, isFootprintRun, runFootprintBench } from './bench-footprint.ts';
import { isRefreshRun, REFRESH_USAGE, runRefreshBench } from './bench-refresh.ts';
import { benchQueries, SEARCH_QUERIES, searchBench } from './bench-search.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

interface Target {
  name: string;
  path: string;
  /** A search's total matches (recorded: a search that finds nothing measures only a request's overhead). */
  matches?: number;
}

/**
 * The event search the bench measures: the first word of four letters or more in the catalog's first questions that
 * the served search finds events for, asked of the app itself. The first such word alone could be a word the search
 * leaves out ("will" finds nothing), and the bench would time an empty answer.
 */
async function eventSearchTarget(appBase: string, questions: readonly string[]): Promise<Target> {
  const tried = new Set<string>();
  for (const question of questions) {
    for (const word of question.split(/\W+/)) {
      const token = word.toLowerCase();
      if (token.length < 4 || tried.has(token)) continue;
      tried.add(token);
      const path = `/v1/events?q=${encodeURIComponent(token)}`;
      const res = await fetch(`${appBase}${path}&limit=1`);
      // Read whatever it answered (a 4xx included), so the connection is free for the next try.
      const body = (await res.json().catch(() => null)) as { total?: unknown } | null;
      const total = res.ok ? body?.total : undefined;
      if (typeof total === 'number' && total > 0) return { name: 'events_search', path, matches: total };
    }
  }
  throw new Error('no word of the first questions finds an event: the event search cannot be benchmarked');
}

interface CannonResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function listenOn(server: Server): Promise<number> {
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      ok(typeof a === 'object' && a ? a.port : 0);
    }),
  );
}

/** Runs autocannon in a child process (so the load generator does not share the server's event loop). */
function cannon(url: string, connections: number, seconds: number): Promise<CannonResult> {
  const bin = resolve('node_modules/autocannon/autocannon.js');
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [bin, '-c', String(connections), '-d', String(seconds), '-j', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        non2xx: number;
      };
      ok({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
    });
  });
}

export const benchCommand: Command = {
  name: 'bench',
  summary: 'benchmark the REST API against a bare node:http ceiling (writes bench/results.json)',
  usage: `
Usage: pmref bench [--duration S] [--rounds R] [--connections N] [--out FILE]
       pmref bench --editorial [--fixtures DIR] [--out FILE]
       pmref bench --search [--out FILE]
       pmref bench --history [--days N] [--seed S] [--batch M] [--label L] [--out FILE]
       pmref bench --footprint [--label L] [--note TEXT] [--lead FILE] [--feed-pages N] [--history-samples N] [--out FILE]
       pmref bench --refresh [--processes N] [--unchanged N] [--runs R] [--perturb P] [--seed S] [--label L] [--note TEXT] [--scratch DIR] [--out FILE]

Serves the store named by PMREF_DB_URL (it must hold a published run: on a fresh machine run
'pmref ingest --source simulated' first) and, per endpoint, runs autocannon in a separate process
against the app and then against a bare node:http server answering the same bytes (the ceiling).
Endpoints: /v1/events?limit=50, /v1/events?q=… (a word of the first questions the search finds events
for), /v1/events/{slug} (the event nearest 30 markets), /v1/markets/{id}. Each endpoint runs R rounds
of app, ceiling and same-headers ceiling, S seconds each; figures are medians over the rounds.
Defaults: --duration 5, --rounds 5, --connections 32, --out bench/results.json.

--editorial times the editorial functions instead (resolution judgment and claim keying, µs per market,
best of 4 rounds) over the recorded venue fixtures (default ${DEFAULT_FIXTURES}) and writes
bench/editorial.json; no store needed.

Every run also times search in process (issue 17): p50/p99 over the query set in ${SEARCH_QUERIES} (each
query as an event and a market search), the search index's heap and its rebuild time (what a pack load
pays). --search runs only that and writes bench/search.json.
${FOOTPRINT_USAGE}${REFRESH_USAGE}`,
  async run(args) {
    if (isFootprintRun(args)) return runFootprintBench(args);
    if (isRefreshRun(args)) return runRefreshBench(args);
    const { values } = parseFlags(args, {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      out: { type: 'string' },
      editorial: { type: 'boolean', default: false },
      search: { type: 'boolean', default: false },
      fixtures: { type: 'string' },
    });
    if (values.editorial) return runEditorial(values.fixtures ?? DEFAULT_FIXTURES, values.out);
    const seconds = Number(values.duration ?? 5);
    const rounds = Number(values.rounds ?? 5);
    if (!Number.isInteger(rounds) || rounds < 1) throw new UsageError('--rounds must be a positive integer');
    const connections = Number(values.connections ?? 32);
    if (!(seconds > 0) || !(connections > 0)) throw new UsageError('--duration and --connections must be positive');
    const config = loadConfig();
    const store = await openStore(config.PMREF_DB_URL);
    await store.migrate();
    const counts = await store.counts();
    if ((await store.generation()) === 0 || counts.events === 0) {
      await store.close();
      process.stderr.write(
        `pmref bench: the store ${config.PMREF_DB_URL} is empty (no published run).\n` +
          'Fill it first: PMREF_DB_URL=… node bin/pmref.js ingest --source simulated\n',
      );
      return 1;
    }
    const origin = 'http://127.0.0.1';
    const holder = await ReadModelHolder.create(store, { origin, clock: () => new Date() });
    const model = holder.current();
    const search = searchBench(model, benchQueries());
    process.stdout.write(`search: ${JSON.stringify(search)}\n`);
    if (values.search) {
      const out = values.out ?? join('bench', 'search.json');
      const dataset = { events: model.events.length, markets: model.marketById.size, generation: model.generation };
      writeFileSync(out, `${JSON.stringify({ search, dataset, at: new Date().toISOString() }, null, 2)}\n`);
      process.stdout.write(`wrote ${out}\n`);
      await store.close();
      return 0;
    }
    const app = await buildApp({
      store,
      readModel: holder,
      config: { origin, trustProxy: false, refreshMinutes: config.PMREF_REFRESH_MINUTES },
      // The load comes from one IP: lift the daily limit so every request is a 200 (metering still runs).
      limits: defaultLimits({ meter: memoryMeter(), anonDaily: 1e12 }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    const appBase = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;

    const ladder = [...model.events].sort(
      (x, y) => Math.abs(marketCount(x.item) - 30) - Math.abs(marketCount(y.item) - 30),
    )[0];
    const market = model.marketById.values().next().value;
    if (!ladder || !market) throw new Error('the store has no events or markets to benchmark');
    const questions = model.events.slice(0, 20).map((e) => e.event.question);
    const targets: Target[] = [
      { name: 'events_list', path: '/v1/events?limit=50' },
      await eventSearchTarget(appBase, questions),
      { name: 'markets_search', path: '/v1/markets?q=bitcoin%20price' },
      { name: 'event_detail', path: `/v1/events/${encodeURIComponent(ladder.event.slug)}` },
      { name: 'market_detail', path: `/v1/markets/${encodeURIComponent(market.marketId)}` },
    ];

    // The ceiling answers every path with the body bytes the app serves for it; under `/same-headers` it also
    // sends every header the app sent (the served-shapes and HTTP-manners headers), which separates the cost
    // of those header lines (for server and client alike) from the framework's own.
    const bytes = new Map<string, Buffer>();
    const appHeaders = new Map<string, [string, string][]>();
    for (const t of targets) {
      const res = await fetch(appBase + t.path);
      if (res.status !== 200) throw new Error(`${t.path} answered ${res.status}`);
      bytes.set(t.path, Buffer.from(await res.arrayBuffer()));
      const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type']);
      appHeaders.set(
        t.path,
        [...res.headers].filter(([k]) => !skip.has(k)),
      );
    }
    const SAME = '/same-headers';
    const ceiling = createServer((req, res) => {
      const url = req.url ?? '';
      const same = url.startsWith(SAME);
      const path = same ? url.slice(SAME.length) : url;
      const body = bytes.get(path) ?? Buffer.from('{}');
      if (same) for (const [k, v] of appHeaders.get(path) ?? []) res.setHeader(k, v);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    const ceilingBase = `http://127.0.0.1:${await listenOn(ceiling)}`;

    const endpoints = [];
    const rssAfterBuild = process.memoryUsage().rss;
    // Serving RSS: sampled only while the app answers load (the build's transient peak, released by the
    // allocator within about a second, is reported separately as rss_after_build_mb).
    let rssPeak = 0;
    let sampling = false;
    const sampler = setInterval(() => {
      if (sampling) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 250);
    for (const t of targets) {
      await cannon(appBase + t.path, connections, 1); // warm-up
      // Rounds of app, ceiling, same-headers ceiling back to back: on a 2-core machine shared with its own
      // services one run's ratio moves by ±0.15, so each figure is the median over the rounds.
      const served: CannonResult[] = [];
      const bare: CannonResult[] = [];
      const sameHeaders: CannonResult[] = [];
      for (let round = 0; round < rounds; round++) {
        sampling = true;
        served.push(await cannon(appBase + t.path, connections, seconds));
        sampling = false;
        bare.push(await cannon(ceilingBase + t.path, connections, seconds));
        sameHeaders.push(await cannon(ceilingBase + SAME + t.path, connections, seconds));
      }
      const non2xx = served.reduce((n, r) => n + r.non2xx, 0);
      if (non2xx > 0) throw new Error(`${t.path}: ${non2xx} non-2xx responses during the run`);
      const ratios = served.map((r, i) => r.rps / (bare[i]?.rps ?? Number.NaN));
      const sameRatios = served.map((r, i) => r.rps / (sameHeaders[i]?.rps ?? Number.NaN));
      const row = {
        name: t.name,
        path: t.path,
        rps: Math.round(median(served.map((r) => r.rps))),
        p50_ms: median(served.map((r) => r.p50)),
        p99_ms: median(served.map((r) => r.p99)),
        ceiling_rps: Math.round(median(bare.map((r) => r.rps))),
        ratio: Math.round(median(ratios) * 100) / 100,
        ceiling_p50_ms: median(bare.map((r) => r.p50)),
        ceiling_p99_ms: median(bare.map((r) => r.p99)),
        same_headers_ceiling_rps: Math.round(median(sameHeaders.map((r) => r.rps))),
        same_headers_ratio: Math.round(median(sameRatios) * 100) / 100,
        bytes: bytes.get(t.path)?.length ?? 0,
        ...(t.matches === undefined ? {} : { matches: t.matches }),
        rounds: served.map((r, i) => ({
          rps: Math.round(r.rps),
          ceiling_rps: Math.round(bare[i]?.rps ?? 0),
          same_headers_ceiling_rps: Math.round(sameHeaders[i]?.rps ?? 0),
          p99_ms: r.p99,
        })),
      };
      endpoints.push(row);
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
    clearInterval(sampler);
    const cpu = cpus();
    const results = {
      endpoints,
      search,
      rss_mb: Math.round(rssPeak / 1024 / 1024),
      rss_after_build_mb: Math.round(rssAfterBuild / 1024 / 1024),
      load_average: loadavg().map((l) => Math.round(l * 10) / 10),
      machine: {
        cpus: cpu.length,
        cpu_model: cpu[0]?.model ?? 'unknown',
        total_mem_gb: Math.round(totalmem() / 1024 ** 3),
        node: process.version,
        platform: process.platform,
      },
      dataset: { events: model.events.length, markets: model.marketById.size, generation: model.generation },
      connections,
      duration_s: seconds,
      rounds,
      at: new Date().toISOString(),
    };
    const out = values.out ?? join('bench', 'results.json');
    mkdirSync(resolve(out, '..'), { recursive: true });
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`wrote ${out}: rss ${results.rss_mb} MB\n`);
    ceiling.close();
    await app.close();
    await store.close();
    return 0;
  },
};

function runEditorial(fixtures: string, out = join('bench', 'editorial.json')): number {
  if (!existsSync(fixtures)) {
    process.stderr.write(`pmref bench --editorial: no fixtures at ${fixtures}; pass --fixtures DIR\n`);
    return 1;
  }
  const results = editorialBench(fixtures, new Date());
  mkdirSync(resolve(out, '..'), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  const { judge_resolution: j, claim_key: c } = results;
  process.stdout.write(
    `${results.markets} fixture markets: judgeResolution ${j.cpu_us} µs CPU/market (${j.universe_cpu_s} s for 39,000), ` +
      `claimKeyOf ${c.cpu_us} µs (${c.universe_cpu_s} s); goal under ${results.goal_us_per_market} µs each. Wrote ${out}\n`,
  );
  return 0;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function marketCount(listItem: string): number {
  return (JSON.parse(listItem) as { market_count: number }).market_count;
}
