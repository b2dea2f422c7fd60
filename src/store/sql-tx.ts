/**
 * The writes of the store, shared by both engines: one kysely query per chunk of rows, so a 40,000-row
 * upsert is a few hundred statements, not 40,000. `SqlTx` runs on whatever kysely handle it is given;
 * the store hands it a transaction.
 */
import { type Kysely, sql } from 'kysely';
import type {
  Catalyst,
  Event,
  Market,
  NewChange,
  NewMark,
  NewResolutionLogEntry,
  ResolutionLogEntry,
  SignalBulletin,
  SpotRow,
} from '../domain/index.ts';
import { ContentWriter } from './content-store.ts';
import { HOURLY_COLUMN_NAMES, type HourKey, type HourlyMark, hourlyRowOf } from './hourly-codec.ts';
import { MARK_COLUMN_NAMES, type MarkRow, type MarkTimeColumns, markTimeColumns, splitMarks } from './mark-codec.ts';
import { EVENT_LAYOUT, MARKET_LAYOUT, marketEntryText, partColumn, splitRecord } from './record-codec.ts';
import { chunksFor } from './sql-chunks.ts';
import type { StoreDatabase } from './tables.ts';
import type { IdKind, KeptRawPayloads, StoreEngine, StoreTx } from './types.ts';

/** A native key needing more salted attempts than this means `makeId` is broken, not unlucky. */
const MAX_ID_ATTEMPTS = 100;

export interface SqlContext {
  engine: StoreEngine;
  now: () => Date;
}

/**
 * One row per key, the last given winning, in first-seen order. A multi-row upsert may not touch the same
 * row twice (PostgreSQL refuses), and the last write is what the caller meant.
 */
function lastPerKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}

function firstPerKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** The typed columns an upsert of marks replaces (every one but the key). */
const MARK_VALUE_COLUMNS = MARK_COLUMN_NAMES.filter((c) => c !== 'market_id' && c !== 'snapshot_date');

/**
 * Marks as rows, their raw payloads and provenance interned in `content` (one lookup per chunk: provenance is
 * shared by thousands of marks and found in the transaction's cache after the first). A mark in `keep` keeps the
 * raw payload stored under its content id: its own must be null (a mark carries one payload or the other).
 */
export async function markRows(
  content: ContentWriter,
  marks: readonly NewMark[],
  keep?: KeptRawPayloads,
): Promise<MarkRow[]> {
  const split = splitMarks(marks);
  const kept = marks.map((mark) => keep?.rawPayloadIds.get(mark) ?? null);
  kept.forEach((id, i) => {
    if (id !== null && split[i]?.raw !== null)
      throw new Error(`mark ${marks[i]?.market_id}: a kept raw payload and one of its own`);
  });
  const ids = await content.intern(split.flatMap((s) => [s.raw, s.provenance]));
  return split.map((s, i) => ({
    ...s.row,
    raw_payload_id: kept[i] ?? ids[2 * i] ?? null,
    field_provenance_id: ids[2 * i + 1] ?? null,
  }));
}

export class SqlTx implements StoreTx {
  private contentWriter: ContentWriter | undefined;

  constructor(
    protected readonly db: Kysely<StoreDatabase>,
    protected readonly ctx: SqlContext,
  ) {}

  /** This transaction's content writer (its cache of interned texts lives as long as the transaction). */
  protected get content(): ContentWriter {
    this.contentWriter ??= new ContentWriter(this.db, this.ctx.engine);
    return this.contentWriter;
  }

  async upsertEvents(events: readonly Event[]): Promise<void> {
    const unique = lastPerKey(events, (e) => e.event_id);
    for (const chunk of chunksFor(this.ctx.engine, unique, 6)) {
      const split = chunk.map((event) => ({ event, ...splitRecord(event, EVENT_LAYOUT) }));
      const ids = await this.content.intern(split.map((s) => s.parts.field_provenance));
      const rows = split.map(({ event, body }, i) => ({
        event_id: event.event_id,
        venue: event.venue,
        category: event.category,
        slug: event.slug,
        body,
        field_provenance_id: ids[i] ?? null,
      }));
      await this.db
        .insertInto('events')
        .values(rows)
        .onConflict((oc) =>
          oc.column('event_id').doUpdateSet((eb) => ({
            venue: eb.ref('excluded.venue'),
            category: eb.ref('excluded.category'),
            slug: eb.ref('excluded.slug'),
            body: eb.ref('excluded.body'),
            field_provenance_id: eb.ref('excluded.field_provenance_id'),
          })),
        )
        .execute();
    }
  }

  async upsertMarkets(markets: readonly Market[]): Promise<void> {
    const unique = lastPerKey(markets, (m) => m.market_id);
    const parts = MARKET_LAYOUT.parts;
    for (const chunk of chunksFor(this.ctx.engine, unique, 11)) {
      const split = chunk.map((market) => ({ market, ...splitRecord(market, MARKET_LAYOUT) }));
      const ids = await this.content.intern(split.flatMap((s) => parts.map((part) => s.parts[part])));
      const partIds = (i: number) =>
        Object.fromEntries(parts.map((part, j) => [partColumn(part), ids[i * parts.length + j] ?? null])) as Record<
          ReturnType<typeof partColumn<(typeof parts)[number]>>,
          number | null
        >;
      const rows = split.map(({ market, body }, i) => ({
        market_id: market.market_id,
        platform: market.platform,
        platform_market_id: market.platform_market_id,
        event_id: market.event_id,
        status: market.status,
        question_id: market.question_id,
        body,
        entry: marketEntryText(market),
        ...partIds(i),
      }));
      await this.db
        .insertInto('markets')
        .values(rows)
        .onConflict((oc) =>
          oc.column('market_id').doUpdateSet((eb) => ({
            platform: eb.ref('excluded.platform'),
            platform_market_id: eb.ref('excluded.platform_market_id'),
            event_id: eb.ref('excluded.event_id'),
            status: eb.ref('excluded.status'),
            question_id: eb.ref('excluded.question_id'),
            body: eb.ref('excluded.body'),
            entry: eb.ref('excluded.entry'),
            field_provenance_id: eb.ref('excluded.field_provenance_id'),
            eligibility_screens_id: eb.ref('excluded.eligibility_screens_id'),
            resolution_source_list_id: eb.ref('excluded.resolution_source_list_id'),
          })),
        )
        .execute();
    }
  }

  async appendLog(entries: readonly NewResolutionLogEntry[]): Promise<number> {
    const rows = entries.map((entry) => {
      // A caller may hand back an entry it read (with log_id); the key is the store's to assign.
      const { log_id: _ignored, ...rest } = entry as NewResolutionLogEntry & { log_id?: number };
      return {
        market_id: rest.market_id,
        event_type: rest.event_type,
        occurred_at: rest.occurred_at,
        recorded_at: rest.recorded_at,
        record: JSON.stringify(rest),
      };
    });
    for (const chunk of chunksFor(this.ctx.engine, rows, 5)) {
      await this.db.insertInto('resolution_log').values(chunk).execute();
    }
    return rows.length;
  }

  async appendLogEntries(entries: readonly NewResolutionLogEntry[]): Promise<ResolutionLogEntry[]> {
    const stored = entries.map((entry) => {
      const { log_id: _ignored, ...rest } = entry as NewResolutionLogEntry & { log_id?: number };
      return rest;
    });
    const ids: number[] = [];
    for (const chunk of chunksFor(this.ctx.engine, stored, 5)) {
      const rows = chunk.map((e) => ({
        market_id: e.market_id,
        event_type: e.event_type,
        occurred_at: e.occurred_at,
        recorded_at: e.recorded_at,
        record: JSON.stringify(e),
      }));
      const returned = await this.db.insertInto('resolution_log').values(rows).returning('log_id').execute();
      // Both engines number a multi-row insert in row order; RETURNING's own order is not promised, so sort.
      ids.push(...returned.map((r) => Number(r.log_id)).sort((a, b) => a - b));
    }
    return stored.map((e, i) => ({ log_id: ids[i] ?? 0, ...e }));
  }

  async appendChanges(changes: readonly NewChange[]): Promise<number> {
    if (changes.length === 0) return 0;
    // Serializes appenders until commit, so seqs are dense and become visible in order. EXCLUSIVE mode lets
    // plain SELECTs through (the feed keeps answering during a publish). SQLite has one writer at a time anyway.
    if (this.ctx.engine === 'postgres') await sql`LOCK TABLE changes IN EXCLUSIVE MODE`.execute(this.db);
    const last = await this.db
      .selectFrom('changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    let seq = Number(last?.seq ?? 0);
    const rows = changes.map((change) => {
      const { seq: _ignored, ...rest } = change as NewChange & { seq?: number };
      return { seq: ++seq, generation: rest.generation, kind: rest.kind, record: JSON.stringify(rest) };
    });
    for (const chunk of chunksFor(this.ctx.engine, rows, 4))
      await this.db.insertInto('changes').values(chunk).execute();
    return rows.length;
  }

  async upsertMarks(marks: readonly NewMark[], keep?: KeptRawPayloads): Promise<void> {
    const unique = lastPerKey(marks, (m) => `${m.market_id}|${m.snapshot_date}`);
    for (const chunk of chunksFor(this.ctx.engine, unique, MARK_COLUMN_NAMES.length)) {
      await this.db
        .insertInto('marks')
        .values(await markRows(this.content, chunk, keep))
        .onConflict((oc) =>
          oc
            .columns(['market_id', 'snapshot_date'])
            .doUpdateSet((eb) => Object.fromEntries(MARK_VALUE_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)]))),
        )
        .execute();
    }
    const kept = new Set<number>();
    for (const mark of unique) {
      const id = keep?.rawPayloadIds.get(mark);
      if (id !== undefined) kept.add(id);
    }
    if (kept.size > 0) await this.checkKept(kept);
  }

  /**
   * Every kept content row is still there (nothing collects content between a run's read and its publish: one run
   * writes at a time, and a collection removes only rows nothing references). Checked all the same, inside the
   * write: a dangling id would lose a raw payload for good, so the write fails instead.
   */
  private async checkKept(ids: ReadonlySet<number>): Promise<void> {
    let found = 0;
    for (const chunk of chunksFor(this.ctx.engine, [...ids], 1)) {
      const row = await this.db
        .selectFrom('content')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('content_id', 'in', chunk)
        .executeTakeFirst();
      found += Number(row?.n ?? 0);
    }
    if (found !== ids.size) {
      throw new Error(`${ids.size - found} of the raw payloads kept by content id are no longer stored`);
    }
  }

  async retimeMarks(marks: readonly NewMark[]): Promise<NewMark[]> {
    const left: NewMark[] = [];
    const movable: { mark: NewMark; time: MarkTimeColumns }[] = [];
    for (const mark of lastPerKey(marks, (m) => `${m.market_id}|${m.snapshot_date}`)) {
      const time = markTimeColumns(mark);
      if (time === null) left.push(mark);
      else movable.push({ mark, time });
    }
    for (const chunk of chunksFor(this.ctx.engine, movable, 6)) {
      // One statement per chunk: the new times as a VALUES list joined to the stored rows (typed by CASTs, which
      // PostgreSQL needs for parameters in VALUES). A row stored with overflow is left alone (its time fields may
      // live there): its mark is upserted instead.
      const values = sql.join(
        chunk.map(
          ({ mark, time }) =>
            sql`(${mark.market_id}, ${mark.snapshot_date}, CAST(${time.snapshot_offset_ms} AS bigint), CAST(${time.source_lag_ms} AS bigint), CAST(${time.stale_flag} AS smallint), CAST(${time.hours_since_source_update} AS double precision))`,
        ),
      );
      const { rows } = await sql<{ market_id: string; snapshot_date: string }>`
        WITH v(market_id, snapshot_date, o, l, s, h) AS (VALUES ${values})
        UPDATE marks SET snapshot_offset_ms = v.o, source_lag_ms = v.l, stale_flag = v.s, hours_since_source_update = v.h
        FROM v
        WHERE marks.market_id = v.market_id AND marks.snapshot_date = v.snapshot_date AND marks.overflow IS NULL
        RETURNING marks.market_id, marks.snapshot_date`.execute(this.db);
      const moved = new Set(rows.map((r) => `${r.market_id}|${r.snapshot_date}`));
      for (const { mark } of chunk) if (!moved.has(`${mark.market_id}|${mark.snapshot_date}`)) left.push(mark);
    }
    return left;
  }

  async stageMarks(runId: number, marks: readonly NewMark[]): Promise<void> {
    const unique = lastPerKey(marks, (m) => `${m.market_id}|${m.snapshot_date}`);
    for (const chunk of chunksFor(this.ctx.engine, unique, MARK_COLUMN_NAMES.length + 1)) {
      const rows = (await markRows(this.content, chunk)).map((row) => ({ run_id: runId, ...row }));
      await this.db
        .insertInto('staged_marks')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['run_id', 'market_id', 'snapshot_date'])
            .doUpdateSet((eb) => Object.fromEntries(MARK_VALUE_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)]))),
        )
        .execute();
    }
  }

  /**
   * One INSERT … SELECT of the typed columns: the marks never pass through this process, however many a backfill
   * staged (their content rows were interned when they were staged).
   */
  async publishStagedMarks(runId: number): Promise<number> {
    const result = await this.db
      .insertInto('marks')
      .columns([...MARK_COLUMN_NAMES])
      .expression((eb) =>
        eb
          .selectFrom('staged_marks')
          .select([...MARK_COLUMN_NAMES])
          .where('run_id', '=', runId)
          .orderBy('snapshot_date')
          .orderBy('market_id'),
      )
      .onConflict((oc) => oc.columns(['market_id', 'snapshot_date']).doNothing())
      .executeTakeFirst();
    await this.db.deleteFrom('staged_marks').where('run_id', '=', runId).execute();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }

  async replaceCatalysts(catalysts: readonly Catalyst[]): Promise<void> {
    await this.db.deleteFrom('catalysts').execute();
    const rows = catalysts.map((c) => ({ date: c.date, type: c.type, record: JSON.stringify(c) }));
    for (const chunk of chunksFor(this.ctx.engine, rows, 3)) {
      await this.db.insertInto('catalysts').values(chunk).execute();
    }
  }

  async insertSignals(signals: readonly SignalBulletin[]): Promise<number> {
    const rows = firstPerKey(signals, (s) => s.record_slug).map((s) => ({
      slug: s.record_slug,
      record_id: s.record_id,
      published_at: s.published_at,
      target_event_id: s.target_event_id,
      record: JSON.stringify(s),
    }));
    let inserted = 0;
    for (const chunk of chunksFor(this.ctx.engine, rows, 5)) {
      const result = await this.db
        .insertInto('signals')
        .values(chunk)
        .onConflict((oc) => oc.column('slug').doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return inserted;
  }

  async insertNewSignals(signals: readonly SignalBulletin[]): Promise<SignalBulletin[]> {
    const unique = firstPerKey(signals, (s) => s.record_slug);
    const inserted = new Set<string>();
    for (const chunk of chunksFor(this.ctx.engine, unique, 5)) {
      const returned = await this.db
        .insertInto('signals')
        .values(
          chunk.map((s) => ({
            slug: s.record_slug,
            record_id: s.record_id,
            published_at: s.published_at,
            target_event_id: s.target_event_id,
            record: JSON.stringify(s),
          })),
        )
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning('slug')
        .execute();
      for (const r of returned) inserted.add(r.slug);
    }
    return unique.filter((s) => inserted.has(s.record_slug));
  }

  async insertSpot(rows: readonly SpotRow[]): Promise<void> {
    const values = lastPerKey(rows, (r) => `${r.coin}|${r.as_of}`).map((r) => ({
      coin: r.coin,
      as_of: r.as_of,
      price_usd: r.price_usd,
      record: JSON.stringify(r),
    }));
    for (const chunk of chunksFor(this.ctx.engine, values, 4)) {
      await this.db
        .insertInto('spot_prices')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['coin', 'as_of']).doUpdateSet((eb) => ({
            price_usd: eb.ref('excluded.price_usd'),
            record: eb.ref('excluded.record'),
          })),
        )
        .execute();
    }
  }

  async upsertHourlyMarks(marks: readonly HourlyMark[]): Promise<number> {
    const rows = lastPerKey(marks, (m) => `${m.market_id}|${m.snapshot_hour}`).map(hourlyRowOf);
    const values = HOURLY_COLUMN_NAMES.filter((c) => c !== 'market_id' && c !== 'snapshot_hour');
    for (const chunk of chunksFor(this.ctx.engine, rows, HOURLY_COLUMN_NAMES.length)) {
      await this.db
        .insertInto('hourly_marks')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(['market_id', 'snapshot_hour'])
            .doUpdateSet((eb) => Object.fromEntries(values.map((c) => [c, eb.ref(`excluded.${c}`)]))),
        )
        .execute();
    }
    return rows.length;
  }

  async pruneHourlyMarks(beforeHour: HourKey): Promise<number> {
    const result = await this.db.deleteFrom('hourly_marks').where('snapshot_hour', '<', beforeHour).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async resolveId(kind: IdKind, nativeKey: string, makeId: (attempt: number) => string): Promise<string> {
    const [id] = await this.resolveIds(kind, [nativeKey], (_key, attempt) => makeId(attempt));
    if (id === undefined) throw new Error(`id registry returned nothing for ${kind} ${nativeKey}`);
    return id;
  }

  /**
   * Registry lookup in a handful of round trips per chunk: read the registered ids, then per round
   * propose one candidate per unregistered key, drop candidates that are taken (in the table or by an
   * earlier key of this batch), insert the rest with ON CONFLICT DO NOTHING, and retry whatever did not
   * land with the next attempt number.
   */
  async resolveIds(
    kind: IdKind,
    nativeKeys: readonly string[],
    makeId: (key: string, attempt: number) => string,
  ): Promise<string[]> {
    const resolved = new Map<string, string>();
    const unique = [...new Set(nativeKeys)];
    for (const chunk of chunksFor(this.ctx.engine, unique, 1)) {
      for (const [key, id] of await this.registered(kind, chunk)) resolved.set(key, id);
    }

    const attempts = new Map<string, number>();
    let pending = unique.filter((key) => !resolved.has(key));
    while (pending.length > 0) {
      const candidates = new Map<string, string>();
      for (const key of pending) {
        const attempt = attempts.get(key) ?? 0;
        if (attempt > MAX_ID_ATTEMPTS) {
          throw new Error(`id registry: no free ${kind} id for ${key} after ${MAX_ID_ATTEMPTS} salted attempts`);
        }
        candidates.set(key, makeId(key, attempt));
      }
      const taken = new Set<string>();
      for (const chunk of chunksFor(this.ctx.engine, [...new Set(candidates.values())], 1)) {
        const rows = await this.db.selectFrom('id_registry').select('id').where('id', 'in', chunk).execute();
        for (const row of rows) taken.add(row.id);
      }

      const retry: string[] = [];
      const toInsert: { key: string; id: string; attempt: number }[] = [];
      for (const key of pending) {
        const id = candidates.get(key) ?? '';
        const attempt = attempts.get(key) ?? 0;
        if (taken.has(id)) {
          attempts.set(key, attempt + 1);
          retry.push(key);
        } else {
          taken.add(id); // later keys of this batch proposing the same id must salt
          toInsert.push({ key, id, attempt });
        }
      }

      const registeredAt = this.ctx.now().toISOString();
      for (const chunk of chunksFor(this.ctx.engine, toInsert, 5)) {
        const result = await this.db
          .insertInto('id_registry')
          .values(
            chunk.map((r) => ({ kind, native_key: r.key, id: r.id, attempt: r.attempt, registered_at: registeredAt })),
          )
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(result.numInsertedOrUpdatedRows ?? 0n) === chunk.length) {
          for (const r of chunk) resolved.set(r.key, r.id);
          continue;
        }
        // Someone else registered in between (PostgreSQL, another process): keep what they registered
        // for the same key; a key whose id was taken tries its next attempt.
        const now = await this.registered(
          kind,
          chunk.map((r) => r.key),
        );
        for (const r of chunk) {
          const id = now.get(r.key);
          if (id !== undefined) resolved.set(r.key, id);
          else {
            attempts.set(r.key, r.attempt + 1);
            retry.push(r.key);
          }
        }
      }
      pending = retry;
    }
    return nativeKeys.map((key) => resolved.get(key) ?? '');
  }

  private async registered(kind: IdKind, keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (keys.length === 0) return out;
    const rows = await this.db
      .selectFrom('id_registry')
      .select(['native_key', 'id'])
      .where('kind', '=', kind)
      .where('native_key', 'in', keys)
      .execute();
    for (const row of rows) out.set(row.native_key, row.id);
    return out;
  }
}
