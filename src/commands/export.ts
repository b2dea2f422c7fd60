/**
 * `pmref export` (issue 20, item 3): marks of a date range and every market as CSV or Parquet files for
 * offline analysis (DuckDB, pandas), with a manifest. The work is src/export's; this file reads the flags.
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig } from '../config.ts';
import { type ExportFormat, type ExportManifest, exportStore } from '../export/index.ts';
import { openStore } from '../store/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD flag that names a real calendar date (2026-02-30 is refused). */
function dateFlag(flag: string, value: string | undefined): string {
  if (value === undefined) throw new UsageError(`--${flag} is required (a UTC date, YYYY-MM-DD)`);
  const t = Date.parse(`${value}T00:00:00Z`);
  if (!ISO_DATE.test(value) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw new UsageError(`--${flag} must be a calendar date YYYY-MM-DD, got '${value}'`);
  }
  return value;
}

export interface ExportFlags {
  from: string;
  to: string;
  format: ExportFormat;
  out: string;
}

/** The flags, checked: both dates real and in order, a known format; `out` defaults to ./export-<from>-<to>. */
export function exportFlags(args: string[]): ExportFlags {
  const { values } = parseFlags(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
  });
  const from = dateFlag('from', values.from);
  const to = dateFlag('to', values.to);
  if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const format = values.format;
  if (format !== 'csv' && format !== 'parquet') {
    throw new UsageError(
      format === undefined
        ? '--format is required: csv or parquet'
        : `--format must be csv or parquet, got '${format}'`,
    );
  }
  if (values.out === '') throw new UsageError('--out must name a folder');
  return { from, to, format, out: values.out ?? join('.', `export-${from}-${to}`) };
}

function summaryLine(name: string, rows: number | null, bytes: number, path: string): string {
  const count = rows === null ? '' : `${rows.toLocaleString('en-US')} rows  `;
  return `${name.padEnd(16)} ${count}${bytes.toLocaleString('en-US')} bytes  ${path}\n`;
}

function printSummary(manifest: ExportManifest, manifestPath: string, manifestBytes: number): void {
  const { markets, marks } = manifest.files;
  process.stdout.write(
    summaryLine(`markets.${manifest.format}`, markets.rows, markets.bytes, markets.path) +
      summaryLine(`marks.${manifest.format}`, marks.rows, marks.bytes, marks.path) +
      summaryLine('manifest.json', null, manifestBytes, manifestPath),
  );
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'write marks of a date range and every market as CSV or Parquet files for offline analysis',
  usage: `
Usage: pmref export --from YYYY-MM-DD --to YYYY-MM-DD --format csv|parquet [--out DIR]

Writes, from the store named by PMREF_DB_URL, into DIR (default ./export-<from>-<to>):
  marks.<csv|parquet>    every mark with from <= snapshot_date <= to (UTC dates, inclusive), one row per
                         mark: the fields of spec §2.3 but raw_payload, price_as_of, the market's venue and
                         event; provenance as JSON text
  markets.<csv|parquet>  every market, one row each: ids, venue ids, question, status, grade, times,
                         source fields; nested values (also_on, triggers, the full grade) as JSON text
  manifest.json          store identity and generation, range, row counts, bytes, columns with types

CSV: RFC 4180 with a header row, ISO UTC timestamps, empty field for null.
Parquet: typed, nullable columns (double, int, boolean, date, timestamp in UTC milliseconds), snappy
compression, one row group per 10,000 rows; DuckDB and pandas read it as is.
Records are paged from the store, so memory stays at one page whatever the range.

  --from, --to   first and last snapshot date (required)
  --format       csv or parquet (required)
  --out          output folder (created; files in it are replaced)
`,
  async run(args) {
    const flags = exportFlags(args);
    const store = await openStore(loadConfig().PMREF_DB_URL);
    try {
      await store.migrate();
      const manifest = await exportStore(store, {
        from: flags.from,
        to: flags.to,
        format: flags.format,
        outDir: flags.out,
      });
      const manifestPath = join(dirname(manifest.files.marks.path), 'manifest.json');
      printSummary(manifest, manifestPath, statSync(manifestPath).size);
      return 0;
    } finally {
      await store.close();
    }
  },
};
