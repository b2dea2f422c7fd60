/**
 * The two file writers of `pmref export`. Both take rows in batches (one store page at a time) and keep no
 * more than one batch: the CSV sink writes each batch as it comes, the Parquet sink writes each batch as one
 * row group. So memory is bounded by the page size, whatever the date range.
 */
import { once } from 'node:events';
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { Cell, Column, ColumnType } from './columns.ts';

export type ExportFormat = 'csv' | 'parquet';

/** What a finished file holds. */
export interface SinkResult {
  path: string;
  rows: number;
  bytes: number;
}

export interface TableSink<R> {
  write(records: readonly R[]): Promise<void>;
  finish(): Promise<SinkResult>;
}

const DAY_MS = 86_400_000;
const CSV_SLICE = 1_000;

/** An ISO date-time (any offset) as UTC milliseconds; throws on text that is not one (the schemas forbid it). */
function instant(text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`not an ISO date-time: ${text}`);
  return ms;
}

/**
 * One CSV field (RFC 4180 quoting is csv-stringify's): ISO timestamps in UTC with milliseconds, dates as
 * YYYY-MM-DD, booleans as true/false, numbers as JavaScript prints them, null as the empty field.
 * @example csvField('timestamp', '2026-03-02T10:00:00+01:00') // '2026-03-02T09:00:00.000Z'
 */
export function csvField(type: ColumnType, cell: Cell): string {
  if (cell === null) return '';
  if (type === 'timestamp') return new Date(instant(String(cell))).toISOString();
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  return String(cell);
}

async function writeChunk(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** A CSV file with a header row, RFC 4180 (CRLF line ends, fields quoted when they need it). */
export function csvSink<R>(path: string, columns: readonly Column<R>[]): TableSink<R> {
  const out = createWriteStream(path);
  let rows = 0;
  let header = true;
  return {
    async write(records) {
      // Encoded a slice at a time: the text of a whole page of marks would be tens of MB at once.
      for (let i = 0; i < records.length; i += CSV_SLICE) {
        const cells = records.slice(i, i + CSV_SLICE).map((r) => columns.map((c) => csvField(c.type, c.get(r))));
        if (header) cells.unshift(columns.map((c) => c.name));
        header = false;
        await writeChunk(out, stringify(cells, { record_delimiter: 'windows' }));
      }
      rows += records.length;
    },
    async finish() {
      if (header) await writeChunk(out, stringify([columns.map((c) => c.name)], { record_delimiter: 'windows' }));
      out.end();
      await once(out, 'finish');
      return { path, rows, bytes: statSync(path).size };
    },
  };
}

/** Parquet schema element (hyparquet's SchemaElement) of one column. */
function schemaElement(column: Column<unknown>) {
  const repetition_type = column.nullable ? ('OPTIONAL' as const) : ('REQUIRED' as const);
  const name = column.name;
  switch (column.type) {
    case 'string':
      return { name, repetition_type, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const };
    case 'json':
      // Plain UTF8 rather than the JSON logical type: every reader shows it as text, none needs an extension.
      return { name, repetition_type, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const };
    case 'double':
      return { name, repetition_type, type: 'DOUBLE' as const };
    case 'int32':
      return { name, repetition_type, type: 'INT32' as const };
    case 'int64':
      return { name, repetition_type, type: 'INT64' as const };
    case 'boolean':
      return { name, repetition_type, type: 'BOOLEAN' as const };
    case 'date':
      return {
        name,
        repetition_type,
        type: 'INT32' as const,
        converted_type: 'DATE' as const,
        logical_type: { type: 'DATE' as const },
      };
    case 'timestamp':
      return {
        name,
        repetition_type,
        type: 'INT64' as const,
        converted_type: 'TIMESTAMP_MILLIS' as const,
        logical_type: { type: 'TIMESTAMP' as const, isAdjustedToUTC: true, unit: 'MILLIS' as const },
      };
  }
}

/** A cell as the Parquet physical value: days for dates, epoch ms for timestamps, bigint for int64. */
function parquetValue(type: ColumnType, cell: Cell): unknown {
  if (cell === null) return null;
  switch (type) {
    case 'date':
      return Math.floor(instant(`${String(cell)}T00:00:00Z`) / DAY_MS);
    case 'timestamp':
      return instant(String(cell));
    case 'int64':
      return BigInt(cell as number);
    default:
      return cell;
  }
}

/** Snappy (the Parquet default, read by DuckDB, pandas/pyarrow and Spark alike). */
export const PARQUET_CODEC = 'SNAPPY';

/**
 * A Parquet file written by hyparquet-writer, one row group per `write` call (one store page). Columns are
 * typed (see schemaElement), nullable where the record allows null.
 */
export function parquetSink<R>(path: string, columns: readonly Column<R>[]): TableSink<R> {
  const writer = fileWriter(path);
  const schema = [
    { name: 'root', num_children: columns.length },
    ...columns.map((c) => schemaElement(c as Column<unknown>)),
  ];
  const parquet = new ParquetWriter({ writer, schema, codec: PARQUET_CODEC, createdBy: 'pmref export' });
  let rows = 0;
  return {
    async write(records) {
      if (records.length === 0) return;
      const columnData = columns.map((c) => ({
        name: c.name,
        data: records.map((r) => parquetValue(c.type, c.get(r))),
      }));
      await parquet.write({ columnData, rowGroupSize: records.length });
      rows += records.length;
    },
    async finish() {
      await parquet.finish();
      return { path, rows, bytes: statSync(path).size };
    },
  };
}

/** The sink of a format. */
export function openSink<R>(format: ExportFormat, path: string, columns: readonly Column<R>[]): TableSink<R> {
  return format === 'csv' ? csvSink(path, columns) : parquetSink(path, columns);
}
