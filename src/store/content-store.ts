/**
 * The `content` table (migration 0006): JSON texts stored once per distinct content, referenced by id from marks
 * (`raw_payload`, `field_provenance`), markets and events (their shared parts, record-codec.ts). Identical
 * provenance across 480,000 marks is one row; a venue_b price point shared by many markets is one row.
 *
 * Rows are immutable and ids are never reused (SQLite AUTOINCREMENT, PostgreSQL identity), so a text read for an
 * id may be cached for the life of the process.
 *
 * **Garbage.** A row loses its last reference when a mark, market or event upsert replaces it (an hourly run
 * rewrites today's mark of each market whose quote changed, with a new raw payload), when a staged run is aborted,
 * or when the publish keeps a stored mark over a staged one. Such rows are collected by `collectContent`, which a
 * publish runs as its last write (the first publish, then every CONTENT_COLLECTION_EVERY-th): one statement deletes
 * every row no table references. Concurrency: a writer looks content up by
 * hash and may reuse a row found there; if a collection deleted that row before the writer's reference committed,
 * the reference would dangle. SQLite has one writer at a time and a write on a stale snapshot fails, so this cannot
 * happen there. On PostgreSQL every content writer holds a shared advisory lock (LOCK_CONTENT) until its
 * transaction ends, and a collection runs only when it gets that lock exclusively (without waiting); otherwise it
 * skips, and the next publish collects.
 */
import { type Kysely, sql } from 'kysely';
import { contentHash, packText, unpackText } from './content-codec.ts';
import { EVENT_LAYOUT, MARKET_LAYOUT, partColumn } from './record-codec.ts';
import { chunksFor } from './sql-chunks.ts';
import type { StoreDatabase } from './tables.ts';
import type { StoreEngine } from './types.ts';

/**
 * A publish collects content every this many generations (and at the first): about once a day on an hourly schedule.
 * The collection reads every reference (each mark's two ids: 1.1 million on the full universe's 15 days, 28 million on
 * a year), 0.3 s of each hourly refresh on the 15 days, and it grows with the history kept; what it collects is small
 * (an hourly refresh's marks of unchanged quotes keep their content, so a day leaves about the raw payloads of the
 * quotes that changed, a few MB on the full universe). Unreferenced rows are never read: they cost only their disk.
 */
export const CONTENT_COLLECTION_EVERY = 24;

/** PostgreSQL advisory lock key (arbitrary, fixed): shared by content writers, exclusive for a collection. */
export const LOCK_CONTENT = 7_346_203;

/** Every column that references a content row. */
const CONTENT_REFERENCES: ReadonlyArray<readonly [string, string]> = [
  ['marks', 'raw_payload_id'],
  ['marks', 'field_provenance_id'],
  ['staged_marks', 'raw_payload_id'],
  ['staged_marks', 'field_provenance_id'],
  ...MARKET_LAYOUT.parts.map((part) => ['markets', partColumn(part)] as const),
  ...EVENT_LAYOUT.parts.map((part) => ['events', partColumn(part)] as const),
];

/**
 * A transaction's known texts are forgotten past this many characters (the cache only saves lookups of texts
 * repeated within it, such as shared provenance). Bounded by size, not count (it was 100,000 texts): a publish on
 * the full simulated universe interns tens of thousands of raw venue payloads of a few KB that never repeat, and
 * 100,000 such texts can be several hundred MB kept alive through the write (issue 18). On a first start this
 * bound alone made no difference to peak RSS that the run-to-run spread would show.
 */
const MAX_KNOWN_CHARS = 16 * 1024 * 1024;

/**
 * Interns JSON texts in the content table for one transaction: returns the id of a stored row with the same
 * text, or inserts one. Looks up by hash, then compares texts, so a hash collision costs one more row.
 */
export class ContentWriter {
  private readonly known = new Map<string, number>();
  /** The characters of the texts in `known`. */
  private knownChars = 0;
  private locked = false;

  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly engine: StoreEngine,
  ) {}

  /** The content id of each text (null for null), in input order. */
  async intern(texts: readonly (string | null)[]): Promise<(number | null)[]> {
    if (this.knownChars > MAX_KNOWN_CHARS) {
      this.known.clear();
      this.knownChars = 0;
    }
    const hashes = new Map<string, number>();
    for (const text of texts) {
      if (text !== null && !this.known.has(text) && !hashes.has(text)) hashes.set(text, contentHash(text));
    }
    if (hashes.size > 0) {
      await this.lockShared();
      await this.findStored(hashes);
      await this.insertMissing([...hashes].filter(([text]) => !this.known.has(text)));
    }
    return texts.map((text) => {
      if (text === null) return null;
      const id = this.known.get(text);
      if (id === undefined) throw new Error('content: a text was neither found nor inserted');
      return id;
    });
  }

  private remember(text: string, id: number): void {
    this.known.set(text, id);
    this.knownChars += text.length;
  }

  /** PostgreSQL: held until the transaction ends, so no collection deletes a row this transaction reuses. */
  private async lockShared(): Promise<void> {
    if (this.engine !== 'postgres' || this.locked) return;
    await sql`SELECT pg_advisory_xact_lock_shared(${LOCK_CONTENT})`.execute(this.db);
    this.locked = true;
  }

  private async findStored(hashes: ReadonlyMap<string, number>): Promise<void> {
    const textsByHash = new Map<number, string[]>();
    for (const [text, hash] of hashes) {
      const same = textsByHash.get(hash);
      if (same) same.push(text);
      else textsByHash.set(hash, [text]);
    }
    for (const chunk of chunksFor(this.engine, [...textsByHash.keys()], 1)) {
      const rows = await this.db
        .selectFrom('content')
        .select(['content_id', 'hash', 'body'])
        .where('hash', 'in', chunk)
        .execute();
      for (const row of rows) {
        const wanted = textsByHash.get(Number(row.hash));
        if (wanted === undefined) continue;
        const text = unpackText(row.body);
        if (wanted.includes(text) && !this.known.has(text)) this.remember(text, Number(row.content_id));
      }
    }
  }

  /**
   * Inserts texts not stored yet. Ids come back by RETURNING, matched on hash, so one statement never carries two
   * texts with one hash (a collision's second text waits for the next round).
   */
  private async insertMissing(missing: ReadonlyArray<readonly [string, number]>): Promise<void> {
    let pending = missing;
    while (pending.length > 0) {
      const batch = new Map<number, string>();
      const later: (readonly [string, number])[] = [];
      for (const [text, hash] of pending) {
        if (batch.has(hash)) later.push([text, hash]);
        else batch.set(hash, text);
      }
      for (const chunk of chunksFor(this.engine, [...batch], 2)) {
        const rows = await this.db
          .insertInto('content')
          .values(chunk.map(([hash, text]) => ({ hash, body: packText(text) })))
          .returning(['content_id', 'hash'])
          .execute();
        for (const row of rows) {
          const text = batch.get(Number(row.hash));
          if (text !== undefined) this.remember(text, Number(row.content_id));
        }
      }
      pending = later;
    }
  }
}

/** A content id referenced by a row read in one statement was gone when its text was read in the next. */
export class ContentMovedError extends Error {
  constructor(id: number) {
    super(`content ${id} was collected between two reads`);
  }
}

/** Cached texts beyond this many characters are dropped (shared parts and provenance are what is re-read). */
const MAX_CACHED_CHARS = 32 * 1024 * 1024;

/**
 * Reads content by id as parsed JSON values, caching them (ids are never reused, rows never change). A value is
 * shared by every record read with it, and frozen (`freezeJson`): records read from the store hold the same
 * provenance, screens and source lists by reference rather than a copy each. A copy per record had been most of
 * what a market cost in memory: the full simulated universe's 39,200 markets held 390 MB read with copies and
 * 238 MB shared, and took 3.1 s of CPU to read instead of 2.3 s. A stage that changes a part builds a new one.
 */
export class ContentReader {
  private readonly cache = new Map<number, unknown>();
  private cachedChars = 0;

  /** The parsed values of `ids`. Throws ContentMovedError when one is gone (see `readConsistently`). */
  async values(db: Kysely<StoreDatabase>, engine: StoreEngine, ids: Iterable<number>): Promise<Map<number, unknown>> {
    const out = new Map<number, unknown>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      if (this.cache.has(id)) out.set(id, this.cache.get(id));
      else missing.push(id);
    }
    for (const chunk of chunksFor(engine, missing, 1)) {
      const rows = await db
        .selectFrom('content')
        .select(['content_id', 'body'])
        .where('content_id', 'in', chunk)
        .execute();
      for (const row of rows) {
        const id = Number(row.content_id);
        const text = unpackText(row.body);
        const value: unknown = freezeJson(JSON.parse(text));
        out.set(id, value);
        this.remember(id, value, text.length);
      }
    }
    for (const id of missing) if (!out.has(id)) throw new ContentMovedError(id);
    return out;
  }

  private remember(id: number, value: unknown, chars: number): void {
    if (this.cachedChars + chars > MAX_CACHED_CHARS) {
      this.cache.clear();
      this.cachedChars = 0;
    }
    this.cache.set(id, value);
    this.cachedChars += chars;
  }
}

/**
 * `value` (a parsed JSON value) frozen all the way down, and returned. Content values are shared by every record
 * that reads them, so none may change one: an assignment to a frozen value throws (modules are strict code)
 * instead of quietly changing other records.
 */
export function freezeJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) freezeJson((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/**
 * Runs a read that takes two statements (rows, then their content texts) again when a collection removed content
 * in between: the rows it read were replaced meanwhile, and the next attempt reads the new ones.
 */
export async function readConsistently<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (!(err instanceof ContentMovedError) || attempt >= 5) throw err;
    }
  }
}

/**
 * Deletes every content row nothing references (see the header). Returns the rows deleted, or null when a
 * PostgreSQL content writer was active and the collection was left to the next publish.
 */
export async function collectContent(db: Kysely<StoreDatabase>, engine: StoreEngine): Promise<number | null> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ free: boolean }>`SELECT pg_try_advisory_xact_lock(${LOCK_CONTENT}) AS free`.execute(
      db,
    );
    if (rows[0]?.free !== true) return null;
  }
  const referenced = CONTENT_REFERENCES.map(
    ([table, column]) => sql`EXCEPT SELECT ${sql.ref(column)} FROM ${sql.table(table)}`,
  );
  const result = await sql`DELETE FROM content WHERE content_id IN (
    SELECT content_id FROM content ${sql.join(referenced, sql` `)})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
