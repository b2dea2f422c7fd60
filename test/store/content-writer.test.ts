// One transaction that interns more text than its cache of known texts holds (content-store.ts MAX_KNOWN_CHARS)
// still stores each distinct text once and gives a repeated text the id it was first stored under.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { makeMark, makeMarket } from './records.ts';

describe('content writer past its cache bound', () => {
  it('reuses the row of a text first stored before the cache was cleared', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      await store.migrate();
      const n = 90;
      await store.upsertMarkets(Array.from({ length: n + 1 }, (_, i) => makeMarket(i)));
      // 90 distinct payloads of 200k characters each (18M characters) in one transaction, then the first one again.
      const payload = (i: number) => ({ ticker: `T-${i}`, pad: String(i % 10).repeat(200_000) });
      const marks = Array.from({ length: n }, (_, i) => makeMark(i, '2026-03-02', { raw_payload: payload(i) }));
      marks.push(makeMark(n, '2026-03-02', { raw_payload: payload(0) }));
      // One transaction, one write per mark: the cache is cleared between them once it holds 16M characters.
      await store.transaction(async (tx) => {
        for (const mark of marks) await tx.upsertMarks([mark]);
      });

      const rows = await store.db.selectFrom('marks').select(['market_id', 'raw_payload_id']).execute();
      const idOf = new Map(rows.map((r) => [r.market_id, r.raw_payload_id]));
      expect(idOf.get(marks[n]?.market_id ?? '')).toBe(idOf.get(marks[0]?.market_id ?? ''));
      expect(new Set(rows.map((r) => r.raw_payload_id)).size).toBe(n);
      const read = await store.listMarks({ marketIds: [marks[0]?.market_id ?? '', marks[n]?.market_id ?? ''] });
      expect(read.map((m) => m.raw_payload)).toEqual([payload(0), payload(0)]);
    } finally {
      await store.close();
    }
  });
});
