// A stored market read lazily (listMarkets({ lazy: true }), issue 18) is the record a whole read gives: the same
// fields, values and key order to every way of looking at it, on both engines. It reads its body only when a field
// outside its catalog entry is used; an entry of another version, or none, is read whole at once. Migration 0009
// fills the entries of markets stored before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Market } from '../../src/domain/index.ts';
import { sameRecord } from '../../src/pipeline/editorial-stage.ts';
import { openStore, readWhole, type SqlStore, wholeRecord } from '../../src/store/index.ts';
import { lazyRecord } from '../../src/store/lazy-market.ts';
import { MARKET_ENTRY_FIELDS, marketEntryText, parseMarketEntry } from '../../src/store/record-codec.ts';
import { usePostgresDatabase } from './pg-database.ts';
import { makeMarket } from './records.ts';

/** A lazy record over `record` (its entry fields only in the target) and how often it read the whole record. */
function lazyOver(record: Market): { lazy: Market; reads: () => number } {
  let reads = 0;
  const entry = parseMarketEntry(marketEntryText(record)) as Record<string, unknown>;
  const lazy = lazyRecord<Market>(entry, () => {
    reads++;
    return JSON.parse(JSON.stringify(record)) as Market;
  });
  return { lazy, reads: () => reads };
}

describe('a lazy market record', () => {
  const record = makeMarket(3, { threshold: 4.25, group_item_title: '4.25%' });

  it('gives its entry fields without reading the body, and absent ones as absent', () => {
    const { lazy, reads } = lazyOver(record);
    expect(lazy.market_id).toBe(record.market_id);
    expect(lazy.status).toBe('open');
    expect(lazy.threshold).toBe(4.25);
    expect(lazy.tags).toEqual(['fed']);
    expect('event_id' in lazy).toBe(true);
    expect(readWhole(lazy)).toBe(false);
    expect(reads()).toBe(0);
    // An entry field the record lacks reads as absent, before the whole record is read and after.
    const { question_id: _absent, ...lacking } = record;
    const without = lazyOver(lacking as Market);
    expect(without.lazy.question_id).toBeUndefined();
    expect('question_id' in without.lazy).toBe(false);
    expect(without.reads()).toBe(0);
    expect(Object.keys(without.lazy)).toEqual(Object.keys(lacking));
    expect('question_id' in without.lazy).toBe(false);
    expect(JSON.stringify(without.lazy)).toBe(JSON.stringify(lacking));
  });

  it('reads the whole record once, on first use of anything else, and is then that record in its key order', () => {
    const { lazy, reads } = lazyOver(record);
    const tags = lazy.tags;
    expect(lazy.resolution_rules_raw).toBe(record.resolution_rules_raw);
    expect(reads()).toBe(1);
    expect(readWhole(lazy)).toBe(true);
    expect(Object.keys(lazy)).toEqual(Object.keys(record));
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(record));
    expect({ ...lazy }).toEqual(record);
    // A value given out before the read is the record's own value after it.
    expect(lazy.tags).toBe(tags);
    expect(reads()).toBe(1);
  });

  it('reads whole for its keys, a spread, JSON and `in` on a field outside the entry', () => {
    for (const use of [
      (m: Market) => Object.keys(m),
      (m: Market) => ({ ...m }),
      (m: Market) => JSON.stringify(m),
      (m: Market) => 'rcg' in m,
    ]) {
      const { lazy, reads } = lazyOver(record);
      use(lazy);
      expect(reads()).toBe(1);
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(record));
    }
  });

  it('keeps changes, to entry fields and others, in the record it reads as', () => {
    const { lazy } = lazyOver(record);
    lazy.status = 'closed';
    expect(lazy.status).toBe('closed');
    (lazy as { analyst_notes?: string | null }).analyst_notes = 'checked';
    delete (lazy as Partial<Market>).group_item_title;
    expect(lazy.group_item_title).toBeUndefined();
    expect('group_item_title' in lazy).toBe(false);
    const plain = wholeRecord(lazy);
    expect(plain).not.toBe(lazy);
    expect(plain.status).toBe('closed');
    expect(plain.analyst_notes).toBe('checked');
    expect(Object.keys(lazy)).not.toContain('group_item_title');
  });

  it('can be frozen, and reads as the whole record frozen', () => {
    const { lazy } = lazyOver(record);
    Object.freeze(lazy);
    expect(Object.isFrozen(lazy)).toBe(true);
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(record));
    expect(() => {
      (lazy as { status: string }).status = 'closed';
    }).toThrow(TypeError);
  });

  it('stays lazy when its read fails, and reads again on the next use', () => {
    let fail = true;
    const entry = parseMarketEntry(marketEntryText(record)) as Record<string, unknown>;
    const lazy = lazyRecord<Market>(entry, () => {
      if (fail) throw new Error('body unreadable');
      return JSON.parse(JSON.stringify(record)) as Market;
    });
    expect(() => lazy.rcg).toThrow('body unreadable');
    expect(readWhole(lazy)).toBe(false);
    fail = false;
    expect(lazy.rcg).toEqual(record.rcg);
  });

  it('is compared by sameRecord as its whole record', () => {
    const { lazy } = lazyOver(record);
    expect(sameRecord(lazy, record)).toBe(true);
    expect(sameRecord(record, lazy)).toBe(true);
    expect(sameRecord(lazyOver(record).lazy, { ...record, resolution_rules_raw: 'other' })).toBe(false);
  });
});

describe('market entries', () => {
  it('hold the entry fields a record has, under the current version only', () => {
    const record = makeMarket(1);
    const text = marketEntryText(record);
    const entry = parseMarketEntry(text) as Record<string, unknown>;
    expect(Object.keys(entry)).toEqual(MARKET_ENTRY_FIELDS.filter((f) => record[f] !== undefined));
    expect(entry.claim_key).toEqual(record.claim_key);
    expect(parseMarketEntry(text.replace(/^\d+\n/, '0\n'))).toBeNull();
    expect(parseMarketEntry(null)).toBeNull();
  });
});

function lazyStoreSuite(engine: string, newStore: () => Promise<SqlStore>) {
  describe(`listMarkets({ lazy: true }): ${engine}`, () => {
    let store: SqlStore;
    const markets = Array.from({ length: 12 }, (_, i) =>
      makeMarket(i, i % 3 === 0 ? { threshold: i / 2, underlying_reference: null } : {}),
    );
    beforeEach(async () => {
      store = await newStore();
      await store.migrate();
      await store.upsertMarkets(markets);
    });
    afterEach(async () => {
      await store.close();
    });

    it('reads the records a whole read gives, reading no body until a field outside the entry is used', async () => {
      const whole = await store.listMarkets();
      const lazy = await store.listMarkets({ lazy: true });
      expect(lazy.map((m) => m.market_id)).toEqual(whole.map((m) => m.market_id));
      for (const m of lazy) {
        expect(m.status).toBe('open');
        expect(m.field_provenance).toEqual(whole.find((w) => w.market_id === m.market_id)?.field_provenance);
      }
      expect(lazy.filter(readWhole)).toHaveLength(0);
      for (const [i, m] of lazy.entries()) expect(JSON.stringify(m)).toBe(JSON.stringify(whole[i]));
      expect(lazy.every(readWhole)).toBe(true);
      const page = await store.listMarkets({ lazy: true, after: whole[3]?.market_id, limit: 2 });
      expect(page.map((m) => m.market_id)).toEqual(whole.slice(4, 6).map((m) => m.market_id));
    });

    it('keeps the entry with each write, and reads a row whole whose entry is missing or of another version', async () => {
      const changed = { ...(markets[2] as Market), status: 'closed' as const, close_at: '2026-04-01T00:00:00Z' };
      await store.upsertMarkets([changed]);
      const lazyChanged = (await store.listMarkets({ lazy: true })).find((m) => m.market_id === changed.market_id);
      expect(lazyChanged === undefined ? true : readWhole(lazyChanged)).toBe(false);
      expect(lazyChanged?.status).toBe('closed');
      expect(lazyChanged?.close_at).toBe('2026-04-01T00:00:00Z');

      const whole = await store.listMarkets();
      await sql`UPDATE markets SET entry = NULL WHERE market_id = ${whole[0]?.market_id}`.execute(store.db);
      await sql`UPDATE markets SET entry = ${'0\n{"status":"settled"}'} WHERE market_id = ${whole[1]?.market_id}`.execute(
        store.db,
      );
      const lazy = await store.listMarkets({ lazy: true });
      expect(readWhole(lazy[0] as Market)).toBe(true);
      expect(readWhole(lazy[1] as Market)).toBe(true);
      expect(lazy[1]?.status).toBe('open');
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(whole));
    });

    it('migration 0009 fills the entries of markets stored before it', async () => {
      await sql`ALTER TABLE markets DROP COLUMN entry`.execute(store.db);
      await sql`DELETE FROM schema_migrations WHERE version = '0009_market_entries'`.execute(store.db);
      expect(await store.migrate()).toEqual(['0009_market_entries']);
      const { rows } = await sql<{ market_id: string; entry: string | null }>`
        SELECT market_id, entry FROM markets ORDER BY market_id`.execute(store.db);
      const byId = new Map(markets.map((m) => [m.market_id, m]));
      expect(rows).toHaveLength(markets.length);
      for (const row of rows) expect(row.entry).toBe(marketEntryText(byId.get(row.market_id) as Market));
      const lazy = await store.listMarkets({ lazy: true });
      expect(lazy.map((m) => m.platform_market_id)).toEqual(
        [...markets].sort((a, b) => (a.market_id < b.market_id ? -1 : 1)).map((m) => m.platform_market_id),
      );
      expect(lazy.filter(readWhole)).toHaveLength(0);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'pmref-lazy-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
lazyStoreSuite('sqlite', () => openStore(`sqlite:${join(dir, `store-${n++}.sqlite`)}`));

describe('postgres', () => {
  const pg = usePostgresDatabase('lazy-market');
  if (pg === null) {
    it.skip('PMREF_TEST_POSTGRES_URL is not set', () => {});
    return;
  }
  lazyStoreSuite('postgres', () => pg.newStore());
});
