/**
 * The sequenced change feed (issue 20): `GET /v1/changes?after=<seq>` pages it, `GET /v1/changes/stream` pushes it
 * as server-sent events. Both are live store reads (the `changes` table, keyed by seq), never the read model: a
 * change is visible the moment its publish commits, on every replica alike, since they share one store and the
 * store numbers the changes.
 *
 * Streams learn of new changes from the read-model holder: whenever it looks for a new generation (its poll tick
 * or a Redis announcement, see ReadModelHolder.onRefresh) the feed reads the newest seq once, for all streams,
 * and wakes the streams when it moved. No stream polls the store on its own.
 */
import type { Change, ChangesPage } from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import { clampInt, type Raw } from './params.ts';
import type { ReadModelSource } from './query-service.ts';

export const CHANGES_DEFAULT_LIMIT = 100;
export const CHANGES_MAX_LIMIT = 1000;
/**
 * The most changes a stream replays on (re)connection. A client further behind is told to page through
 * `/v1/changes` first (an `event: reset`): replaying a first run's 39,200 market_added entries down an event stream
 * would hold a connection and a store cursor for what one paged read does better.
 */
export const CHANGES_REPLAY_BOUND = 10_000;

/** A request the feed cannot answer: the route turns it into a 400 with this message and hint. */
export class ChangesQueryError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

const SEQ = /^\d{1,15}$/;

/**
 * A seq from a query parameter or a `Last-Event-ID` header: a non-negative integer; missing or empty → `fallback`.
 * Throws ChangesQueryError otherwise (the value is never quoted back: an error body never echoes input).
 */
export function parseSeq(name: string, raw: Raw, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const text = String(raw);
  if (!SEQ.test(text.trim())) {
    throw new ChangesQueryError(
      `${name} is not a sequence number`,
      'Pass the seq of the last change you hold (a non-negative integer), or 0 for the whole feed.',
    );
  }
  return Number(text.trim());
}

/** Where a client that is too far behind (or ahead of this store) resumes: a paged read from its seq. */
export function resumeUrlFor(after: number): string {
  return `/v1/changes?after=${after}&limit=${CHANGES_MAX_LIMIT}`;
}

export class ChangeFeed {
  private readonly listeners = new Set<(latest: number) => void>();
  private known = 0;
  private checking: Promise<void> | null = null;
  private checkAgain = false;

  constructor(
    private readonly store: Store,
    private readonly source: ReadModelSource,
    private readonly opts: { clock: () => Date; origin: string },
  ) {}

  /** One page of the feed. Throws ChangesQueryError for a malformed `after` or `limit`, or an `after` past the end. */
  async page(query: { after?: Raw; limit?: Raw }): Promise<ChangesPage> {
    const after = parseSeq('after', query.after, 0);
    const rawLimit = query.limit;
    if (rawLimit !== undefined && rawLimit !== '' && !/^\d+$/.test(String(rawLimit).trim())) {
      throw new ChangesQueryError(
        'limit is not a positive integer',
        `Pass limit=1..${CHANGES_MAX_LIMIT} (default ${CHANGES_DEFAULT_LIMIT}).`,
      );
    }
    if (rawLimit !== undefined && rawLimit !== '' && Number(rawLimit) < 1) {
      throw new ChangesQueryError('limit must be at least 1', `Pass limit=1..${CHANGES_MAX_LIMIT}.`);
    }
    const limit = clampInt('limit', rawLimit, CHANGES_DEFAULT_LIMIT, 1, CHANGES_MAX_LIMIT);
    const changes = await this.store.listChanges({ after, limit: limit.value });
    // Read after the page, so the page never holds a seq beyond latest_seq.
    const latest = Math.max(await this.store.lastChangeSeq(), changes.at(-1)?.seq ?? 0);
    if (after > latest) {
      throw new ChangesQueryError(
        'after is beyond the newest change of this feed',
        `The newest seq is ${latest}. A seq this feed never issued belongs to another store: start again from after=0.`,
      );
    }
    return {
      as_of: this.opts.clock().toISOString(),
      schema_version: 'v0.2.0',
      after,
      count: changes.length,
      next_after: changes.at(-1)?.seq ?? after,
      latest_seq: latest,
      docs: `Changes after a seq, oldest first; pass next_after as after until it equals latest_seq, then poll or stream (${this.opts.origin}/v1/changes/stream). ${this.opts.origin}/docs`,
      ...(limit.notice ? { limit_notice: limit.notice } : {}),
      _notice: this.source.current().notice,
      changes,
    };
  }

  /** The changes after `after`, at most `limit`, in seq order (a stream's replay and push). */
  read(after: number, limit: number): Promise<Change[]> {
    return this.store.listChanges({ after, limit });
  }

  /** The newest seq in the store. */
  latest(): Promise<number> {
    return this.store.lastChangeSeq();
  }

  /** Calls `listener` with the newest seq whenever it moves; returns the unsubscribe. */
  subscribe(listener: (latest: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Open subscriptions (streams): for tests and metrics. */
  subscribers(): number {
    return this.listeners.size;
  }

  /**
   * Looks for new changes (one store read however many streams are open) and wakes every subscriber when the
   * newest seq moved. Calls during a check run one more check after it. Never throws: a failed read waits for the
   * next call (the holder's next poll tick).
   */
  check(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.checkAgain = false;
        if (this.listeners.size === 0) continue;
        const latest = await this.store.lastChangeSeq().catch(() => this.known);
        if (latest === this.known) continue;
        this.known = latest;
        for (const listener of [...this.listeners]) listener(latest);
      } while (this.checkAgain);
    })().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }
}
