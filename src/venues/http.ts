/**
 * The one HTTP helper both venue clients use: timeout, bounded concurrency, a per-venue token
 * bucket, and retries with full-jitter exponential backoff on 429/5xx/network errors that honour
 * `Retry-After` (seconds or an HTTP date).
 */
import type { VenueClientOptions, VenueClock } from './types.ts';

export const PMREF_USER_AGENT = 'pmref/0.2.0 (+https://github.com/pmref/pmref)';

/** Internal error of a venue call (STYLE.md: never shown to API clients as is). */
export class VenueFetchError extends Error {
  override readonly name = 'VenueFetchError';
  readonly venue: string;
  readonly url: string;
  /** HTTP status when one arrived; null for network errors, timeouts and unreadable bodies. */
  readonly status: number | null;
  /** Whether the failure was worth retrying (429, 5xx, network, timeout, cut-off body). */
  readonly retry: boolean;
  readonly kind: 'http' | 'timeout' | 'network' | 'malformed' | 'aborted';
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | null;
  constructor(
    message: string,
    f: {
      venue: string;
      url: string;
      status: number | null;
      retry: boolean;
      kind: VenueFetchError['kind'];
      retryAfterMs?: number | null;
    },
  ) {
    super(message);
    this.venue = f.venue;
    this.url = f.url;
    this.status = f.status;
    this.retry = f.retry;
    this.kind = f.kind;
    this.retryAfterMs = f.retryAfterMs ?? null;
  }
}

export const realClock: VenueClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * Parses a `Retry-After` header into milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * @example retryAfterMs('2', 0) // 2000
 */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === '') return null;
  const s = header.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const at = Date.parse(s);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/** Full-jitter backoff (AWS architecture blog): uniform in [0, min(cap, base·2^attempt)). */
export function backoffMs(attempt: number, random: () => number, baseMs = 250, capMs = 20_000): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** attempt));
}

const MAX_RETRY_AFTER_MS = 120_000;

export interface VenueHttp {
  /** GET a JSON body. With `allow404`, a 404 resolves to `undefined` instead of throwing. */
  getJson(url: string, opts?: { allow404?: boolean }): Promise<unknown>;
  stats(): { requests: number; retries: number };
}

/** Builds the fetch helper for one venue. Defaults: 15 s timeout, 4 in flight, 4 retries, 10 req/s. */
export function createVenueHttp(venue: string, opts: VenueClientOptions): VenueHttp {
  const clock: VenueClock = { ...realClock, ...opts.clock };
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const maxRetries = Math.max(0, opts.maxRetries ?? 4);
  const rate = opts.ratePerSecond ?? 10;
  const userAgent = opts.userAgent ?? PMREF_USER_AGENT;
  let requests = 0;
  let retries = 0;

  // Token bucket: capacity = max(1, rate), refilled continuously.
  const capacity = Math.max(1, rate);
  let tokens = capacity;
  let refilledAt = clock.now();
  let bucketChain: Promise<void> = Promise.resolve();
  // A Retry-After pauses the whole venue, not just the request that received it.
  let pausedUntil = 0;
  const takeToken = (): Promise<void> => {
    const next = bucketChain.then(async () => {
      const pause = pausedUntil - clock.now();
      if (pause > 0) await clock.sleep(pause, opts.signal);
      if (!(rate > 0) || !Number.isFinite(rate)) return;
      for (;;) {
        const now = clock.now();
        tokens = Math.min(capacity, tokens + ((now - refilledAt) / 1000) * rate);
        refilledAt = now;
        if (tokens >= 1) {
          tokens -= 1;
          return;
        }
        await clock.sleep(Math.ceil(((1 - tokens) / rate) * 1000), opts.signal);
      }
    });
    bucketChain = next.catch(() => undefined);
    return next;
  };

  // Semaphore for bounded concurrency.
  let inFlight = 0;
  const waiters: Array<() => void> = [];
  const acquire = async () => {
    if (inFlight < concurrency) {
      inFlight++;
      return;
    }
    await new Promise<void>((r) => waiters.push(r));
  };
  const release = () => {
    const w = waiters.shift();
    if (w) w();
    else inFlight--;
  };

  const once = async (url: string, allow404: boolean): Promise<{ body: unknown; retryAfter: number | null }> => {
    await takeToken();
    requests++;
    const ctrl = new AbortController();
    const onOuterAbort = () => ctrl.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const timer = setTimeout(() => ctrl.abort(new Error('timeout')), timeoutMs);
    const fail = (message: string, status: number | null, retry: boolean, kind: VenueFetchError['kind']) =>
      new VenueFetchError(message, { venue, url, status, retry, kind });
    try {
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { 'user-agent': userAgent, accept: 'application/json' },
          signal: ctrl.signal,
        });
      } catch (err) {
        if (opts.signal?.aborted) throw fail(`${venue}: aborted`, null, false, 'aborted');
        if (ctrl.signal.aborted)
          throw fail(`${venue}: no response within ${timeoutMs} ms from ${url}`, null, true, 'timeout');
        throw fail(`${venue}: network error on ${url}: ${(err as Error).message}`, null, true, 'network');
      }
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        if (ctrl.signal.aborted && !opts.signal?.aborted) {
          throw fail(`${venue}: body not complete within ${timeoutMs} ms from ${url}`, res.status, true, 'timeout');
        }
        throw fail(
          `${venue}: response body cut off from ${url}: ${(err as Error).message}`,
          res.status,
          true,
          'network',
        );
      }
      if (res.status === 404 && allow404) return { body: undefined, retryAfter: null };
      if (!res.ok) {
        const retry = res.status === 429 || res.status >= 500;
        throw new VenueFetchError(`${venue}: HTTP ${res.status} from ${url}`, {
          venue,
          url,
          status: res.status,
          retry,
          kind: 'http',
          retryAfterMs: retryAfterMs(res.headers.get('retry-after'), clock.now()),
        });
      }
      try {
        return { body: JSON.parse(text) as unknown, retryAfter: null };
      } catch {
        const cl = res.headers.get('content-length');
        const cut = cl !== null && Number(cl) !== Buffer.byteLength(text);
        throw fail(
          cut
            ? `${venue}: truncated JSON from ${url} (${Buffer.byteLength(text)} of ${cl} bytes)`
            : `${venue}: malformed JSON from ${url} (starts ${JSON.stringify(text.slice(0, 40))})`,
          res.status,
          cut,
          cut ? 'network' : 'malformed',
        );
      }
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
  };

  return {
    async getJson(url, o) {
      await acquire();
      try {
        for (let attempt = 0; ; attempt++) {
          try {
            return (await once(url, o?.allow404 ?? false)).body;
          } catch (err) {
            if (err instanceof VenueFetchError && err.retryAfterMs !== null) {
              pausedUntil = Math.max(pausedUntil, clock.now() + Math.min(err.retryAfterMs, MAX_RETRY_AFTER_MS));
            }
            if (!(err instanceof VenueFetchError) || !err.retry || attempt >= maxRetries) throw err;
            const hinted = err.retryAfterMs;
            const wait = hinted !== null ? Math.min(hinted, MAX_RETRY_AFTER_MS) : backoffMs(attempt, clock.random);
            retries++;
            opts.logger?.warn(
              {
                venue,
                url,
                status: err.status,
                kind: err.kind,
                attempt: attempt + 1,
                wait_ms: wait,
                retry_after: hinted !== null,
              },
              `${venue}: retrying after ${err.message}`,
            );
            await clock.sleep(wait, opts.signal);
          }
        }
      } finally {
        release();
      }
    },
    stats: () => ({ requests, retries }),
  };
}

/** Runs `fn` over `items` with at most `limit` at a time, keeping order of results. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}
