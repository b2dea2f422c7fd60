/** Statement sizing shared by every writer and reader of the store. */
import type { StoreEngine } from './types.ts';

/** Most bound parameters one statement may carry (SQLite allows 32,766; PostgreSQL 65,535). */
const MAX_PARAMS: Record<StoreEngine, number> = { sqlite: 30_000, postgres: 60_000 };
/** Rows per statement beyond this stop paying off and only make statements bigger. */
const MAX_ROWS_PER_STATEMENT = 500;

/** Splits `items` so that each statement binds at most the engine's parameter limit. */
export function chunksFor<T>(engine: StoreEngine, items: readonly T[], columnsPerRow: number): T[][] {
  const size = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_PARAMS[engine] / columnsPerRow)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
