// Invariant: `pmref export` writes every stored mark of the date range and every market, once each, and an
// independent reader (DuckDB, a different codebase from the hyparquet writer) reads back from both the CSV
// and the Parquet files the row counts, column names and values the store holds; bad flags are usage errors.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.ts';
import { exportFlags } from '../../src/commands/export.ts';
import type { Mark, Market } from '../../src/domain/index.ts';
import { type ExportManifest, exportStore, MARK_COLUMNS, MARKET_COLUMNS } from '../../src/export/index.ts';
import type { Store } from '../../src/store/index.ts';
import { btcMarketB, seedStore, TODAY, treatyMarket, YESTERDAY } from '../serve/seed.ts';

let dir: string;
let store: Store;
let marks: Mark[];
let markets: Market[];
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const reader = await duck.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

async function columnsOf(source: string): Promise<string[]> {
  const reader = await duck.runAndReadAll(`SELECT * FROM ${source} LIMIT 0`);
  return reader.columnNames();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pmref-export-'));
  store = await seedStore(`sqlite:${join(dir, 'store.sqlite')}`);
  marks = await store.listMarks();
  markets = await store.listMarkets();
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run("SET TimeZone = 'UTC'");
});

afterAll(async () => {
  duck?.closeSync();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exportStore', () => {
  const out = (format: string) => join(dir, `out-${format}`);
  const parquet = (name: string) => `read_parquet('${join(out('parquet'), name)}')`;
  const csv = (name: string) => `read_csv('${join(out('csv'), name)}', header = true, all_varchar = true)`;
  const manifests: Record<string, ExportManifest> = {};

  beforeAll(async () => {
    for (const format of ['csv', 'parquet'] as const) {
      // A page of 3 makes the marks span several pages and Parquet row groups.
      manifests[format] = await exportStore(store, {
        from: YESTERDAY,
        to: TODAY,
        format,
        outDir: out(format),
        pageSize: 3,
        marketPageSize: 2,
        clock: () => new Date('2026-11-22T00:00:00.000Z'),
      });
    }
  });

  it('seeds marks on both days and markets with nulls to check', () => {
    expect(marks.length).toBeGreaterThan(6);
    expect(new Set(marks.map((m) => m.snapshot_date))).toEqual(new Set([YESTERDAY, TODAY]));
  });

  it.each(['csv', 'parquet'])('%s: every mark and market once, with the columns the manifest lists', async (format) => {
    const src = format === 'csv' ? csv : parquet;
    const [mk] = await query(
      `SELECT count(*)::INT AS n, count(DISTINCT market_id || snapshot_date)::INT AS d FROM ${src(`marks.${format}`)}`,
    );
    expect(mk).toEqual({ n: marks.length, d: marks.length });
    const [mt] = await query(`SELECT count(*)::INT AS n FROM ${src(`markets.${format}`)}`);
    expect(mt).toEqual({ n: markets.length });
    expect(await columnsOf(src(`marks.${format}`))).toEqual(MARK_COLUMNS.map((c) => c.name));
    expect(await columnsOf(src(`markets.${format}`))).toEqual(MARKET_COLUMNS.map((c) => c.name));
    const manifest = manifests[format];
    expect(manifest?.files.marks.rows).toBe(marks.length);
    expect(manifest?.files.markets.rows).toBe(markets.length);
    expect(JSON.parse(readFileSync(join(out(format), 'manifest.json'), 'utf8'))).toEqual(manifest);
    expect(manifest?.store_identity).toBe(await store.identity());
  });

  it('parquet: typed columns hold the stored values, nulls as null', async () => {
    const m = marks.find((x) => x.market_id === btcMarketB.market_id && x.snapshot_date === TODAY);
    if (!m || m.divergence_from_primary !== null) throw new Error('seed has no btc mark today with a null divergence');
    const [row] = await query(
      `SELECT yes_last_price, yes_bid, divergence_from_primary, volume_24h_usd, mark_method, stale_flag, source_count,
              mark_id, venue, strftime(snapshot_date, '%Y-%m-%d') AS day, epoch_ms(snapshot_at) AS at_ms,
              typeof(snapshot_at) AS at_type, typeof(snapshot_date) AS day_type, typeof(yes_bid) AS bid_type
       FROM ${parquet('marks.parquet')} WHERE market_id = '${m.market_id}' AND snapshot_date = DATE '${TODAY}'`,
    );
    expect(row).toEqual({
      yes_last_price: m.yes_last_price,
      yes_bid: m.yes_bid,
      divergence_from_primary: null,
      volume_24h_usd: m.volume_24h_usd,
      mark_method: m.mark_method,
      stale_flag: m.stale_flag,
      source_count: m.source_count,
      mark_id: BigInt(m.mark_id),
      venue: 'venue_b',
      day: TODAY,
      at_ms: BigInt(Date.parse(m.snapshot_at)),
      at_type: 'TIMESTAMP WITH TIME ZONE',
      day_type: 'DATE',
      bid_type: 'DOUBLE',
    });
    const [market] = await query(
      `SELECT status, resolved_at IS NULL AS unresolved, grade, json_extract_string(tags, '$[0]') AS tag0
       FROM ${parquet('markets.parquet')} WHERE market_id = '${treatyMarket.market_id}'`,
    );
    expect(market).toEqual({
      status: treatyMarket.status,
      unresolved: treatyMarket.resolved_at === null,
      grade: treatyMarket.rcg?.grade ?? null,
      tag0: treatyMarket.tags[0] ?? null,
    });
  });

  it('csv: ISO UTC timestamps, true/false, empty field for null', async () => {
    const m = marks.find((x) => x.divergence_from_primary === null);
    if (!m) throw new Error('seed has no mark with a null field');
    const [row] = await query(
      `SELECT snapshot_date, snapshot_at, yes_last_price, divergence_from_primary, stale_flag
       FROM ${csv('marks.csv')} WHERE market_id = '${m.market_id}' AND snapshot_date = '${m.snapshot_date}'`,
    );
    expect(row).toEqual({
      snapshot_date: m.snapshot_date,
      snapshot_at: new Date(m.snapshot_at).toISOString(),
      yes_last_price: m.yes_last_price === null ? null : String(m.yes_last_price),
      divergence_from_primary: null,
      stale_flag: String(m.stale_flag),
    });
    // RFC 4180: CRLF record ends, a header row first.
    const text = readFileSync(join(out('csv'), 'marks.csv'), 'utf8');
    expect(text.startsWith(`${MARK_COLUMNS.map((c) => c.name).join(',')}\r\n`)).toBe(true);
  });

  it('keeps to the date range', async () => {
    const manifest = await exportStore(store, {
      from: TODAY,
      to: TODAY,
      format: 'parquet',
      outDir: join(dir, 'today'),
      pageSize: 2,
    });
    const today = marks.filter((m) => m.snapshot_date === TODAY).length;
    expect(manifest.files.marks.rows).toBe(today);
    const [row] = await query(
      `SELECT count(*)::INT AS n, min(snapshot_date)::VARCHAR AS lo FROM read_parquet('${join(dir, 'today', 'marks.parquet')}')`,
    );
    expect(row).toEqual({ n: today, lo: TODAY });
  });
});

describe('pmref export flags', () => {
  it.each([
    [['--to', TODAY, '--format', 'csv'], /--from is required/],
    [['--from', '2026-02-30', '--to', TODAY, '--format', 'csv'], /calendar date/],
    [['--from', TODAY, '--to', YESTERDAY, '--format', 'csv'], /is after --to/],
    [['--from', YESTERDAY, '--to', TODAY, '--format', 'xlsx'], /csv or parquet, got 'xlsx'/],
    [['--from', YESTERDAY, '--to', TODAY], /--format is required/],
    [['--from', YESTERDAY, '--to', TODAY, '--format', 'csv', '--bogus'], /bogus/],
  ])('%j is refused', (args, message) => {
    expect(() => exportFlags(args)).toThrow(message);
  });

  it('defaults the folder to ./export-<from>-<to>', () => {
    expect(exportFlags(['--from', YESTERDAY, '--to', TODAY, '--format', 'parquet']).out).toBe(
      `export-${YESTERDAY}-${TODAY}`,
    );
  });

  it('exits 2 with the usage on a bad flag, 0 with a line per file on success', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const before = process.env.PMREF_DB_URL;
    try {
      expect(await main(['export', '--from', 'yesterday', '--to', TODAY, '--format', 'csv'])).toBe(2);
      expect(String(err.mock.calls[0]?.[0])).toContain('Usage: pmref export');
      process.env.PMREF_DB_URL = `sqlite:${join(dir, 'store.sqlite')}`;
      const outDir = join(dir, 'cli');
      expect(await main(['export', '--from', YESTERDAY, '--to', TODAY, '--format', 'csv', '--out', outDir])).toBe(0);
      const lines = stdout.mock.calls
        .map((c) => String(c[0]))
        .join('')
        .trim()
        .split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(
        new RegExp(`^marks\\.csv +${marks.length} rows +[\\d,]+ bytes +${join(outDir, 'marks.csv')}$`),
      );
    } finally {
      err.mockRestore();
      stdout.mockRestore();
      if (before === undefined) delete process.env.PMREF_DB_URL;
      else process.env.PMREF_DB_URL = before;
    }
  });
});
