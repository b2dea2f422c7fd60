/**
 * `GET /v1/changes/stream` (issue 20): the change feed as server-sent events, one stream per connection.
 *
 * - Each change is `id: <seq>`, `event: change`, `data: <the change as compact JSON>`; the stream starts after the
 *   seq in `Last-Event-ID` (what EventSource sends when it reconnects), else `?after=`, else at the newest change.
 * - A client more than CHANGES_REPLAY_BOUND changes behind (on connection or, live, after a large publish) gets
 *   one `event: reset` whose data names where to resume (`/v1/changes?after=…`), and the stream ends. So does a
 *   client holding a seq this store never issued.
 * - A comment line (`: heartbeat`) every `heartbeatMs` keeps proxies from closing an idle stream and lets the
 *   client tell a quiet feed from a dead connection.
 * - New changes are pushed when ChangeFeed wakes its subscribers (ChangeFeed.check: one store read for all streams).
 *
 * The response is written on the raw socket after `reply.hijack()`: no serializer, no compression, nothing that
 * buffers. A closed connection unsubscribes and stops its timer at once; `closeAll()` (the app's preClose hook)
 * ends every open stream, so a graceful shutdown does not wait out its grace period on them.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Change } from '../domain/index.ts';
import { CHANGES_REPLAY_BOUND, type ChangeFeed, resumeUrlFor } from '../serve/index.ts';

export interface ChangeStreamOptions {
  /** Milliseconds between heartbeat comments (PMREF_CHANGES_HEARTBEAT_SECONDS × 1000). */
  heartbeatMs: number;
  /** The replay bound (default CHANGES_REPLAY_BOUND). */
  replayBound?: number;
}

/** Changes read from the store per query while a stream catches up. */
const BATCH = 500;

/** One SSE frame of a change. The JSON is compact, so it holds no newline and fits one `data:` line. */
export function changeFrame(change: Change): string {
  return `id: ${change.seq}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;
}

function resetFrame(after: number, latest: number, reason: string): string {
  const data = { reason, after, latest_seq: latest, resume: resumeUrlFor(after > latest ? 0 : after) };
  return `event: reset\ndata: ${JSON.stringify(data)}\n\n`;
}

export class ChangeStreams {
  /** The closers of the open streams. */
  private readonly open = new Set<() => void>();
  private readonly bound: number;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly opts: ChangeStreamOptions,
  ) {
    this.bound = opts.replayBound ?? CHANGES_REPLAY_BOUND;
  }

  /** Streams open now. */
  size(): number {
    return this.open.size;
  }

  /** Ends every open stream (graceful shutdown); clients reconnect elsewhere with their Last-Event-ID. */
  closeAll(): void {
    for (const close of [...this.open]) close();
  }

  /**
   * Serves one stream on `raw` (the caller hijacked the reply and passes the headers it already set), starting after
   * `after` (null: at `latest`, the newest seq, which the caller read before hijacking, so a store that cannot be
   * read is an ordinary 500). Resolves once the replay is written; the stream lives until the client or closeAll()
   * ends it.
   */
  async serve(
    raw: ServerResponse,
    headers: Record<string, string>,
    start: { after: number | null; latest: number },
    log: FastifyBaseLogger,
  ): Promise<void> {
    const { after, latest } = start;
    let last = after ?? latest;
    let closed = false;
    let pumping = false;
    let again = false;
    let wakeDrain: (() => void) | null = null;
    let timer: NodeJS.Timeout | null = null;
    let unsubscribe: () => void = () => {};

    const socket = raw.socket;
    const close = (): void => {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      unsubscribe();
      this.open.delete(close);
      socket?.off('end', close);
      wakeDrain?.();
      if (!raw.writableEnded) raw.end();
    };
    raw.on('close', close);
    raw.on('error', close);
    // The server keeps half-open connections (pre-routing.ts, `httpAllowHalfOpen`), so a client that goes away shows
    // first as the end of its side, not as a closed socket: a stream reader never half-closes, so that ends it.
    socket?.once('end', close);
    // Gone before the listeners were in place (an aborted request): nothing to serve.
    if (raw.destroyed || socket?.readableEnded) return close();
    for (const [k, v] of Object.entries(headers)) raw.setHeader(k, v);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx and similar proxies buffer responses unless told not to.
      'x-accel-buffering': 'no',
      connection: 'close',
    });

    const drained = (): Promise<void> =>
      new Promise((resolve) => {
        wakeDrain = () => {
          wakeDrain = null;
          resolve();
        };
        raw.once('drain', () => wakeDrain?.());
      });

    const reset = (newest: number, reason: string): void => {
      raw.write(resetFrame(last, newest, reason));
      close();
    };

    const pump = async (): Promise<void> => {
      if (pumping) {
        again = true;
        return;
      }
      pumping = true;
      try {
        do {
          again = false;
          for (;;) {
            const batch = await this.feed.read(last, BATCH);
            for (const change of batch) {
              if (closed) return;
              last = change.seq;
              if (!raw.write(changeFrame(change))) await drained();
            }
            if (closed || batch.length < BATCH) break;
          }
        } while (again && !closed);
      } catch (err) {
        log.error({ err }, 'change stream: the store could not be read; closing the stream');
        close();
      } finally {
        pumping = false;
      }
    };

    if (last > latest) return reset(latest, 'this feed never issued that seq (another store?): start again from 0');
    if (latest - last > this.bound) {
      return reset(latest, `more than ${this.bound} changes behind: page through /v1/changes, then stream again`);
    }
    this.open.add(close);
    // Subscribed before the first read, so a publish between the two is not missed (the pump runs again).
    unsubscribe = this.feed.subscribe((newest) => {
      if (newest - last > this.bound && !pumping) {
        reset(newest, `more than ${this.bound} changes behind: page through /v1/changes, then stream again`);
      } else void pump();
    });
    raw.write(`retry: 3000\n: changes after ${last}\n\n`);
    timer = setInterval(() => {
      // A backed-up socket needs no keep-alive; a heartbeat would only queue behind the data.
      if (!closed && raw.writableLength === 0) raw.write(': heartbeat\n\n');
    }, this.opts.heartbeatMs);
    timer.unref();
    await pump();
  }
}
