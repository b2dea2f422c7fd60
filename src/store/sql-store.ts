/**
 * The Store over kysely, one implementation for both engines. Differences between SQLite and
 * PostgreSQL stay in the dialect set-up (index.ts), the migrations, the advisory locks (here and in
 * content-store.ts), SQLite's array reads of wide mark rows (`rowArrays`) and its compaction after a migration.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { type Compilable, type Kysely, sql } from 'kysely';
import type {
  Catalyst,
  Change,
  Event,
  Mark,
  Market,
  MarkFacts,
  MarkFigures,
  NewChange,
  NewMark,
  NewResolutionLogEntry,
  ResolutionLogEntry,
  SignalBulletin,
  SpotRow,
  Venue,
} from '../domain/index.ts';
import { byMarkDateThenMarket } from '../domain/index.ts';
import { unpackText } from './content-codec.ts';
import { CONTENT_COLLECTION_EVERY, ContentReader, collectContent, readConsistently } from './content-store.ts';
import { addHours, HOURLY_COLUMN_NAMES, type HourKey, type HourlyMark, hourlyMarkOf } from './hourly-codec.ts';
import { lazyRecord } from './lazy-market.ts';
import { joinMarkFigures, joinMarkValues, MARK_COLUMN_NAMES, MARK_FIGURE_COLUMN_NAMES } from './mark-codec.ts';
import { MIGRATIONS } from './migrations.ts';
import {
  EVENT_LAYOUT,
  joinRecord,
  MARKET_LAYOUT,
  parseMarketEntry,
  partColumn,
  type RecordLayout,
} from './record-codec.ts';
import { chunksFor } from './sql-chunks.ts';
import { type SqlContext, SqlTx } from './sql-tx.ts';
import type { StoreDatabase } from './tables.ts';
import type {
  ApiKeyRecord,
  IdKind,
  KeptRawPayloads,
  MarkQuery,
  PipelineRun,
  RunFinish,
  RunHandle,
  RunHour,
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

/** The typed mark columns of the `m` alias, for selects over marks or staged marks joined with content. */
const MARK_SELECT = MARK_COLUMN_NAMES.map((c) => `m.${c}` as const);
/** A mark's figures read as an array: [mark_id, ...FIGURE_SELECT] (MarkQuery.figuresOnly; joinMarkFigures). */
const FIGURE_SELECT = MARK_FIGURE_COLUMN_NAMES.map((c) => `m.${c}` as const);
/** A mark read as an array: [mark_id, ...MARK_SELECT, raw_body], or without mark_id when staged. */
type MarkValues = readonly unknown[];
const MARKET_PART_COLUMNS = MARKET_LAYOUT.parts.map(partColumn);
type MarketPart = (typeof MARKET_LAYOUT.parts)[number];
type MarketPartColumn = (typeof MARKET_PART_COLUMNS)[number];
const EVENT_PART_COLUMNS = EVENT_LAYOUT.parts.map(partColumn);

function logFrom(row: { log_id: number | string; record: string }): ResolutionLogEntry {
  return { log_id: Number(row.log_id), ...parse<NewResolutionLogEntry>(row.record) };
}

/**
 * The `raw_body` column of a mark read as `m`: its raw payload's content body, or (`withRaw` false) null without
 * reading any content row. A scalar subquery rather than a join, so leaving it out leaves no join behind (a join on
 * a false condition makes SQLite scan the content table once per mark).
 */
function rawBodyOf(withRaw: boolean) {
  return withRaw
    ? sql<Uint8Array | null>`(SELECT r.body FROM content r WHERE r.content_id = m.raw_payload_id)`.as('raw_body')
    : sql<Uint8Array | null>`NULL`.as('raw_body');
}

export interface SqlStoreOptions {
  engine: StoreEngine;
  now?: () => Date;
  /** Runs after the kysely handle is destroyed (e.g. removing a temp file). */
  onClose?: () => Promise<void> | void;
  /**
   * SQLite: the connection kysely runs on. Wide reads (a mark is 30 columns) fetch rows as arrays through it,
   * which better-sqlite3 builds about 3× faster than objects; they still take kysely's connection lock.
   */
  sqlite?: BetterSqlite3.Database;
}

export class SqlStore implements Store {
  readonly engine: StoreEngine;
  private readonly ctx: SqlContext;
  /** Set while a transaction callback runs, so a stray call on the store (not `tx`) fails loudly. */
  private readonly inTransaction = new AsyncLocalStorage<true>();
  private readonly onClose: (() => Promise<void> | void) | undefined;
  private readonly sqlite: BetterSqlite3.Database | undefined;
  /** Texts of content rows read so far (shared parts and provenance are read for thousands of rows). */
  private readonly content = new ContentReader();

  /** The kysely handle, for tests and tools that need raw SQL. Application code uses the Store methods. */
  constructor(
    readonly db: Kysely<StoreDatabase>,
    options: SqlStoreOptions,
  ) {
    this.engine = options.engine;
    this.ctx = { engine: options.engine, now: options.now ?? (() => new Date()) };
    this.onClose = options.onClose;
    this.sqlite = options.sqlite;
  }

  /**
   * Runs a select and returns its rows as arrays, columns in select order. SQLite: through better-sqlite3's raw
   * mode, holding kysely's connection (so never inside another caller's open transaction).
   */
  private async rowArrays(query: Compilable): Promise<unknown[][]> {
    const compiled = query.compile();
    const sqlite = this.sqlite;
    if (sqlite !== undefined) {
      return this.root.connection().execute(
        async () =>
          sqlite
            .prepare(compiled.sql)
            .raw(true)
            .all(...compiled.parameters) as unknown[][],
      );
    }
    const { rows } = await this.root.executeQuery(compiled);
    return rows.map((row) => Object.values(row as Record<string, unknown>));
  }

  /** The root handle, refused inside this store's own transaction callback. */
  private get root(): Kysely<StoreDatabase> {
    if (this.inTransaction.getStore()) {
      throw new Error('store method called inside store.transaction(); use the tx argument instead');
    }
    return this.db;
  }

  async migrate(): Promise<string[]> {
    const applied = await this.applyMigrations();
    if (applied.length > 0) await this.compactAfterMigration();
    return applied;
  }

  /**
   * SQLite: a migration that rewrote a large table (0006 converts every mark) leaves its old pages free in the
   * file, which keeps its size (1.57 GB on the full simulated universe, for 0.2 GB of data). When more than half
   * the file is free, it is rebuilt (VACUUM: about 5 s there) and the WAL truncated. PostgreSQL gives a dropped
   * table's space back at once.
   */
  private async compactAfterMigration(): Promise<void> {
    if (this.engine !== 'sqlite') return;
    const [free, pages] = await Promise.all(
      ['freelist_count', 'page_count'].map(async (pragma) => {
        const { rows } = await sql<Record<string, number>>`PRAGMA ${sql.raw(`main.${pragma}`)}`.execute(this.root);
        return Number(rows[0]?.[pragma] ?? 0);
      }),
    );
    if (free === undefined || pages === undefined || free < 4096 || free * 2 < pages) return;
    await sql`VACUUM main`.execute(this.root);
    await sql`PRAGMA main.wal_checkpoint(TRUNCATE)`.execute(this.root);
  }

  private async applyMigrations(): Promise<string[]> {
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
      // Migrations only go forward: a store a newer pmref has migrated is not this version's to read or write.
      const known = new Set(MIGRATIONS.map((m) => m.version));
      const newer = [...done].filter((v) => !known.has(v)).sort();
      if (newer.length > 0) {
        throw new Error(
          `the store was migrated by a newer pmref (migrations ${newer.join(', ')} are unknown to this version); run that version or a later one (docs/deploy.md, Rolling a new version)`,
        );
      }
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
  retimeMarks(marks: readonly NewMark[]): Promise<NewMark[]> {
    return this.transaction((tx) => tx.retimeMarks(marks));
  }
  upsertMarks(marks: readonly NewMark[], keep?: KeptRawPayloads): Promise<void> {
    return this.transaction((tx) => tx.upsertMarks(marks, keep));
  }
  replaceCatalysts(catalysts: readonly Catalyst[]): Promise<void> {
    return this.transaction((tx) => tx.replaceCatalysts(catalysts));
  }
  insertSignals(signals: readonly SignalBulletin[]): Promise<number> {
    return this.transaction((tx) => tx.insertSignals(signals));
  }
  insertNewSignals(signals: readonly SignalBulletin[]): Promise<SignalBulletin[]> {
    return this.transaction((tx) => tx.insertNewSignals(signals));
  }
  appendLogEntries(entries: readonly NewResolutionLogEntry[]): Promise<ResolutionLogEntry[]> {
    return this.transaction((tx) => tx.appendLogEntries(entries));
  }
  appendChanges(changes: readonly NewChange[]): Promise<number> {
    return this.transaction((tx) => tx.appendChanges(changes));
  }
  insertSpot(rows: readonly SpotRow[]): Promise<void> {
    return this.transaction((tx) => tx.insertSpot(rows));
  }
  upsertHourlyMarks(marks: readonly HourlyMark[]): Promise<number> {
    return this.transaction((tx) => tx.upsertHourlyMarks(marks));
  }
  pruneHourlyMarks(beforeHour: HourKey): Promise<number> {
    return this.transaction((tx) => tx.pruneHourlyMarks(beforeHour));
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
    return readConsistently(async () => {
      const rows = await this.root
        .selectFrom('events')
        .select(['body', ...EVENT_PART_COLUMNS])
        .orderBy('event_id')
        .execute();
      return this.joinRecords<Event, (typeof EVENT_LAYOUT.parts)[number]>(rows, EVENT_LAYOUT);
    });
  }

  async listMarkets(filter: { venue?: Venue; after?: string; limit?: number; lazy?: boolean } = {}): Promise<Market[]> {
    return readConsistently(async () => {
      let query = this.root
        .selectFrom('markets')
        .select(['body', ...MARKET_PART_COLUMNS])
        .$if(filter.lazy === true, (q) => q.select('entry'))
        .orderBy('market_id');
      if (filter.venue !== undefined) query = query.where('platform', '=', filter.venue);
      if (filter.after !== undefined) query = query.where('market_id', '>', filter.after);
      if (filter.limit !== undefined) query = query.limit(filter.limit);
      const rows = await query.execute();
      return filter.lazy === true
        ? this.joinLazyMarkets(rows)
        : this.joinRecords<Market, MarketPart>(rows, MARKET_LAYOUT);
    });
  }

  /**
   * Markets read by their catalog entries (lazy-market.ts): each holds its entry's fields and its shared parts, and
   * reads its body when anything else of it is used. A row whose entry is missing or of another version is read
   * whole at once.
   */
  private async joinLazyMarkets(
    rows: readonly ({ body: Uint8Array; entry?: string | null } & Record<MarketPartColumn, number | string | null>)[],
  ): Promise<Market[]> {
    const parts = await this.partsOf(rows, MARKET_LAYOUT);
    return rows.map((row, i) => {
      const own = parts[i] as Record<MarketPart, unknown>;
      // The read keeps the body only: the row and its entry text are garbage once the entry is parsed.
      const body = row.body;
      const read = () => joinRecord<Market, MarketPart>(body, own, MARKET_LAYOUT);
      const entry = parseMarketEntry(row.entry ?? null);
      if (entry === null) return read();
      for (const part of MARKET_LAYOUT.parts) if (own[part] !== undefined) entry[part] = own[part];
      return lazyRecord<Market>(entry, read);
    });
  }

  /** Records from their stored rows: each body unpacked, each shared part read from content (cached). */
  private async joinRecords<T, P extends string>(
    rows: readonly ({ body: Uint8Array } & Record<`${P}_id`, number | string | null>)[],
    layout: RecordLayout<P>,
  ): Promise<T[]> {
    const parts = await this.partsOf(rows, layout);
    return rows.map((row, i) => joinRecord<T, P>(row.body, parts[i] as Record<P, unknown>, layout));
  }

  /** Each row's shared parts, read from content (cached): a part's value, or undefined where the row has none. */
  private async partsOf<P extends string>(
    rows: readonly Record<`${P}_id`, number | string | null>[],
    layout: RecordLayout<P>,
  ): Promise<Record<P, unknown>[]> {
    const columns = layout.parts.map(partColumn);
    const ids: number[] = [];
    for (const row of rows) {
      for (const column of columns) {
        const id = row[column];
        if (id !== null) ids.push(Number(id));
      }
    }
    const values = await this.content.values(this.root, this.engine, ids);
    return rows.map((row) => {
      const parts = {} as Record<P, unknown>;
      for (const part of layout.parts) {
        const id = row[partColumn(part)];
        parts[part] = id === null ? undefined : values.get(Number(id));
      }
      return parts;
    });
  }

  /**
   * Marks from rows read as arrays (`withId`: [mark_id, ...typed columns, raw_body], else without mark_id): the
   * raw payload came with the row (unless `withoutRaw`: its column was read as null and the key is left out), the
   * provenance is read from content (cached, shared and frozen).
   */
  private async joinMarks(
    rows: readonly MarkValues[],
    withId: boolean,
    withoutRaw: boolean | 'figures' = false,
  ): Promise<Mark[]> {
    const offset = withId ? 1 : 0;
    if (withoutRaw === 'figures') return rows.map((row) => joinMarkFigures(row, offset)) as unknown as Mark[];
    const provenanceAt = offset + MARK_COLUMN_NAMES.indexOf('field_provenance_id');
    const rawAt = offset + MARK_COLUMN_NAMES.length;
    const ids: number[] = [];
    for (const row of rows) {
      const id = row[provenanceAt];
      if (id !== null && id !== undefined) ids.push(Number(id));
    }
    const values = await this.content.values(this.root, this.engine, ids);
    const rawIdAt = offset + MARK_COLUMN_NAMES.indexOf('raw_payload_id');
    return rows.map((row) => {
      const body = row[rawAt] as Uint8Array | null;
      if (!withoutRaw && row[rawIdAt] !== null && body === null) {
        throw new Error(`mark ${String(row[0])}: its raw payload content ${String(row[rawIdAt])} is missing`);
      }
      const raw = body === null ? null : unpackText(body);
      const provenanceId = row[provenanceAt];
      const provenance = provenanceId === null ? undefined : values.get(Number(provenanceId));
      return joinMarkValues(row, offset, raw, provenance, withId ? Number(row[0]) : undefined, withoutRaw) as Mark;
    });
  }

  async listMarketIds(): Promise<string[]> {
    const rows = await this.root.selectFrom('markets').select('market_id').orderBy('market_id').execute();
    return rows.map((r) => r.market_id);
  }

  async getMarket(marketId: string): Promise<Market | null> {
    return readConsistently(async () => {
      const rows = await this.root
        .selectFrom('markets')
        .select(['body', ...MARKET_PART_COLUMNS])
        .where('market_id', '=', marketId)
        .execute();
      const [market] = await this.joinRecords<Market, (typeof MARKET_LAYOUT.parts)[number]>(rows, MARKET_LAYOUT);
      return market ?? null;
    });
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

  listMarks(query: MarkQuery & { figuresOnly: true }): Promise<MarkFigures[]>;
  listMarks(query: MarkQuery & { withoutRaw: true }): Promise<MarkFacts[]>;
  listMarks(query?: MarkQuery): Promise<Mark[]>;
  async listMarks(query: MarkQuery = {}): Promise<Mark[] | MarkFacts[] | MarkFigures[]> {
    return readConsistently(() => this.readMarks(query));
  }

  private async readMarks(query: MarkQuery): Promise<Mark[] | MarkFacts[]> {
    const withRaw = query.withoutRaw !== true && query.figuresOnly !== true;
    let base = this.root
      .selectFrom('marks as m')
      .select(
        query.figuresOnly === true
          ? ['m.mark_id', ...FIGURE_SELECT]
          : ['m.mark_id', ...MARK_SELECT, rawBodyOf(withRaw)],
      )
      .orderBy('m.snapshot_date')
      .orderBy('m.market_id');
    // With market ids given, the (market_id, snapshot_date) index is the selective one. SQLite without
    // statistics prefers the date index and then reads every mark of those dates once per id chunk (17 s
    // of a read-model build on the full universe); a unary plus keeps the date out of its index choice.
    const date =
      query.marketIds !== undefined && this.engine === 'sqlite' ? sql<string>`+m.snapshot_date` : 'm.snapshot_date';
    if (query.since !== undefined) base = base.where(date, '>=', query.since);
    if (query.until !== undefined) base = base.where(date, '<=', query.until);
    if (query.snapshotDates !== undefined) {
      if (query.snapshotDates.length === 0) return [];
      base = base.where(date, 'in', [...query.snapshotDates]);
    }
    if (query.after !== undefined) {
      const { snapshot_date: d, market_id: m } = query.after;
      base = base.where((eb) =>
        eb.or([eb('m.snapshot_date', '>', d), eb.and([eb('m.snapshot_date', '=', d), eb('m.market_id', '>', m)])]),
      );
    }
    const join = async (rows: unknown[][]) =>
      this.joinMarks(rows, true, query.figuresOnly === true ? 'figures' : !withRaw);
    if (query.marketIds === undefined) {
      if (query.limit !== undefined) base = base.limit(query.limit);
      return join(await this.rowArrays(base));
    }
    if (query.limit !== undefined)
      throw new Error('listMarks: limit pages the whole table; it does not combine with marketIds');
    const out: MarkFacts[] = [];
    const idChunks = chunksFor(this.engine, [...new Set(query.marketIds)], 1);
    for (const chunk of idChunks) {
      out.push(...(await join(await this.rowArrays(base.where('m.market_id', 'in', chunk)))));
    }
    return idChunks.length > 1 ? out.sort(byMarkDateThenMarket) : out;
  }

  async latestMarks(): Promise<Mark[]> {
    return readConsistently(async () => {
      const query = this.latestMarksQuery()
        .leftJoin('content as r', 'r.content_id', 'm.raw_payload_id')
        .select(['m.mark_id', ...MARK_SELECT, 'r.body as raw_body']);
      return this.joinMarks(await this.rowArrays(query), true);
    });
  }

  async latestMarkFacts(): Promise<{ mark: MarkFacts; rawPayloadId: number | null }[]> {
    return readConsistently(async () => {
      const rows = await this.rowArrays(
        this.latestMarksQuery().select(['m.mark_id', ...MARK_SELECT, rawBodyOf(false)]),
      );
      const marks = (await this.joinMarks(rows, true, true)) as MarkFacts[];
      const rawIdAt = 1 + MARK_COLUMN_NAMES.indexOf('raw_payload_id');
      return marks.map((mark, i) => {
        const id = rows[i]?.[rawIdAt];
        return { mark, rawPayloadId: id === null || id === undefined ? null : Number(id) };
      });
    });
  }

  /** The newest mark of every stored market (its row as `m`), ordered by market_id; the caller selects. */
  private latestMarksQuery() {
    // One index seek per stored market for its newest date (both engines answer max() over an index prefix
    // directly), not a GROUP BY over every mark: with a year of history that scan grew to seconds per run.
    return (
      this.root
        .selectFrom('markets as k')
        // CROSS JOIN: SQLite keeps the written order, so the markets drive (its planner would scan every mark).
        .crossJoin('marks as m')
        .whereRef('m.market_id', '=', 'k.market_id')
        .where((eb) =>
          eb(
            'm.snapshot_date',
            '=',
            eb
              .selectFrom('marks as x')
              .select((e) => e.fn.max('x.snapshot_date').as('latest'))
              .whereRef('x.market_id', '=', 'k.market_id'),
          ),
        )
        .orderBy('k.market_id')
    );
  }

  async markDates(limit?: number): Promise<string[]> {
    // A loose index scan: one seek on the (snapshot_date, market_id) index per distinct date, newest first, instead
    // of a DISTINCT over every mark (2.4 s on a year of the full universe; neither engine skips on its own).
    const bound = limit === undefined ? sql`` : sql`LIMIT ${limit}`;
    const { rows } = await sql<{ d: string }>`
      WITH RECURSIVE dates(d) AS (
        SELECT max(snapshot_date) FROM marks
        UNION ALL
        SELECT (SELECT max(m.snapshot_date) FROM marks m WHERE m.snapshot_date < dates.d) FROM dates
        WHERE dates.d IS NOT NULL
      )
      SELECT d FROM dates WHERE d IS NOT NULL ${bound}`.execute(this.root);
    return rows.map((r) => r.d);
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

  async listChanges(query: { after?: number; limit?: number } = {}): Promise<Change[]> {
    let base = this.root
      .selectFrom('changes')
      .select(['seq', 'record'])
      .where('seq', '>', query.after ?? 0)
      .orderBy('seq');
    if (query.limit !== undefined) base = base.limit(query.limit);
    const rows = await base.execute();
    return rows.map((r) => ({ seq: Number(r.seq), ...parse<NewChange>(r.record) }));
  }

  async lastChangeSeq(): Promise<number> {
    const row = await this.root
      .selectFrom('changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
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

  async listHourlyMarks(marketId: string, fromHour: HourKey, toHour: HourKey): Promise<HourlyMark[]> {
    const base = this.root
      .selectFrom('hourly_marks')
      .select([...HOURLY_COLUMN_NAMES])
      .where('market_id', '=', marketId);
    const [before, within] = await Promise.all([
      base.where('snapshot_hour', '<', fromHour).orderBy('snapshot_hour', 'desc').limit(1).execute(),
      base
        .where('snapshot_hour', '>=', fromHour)
        .where('snapshot_hour', '<=', toHour)
        .orderBy('snapshot_hour')
        .execute(),
    ]);
    return [...before, ...within].map(hourlyMarkOf);
  }

  async runHours(fromHour: HourKey, toHour: HourKey): Promise<RunHour[]> {
    // started_at is the run clock (`as_of`), ISO text: the hour's runs sort between 'YYYY-MM-DDTHH' and the next hour.
    const rows = await this.root
      .selectFrom('pipeline_runs')
      .select(['run_id', 'started_at', 'summary'])
      .where('generation', '>', 0)
      .where('started_at', '>=', fromHour)
      .where('started_at', '<', addHours(toHour, 1))
      .orderBy('started_at')
      .orderBy('run_id')
      .execute();
    const byHour = new Map<HourKey, RunHour>();
    for (const row of rows) {
      const summary = parse<PipelineRun['summary'] & { hourly?: { retention_days?: unknown } }>(row.summary);
      const venues: RunHour['venues'] = {};
      for (const [venue, v] of Object.entries(summary.venues ?? {})) {
        venues[venue as Venue] = v && v.error === null ? 'ok' : 'failed';
      }
      const retention = summary.hourly?.retention_days;
      const hour = row.started_at.slice(0, 13);
      byHour.set(hour, {
        hour,
        run_id: Number(row.run_id),
        as_of: row.started_at,
        venues,
        hourly_retention_days: typeof retention === 'number' ? retention : null,
      });
    }
    return [...byHour.values()];
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

  listStagedMarks(runId: number, query: { since?: string; figuresOnly: true }): Promise<MarkFigures[]>;
  listStagedMarks(runId: number, query: { since?: string; withoutRaw: true }): Promise<Omit<NewMark, 'raw_payload'>[]>;
  listStagedMarks(runId: number, query?: { since?: string; withoutRaw?: boolean }): Promise<NewMark[]>;
  async listStagedMarks(
    runId: number,
    query: { since?: string; withoutRaw?: boolean; figuresOnly?: boolean } = {},
  ): Promise<NewMark[] | Omit<NewMark, 'raw_payload'>[] | MarkFigures[]> {
    const withRaw = query.withoutRaw !== true && query.figuresOnly !== true;
    return readConsistently(async () => {
      let base = this.root
        .selectFrom('staged_marks as m')
        .select(query.figuresOnly === true ? FIGURE_SELECT : [...MARK_SELECT, rawBodyOf(withRaw)])
        .where('m.run_id', '=', runId)
        .orderBy('m.snapshot_date')
        .orderBy('m.market_id');
      if (query.since !== undefined) base = base.where('m.snapshot_date', '>=', query.since);
      return this.joinMarks(await this.rowArrays(base), false, query.figuresOnly === true ? 'figures' : !withRaw);
    });
  }

  async publishRun<T>(
    runId: number,
    write: (tx: StoreTx, generation: number) => Promise<T>,
    finish: (written: T) => RunFinish,
    beforeCommit?: () => Promise<void> | void,
  ): Promise<{ generation: number; written: T }> {
    const published = await this.root.transaction().execute((trx) =>
      this.inTransaction.run(true, async () => {
        // Taken first: publishes never interleave their writes (and so never deadlock on each other's rows).
        if (this.engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${LOCK_GENERATION})`.execute(trx);
        // Read before the write (the change feed stamps it on its rows); nothing else can publish until commit (the
        // lock above; SQLite: one writer, and a transaction that read a stale snapshot fails on its first write).
        const generation = (await this.publishedGeneration(trx)) + 1;
        const written = await write(new SqlTx(trx, this.ctx), generation);
        const { status, summary, finishedAt } = finish(written);
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
        // Content the run's upserts replaced (and any an aborted run staged) goes with a publish: the first, then
        // every CONTENT_COLLECTION_EVERY-th (content-store.ts).
        if (generation % CONTENT_COLLECTION_EVERY === 1 % CONTENT_COLLECTION_EVERY)
          await collectContent(trx, this.engine);
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

  /**
   * Deletes content rows nothing references (content-store.ts); a publish does this as its last write, the first and
   * then every CONTENT_COLLECTION_EVERY-th.
   * Returns the rows deleted, or null when PostgreSQL content writers were active (the next publish collects).
   */
  collectContent(): Promise<number | null> {
    return this.root.transaction().execute((trx) => collectContent(trx, this.engine));
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
