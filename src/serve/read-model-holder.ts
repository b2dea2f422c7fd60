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

/** How long after a pack load the heap is compacted (see `create`). */
const COMPACT_AFTER_PACK_MS = 2_000;

export class ReadModelHolder implements ReadModelSource {
  private model: ReadModel;
  private building: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The latest background pack write (settled: failures go to onError). */
  private packWrite: Promise<void> = Promise.resolve();

  private constructor(
    private readonly store: Store,
    private readonly opts: HolderOptions,
    first: ReadModel,
    /** The identity of the store `model` was built from (`Store.identity()`). */
    private storeIdentity: string,
  ) {
    this.model = first;
  }

  /** Builds the first model (the only build a caller waits for). */
  static async create(store: Store, opts: HolderOptions): Promise<ReadModelHolder> {
    const identity = await store.identity();
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
        collectGarbage(); // the pack's header, parsed
        // The parsed header's objects died among the model's: compacting gives their pages back (measured on
        // the full simulated universe: RSS 530–670 MB after the one collection, 475 MB after compaction). Its
        // rounds take about 0.4 s of the event loop, so they start once the server is up, not before its first
        // answer.
        setTimeout(() => void compactHeap(), COMPACT_AFTER_PACK_MS).unref();
        return new ReadModelHolder(store, opts, packed, identity);
      }
    }
    const first = await buildReadModel(store, ReadModelHolder.buildOptions(opts));
    collectGarbage();
    void compactHeap(); // in the background: requests are served between its rounds
    const holder = new ReadModelHolder(store, opts, first, identity);
    holder.savePack(first);
    return holder;
  }

  /** Writes the pack in the background; a failure is reported and costs only the next restart's speed. */
  private savePack(model: ReadModel): void {
    const path = this.opts.packPath;
    if (!path) return;
    const identity = this.storeIdentity;
    this.packWrite = this.packWrite
      .then(() => writePack(model, path, identity))
      .catch((err: unknown) => this.opts.onError?.(err));
  }

  /**
   * Resolves when every pack write started so far has finished (written or reported to onError). For a clean
   * shutdown and for tests; serving never waits for it. Writes run one after another, so an older model's
   * pack can never land after a newer one's.
   */
  packWritten(): Promise<void> {
    return this.packWrite;
  }

  private static buildOptions(opts: HolderOptions) {
    return {
      origin: opts.origin,
      now: opts.clock(),
      ...(opts.serviceName ? { serviceName: opts.serviceName } : {}),
      ...(opts.bodyCacheBytes === undefined ? {} : { bodyCacheBytes: opts.bodyCacheBytes }),
    };
  }

  current(): ReadModel {
    return this.model;
  }

  /**
   * Rebuilds when the generation, the UTC date or the store's identity changed. Concurrent calls share one
   * rebuild. Resolves true when a new model was swapped in.
   */
  refresh(force = false): Promise<boolean> {
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
      if (!force && same && identity === this.storeIdentity) return false;
      const started = Date.now();
      const next = await buildReadModel(this.store, ReadModelHolder.buildOptions(this.opts));
      this.model = next;
      this.storeIdentity = identity;
      collectGarbage(); // the old model is garbage now too
      void compactHeap();
      this.savePack(next);
      this.opts.onSwap?.(next, Date.now() - started);
      return true;
    } catch (err) {
      this.opts.onError?.(err);
      return false;
    }
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
