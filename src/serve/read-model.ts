/**
 * The read model (DESIGN.md §5): everything the faces serve, built from the store once per generation. Every
 * event detail (full and concise), market detail and list item is serialized here, once; requests pick and
 * join bytes. It is immutable after build: a new generation builds a new model and the holder swaps it.
 */
import {
  CATEGORIES,
  type Catalyst,
  DATA_SOURCES,
  type DataSource,
  type Event,
  type Market,
  type MarketVenueRefs,
  type MarkFacts,
  type Notice,
  type ResolutionLogEntry,
  type SignalBulletin,
} from '../domain/index.ts';
import type { AskDepth } from '../signals/net-spread.ts';
import type { Store } from '../store/index.ts';
import { BodyCompressor, PENDING_BODY } from './body-compressor.ts';
import {
  type Body,
  BodyCache,
  ByteArena,
  DEFAULT_BODY_CACHE_BYTES,
  etagFor,
  heldBody,
  objectWithArrayBytes,
  prettyAt,
  ReusedBytes,
} from './json-bytes.ts';
import { CatalogCollector, type MarketCatalog } from './market-list.ts';
import { type DayMark, type MoverCandidates, type MoverMarket, moverCandidates } from './movers.ts';
import { noticeFor } from './notice.ts';
import { buildQuestionIndex, type QuestionIndex, QuestionLegs, questionIndexFrom } from './questions.ts';
import { RefIndex, venueRefsOf } from './ref-index.ts';
import type { DocsNormalization } from './search/engine.ts';
import {
  conciseMarket,
  eventCatalystDates,
  eventListItem,
  logSummaries,
  type MarketServeContext,
  marketDetail,
  type PriceFacts,
  priceFacts,
  provenanceOf,
  type ServedSummary,
  servedLogEntry,
  servedMarket,
  venuesCovered,
} from './serialize.ts';
import { type StatsEntry, StatsTally, statsEntry } from './stats.ts';

export interface EventEntry {
  event: Event;
  live: boolean;
  /** Primary market's grade (`A`/`B`/`C`/`pending`), null without a primary market. */
  grade: string | null;
  /** Lowercased question + tags JSON text: what `q` searches (served-shapes §3). */
  searchText: string;
  /** The list item, pretty-printed for depth 2 (inside the `events` array). */
  item: string;
  full: Body;
  concise: Body;
}

export interface MarketEntry {
  marketId: string;
  detail: Body;
}

export interface ReadModel {
  generation: number;
  builtAt: string;
  today: string;
  origin: string;
  dataSource: DataSource | null;
  notice: Notice;
  moversNotice: Notice;
  /** Published events, live first, then updated_at descending. */
  events: EventEntry[];
  eventByKey: Map<string, EventEntry>;
  byCategory: Map<string, EventEntry[]>;
  byVenue: Map<string, EventEntry[]>;
  byGrade: Map<string, EventEntry[]>;
  marketById: Map<string, MarketEntry>;
  marketByNative: Map<string, MarketEntry>;
  movers: MoverCandidates;
  catalysts: Catalyst[];
  signals: SignalBulletin[];
  signalBySlug: Map<string, Body>;
  spot: Body;
  info: Body;
  counts: { events: number; markets: number; published_events: number; live_events: number };
  /** Per-generation cache of assembled responses (list pages, filtered views), bounded. */
  cache: Map<string, Body>;
  /** Cross-venue pairs (`/v1/questions`, issue 17), persisted in the pack. */
  questions: QuestionIndex;
  /** Catalog statistics (`/v1/stats`, issue 17), persisted in the pack. */
  stats: StatsEntry;
  /** Market rows, per-event facts and the search index (`q`, `/v1/markets`, issue 17), built on first use. */
  catalog: MarketCatalog;
  /** The identity (and brotli) forms of this model's gzip-held bodies made on demand, bounded (json-bytes.ts). */
  bodyCache: BodyCache;
  /**
   * Every identifier of every served market and event, for `GET /v1/resolve` (issue 20, item 4): a getter that
   * builds the index on first use (`withLazyRefs`).
   */
  readonly refs: RefIndex;
}

export interface BuildOptions {
  origin: string;
  now: Date;
  serviceName?: string;
  /** The bound of the model's `BodyCache` in bytes (default `DEFAULT_BODY_CACHE_BYTES`). */
  bodyCacheBytes?: number;
  /**
   * The served model's normalization of its search documents (`MarketCatalog.normalization`): the new catalog takes
   * the normalized text of every document whose source text it shares (issue 18: a rebuild redoes only what
   * changed). Null or absent: every document is normalized.
   */
  previousDocs?: DocsNormalization | null;
}

function asDataSource(source: string | undefined): DataSource | null {
  return (DATA_SOURCES as readonly string[]).includes(source ?? '') ? (source as DataSource) : null;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The event indexes of a read model (id and slug lookup, and the list filters), from its ordered entries. */
export function indexEvents(entries: readonly EventEntry[]) {
  const eventByKey = new Map<string, EventEntry>();
  const byCategory = new Map<string, EventEntry[]>();
  const byVenue = new Map<string, EventEntry[]>();
  const byGrade = new Map<string, EventEntry[]>();
  for (const e of entries) {
    eventByKey.set(e.event.event_id, e);
    if (!eventByKey.has(e.event.slug)) eventByKey.set(e.event.slug, e);
    pushTo(byCategory, e.event.category, e);
    if (e.event.venue) pushTo(byVenue, e.event.venue, e);
    if (e.grade) pushTo(byGrade, e.grade, e);
  }
  return { eventByKey, byCategory, byVenue, byGrade };
}

/** What an event needs of each of its markets once the market record itself is gone. */
interface MarketPiece extends ServedSummary, MoverMarket {
  market_id: string;
  threshold: number | null;
  close_at: string | null;
  live: boolean;
  /** Served market JSON at depth 2, full and concise (UTF-8, off the JS heap until the event is built). */
  fullText: Buffer;
  conciseText: Buffer;
}

function marketOrder(a: MarketPiece, b: MarketPiece): number {
  const ta = a.threshold ?? Number.POSITIVE_INFINITY;
  const tb = b.threshold ?? Number.POSITIVE_INFINITY;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0;
}

/**
 * Builds a read model from the store's current contents. Loads one kind of record at a time and reduces it to
 * what is served before loading the next, so the build's peak memory stays near the size of the result
 * (marks carry raw venue payloads; market records carry grade evidence).
 */
export async function buildReadModel(store: Store, opts: BuildOptions): Promise<ReadModel> {
  const { origin, now } = opts;
  const generation = await store.generation();
  const today = now.toISOString().slice(0, 10);
  // The published run's source: a run still going (or aborted) must not change what the served data says it is.
  const dataSource = asDataSource((await store.lastRun({ published: true }))?.source);
  const counts = await store.counts();
  const notice = noticeFor(origin, dataSource);
  const moversNotice = noticeFor(origin, dataSource, 'movers');

  // Marks → price facts and the volumes movers compare, read in chunks of markets: marks carry raw venue
  // payloads, so reading them all at once would make the build's peak memory several times the result's.
  const dates = await store.markDates(2);
  const { prices, dayMarks, priorVolumes, askDepth } = await readMarks(store, dates);
  const priceOf = (id: string) => prices.get(id)?.last_price ?? null;

  const allEvents = await store.listEvents();
  const published = new Map(allEvents.filter((e) => e.published).map((e) => [e.event_id, e]));
  // The log is read before the markets: a served market says how often its outcome was disputed (issue 15).
  const logEntries = await store.listLog();
  const logByMarket = logSummaries(logEntries);
  const nowIso = now.toISOString();

  // Every body of this model goes into one arena, gzip-held when large enough (issue 18: see heldBody),
  // compressed on a second thread while this one goes on (see BodyCompressor); the pieces events are assembled
  // from go into a scratch arena dropped with the build (see ByteArena), and each event body into one reused
  // buffer, copied out by the compressor before the next is assembled.
  const arena = new ByteArena();
  const scratch = new ByteArena();
  const bodyCache = new BodyCache(opts.bodyCacheBytes ?? DEFAULT_BODY_CACHE_BYTES);
  const held = (text: string | Buffer, etag: string) => heldBody(text, etag, arena, bodyCache);
  // A build that fails midway leaves the compressor's thread to end itself once idle (see BodyCompressor).
  const compressor = new BodyCompressor({ arena, cache: bodyCache });
  // Markets, a page at a time → detail bodies and the pieces events are assembled from.
  const marketById = new Map<string, MarketEntry>();
  const marketByNative = new Map<string, MarketEntry>();
  const pieces = new Map<string, MarketPiece>();
  const piecesByEvent = new Map<string, MarketPiece[]>();
  const questionLegs = new QuestionLegs();
  const statsTally = new StatsTally();
  const catalogRows = new CatalogCollector();
  const venueRefs = new Map<string, MarketVenueRefs>();
  for (let after: string | undefined, page: Market[] = []; ; after = page.at(-1)?.market_id) {
    page = await store.listMarkets({ limit: MARKET_PAGE, ...(after === undefined ? {} : { after }) });
    if (page.length === 0) break;
    await compressor.settle();
    await yieldToRequests();
    for (const market of page) {
      // Spec §2.1: unpublished events are internal; their markets are not served either.
      if (market.event_id !== null && !published.has(market.event_id)) continue;
      const piece = marketPiece(market, prices.get(market.market_id) ?? priceFacts(undefined), priceOf, scratch, {
        now: nowIso,
        log: logByMarket.get(market.market_id),
      });
      const detail = marketDetail(piece.served, market, origin, notice);
      const marketEvent = market.event_id === null ? undefined : published.get(market.event_id);
      questionLegs.add(market, piece.served, marketEvent, askDepth.get(market.market_id) ?? null);
      statsTally.add(market, piece.served, marketEvent);
      catalogRows.add(market, piece.served, marketEvent);
      const entry: MarketEntry = { marketId: market.market_id, detail: PENDING_BODY };
      compressor.hold(JSON.stringify(detail, null, 2), etagFor(generation, `m:${market.market_id}`), (body) => {
        entry.detail = body;
      });
      marketById.set(market.market_id, entry);
      if (!marketByNative.has(market.platform_market_id)) marketByNative.set(market.platform_market_id, entry);
      const refs = venueRefsOf(market);
      if (refs) venueRefs.set(market.market_id, refs);
      pieces.set(market.market_id, piece.piece);
      if (market.event_id) pushTo(piecesByEvent, market.event_id, piece.piece);
    }
  }

  const logByEvent = new Map<string, ResolutionLogEntry[]>();
  for (const entry of logEntries) {
    const eventId = pieces.get(entry.market_id)?.event_id;
    if (eventId) pushTo(logByEvent, eventId, entry);
  }
  const catalysts = await store.listCatalysts();
  const catalystsByEvent = new Map<string, Catalyst[]>();
  for (const c of catalysts) for (const id of c.event_ids) pushTo(catalystsByEvent, id, c);

  const entries: EventEntry[] = [];
  const eventBytes = new ReusedBytes();
  for (const event of published.values()) {
    if (entries.length % EVENT_SLICE === 0) {
      await compressor.settle();
      await yieldToRequests();
    }
    const markets = (piecesByEvent.get(event.event_id) ?? []).sort(marketOrder);
    entries.push(
      eventEntry(event, markets, pieces, logByEvent.get(event.event_id) ?? [], catalystsByEvent, {
        origin,
        notice,
        generation,
        compressor,
        scratch: eventBytes,
      }),
    );
  }
  entries.sort(
    (a, b) =>
      Number(b.live) - Number(a.live) ||
      (a.event.updated_at < b.event.updated_at ? 1 : a.event.updated_at > b.event.updated_at ? -1 : 0) ||
      (a.event.event_id < b.event.event_id ? -1 : 1),
  );
  const { eventByKey, byCategory, byVenue, byGrade } = indexEvents(entries);
  await yieldToRequests();
  const catalog = catalogRows.finish(
    entries.map((e) => e.event),
    opts.previousDocs ?? null,
  );

  const signals = await store.listSignals();
  const signalBySlug = new Map(
    signals.map((s) => [s.record_slug, held(JSON.stringify(s, null, 2), etagFor(generation, `s:${s.record_slug}`))]),
  );
  const spotRows = await store.latestSpot();
  const spotBody = {
    source: 'coingecko',
    vs_currency: 'usd' as const,
    spot: [...spotRows].sort((a, b) => (a.coin < b.coin ? -1 : 1)),
  };
  const servedCounts = {
    events: counts.events,
    markets: counts.markets,
    published_events: entries.length,
    live_events: entries.filter((e) => e.live).length,
  };
  const builtAt = now.toISOString();
  // The pairs' bodies are written to the scratch arena and held (gzip) in the model's arena from there.
  const questionRows = buildQuestionIndex(questionLegs, { generation, notice, arena: scratch }).list.map((q) => {
    const row = { summary: q.summary, detail: PENDING_BODY };
    compressor.hold(q.detail.bytes, q.detail.etag, (body) => {
      row.detail = body;
    });
    return row;
  });
  // Every body is held from here on.
  await compressor.finish();
  const questions = questionIndexFrom(questionRows);
  const stats = statsEntry(statsTally.result(generation, questions), { generation, notice });
  const info = {
    service: opts.serviceName ?? 'pmref',
    status: 'ok' as const,
    schema: 'v0.2.0',
    data_source: dataSource,
    generation,
    built_at: builtAt,
    ...servedCounts,
    docs: `Reference data for prediction markets: graded events and markets across two venues. Docs: ${origin}/docs`,
    status_url: '/v1/status',
    marks_url: '/v1/marks?since=<ISO>',
    openapi: `${origin}/openapi.json`,
    llms: `${origin}/llms.txt`,
    filters: {
      category: [...CATEGORIES],
      platform: ['venue_a', 'venue_b'],
      grade: ['A', 'B', 'C'],
      status: ['all', 'active', 'resolved'],
      max_limit: 100,
      signals_detection_path: ['news_cycle', 'cross_venue_divergence', 'benchmark_drift', 'volume_spike'],
    },
  };
  return withLazyRefs(
    {
      generation,
      builtAt,
      today,
      origin,
      dataSource,
      notice,
      moversNotice,
      events: entries,
      eventByKey,
      byCategory,
      byVenue,
      byGrade,
      marketById,
      marketByNative,
      movers: moverCandidates(dates, dayMarks, priorVolumes, pieces, published),
      catalysts,
      signals,
      signalBySlug,
      spot: held(JSON.stringify(spotBody, null, 2), etagFor(generation, 'spot')),
      info: held(JSON.stringify(info, null, 2), etagFor(generation, 'info')),
      counts: servedCounts,
      cache: new Map(),
      questions,
      stats,
      catalog,
      bodyCache,
    },
    () => catalog,
    entries,
    () => venueRefs,
  );
}

/**
 * `model` with its `refs`: the identifier index, built on first call (0.2–0.3 s on the full universe) from the
 * market catalog's rows and the markets' venue identifiers (`catalog`, `venueRefs`, asked for then: a pack parses
 * them only then) and kept, so
 * neither a start nor a restart builds it before its first answer (read-model-holder.ts warms it). Made in a
 * function of its own, not inside the function that assembles the model: in V8 the closures of one function share
 * one context, so a getter made in `buildReadModel` would keep everything the build's closures use (its records,
 * log and scratch arena) alive as long as the model.
 */
export function withLazyRefs<M extends object>(
  model: M,
  catalog: () => MarketCatalog,
  events: readonly EventEntry[],
  venueRefs: () => ReadonlyMap<string, MarketVenueRefs>,
): M & { readonly refs: RefIndex } {
  let refs: RefIndex | null = null;
  const get = (): RefIndex => {
    refs ??= new RefIndex({
      markets: catalog().rows.map((r) => r.item),
      events: events.map((e) => e.event),
      venueRefs: venueRefs(),
    });
    return refs;
  };
  Object.defineProperty(model, 'refs', { get, enumerable: true });
  return model as M & { readonly refs: RefIndex };
}

/** Markets per chunk when reading marks (bounded memory; one indexed query per chunk and date pair). */
const MARK_CHUNK = 2000;
/** Markets read and serialized per page (bounded memory, and the event loop is free between pages). */
const MARKET_PAGE = 1000;
/** Events assembled between two yields. */
const EVENT_SLICE = 250;

/**
 * Lets waiting requests run: a build shares its process with the server (a replica rebuilding on a new
 * generation, or `pmref start`), and requests must never wait for a rebuild (DESIGN.md §5).
 */
function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function readMarks(store: Store, dates: readonly string[]) {
  const prices = new Map<string, PriceFacts>();
  const dayMarks = new Map<string, DayMark>();
  const priorVolumes = new Map<string, number | null>();
  /** Top-of-book ask sizes of the latest marks that have any (few do): the depth a cross-venue spread needs. */
  const askDepth = new Map<string, AskDepth>();
  const latest = (m: MarkFacts): void => {
    prices.set(m.market_id, priceFacts(m));
    if (m.yes_ask_size_usd !== null || m.no_ask_size_usd !== null) {
      askDepth.set(m.market_id, { yes_ask_size_usd: m.yes_ask_size_usd, no_ask_size_usd: m.no_ask_size_usd });
    } else {
      askDepth.delete(m.market_id);
    }
  };
  const [day, prior] = dates;
  if (day === undefined) return { prices, dayMarks, priorVolumes, askDepth };
  const ids = await store.listMarketIds();
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += MARK_CHUNK) {
    const chunk = ids.slice(i, i + MARK_CHUNK);
    const marks: MarkFacts[] = await store.listMarks({
      marketIds: chunk,
      snapshotDates: prior === undefined ? [day] : [day, prior],
      withoutRaw: true,
    });
    for (const m of marks) {
      if (m.snapshot_date === day) {
        latest(m);
        dayMarks.set(m.market_id, { volume_24h_usd: m.volume_24h_usd, last_price: m.yes_last_price });
      } else {
        priorVolumes.set(m.market_id, m.volume_24h_usd);
      }
    }
    for (const id of chunk) if (!prices.has(id)) missing.push(id);
    await yieldToRequests();
  }
  // Markets without a mark on the latest date: their own latest mark (listMarks is ordered by date).
  for (let i = 0; i < missing.length; i += MARK_CHUNK) {
    for (const m of await store.listMarks({ marketIds: missing.slice(i, i + MARK_CHUNK), withoutRaw: true })) latest(m);
  }
  return { prices, dayMarks, priorVolumes, askDepth };
}

function marketPiece(
  market: Market,
  price: PriceFacts,
  priceOf: (id: string) => number | null,
  scratch: ByteArena,
  ctx: MarketServeContext,
) {
  const served = servedMarket(market, price, priceOf, ctx);
  const piece: MarketPiece = {
    market_id: market.market_id,
    platform: market.platform,
    question_raw: market.question_raw,
    event_id: market.event_id,
    threshold: market.threshold,
    close_at: market.close_at,
    // Live = served open (spec §3; see isLiveMarket): the event's `resolved` follows its markets' served statuses.
    live: served.status === 'open',
    rcg: { grade: served.rcg.grade, score: served.rcg.score },
    status: served.status,
    last_price: served.last_price,
    implied_probability: served.implied_probability,
    price_as_of: served.price_as_of,
    last_checked_at: served.last_checked_at,
    fullText: scratch.put(prettyAt(served, 2)),
    conciseText: scratch.put(prettyAt(conciseMarket(served), 2)),
  };
  return { served, piece };
}

function eventEntry(
  event: Event,
  markets: MarketPiece[],
  pieces: ReadonlyMap<string, MarketPiece>,
  logEntries: ResolutionLogEntry[],
  catalystsByEvent: ReadonlyMap<string, Catalyst[]>,
  ctx: {
    origin: string;
    notice: Notice;
    generation: number;
    compressor: BodyCompressor;
    scratch: ReusedBytes;
  },
): EventEntry {
  const primary = event.primary_market_id ? pieces.get(event.primary_market_id) : undefined;
  const live = markets.some((m) => m.live);
  const closes = markets
    .map((m) => m.close_at)
    .filter((c): c is string => c !== null)
    .sort();
  const log = [...logEntries]
    .sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : a.occurred_at > b.occurred_at ? -1 : b.log_id - a.log_id))
    .map((e) => servedLogEntry(e, pieces.get(e.market_id)?.platform));
  const head = {
    _notice: ctx.notice,
    event_id: event.event_id,
    slug: event.slug,
    question: event.question,
    category: event.category,
    event_type: event.event_type || 'BINARY',
    ladder_distribution: event.ladder_distribution,
    tags: event.tags,
    catalyst_types: event.catalyst_types,
    catalyst_dates: eventCatalystDates(event, catalystsByEvent.get(event.event_id) ?? [], closes.at(-1) ?? null),
    editorial_notes: event.editorial_notes,
    venues_covered: venuesCovered(markets),
    primary_market_id: event.primary_market_id,
    current_primary_mark: primary
      ? { last_price: primary.last_price, implied_probability: primary.implied_probability, as_of: primary.price_as_of }
      : null,
    created_at: event.created_at,
    updated_at: event.updated_at,
  };
  const tail = { resolution_log: log, _provenance: provenanceOf(ctx.origin, event.event_id) };
  const entry: EventEntry = {
    event,
    live,
    grade: primary ? primary.rcg.grade : null,
    searchText: `${event.question}\n${JSON.stringify(event.tags)}`.toLowerCase(),
    item: prettyAt(eventListItem(event, markets, primary, live, ctx.origin), 2),
    full: PENDING_BODY,
    concise: PENDING_BODY,
  };
  // Each view is assembled in the scratch buffer, which the compressor copies before the next is assembled.
  const full = objectWithArrayBytes(
    head,
    'markets',
    markets.map((m) => m.fullText),
    tail,
    ctx.scratch,
  );
  ctx.compressor.hold(full, etagFor(ctx.generation, `e:${event.event_id}:full`), (body) => {
    entry.full = body;
  });
  const concise = objectWithArrayBytes(
    head,
    'markets',
    markets.map((m) => m.conciseText),
    tail,
    ctx.scratch,
  );
  ctx.compressor.hold(concise, etagFor(ctx.generation, `e:${event.event_id}:concise`), (body) => {
    entry.concise = body;
  });
  return entry;
}
