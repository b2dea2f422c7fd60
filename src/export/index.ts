export type { Cell, Column, ColumnType, MarkRow } from './columns.ts';
export { MARK_COLUMNS, MARKET_COLUMNS } from './columns.ts';
export type { ExportedFile, ExportManifest, ExportOptions } from './export-store.ts';
export { EXPORT_PAGE_SIZE, exportStore } from './export-store.ts';
export type { ExportFormat, SinkResult } from './sinks.ts';
export { csvField, PARQUET_CODEC } from './sinks.ts';
