/**
 * The writes of the store, shared by both engines: one kysely query per chunk of rows, so a 40,000-row
 * upsert is a few hundred statements, not 40,000. `SqlTx` runs on whatever kysely handle it is given;
 * the store hands it a transaction.
 */
import type { Kysely } from 'kysely';
import type {
  Catalyst,
  Event,
  Market,
  NewMark,
  NewResolutionLogEntry,
  SignalBulletin,
  SpotRow,
} from '../domain/index.ts';
import type { StoreDatabase } from './tables.ts';
import type { IdKind, StoreEngine, StoreTx } from './types.ts';

/** Most bound parameters one statement may carry (SQLite allows 32,766; PostgreSQL 65,535). */
const MAX_PARAMS: Record<StoreEngine, number> = { sqlite: 30_000, postgres: 60_000 };
/** Rows per statement beyond this stop paying off and only make statements bigger. */
const MAX_ROWS_PER_STATEMENT = 500;
/** A native key needing more salted attempts than this means `makeId` is broken, not unlucky. */
const MAX_ID_ATTEMPTS = 100;

export interface SqlContext {
  engine: StoreEngine;
  now: () => Date;
}

/** Splits `items` so that each statement binds at most the engine's parameter limit. */
export function chunksFor<T>(engine: StoreEngine, items: readonly T[], columnsPerRow: number): T[][] {
  const size = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_PARAMS[engine] / columnsPerRow)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
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

export class SqlTx implements StoreTx {
  constructor(
    protected readonly db: Kysely<StoreDatabase>,
    protected readonly ctx: SqlContext,
  ) {}

  async upsertEvents(events: readonly Event[]): Promise<void> {
    const rows = lastPerKey(events, (e) => e.event_id).map((e) => ({
      event_id: e.event_id,
      venue: e.venue,
      category: e.category,
      slug: e.slug,
      record: JSON.stringify(e),
    }));
    for (const chunk of chunksFor(this.ctx.engine, rows, 5)) {
      await this.db
        .insertInto('events')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('event_id').doUpdateSet((eb) => ({
            venue: eb.ref('excluded.venue'),
            category: eb.ref('excluded.category'),
            slug: eb.ref('excluded.slug'),
            record: eb.ref('excluded.record'),
          })),
        )
        .execute();
    }
  }

  async upsertMarkets(markets: readonly Market[]): Promise<void> {
    const rows = lastPerKey(markets, (m) => m.market_id).map((m) => ({
      market_id: m.market_id,
      platform: m.platform,
      platform_market_id: m.platform_market_id,
      event_id: m.event_id,
      status: m.status,
      question_id: m.question_id,
      record: JSON.stringify(m),
    }));
    for (const chunk of chunksFor(this.ctx.engine, rows, 7)) {
      await this.db
        .insertInto('markets')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('market_id').doUpdateSet((eb) => ({
            platform: eb.ref('excluded.platform'),
            platform_market_id: eb.ref('excluded.platform_market_id'),
            event_id: eb.ref('excluded.event_id'),
            status: eb.ref('excluded.status'),
            question_id: eb.ref('excluded.question_id'),
            record: eb.ref('excluded.record'),
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

  async upsertMarks(marks: readonly NewMark[]): Promise<void> {
    const rows = lastPerKey(marks, (m) => `${m.market_id}|${m.snapshot_date}`).map((mark) => {
      const { mark_id: _ignored, ...rest } = mark as NewMark & { mark_id?: number };
      return { market_id: rest.market_id, snapshot_date: rest.snapshot_date, record: JSON.stringify(rest) };
    });
    for (const chunk of chunksFor(this.ctx.engine, rows, 3)) {
      await this.db
        .insertInto('marks')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['market_id', 'snapshot_date']).doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })),
        )
        .execute();
    }
  }

  async stageMarks(runId: number, marks: readonly NewMark[]): Promise<void> {
    const rows = lastPerKey(marks, (m) => `${m.market_id}|${m.snapshot_date}`).map((mark) => {
      const { mark_id: _ignored, ...rest } = mark as NewMark & { mark_id?: number };
      return {
        run_id: runId,
        market_id: rest.market_id,
        snapshot_date: rest.snapshot_date,
        record: JSON.stringify(rest),
      };
    });
    for (const chunk of chunksFor(this.ctx.engine, rows, 4)) {
      await this.db
        .insertInto('staged_marks')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .columns(['run_id', 'market_id', 'snapshot_date'])
            .doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })),
        )
        .execute();
    }
  }

  /** One INSERT … SELECT: the marks never pass through this process, however many a backfill staged. */
  async publishStagedMarks(runId: number): Promise<number> {
    const result = await this.db
      .insertInto('marks')
      .columns(['market_id', 'snapshot_date', 'record'])
      .expression((eb) =>
        eb
          .selectFrom('staged_marks')
          .select(['market_id', 'snapshot_date', 'record'])
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
