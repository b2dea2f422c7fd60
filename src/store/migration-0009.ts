/**
 * Migration 0009 (issue 18): `markets.entry`, each market's catalog entry (record-codec.ts `marketEntryText`), filled
 * for the rows already stored from their bodies, a batch at a time (bounded memory), inside the migration
 * transaction like every migration. The entry holds none of the shared parts, so the bodies alone give it.
 */
import { type Kysely, sql } from 'kysely';
import { unpackText } from './content-codec.ts';
import { marketEntryText } from './record-codec.ts';
import type { StoreEngine } from './types.ts';

/** Rows filled per batch. */
const BATCH = 2_000;

export async function addMarketEntries(db: Kysely<unknown>, _engine: StoreEngine): Promise<void> {
  await db.schema.alterTable('markets').addColumn('entry', 'text').execute();
  let after = '';
  for (;;) {
    const { rows } = await sql<{ market_id: string; body: Uint8Array }>`
      SELECT market_id, body FROM markets WHERE market_id > ${after} ORDER BY market_id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) {
      const entry = marketEntryText(JSON.parse(unpackText(row.body)) as object);
      await sql`UPDATE markets SET entry = ${entry} WHERE market_id = ${row.market_id}`.execute(db);
    }
    after = rows[rows.length - 1]?.market_id ?? after;
  }
}
