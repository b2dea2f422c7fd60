/**
 * Holds the current read model and swaps in a new one when the store's generation moves (or the UTC date
 * changes, since liveness depends on it, or the store behind the URL is another one: a PostgreSQL database
 * dropped and created again starts over at the same generations). Rebuilds run in the background, one at a
 * time; requests keep reading the old model until the new one is complete, then see the new one atomically
 * (a single reference swap).
 */
import type { Store } from '../store/index.ts';
import { collectGarbage, compactHeap } from './gc.ts';
import { readPack, writePack } from './pack.ts';
import type { ReadModelSource } from './query-service.ts';
import { buildReadModel, type ReadModel } from './read-model.ts';
import type { DocsNormalization } from './search/engine.ts';

export interface HolderOptions {
  origin: string;
  clock: () => Date;
  serviceName?: string;
  /** Called with a message when a rebuild fails (the old model stays). */
  onError?: (err: unknown) => void;
  /** Called after each swap. */
  onSwap?: (model: ReadModel, ms: number) => void;
  /**
   * Where to keep a pack of the current model (see pack.ts): a restart on the same store (its identity),
   * generation, origin and day loads it instead of rebuilding from the store. Unset: no pack.
   */
  packPath?: string;
  /** The bound of each model's cache of decompressed bodies, in bytes (`PMREF_BODY_CACHE_MB`; see BodyCache). */
  bodyCacheBytes?: number;
}

/** How long after the first model is ready its indexes are warmed and the heap compacted (see `create`). */
const WARM_AFTER_FIRST_MS = 2_000;

/**
 * What the holder knows of the model it serves beyond the model itself: how old its data is and how its last
 * rebuild went. `/readyz` and the metrics read it.
 */
export interface ServedState {
  /**
   * When the pipeline run that published the served data finished (ISO); null when no run has published. Read
   * just before the model is built, so when a run publishes during the build this is the previous run's time:
   * the age it gives is never younger than the data's.
   */
  publishedAt: string | null;
  /** Milliseconds the served model took to build (or to load from its pack). */
  buildMs: number;
  /** When the latest rebuild failed, if no rebuild has succeeded since (ISO); the previous model stays served. */
  rebuildFailedAt: string | null;
  /** Rebuilds that failed since this holder was created. */
  rebuildFailures: number;
}

/** When the latest published run finished; null when no run published (an empty store). */
async function publishedAtOf(store: Store): Promise<string | null> {
  return (await store.lastRun({ published: true }))?.finished_at ?? null;
}

function buildOptionsOf(opts: HolderOptions) {
  return {
    origin: opts.origin,
    now: opts.clock(),
    ...(opts.serviceName ? { serviceName: opts.serviceName } : {}),
    ...(opts.bodyCacheBytes === undefined ? {} : { bodyCacheBytes: opts.bodyCacheBytes }),
  };
}

/** Builds before giving up on a store whose generation keeps moving during the build (see buildConsistent). */
const MAX_BUILDS = 4;

/**
 * Builds a model of one generation. A build reads the store in many statements, so a run that publishes during
 * it (a first start serves its oldest snapshot while the next is ingested; a replica rebuilds while a worker
 * elsewhere publishes) could leave it holding records of two generations: when the generation moved, the model
 * is built again. After MAX_BUILDS the last model is kept and said to be stale (onError); its generation is the
 * older one, so the next refresh rebuilds.
 */
async function buildConsistent(
  store: Store,
  opts: HolderOptions,
  previousDocs: DocsNormalization | null = null,
): Promise<ReadModel> {
  for (let build = 1; ; build++) {
    const model = await buildReadModel(store, { ...buildOptionsOf(opts), previousDocs });
    const now = await store.generation();
    if (now === model.generation) return model;
    if (build >= MAX_BUILDS) {
      opts.onError?.(
        new Error(
          `the store's generation moved during ${build} read-model builds in a row (now ${now}); serving generation ${model.generation}, which may hold records of a newer one until the next rebuild`,
        ),
      );
      return model;
    }
  }
}

/**
 * The served model's normalized search documents, for the next build to reuse; null (every document normalized
 * again, and `report` told why) when its catalog cannot be read: a model from a pack whose catalog section is damaged
 * (pack.ts).
 */
function previousDocsOf(model: ReadModel, report: ((err: unknown) => void) | undefined): DocsNormalization | null {
  try {
    return model.catalog.normalization();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    report?.(
      new Error(`the served model's catalog cannot be read (${reason}): the rebuild normalizes every search document`),
    );
    return null;
  }
}

/** Builds the indexes a model makes on first use (catalog search, identifier lookup), and parses what a pack left compressed. */
function warmIndexes(model: ReadModel): void {
  void model.catalog.search;
  void model.refs;
  void model.movers;
}

export class ReadModelHolder implements ReadModelSource {
  private model: ReadModel;
  private building: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The latest background pack write (settled: failures go to onError). */
  private packWrite: Promise<void> = Promise.resolve();
  private state: ServedState;
  private readonly refreshListeners = new Set<() => void>();

  private constructor(
    private readonly store: Store,
    private readonly opts: HolderOptions,
    first: ReadModel,
    /** The identity of the store `model` was built from (`Store.identity()`). */
    private storeIdentity: string,
    served: Pick<ServedState, 'publishedAt' | 'buildMs'>,
  ) {
    this.model = first;
    this.state = { ...served, rebuildFailedAt: null, rebuildFailures: 0 };
  }

  /** Builds the first model (the only build a caller waits for). */
  static async create(store: Store, opts: HolderOptions): Promise<ReadModelHolder> {
    const started = Date.now();
    const identity = await store.identity();
    const publishedAt = await publishedAtOf(store);
    if (opts.packPath) {
      const want = {
        store: identity,
        generation: await store.generation(),
        origin: opts.origin,
        today: opts.clock().toISOString().slice(0, 10),
      };
      const packed = await readPack(
        opts.packPath,
        want,
        opts.bodyCacheBytes === undefined ? {} : { bodyCacheBytes: opts.bodyCacheBytes },
      );
      if (packed) {
        const holder = new ReadModelHolder(store, opts, packed, identity, {
          publishedAt,
          buildMs: Date.now() - started,
        });
        holder.settleFirst(false);
        return holder;
      }
    }
    const first = await buildConsistent(store, opts);
    const holder = new ReadModelHolder(store, opts, first, identity, { publishedAt, buildMs: Date.now() - started });
    holder.settleFirst(true);
    return holder;
  }

  /**
   * What follows the first model, once the server is up rather than before its first answer (a server listens
   * within this delay): its indexes are built (search, identifiers: about 1–2 s on the full universe; a request
   * that needs one first builds it then), the garbage of the build or of the parsed pack header is collected and
   * the heap compacted to give its pages back (on the full simulated universe after a pack load: RSS 530–670 MB
   * after one collection, 475 MB after compaction; its rounds take about 0.4 s of the event loop), and a model
   * built from the store is written to the pack (about 1 s). `packWritten()` waits for it.
   */
  private settleFirst(save: boolean): void {
    const model = this.model;
    this.packWrite = new Promise<void>((resolve) => setTimeout(resolve, WARM_AFTER_FIRST_MS).unref()).then(() => {
      try {
        warmIndexes(model);
      } catch (err) {
        // A model read from a pack parses its sections here (pack.ts): one damaged since it was written is replaced
        // by a model built from the store. A built model's indexes failing is reported; requests that need them say so.
        const reason = err instanceof Error ? err.message : String(err);
        this.opts.onError?.(
          new Error(`warming the first model failed: ${reason}${save ? '' : '; rebuilding it from the store'}`),
        );
        if (!save) void this.refresh(true);
      }
      collectGarbage();
      void compactHeap(); // in the background: requests are served between its rounds
    });
    if (save) this.savePack(model);
  }

  /**
   * Writes the pack in the background; a failure is reported and costs only the next restart's speed. A model
   * replaced before its write began or ended is not written: its pack would be replaced at once, and the write
   * would keep the replaced model in memory meanwhile (a first start serves its oldest snapshot for about half a
   * minute). A write that lands is followed by a collection and a compaction of the heap (gc.ts `compactHeap`).
   */
  private savePack(model: ReadModel): void {
    const path = this.opts.packPath;
    if (!path) return;
    const identity = this.storeIdentity;
    const wanted = () => this.model === model;
    this.packWrite = this.packWrite
      .then(async () => {
        // The write's garbage (the header's JSON, the bodies' frames: a few hundred MB on the full universe) is
        // collected and the heap compacted when it ends: an idle server might not collect for minutes (seen: a
        // first start's process held 820-880 MB for over 30 s after its catch-up's pack write, 557 MB after).
        if (wanted() && (await writePack(model, path, identity, wanted))) await compactHeap();
      })
      .catch((err: unknown) => this.opts.onError?.(err));
  }

  /**
   * Resolves once every pack write started so far has finished and the heap has been compacted after it: what a
   * caller about to start memory-heavy work waits for (a first start's history catch-up: the pack write's header
   * and the replaced model's pages are given back first). Serving never waits for it.
   */
  async quiet(): Promise<void> {
    await this.packWrite;
    await compactHeap();
  }

  /**
   * Resolves when every pack write started so far has finished (written or reported to onError). For a clean
   * shutdown and for tests; serving never waits for it. Writes run one after another, so an older model's
   * pack can never land after a newer one's.
   */
  packWritten(): Promise<void> {
    return this.packWrite;
  }

  current(): ReadModel {
    return this.model;
  }

  /** How old the served data is and how the last rebuild went (a snapshot; see ServedState). */
  served(): ServedState {
    return { ...this.state };
  }

  /**
   * Rebuilds when the generation, the UTC date or the store's identity changed. Concurrent calls share one
   * rebuild. Resolves true when a new model was swapped in.
   */
  refresh(force = false): Promise<boolean> {
    for (const listener of this.refreshListeners) listener();
    this.building ??= this.rebuildIfStale(force).finally(() => {
      this.building = null;
    });
    return this.building;
  }

  private async rebuildIfStale(force: boolean): Promise<boolean> {
    try {
      const [generation, identity] = await Promise.all([this.store.generation(), this.store.identity()]);
      const today = this.opts.clock().toISOString().slice(0, 10);
      const same = generation === this.model.generation && today === this.model.today;
      if (!force && same && identity === this.storeIdentity) {
        this.state.rebuildFailedAt = null; // the store answers and the model is current
        return false;
      }
      const started = Date.now();
      const publishedAt = await publishedAtOf(this.store);
      // The served model's search documents, normalized: the new one normalizes only those whose text changed.
      const next = await buildConsistent(this.store, this.opts, previousDocsOf(this.model, this.opts.onError));
      // Built before the swap, so no request after it waits for an index.
      warmIndexes(next);
      this.model = next;
      this.storeIdentity = identity;
      this.state = { ...this.state, publishedAt, buildMs: Date.now() - started, rebuildFailedAt: null };
      collectGarbage(); // the old model is garbage now too
      void compactHeap();
      this.savePack(next);
      this.opts.onSwap?.(next, Date.now() - started);
      return true;
    } catch (err) {
      this.state.rebuildFailedAt = this.opts.clock().toISOString();
      this.state.rebuildFailures++;
      this.opts.onError?.(err);
      return false;
    }
  }

  /**
   * Calls `listener` each time the holder is asked to look for a new generation (a poll tick, a Redis announcement),
   * before and whatever the rebuild: the change feed (issue 20) reads its newest seq then, without waiting for a
   * model that takes seconds to build. Returns the unsubscribe.
   */
  onRefresh(listener: () => void): () => void {
    this.refreshListeners.add(listener);
    return () => this.refreshListeners.delete(listener);
  }

  /** Polls the store's generation every `everyMs` (replicas without Redis learn of new runs this way). */
  startPolling(everyMs: number): void {
    this.stopPolling();
    this.timer = setInterval(() => void this.refresh(), everyMs);
    this.timer.unref();
  }

  stopPolling(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
