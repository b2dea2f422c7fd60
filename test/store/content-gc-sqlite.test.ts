// On SQLite a content collection can never leave a reference dangling (content-store.ts): a transaction that looked
// content up before another connection collected it cannot write afterwards (its snapshot is stale), so the mark it
// was about to write referencing that content is refused, never stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { makeMark, makeMarket, marketId } from './records.ts';

describe('content collection on SQLite, two connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmref-content-gc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a write that reuses content another connection collected after it was looked up', async () => {
    const file = join(dir, 'pmref.sqlite');
    const writer = await openStore(`sqlite:${file}`);
    const collector = await openStore(`sqlite:${file}`);
    try {
      await writer.migrate();
      await writer.upsertMarkets([makeMarket(0)]);
      await writer.upsertMarks([makeMark(0, '2026-03-01', { raw_payload: { ticker: 'ORPHAN' } })]);
      await writer.upsertMarks([makeMark(0, '2026-03-01', { raw_payload: { ticker: 'KEPT' } })]);
      const orphan = JSON.stringify({ ticker: 'ORPHAN' });

      const attempt = writer.db.transaction().execute(async (trx) => {
        // The lookup a content writer makes before reusing a row.
        const rows = await trx.selectFrom('content').select(['content_id', 'body']).execute();
        const found = rows.find((r) => r.body.subarray(1).toString() === orphan);
        expect(found).toBeDefined();
        // Meanwhile another connection collects it.
        expect(await collector.collectContent()).toBe(1);
        const { field_provenance_id } = await trx
          .selectFrom('marks')
          .select('field_provenance_id')
          .executeTakeFirstOrThrow();
        await sql`INSERT INTO marks (market_id, snapshot_date, raw_payload_id, field_provenance_id)
          VALUES (${marketId(0)}, '2026-03-02', ${found?.content_id}, ${field_provenance_id})`.execute(trx);
      });
      await expect(attempt).rejects.toThrow(/locked|busy/i);
      expect(await writer.listMarks({ snapshotDates: ['2026-03-02'] })).toEqual([]);
      expect((await writer.listMarks()).map((m) => m.raw_payload)).toEqual([{ ticker: 'KEPT' }]);
    } finally {
      await collector.close();
      await writer.close();
    }
  });
});
