/**
 * `pmref export` (issue 20, item 3): the marks of a date range and every market, as flat CSV or Parquet files
 * for offline analysis, with a manifest saying what was written. Markets are written first (paged by id),
 * keeping only each market's venue and event for the marks; marks are then paged by (snapshot_date,
 * market_id) from `from` and written a page at a time until a page passes `to`. No more than one page of
 * records is held at once, so a year of marks exports in the memory of one page.
 *
 * The store is read live: a pipeline run publishing during an export may add marks of the current day
 * behind the cursor; the manifest records the generation read at the start.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Market, MarkFacts } from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import { type Column, MARK_COLUMNS, MARKET_COLUMNS, type MarketPlace, type MarkRow } from './columns.ts';
import { type ExportFormat, openSink, PARQUET_CODEC, type SinkResult } from './sinks.ts';

export interface ExportOptions {
  /** First and last snapshot date exported (YYYY-MM-DD, inclusive). */
  from: string;
  to: string;
  format: ExportFormat;
  outDir: string;
  /** Marks per store page, CSV batch and Parquet row group. */
  pageSize?: number;
  /** Markets per store page (a market record, with its rules text and grade, is several times a mark). */
  marketPageSize?: number;
  clock?: () => Date;
}

export interface ExportedFile extends SinkResult {
  columns: Array<{ name: string; type: string; nullable: boolean }>;
}

export interface ExportManifest {
  command: string;
  store_identity: string;
  generation: number;
  from: string;
  to: string;
  format: ExportFormat;
  compression: string | null;
  notes: string[];
  files: { markets: ExportedFile; marks: ExportedFile };
  written_at: string;
}

/** A page of 10,000 marks is ~30 MB of records: big enough for DuckDB-friendly row groups, small enough to hold. */
export const EXPORT_PAGE_SIZE = 10_000;
export const EXPORT_MARKET_PAGE_SIZE = 500;

const describe = <R>(columns: readonly Column<R>[]) =>
  columns.map(({ name, type, nullable }) => ({ name, type, nullable }));

async function exportMarkets(
  store: Store,
  opts: Required<Omit<ExportOptions, 'clock'>>,
  places: Map<string, MarketPlace>,
): Promise<SinkResult> {
  const sink = openSink<Market>(opts.format, join(opts.outDir, `markets.${opts.format}`), MARKET_COLUMNS);
  let after: string | undefined;
  for (;;) {
    const page = await store.listMarkets({ limit: opts.marketPageSize, ...(after ? { after } : {}) });
    for (const m of page) places.set(m.market_id, { venue: m.platform, event_id: m.event_id });
    await sink.write(page);
    const last = page[page.length - 1];
    if (!last || page.length < opts.marketPageSize) break;
    after = last.market_id;
  }
  return sink.finish();
}

async function exportMarks(
  store: Store,
  opts: Required<Omit<ExportOptions, 'clock'>>,
  places: Map<string, MarketPlace>,
): Promise<SinkResult> {
  const sink = openSink<MarkRow>(opts.format, join(opts.outDir, `marks.${opts.format}`), MARK_COLUMNS);
  let after: { snapshot_date: string; market_id: string } | undefined;
  for (;;) {
    const page: MarkFacts[] = await store.listMarks({
      since: opts.from,
      limit: opts.pageSize,
      ...(after ? { after } : {}),
      withoutRaw: true,
    });
    const inRange = page.filter((m) => m.snapshot_date <= opts.to);
    await sink.write(inRange.map((mark) => ({ mark, place: places.get(mark.market_id) })));
    const last = page[page.length - 1];
    if (!last || page.length < opts.pageSize || inRange.length < page.length) break;
    after = { snapshot_date: last.snapshot_date, market_id: last.market_id };
  }
  return sink.finish();
}

/** Writes markets.<ext>, marks.<ext> and manifest.json into `outDir` (created if missing). */
export async function exportStore(store: Store, options: ExportOptions): Promise<ExportManifest> {
  const clock = options.clock ?? (() => new Date());
  const opts = {
    from: options.from,
    to: options.to,
    format: options.format,
    outDir: resolve(options.outDir),
    pageSize: options.pageSize ?? EXPORT_PAGE_SIZE,
    marketPageSize: options.marketPageSize ?? EXPORT_MARKET_PAGE_SIZE,
  };
  mkdirSync(opts.outDir, { recursive: true });
  const identity = await store.identity();
  const generation = await store.generation();
  const places = new Map<string, MarketPlace>();
  const markets = await exportMarkets(store, opts, places);
  const marks = await exportMarks(store, opts, places);
  const manifest: ExportManifest = {
    command: `pmref export --from ${opts.from} --to ${opts.to} --format ${opts.format}`,
    store_identity: identity,
    generation,
    from: opts.from,
    to: opts.to,
    format: opts.format,
    compression: opts.format === 'parquet' ? PARQUET_CODEC.toLowerCase() : null,
    notes: [
      'marks: every stored mark with from <= snapshot_date <= to, ordered by snapshot_date then market_id; raw_payload (the venue record, kept in the store for audit) is left out.',
      'markets: every market in the store, ordered by market_id; status is the stored one; nested values are JSON text.',
      'timestamps are UTC (CSV: ISO 8601 with milliseconds; Parquet: int64 milliseconds, adjusted to UTC); null is an empty CSV field.',
    ],
    files: {
      markets: { ...markets, columns: describe(MARKET_COLUMNS) },
      marks: { ...marks, columns: describe(MARK_COLUMNS) },
    },
    written_at: clock().toISOString(),
  };
  writeFileSync(join(opts.outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
