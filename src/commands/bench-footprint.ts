/**
 * `pmref bench --footprint` and `pmref bench --history` (issue 18): what a year of marks costs.
 *
 * --history writes N days (default 365) of synthetic daily marks for every market of the store
 * (bench-history.ts); --footprint measures the store as it is and merges the figures into bench/footprint.json
 * (footprint-file.ts) under a label. Both together: write, then measure. Sizes come from the files and from
 * SQLite's `dbstat` table (opened read-only beside the store); times come from the Store interface and from the
 * real app (buildApp + inject), so the figures stay comparable whatever the store's layout becomes.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../config.ts';
import { buildApp, defaultLimits, memoryMeter } from '../http/index.ts';
import { ReadModelHolder } from '../serve/index.ts';
import { openStore, type Store, sqlitePathOf } from '../store/index.ts';
import { daysBefore, HISTORY_DEFAULTS, historyProgressLine, mulberry32, writeHistory } from './bench-history.ts';
import {
  type Figure,
  type FigureValue,
  footprintJson,
  leadFigure,
  mergeFootprint,
  parseFootprint,
  percentile,
} from './footprint-file.ts';
import { parseFlags, UsageError } from './types.ts';

export const FOOTPRINT_USAGE = `
--history writes N days of synthetic daily marks (default --days 365) for every market, back from each
market's oldest mark (seeded random walks, --seed S, default 1; --batch M marks per transaction, default
${HISTORY_DEFAULTS.batchMarks.toLocaleString('en-US')}), with progress on stderr. Stored marks are never replaced.

--footprint measures the store and merges the figures into bench/footprint.json under --label L (default
"current"; other labels are kept): file and WAL sizes, bytes per mark and per table (SQLite dbstat), the
read-model pack, /v1/marks page times over --feed-pages N pages of 1,000 (default 200), the per-market
365-day history query over --history-samples N markets (default 200), latestMarks and markDates.
--note TEXT says what the store is (kept with the run). --lead FILE merges figures measured elsewhere
({"npm_start_peak_rss_mb": 912, …}). With --history too, the history is written first and its timing
recorded. See bench/README.md, Footprint.
`;

const FLAGS = {
  footprint: { type: 'boolean', default: false },
  history: { type: 'boolean', default: false },
  days: { type: 'string' },
  seed: { type: 'string' },
  batch: { type: 'string' },
  label: { type: 'string' },
  lead: { type: 'string' },
  note: { type: 'string' },
  out: { type: 'string' },
  'feed-pages': { type: 'string' },
  'history-samples': { type: 'string' },
} as const;

/** Whether `pmref bench` was asked for this mode (bench.ts hands such runs over whole). */
export function isFootprintRun(args: readonly string[]): boolean {
  return args.includes('--footprint') || args.includes('--history');
}

function positiveInt(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${flag} must be a positive integer, got '${raw}'`);
  return Number(raw);
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const load = () => loadavg().map(round1);

/** `pmref bench --footprint | --history`. Returns the exit code. */
export async function runFootprintBench(args: string[]): Promise<number> {
  const { values } = parseFlags(args, FLAGS);
  const days = positiveInt('days', values.days, 365);
  const seed = positiveInt('seed', values.seed, 1);
  const batchMarks = positiveInt('batch', values.batch, HISTORY_DEFAULTS.batchMarks);
  const feedPages = positiveInt('feed-pages', values['feed-pages'], 200);
  const samples = positiveInt('history-samples', values['history-samples'], 200);
  const label = values.label ?? 'current';
  const out = values.out ?? join('bench', 'footprint.json');
  const leadText = values.lead === undefined ? null : readFileSync(values.lead, 'utf8');

  const config = loadConfig();
  const dbUrl = config.PMREF_DB_URL;
  const command = `PMREF_DB_URL=${dbUrl} pmref bench ${args.join(' ')}`;
  const store = await openStore(dbUrl);
  try {
    await store.migrate();
    if ((await store.counts()).markets === 0) {
      process.stderr.write(
        `pmref bench: the store ${dbUrl} holds no markets.\n` +
          'Fill it first: PMREF_DB_URL=… node bin/pmref.js ingest --source simulated\n',
      );
      return 1;
    }
    const figures: Record<string, Figure> = {};
    if (values.history) Object.assign(figures, await history(store, { days, seed, batchMarks, command }));
    let dataset: Record<string, unknown> | undefined;
    if (values.footprint) {
      const measured = await measureFootprint(store, dbUrl, { command, feedPages, samples, seed });
      Object.assign(figures, measured.figures);
      dataset = measured.dataset;
    }
    const lead: Record<string, Figure> = {};
    if (leadText !== null && values.lead !== undefined) {
      for (const [key, value] of Object.entries(JSON.parse(leadText) as Record<string, unknown>))
        lead[key] = leadFigure(key, value, values.lead);
    }
    const existing = parseFootprint(existsSync(out) ? readFileSync(out, 'utf8') : null);
    const merged = mergeFootprint(
      existing,
      label,
      {
        store: dbUrl,
        ...(values.note === undefined ? {} : { note: values.note }),
        ...(dataset ? { dataset } : {}),
        machine: machine(),
        figures,
      },
      lead,
      new Date().toISOString(),
    );
    mkdirSync(resolve(out, '..'), { recursive: true });
    writeFileSync(out, footprintJson(merged));
    process.stdout.write(`wrote ${out} (label ${label}: ${Object.keys(figures).length} figures measured)\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** The machine a figure was measured on. */
export function machine(): Record<string, unknown> {
  const cpu = cpus();
  return {
    cpus: cpu.length,
    cpu_model: cpu[0]?.model ?? 'unknown',
    total_mem_gb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: process.platform,
  };
}

async function history(
  store: Store,
  opts: { days: number; seed: number; batchMarks: number; command: string },
): Promise<Record<string, Figure>> {
  const loadBefore = load();
  const cpuBefore = process.cpuUsage();
  let lastLine = 0;
  const result = await writeHistory(store, {
    days: opts.days,
    seed: opts.seed,
    batchMarks: opts.batchMarks,
    onProgress: (p) => {
      if (p.elapsedMs - lastLine < 2000 && p.marks < p.total) return;
      lastLine = p.elapsedMs;
      process.stderr.write(`${historyProgressLine(p)}\n`);
    },
  });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = round1((cpu.user + cpu.system) / 1e6);
  process.stdout.write(`history: ${JSON.stringify({ ...result, cpu_s: cpuSeconds })}\n`);
  const stamp = {
    command: opts.command,
    at: new Date().toISOString(),
    load_average: load(),
    load_average_at_start: loadBefore,
    detail: result,
  };
  const how = `${opts.days} synthetic daily marks per market (${result.markets} markets) written through Store.transaction + upsertMarks, ${opts.batchMarks} marks per transaction`;
  return {
    history_marks_written: { value: result.marks, unit: 'marks', how, ...stamp },
    history_write_s: { value: result.seconds, unit: 's', how: `wall time of: ${how}`, ...stamp },
    history_marks_per_s: { value: result.marks_per_s, unit: 'marks/s', how: `marks ÷ wall time of: ${how}`, ...stamp },
    // CPU time moves less with the machine's load than wall time does (SQLite's own writes are counted too).
    history_cpu_s: {
      value: cpuSeconds,
      unit: 's',
      how: `CPU time (user + system, process.cpuUsage) of this process during: ${how}`,
      ...stamp,
    },
  };
}

interface MeasureOptions {
  command: string;
  feedPages: number;
  samples: number;
  seed: number;
}

/** Measures the store named by `dbUrl` (open as `store`): the figures and the dataset they were taken on. */
export async function measureFootprint(
  store: Store,
  dbUrl: string,
  opts: MeasureOptions,
): Promise<{ dataset: Record<string, unknown>; figures: Record<string, Figure> }> {
  const counts = await store.counts();
  const dates = await store.markDates();
  const newest = dates[0] ?? null;
  const oldest = dates[dates.length - 1] ?? null;
  const dataset = { ...counts, mark_dates: dates.length, oldest_mark_date: oldest, newest_mark_date: newest };
  const stamp = () => ({
    command: opts.command,
    at: new Date().toISOString(),
    load_average: load(),
    dataset: { markets: counts.markets, marks: counts.marks },
  });
  const fig = (value: FigureValue, unit: string, how: string, extra: Record<string, unknown> = {}): Figure => ({
    value,
    unit,
    how,
    ...extra,
    ...stamp(),
  });
  const figures: Record<string, Figure> = {};

  // Store queries first, while the page cache holds what the previous step left (not the dbstat scan).
  if (newest !== null) Object.assign(figures, await historyQueries(store, newest, opts, fig));
  let t = performance.now();
  await store.latestMarks();
  figures.latest_marks_ms = fig(
    round1(performance.now() - t),
    'ms',
    'one Store.latestMarks() (the newest mark of every market, raw payloads read), wall time',
  );
  t = performance.now();
  await store.latestMarkFacts();
  figures.latest_mark_facts_ms = fig(
    round1(performance.now() - t),
    'ms',
    'one Store.latestMarkFacts() (the newest mark of every market without its raw payload: every pipeline run reads it), wall time',
  );
  t = performance.now();
  await store.markDates();
  figures.mark_dates_ms = fig(
    round1(performance.now() - t),
    'ms',
    'one Store.markDates() without a limit (every distinct snapshot date), wall time',
  );
  if (oldest !== null) Object.assign(figures, await routeFigures(store, oldest, opts, fig));

  const path = sqlitePathOf(dbUrl);
  if (path === null || path === ':memory:') {
    const note = 'file sizes and dbstat are measured on a SQLite store file only';
    figures.store_file_bytes = fig(null, 'bytes', 'size of the store file', { note });
  } else {
    Object.assign(figures, fileSizes(path, fig), tableSizes(path, counts, fig));
  }
  return { dataset, figures };
}

type Fig = (value: FigureValue, unit: string, how: string, extra?: Record<string, unknown>) => Figure;

function fileSize(path: string): number | null {
  return existsSync(path) ? statSync(path).size : null;
}

function fileSizes(path: string, fig: Fig): Record<string, Figure> {
  const pack = fileSize(`${path}.pack`);
  return {
    store_file_bytes: fig(fileSize(path), 'bytes', `size of the store file ${path} (fs.stat)`),
    store_wal_bytes: fig(
      fileSize(`${path}-wal`),
      'bytes',
      `size of the write-ahead log ${path}-wal (fs.stat; null: none)`,
    ),
    store_staging_bytes: fig(
      fileSize(`${path}.staging`),
      'bytes',
      `size of the staging scratch file ${path}.staging (fs.stat; emptied after each run)`,
    ),
    pack_bytes: fig(
      pack,
      'bytes',
      `size of the read-model pack ${path}.pack (fs.stat)`,
      pack === null ? { note: 'no pack beside the store (written by pmref start / serve)' } : {},
    ),
  };
}

/** Tables of marks: `marks` and any `mark_*` / `marks_*` table beside it (a payload table, say). */
const isMarksTable = (table: string) => table === 'marks' || /^marks?_/.test(table);

function tableSizes(path: string, counts: { markets: number; marks: number }, fig: Fig): Record<string, Figure> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const freePages = Number(db.pragma('freelist_count', { simple: true }));
    // dbstat's aggregate form: one row per b-tree (table or index), its pages summed, overflow included.
    const rows = db
      .prepare(
        `SELECT d.name AS name, COALESCE(s.tbl_name, d.name) AS tbl, COALESCE(s.type, 'table') AS type, d.pgsize AS bytes
         FROM dbstat('main', 1) d LEFT JOIN sqlite_schema s ON s.name = d.name`,
      )
      .all() as Array<{ name: string; tbl: string; type: string; bytes: number }>;
    const tables: Record<string, { table_bytes: number; index_bytes: number; indexes: Record<string, number> }> = {};
    for (const r of rows) {
      const t = tables[r.tbl] ?? { table_bytes: 0, index_bytes: 0, indexes: {} };
      tables[r.tbl] = t;
      if (r.type === 'index') {
        t.index_bytes += r.bytes;
        t.indexes[r.name] = r.bytes;
      } else t.table_bytes += r.bytes;
    }
    const sorted = Object.fromEntries(
      Object.entries(tables)
        .map(([name, t]) => [name, { ...t, total_bytes: t.table_bytes + t.index_bytes }] as const)
        .sort(([, a], [, b]) => b.total_bytes - a.total_bytes),
    );
    const marks = tables.marks ?? { table_bytes: 0, index_bytes: 0, indexes: {} };
    const family = Object.entries(tables).filter(([name]) => isMarksTable(name));
    const familyBytes = family.reduce((n, [, t]) => n + t.table_bytes + t.index_bytes, 0);
    const perMark = (bytes: number) => (counts.marks > 0 ? Math.round(bytes / counts.marks) : null);
    const dbstat = `SQLite dbstat('main', 1) over ${path}, opened read-only`;
    const allPerMark = perMark(familyBytes);
    const familyNames = family.map(([name]) => name).join(', ');
    return {
      store_free_bytes: fig(
        freePages * pageSize,
        'bytes',
        'PRAGMA freelist_count × page_size: pages the file holds but no table uses',
      ),
      marks_rows: fig(counts.marks, 'marks', 'Store.counts().marks'),
      marks_table_bytes: fig(marks.table_bytes, 'bytes', `${dbstat}: SUM(pgsize) of the marks table`),
      marks_index_bytes: fig(marks.index_bytes, 'bytes', `${dbstat}: SUM(pgsize) of the marks table's indexes`, {
        indexes: marks.indexes,
      }),
      marks_bytes_per_mark: fig(perMark(marks.table_bytes), 'bytes', `${dbstat}: marks table bytes ÷ marks rows`),
      marks_bytes_per_mark_with_indexes: fig(
        perMark(marks.table_bytes + marks.index_bytes),
        'bytes',
        `${dbstat}: (marks table + its indexes) ÷ marks rows`,
      ),
      marks_all_bytes_per_mark: fig(
        allPerMark,
        'bytes',
        `${dbstat}: every table of marks (${familyNames}) with its indexes ÷ marks rows`,
      ),
      marks_bytes_per_day: fig(
        allPerMark === null ? null : allPerMark * counts.markets,
        'bytes',
        `marks_all_bytes_per_mark × ${counts.markets} markets (one mark per market per day)`,
      ),
      marks_bytes_per_year: fig(
        allPerMark === null ? null : allPerMark * counts.markets * 365,
        'bytes',
        'marks_bytes_per_day × 365',
      ),
      table_bytes: fig(sorted, 'bytes', `${dbstat}, grouped by table (its indexes beside it), largest first`),
    };
  } finally {
    db.close();
  }
}

/** The per-market history query: a year of one market's marks, as a chart or an export would read it. */
async function historyQueries(
  store: Store,
  newest: string,
  opts: MeasureOptions,
  fig: Fig,
): Promise<Record<string, Figure>> {
  const picked = drawMarkets(await store.listMarketIds(), opts);
  const n = picked.length;
  const since = daysBefore(newest, 364);
  const times: number[] = [];
  let marks = 0;
  for (const id of picked) {
    const t = performance.now();
    marks += (await store.listMarks({ marketIds: [id], since, until: newest, withoutRaw: true })).length;
    times.push(performance.now() - t);
  }
  const how =
    `Store.listMarks({ marketIds: [id], since: '${since}', until: '${newest}', withoutRaw: true }) (365 days up to ` +
    `the newest mark date, as GET /v1/markets/{id}/history reads them) for ${n} markets drawn with seed ` +
    `${opts.seed}, one after another, wall time per query (records parsed included)`;
  const extra = { markets: n, marks_per_query: n > 0 ? Math.round(marks / n) : 0, goal: 'p99 ≤ 20 ms' };
  return {
    market_history_query_p50_ms: fig(round2(percentile(times, 0.5)), 'ms', how, extra),
    market_history_query_p99_ms: fig(round2(percentile(times, 0.99)), 'ms', how, extra),
  };
}

/** Markets drawn with the seed: `samples` distinct ids, the same ones for the same seed and store. */
function drawMarkets(ids: readonly string[], opts: MeasureOptions): string[] {
  const rand = mulberry32(opts.seed);
  // Partial Fisher–Yates.
  const picked = [...ids];
  const n = Math.min(opts.samples, picked.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rand() * (picked.length - i));
    [picked[i], picked[j]] = [picked[j] as string, picked[i] as string];
  }
  return picked.slice(0, n);
}

/**
 * GET /v1/markets/{id}/history through the real app for the drawn markets: the daily series (default range: 365 days
 * up to the market's newest mark) and the hourly one (default range: every hour kept). Each a figure pair.
 */
async function historyRoutes(
  app: Awaited<ReturnType<typeof buildApp>>,
  ids: readonly string[],
  fig: Fig,
): Promise<Record<string, Figure>> {
  const out: Record<string, Figure> = {};
  for (const interval of ['day', 'hour'] as const) {
    const times: number[] = [];
    let points = 0;
    let refused = 0;
    for (const id of ids) {
      const url = `/v1/markets/${id}/history?interval=${interval}`;
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      times.push(performance.now() - t);
      if (res.statusCode === 400 && interval === 'hour') {
        refused++; // hourly detail off or not kept on this store: say so below rather than time errors
        continue;
      }
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      points += (JSON.parse(res.body) as { count: number }).count;
    }
    const how =
      `GET /v1/markets/{id}/history?interval=${interval} (default range) through the real app (buildApp, fastify ` +
      `inject, metering on, no compression) for ${ids.length} markets drawn with the seed, one after another; wall time`;
    const extra = {
      markets: ids.length,
      points_per_series: ids.length - refused > 0 ? Math.round(points / (ids.length - refused)) : 0,
      ...(refused > 0 ? { refused_400: refused } : {}),
    };
    out[`history_route_${interval}_p50_ms`] = fig(round2(percentile(times, 0.5)), 'ms', how, extra);
    out[`history_route_${interval}_p99_ms`] = fig(round2(percentile(times, 0.99)), 'ms', how, extra);
  }
  return out;
}

/**
 * Through the real app: walks the marks feed from the oldest mark date (`feedPages` pages of 1,000), then times the
 * history route (historyRoutes).
 */
async function routeFigures(
  store: Store,
  oldest: string,
  opts: MeasureOptions,
  fig: Fig,
): Promise<Record<string, Figure>> {
  const origin = 'http://127.0.0.1';
  const holder = await ReadModelHolder.create(store, { origin, clock: () => new Date() });
  const app = await buildApp({
    store,
    readModel: holder,
    config: { origin, trustProxy: false, refreshMinutes: 60 },
    // One client walks the whole feed: lift the daily limit (metering still runs).
    limits: defaultLimits({ meter: memoryMeter(), anonDaily: 1e12 }),
  });
  try {
    await app.ready();
    const times: number[] = [];
    const bytes: number[] = [];
    let marks = 0;
    let cursor: string | null = null;
    for (let page = 0; page < opts.feedPages; page++) {
      const url = `/v1/marks?since=${oldest}&limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`;
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      times.push(performance.now() - t);
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      bytes.push(res.rawPayload.length);
      const body = JSON.parse(res.body) as { count: number; next_cursor: string | null };
      marks += body.count;
      cursor = body.next_cursor;
      if (cursor === null) break;
    }
    const how =
      `GET /v1/marks?since=${oldest}&limit=1000 through the real app (buildApp, fastify inject, metering on, no ` +
      `compression), following next_cursor from the oldest mark date for up to ${opts.feedPages} pages; wall time per page`;
    const extra = { pages: times.length, marks, median_page_bytes: Math.round(percentile(bytes, 0.5)) };
    return {
      marks_feed_page_p50_ms: fig(round2(percentile(times, 0.5)), 'ms', how, extra),
      marks_feed_page_p99_ms: fig(round2(percentile(times, 0.99)), 'ms', how, extra),
      ...(await historyRoutes(app, drawMarkets(await store.listMarketIds(), opts), fig)),
    };
  } finally {
    await app.close();
  }
}
