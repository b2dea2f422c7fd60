/**
 * Migration 0010 (issue 18): event bodies stored plain (record-codec.ts `EVENT_LAYOUT`). Rows written deflated
 * before it are rewritten plain, a batch at a time (bounded memory), inside the migration transaction like every
 * migration. A body already plain (codec byte 0) is left as it is; every write since stores events plain.
 */
import { type Kysely, sql } from 'kysely';
import { packPlain, unpackText } from './content-codec.ts';
import type { StoreEngine } from './types.ts';

/** Rows read per batch. */
const BATCH = 1_000;

export async function plainEventBodies(db: Kysely<unknown>, _engine: StoreEngine): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{ event_id: string; body: Uint8Array }>`
      SELECT event_id, body FROM events WHERE event_id > ${after} ORDER BY event_id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.body[0] === 0) continue;
      const body = packPlain(unpackText(row.body));
      await sql`UPDATE events SET body = ${body} WHERE event_id = ${row.event_id}`.execute(db);
    }
    after = rows[rows.length - 1]?.event_id ?? after;
  }
}
