/**
 * The Store over kysely, one implementation for both engines. Differences between SQLite and
 * PostgreSQL stay in the dialect set-up (index.ts), the migrations, and the two advisory locks below.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, sql } from 'kysely';
import type {
  Catalyst,
  Event,
  Mark,
  Market,
  NewMark,
  NewResolutionLogEntry,
  ResolutionLogEntry,
  SignalBulletin,
  SpotRow,
  Venue,
} from '../domain/index.ts';
import { MIGRATIONS } from './migrations.ts';
import { chunksFor, type SqlContext, SqlTx } from './sql-tx.ts';
import type { StoreDatabase } from './tables.ts';
import type {
  ApiKeyRecord,
  IdKind,
  MarkQuery,
  PipelineRun,
  RunFinish,
  RunHandle,
  RunningRun,
  RunOwner,
  Store,
  StoreEngine,
  StoreTx,
} from './types.ts';

/** PostgreSQL advisory lock keys (arbitrary, fixed): migrations and generation bumps are serialized. */
const LOCK_MIGRATE = 7_346_201;
const LOCK_GENERATION = 7_346_202;

/**
 * The advisory lock of one run (two-key form: this schema's run namespace, the run id). Locks are per
 * database, so the schema is part of the key: stores in two schemas of one database never share a run lock.
 */
const runLock = (runId: number) => sql`hashtext(concat('pmref-run:', current_schema())), ${runId}::int4`;

function parse<T>(text: string): T {
  return JSON.parse(text) as T;
}

function markFrom(row: { mark_id: number | string; record: string }): Mark {
  return { mark_id: Number(row.mark_id), ...parse<NewMark>(row.record) };
}

function logFrom(row: { log_id: number | string; record: string }): ResolutionLogEntry {
  return { log_id: Number(row.log_id), ...parse<NewResolutionLogEntry>(row.record) };
}

const byDateThenMarket = (a: Mark, b: Mark) =>
  a.snapshot_date < b.snapshot_date
    ? -1
    : a.snapshot_date > b.snapshot_date
      ? 1
      : a.market_id < b.market_id
        ? -1
        : a.market_id > b.market_id
          ? 1
          : 0;

export interface SqlStoreOptions {
  engine: StoreEngine;
  now?: () => Date;
  /** Runs after the kysely handle is destroyed (e.g. removing a temp file). */
  onClose?: () => Promise<void> | void;
}

export class SqlStore implements Store {
  readonly engine: StoreEngine;
  private readonly ctx: SqlContext;
  /** Set while a transaction callback runs, so a stray call on the store (not `tx`) fails loudly. */
  private readonly inTransaction = new AsyncLocalStorage<true>();
  private readonly onClose: (() => Promise<void> | void) | undefined;

  /** The kysely handle, for tests and tools that need raw SQL. Application code uses the Store methods. */
  constructor(
    readonly db: Kysely<StoreDatabase>,
    options: SqlStoreOptions,
  ) {
    this.engine = options.engine;
    this.ctx = { engine: options.engine, now: options.now ?? (() => new Date()) };
    this.onClose = options.onClose;
  }

  /** The root handle, refused inside this store's own transaction callback. */
  private get root(): Kysely<StoreDatabase> {
    if (this.inTransaction.getStore()) {
      throw new Error('store method called inside store.transaction(); use the tx argument instead');
    }
    return this.db;
  }

  async migrate(): Promise<string[]> {
    return this.root.transaction().execute(async (trx) => {
      if (this.engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${LOCK_MIGRATE})`.execute(trx);
      await trx.schema
        .createTable('schema_migrations')
        .ifNotExists()
        .addColumn('version', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'text', (c) => c.notNull())
        .execute();
      const done = new Set(
        (await trx.selectFrom('schema_migrations').select('version').execute()).map((r) => r.version),
      );
      const applied: string[] = [];
      for (const migration of MIGRATIONS) {
        if (done.has(migration.version)) continue;
        await migration.up(trx as unknown as Kysely<unknown>, this.engine);
        await trx
          .insertInto('schema_migrations')
          .values({ version: migration.version, applied_at: this.ctx.now().toISOString() })
          .execute();
        applied.push(migration.version);
      }
      return applied;
    });
  }

  async identity(): Promise<string> {
    const row = await this.root
      .selectFrom('store_meta')
      .select('value')
      .where('key', '=', 'store_id')
      .executeTakeFirst();
    if (!row) throw new Error('store has no identity: run migrate() first');
    return row.value;
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.onClose?.();
  }

  async transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.root.transaction().execute((trx) => this.inTransaction.run(true, () => fn(new SqlTx(trx, this.ctx))));
  }

  // Writes outside an explicit transaction: each call is its own transaction.
  upsertEvents(events: readonly Event[]): Promise<void> {
    return this.transaction((tx) => tx.upsertEvents(events));
  }
  upsertMarkets(markets: readonly Market[]): Promise<void> {
    return this.transaction((tx) => tx.upsertMarkets(markets));
  }
  appendLog(entries: readonly NewResolutionLogEntry[]): Promise<number> {
    return this.transaction((tx) => tx.appendLog(entries));
  }
  upsertMarks(marks: readonly NewMark[]): Promise<void> {
    return this.transaction((tx) => tx.upsertMarks(marks));
  }
  replaceCatalysts(catalysts: readonly Catalyst[]): Promise<void> {
    return this.transaction((tx) => tx.replaceCatalysts(catalysts));
  }
  insertSignals(signals: readonly SignalBulletin[]): Promise<number> {
    return this.transaction((tx) => tx.insertSignals(signals));
  }
  insertSpot(rows: readonly SpotRow[]): Promise<void> {
    return this.transaction((tx) => tx.insertSpot(rows));
  }
  resolveId(kind: IdKind, nativeKey: string, makeId: (attempt: number) => string): Promise<string> {
    return this.transaction((tx) => tx.resolveId(kind, nativeKey, makeId));
  }
  resolveIds(
    kind: IdKind,
    nativeKeys: readonly string[],
    makeId: (key: string, attempt: number) => string,
  ): Promise<string[]> {
    return this.transaction((tx) => tx.resolveIds(kind, nativeKeys, makeId));
  }

  async listEvents(): Promise<Event[]> {
    const rows = await this.root.selectFrom('events').select('record').orderBy('event_id').execute();
    return rows.map((r) => parse<Event>(r.record));
  }

  async listMarkets(filter: { venue?: Venue; after?: string; limit?: number } = {}): Promise<Market[]> {
    let query = this.root.selectFrom('markets').select('record').orderBy('market_id');
    if (filter.venue !== undefined) query = query.where('platform', '=', filter.venue);
    if (filter.after !== undefined) query = query.where('market_id', '>', filter.after);
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    return (await query.execute()).map((r) => parse<Market>(r.record));
  }

  async listMarketIds(): Promise<string[]> {
    const rows = await this.root.selectFrom('markets').select('market_id').orderBy('market_id').execute();
    return rows.map((r) => r.market_id);
  }

  async getMarket(marketId: string): Promise<Market | null> {
    const row = await this.root
      .selectFrom('markets')
      .select('record')
      .where('market_id', '=', marketId)
      .executeTakeFirst();
    return row ? parse<Market>(row.record) : null;
  }

  async listLog(filter: { marketIds?: readonly string[] } = {}): Promise<ResolutionLogEntry[]> {
    const base = this.root.selectFrom('resolution_log').select(['log_id', 'record']).orderBy('log_id');
    if (filter.marketIds === undefined) return (await base.execute()).map(logFrom);
    const out: ResolutionLogEntry[] = [];
    for (const chunk of chunksFor(this.engine, [...new Set(filter.marketIds)], 1)) {
      out.push(...(await base.where('market_id', 'in', chunk).execute()).map(logFrom));
    }
    return out.sort((a, b) => a.log_id - b.log_id);
  }

  async listMarks(query: MarkQuery = {}): Promise<Mark[]> {
    let base = this.root
      .selectFrom('marks')
      .select(['mark_id', 'record'])
      .orderBy('snapshot_date')
      .orderBy('market_id');
    // With market ids given, the (market_id, snapshot_date) index is the selective one. SQLite without
    // statistics prefers the date index and then reads every mark of those dates once per id chunk (17 s
    // of a read-model build on the full universe); a unary plus keeps the date out of its index choice.
    const date =
      query.marketIds !== undefined && this.engine === 'sqlite' ? sql<string>`+snapshot_date` : 'snapshot_date';
    if (query.since !== undefined) base = base.where(date, '>=', query.since);
    if (query.snapshotDates !== undefined) {
      if (query.snapshotDates.length === 0) return [];
      base = base.where(date, 'in', [...query.snapshotDates]);
    }
    if (query.after !== undefined) {
      const { snapshot_date: d, market_id: m } = query.after;
      base = base.where((eb) =>
        eb.or([eb('snapshot_date', '>', d), eb.and([eb('snapshot_date', '=', d), eb('market_id', '>', m)])]),
      );
    }
    if (query.marketIds === undefined) {
      if (query.limit !== undefined) base = base.limit(query.limit);
      return (await base.execute()).map(markFrom);
    }
    if (query.limit !== undefined)
      throw new Error('listMarks: limit pages the whole table; it does not combine with marketIds');
    const out: Mark[] = [];
    const idChunks = chunksFor(this.engine, [...new Set(query.marketIds)], 1);
    for (const chunk of idChunks) out.push(...(await base.where('market_id', 'in', chunk).execute()).map(markFrom));
    return idChunks.length > 1 ? out.sort(byDateThenMarket) : out;
  }

  async latestMarks(): Promise<Mark[]> {
    const rows = await this.root
      .selectFrom('marks as m')
      .innerJoin(
        (eb) =>
          eb
            .selectFrom('marks')
            .select((e) => ['market_id', e.fn.max('snapshot_date').as('latest')])
            .groupBy('market_id')
            .as('l'),
        (join) => join.onRef('l.market_id', '=', 'm.market_id').onRef('l.latest', '=', 'm.snapshot_date'),
      )
      .select(['m.mark_id', 'm.record'])
      .orderBy('m.market_id')
      .execute();
    return rows.map(markFrom);
  }

  async markDates(limit?: number): Promise<string[]> {
    let query = this.root.selectFrom('marks').select('snapshot_date').distinct().orderBy('snapshot_date', 'desc');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map((r) => r.snapshot_date);
  }

  async listCatalysts(): Promise<Catalyst[]> {
    const rows = await this.root
      .selectFrom('catalysts')
      .select('record')
      .orderBy('date')
      .orderBy('catalyst_id')
      .execute();
    return rows.map((r) => parse<Catalyst>(r.record));
  }

  async listSignals(): Promise<SignalBulletin[]> {
    const rows = await this.root
      .selectFrom('signals')
      .select('record')
      .orderBy('published_at', 'desc')
      .orderBy('slug')
      .execute();
    return rows.map((r) => parse<SignalBulletin>(r.record));
  }

  async latestSpot(): Promise<SpotRow[]> {
    const rows = await this.root
      .selectFrom('spot_prices as s')
      .innerJoin(
        (eb) =>
          eb
            .selectFrom('spot_prices')
            .select((e) => ['coin', e.fn.max('as_of').as('latest')])
            .groupBy('coin')
            .as('l'),
        (join) => join.onRef('l.coin', '=', 's.coin').onRef('l.latest', '=', 's.as_of'),
      )
      .select('s.record')
      .orderBy('s.coin')
      .execute();
    return rows.map((r) => parse<SpotRow>(r.record));
  }

  async insertApiKey(record: ApiKeyRecord): Promise<void> {
    await this.root
      .insertInto('api_keys')
      .values({
        key_hash: record.key_hash,
        email: record.email,
        daily_limit: record.daily_limit,
        created_at: record.created_at,
      })
      .execute();
  }

  async issueApiKey(record: ApiKeyRecord): Promise<'issued' | 'email_taken'> {
    return this.root.transaction().execute(async (trx) => {
      const claim = await trx
        .insertInto('api_key_emails')
        .values({ email: record.email, key_hash: record.key_hash, created_at: record.created_at })
        .onConflict((oc) => oc.column('email').doNothing())
        .executeTakeFirst();
      if (Number(claim.numInsertedOrUpdatedRows ?? 0) === 0) return 'email_taken';
      await trx
        .insertInto('api_keys')
        .values({
          key_hash: record.key_hash,
          email: record.email,
          daily_limit: record.daily_limit,
          created_at: record.created_at,
        })
        .execute();
      return 'issued';
    });
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = await this.root
      .selectFrom('api_keys')
      .select(['key_hash', 'email', 'daily_limit', 'created_at'])
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    return row ? { ...row, daily_limit: Number(row.daily_limit) } : null;
  }

  async startRun(source: string, startedAt: string): Promise<number> {
    const row = await this.root
      .insertInto('pipeline_runs')
      .values({ started_at: startedAt, finished_at: null, source, status: 'running', generation: 0, summary: '{}' })
      .returning('run_id')
      .executeTakeFirstOrThrow();
    return Number(row.run_id);
  }

  async beginRun(source: string, startedAt: string, owner: RunOwner): Promise<RunHandle> {
    const values = {
      started_at: startedAt,
      finished_at: null,
      source,
      status: 'running',
      generation: 0,
      summary: '{}',
      owner: JSON.stringify(owner),
    };
    if (this.engine !== 'postgres') {
      const row = await this.root
        .insertInto('pipeline_runs')
        .values(values)
        .returning('run_id')
        .executeTakeFirstOrThrow();
      return { run_id: Number(row.run_id), release: async () => {} };
    }
    // One pooled connection is held for the run: the row and the session lock commit together, so no other
    // session ever sees the run `running` and unlocked; the lock goes when the connection does (a dead process).
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    return new Promise<RunHandle>((resolve, reject) => {
      const held = this.root.connection().execute(async (conn) => {
        await sql`BEGIN`.execute(conn);
        let runId: number;
        try {
          const row = await conn
            .insertInto('pipeline_runs')
            .values(values)
            .returning('run_id')
            .executeTakeFirstOrThrow();
          runId = Number(row.run_id);
          await sql`SELECT pg_advisory_lock(${runLock(runId)})`.execute(conn);
          await sql`COMMIT`.execute(conn);
        } catch (err) {
          await sql`ROLLBACK`.execute(conn).catch(() => undefined);
          throw err;
        }
        resolve({
          run_id: runId,
          release: async () => {
            release();
            await held.catch(() => undefined);
          },
        });
        await released;
        await sql`SELECT pg_advisory_unlock(${runLock(runId)})`.execute(conn);
      });
      held.catch(reject);
    });
  }

  async runningRuns(): Promise<RunningRun[]> {
    const rows = await this.root
      .selectFrom('pipeline_runs')
      .selectAll()
      .where('status', '=', 'running')
      .orderBy('run_id')
      .execute();
    return rows.map((row) => ({
      run_id: Number(row.run_id),
      started_at: row.started_at,
      finished_at: row.finished_at,
      source: row.source,
      status: row.status as PipelineRun['status'],
      generation: Number(row.generation),
      summary: parse<PipelineRun['summary']>(row.summary),
      owner: row.owner === null ? null : parse<RunOwner>(row.owner),
    }));
  }

  async abortRun(runId: number, summary: PipelineRun['summary'], finishedAt: string): Promise<boolean> {
    const aborted = await this.root.transaction().execute(async (trx) => {
      if (this.engine === 'postgres') {
        const { rows } = await sql<{
          free: boolean;
        }>`SELECT pg_try_advisory_xact_lock(${runLock(runId)}) AS free`.execute(trx);
        if (rows[0]?.free !== true) return false;
      }
      const result = await trx
        .updateTable('pipeline_runs')
        .set({ status: 'aborted', summary: JSON.stringify(summary), finished_at: finishedAt })
        .where('run_id', '=', runId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      await trx.deleteFrom('staged_marks').where('run_id', '=', runId).execute();
      return Number(result.numUpdatedRows) === 1;
    });
    await this.releaseStaging();
    return aborted;
  }

  /**
   * SQLite: gives the staging scratch database's pages back once no run stages anything (index.ts,
   * `attachStaging`). Rows of a run that is no longer running are dropped first: the store file and the
   * scratch file commit separately, so a publish that died between the two commits may have left them.
   */
  private async releaseStaging(): Promise<void> {
    if (this.engine !== 'sqlite') return;
    await sql`DELETE FROM staged_marks WHERE run_id NOT IN
      (SELECT run_id FROM pipeline_runs WHERE status = 'running')`.execute(this.root);
    const row = await this.root
      .selectFrom('staged_marks')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    if (Number(row?.n ?? 0) === 0) await sql`VACUUM staging`.execute(this.root);
  }

  stageMarks(runId: number, marks: readonly NewMark[]): Promise<void> {
    return this.transaction((tx) => tx.stageMarks(runId, marks));
  }

  publishStagedMarks(runId: number): Promise<number> {
    return this.transaction((tx) => tx.publishStagedMarks(runId));
  }

  async listStagedMarks(runId: number, query: { since?: string } = {}): Promise<NewMark[]> {
    let base = this.root
      .selectFrom('staged_marks')
      .select('record')
      .where('run_id', '=', runId)
      .orderBy('snapshot_date')
      .orderBy('market_id');
    if (query.since !== undefined) base = base.where('snapshot_date', '>=', query.since);
    return (await base.execute()).map((r) => parse<NewMark>(r.record));
  }

  async publishRun<T>(
    runId: number,
    write: (tx: StoreTx) => Promise<T>,
    finish: (written: T) => RunFinish,
    beforeCommit?: () => Promise<void> | void,
  ): Promise<{ generation: number; written: T }> {
    const published = await this.root.transaction().execute((trx) =>
      this.inTransaction.run(true, async () => {
        // Taken first: publishes never interleave their writes (and so never deadlock on each other's rows).
        if (this.engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${LOCK_GENERATION})`.execute(trx);
        const written = await write(new SqlTx(trx, this.ctx));
        const { status, summary, finishedAt } = finish(written);
        const generation = (await this.publishedGeneration(trx)) + 1;
        const result = await trx
          .updateTable('pipeline_runs')
          .set({ status, summary: JSON.stringify(summary), finished_at: finishedAt, generation })
          .where('run_id', '=', runId)
          .where('status', '=', 'running')
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) {
          throw new Error(`publishRun: run ${runId} is no longer running (aborted?): nothing of it is published`);
        }
        await trx.deleteFrom('staged_marks').where('run_id', '=', runId).execute();
        await beforeCommit?.();
        return { generation, written };
      }),
    );
    await this.releaseStaging();
    return published;
  }

  async finishRun(
    runId: number,
    status: PipelineRun['status'],
    summary: PipelineRun['summary'],
    finishedAt: string,
    publish: boolean,
  ): Promise<number> {
    const generation = await this.root.transaction().execute(async (trx) => {
      if (this.engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${LOCK_GENERATION})`.execute(trx);
      await trx.deleteFrom('staged_marks').where('run_id', '=', runId).execute();
      const current = await this.publishedGeneration(trx);
      // An unpublished finish leaves the run's generation column alone, so the counter never goes back.
      const result = await trx
        .updateTable('pipeline_runs')
        .set({
          status,
          summary: JSON.stringify(summary),
          finished_at: finishedAt,
          ...(publish ? { generation: current + 1 } : {}),
        })
        .where('run_id', '=', runId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new Error(`finishRun: no pipeline run ${runId}`);
      return publish ? current + 1 : current;
    });
    await this.releaseStaging();
    return generation;
  }

  generation(): Promise<number> {
    return this.publishedGeneration(this.root);
  }

  private async publishedGeneration(db: Kysely<StoreDatabase>): Promise<number> {
    const row = await db
      .selectFrom('pipeline_runs')
      .select((eb) => eb.fn.max('generation').as('generation'))
      .executeTakeFirst();
    return Number(row?.generation ?? 0);
  }

  async lastRun(filter: { published?: boolean } = {}): Promise<PipelineRun | null> {
    let query = this.root.selectFrom('pipeline_runs').selectAll();
    if (filter.published) query = query.where('generation', '>', 0);
    const row = await query.orderBy('run_id', 'desc').limit(1).executeTakeFirst();
    if (!row) return null;
    return {
      run_id: Number(row.run_id),
      started_at: row.started_at,
      finished_at: row.finished_at,
      source: row.source,
      status: row.status as PipelineRun['status'],
      generation: Number(row.generation),
      summary: parse<PipelineRun['summary']>(row.summary),
    };
  }

  async counts(): Promise<{ events: number; markets: number; marks: number; log: number; signals: number }> {
    const row = await this.root
      .selectNoFrom((eb) => [
        eb.selectFrom('events').select(eb.fn.countAll().as('n')).as('events'),
        eb.selectFrom('markets').select(eb.fn.countAll().as('n')).as('markets'),
        eb.selectFrom('marks').select(eb.fn.countAll().as('n')).as('marks'),
        eb.selectFrom('resolution_log').select(eb.fn.countAll().as('n')).as('log'),
        eb.selectFrom('signals').select(eb.fn.countAll().as('n')).as('signals'),
      ])
      .executeTakeFirstOrThrow();
    return {
      events: Number(row.events),
      markets: Number(row.markets),
      marks: Number(row.marks),
      log: Number(row.log),
      signals: Number(row.signals),
    };
  }
}
