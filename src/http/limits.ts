/**
 * Daily request limits (spec §8; served-shapes §11 (b)): by default 1,000 per UTC day per IP anonymous, 10,000 per
 * key, 3 key creations per IP (PMREF_ANON_DAILY_LIMIT, PMREF_KEY_DAILY_LIMIT, PMREF_KEY_CREATION_DAILY_LIMIT).
 * A counter bucket is named by the UTC date, so every bucket resets at 00:00 UTC whatever the counter store.
 * Counters live in memory by default, or in Redis (atomic, shared by every replica) through rate-limiter-flexible.
 *
 * Limits never fail open (issue 15). While Redis cannot be reached the Redis meter counts in this process instead,
 * starting each bucket from the last count Redis gave this process for it, so a client is never served above its
 * limit by any one process and the RateLimit-* headers keep telling the truth. The outage is logged when it starts,
 * then at most once a minute while it lasts, and reported by `health()` (a `rate_limits` check in /v1/status). When
 * Redis answers again it is used again, and the calls this process served meanwhile are added to its counters.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimiterFallbackReason } from '../metrics/index.ts';

export interface MeterResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket resets (next 00:00 UTC). */
  resetSeconds: number;
}

/** The clock facts metering and caching need, computed once per second rather than once per request. */
export interface Tick {
  /** UTC date, YYYY-MM-DD: names the day's counter buckets. */
  day: string;
  /** Seconds to the next 00:00 UTC. */
  toMidnight: number;
}

/** What the counters can say about themselves for `/v1/status` (a `rate_limits` check). */
export interface MeterHealth {
  ok: boolean;
  detail: string;
}

/** Spends requests against daily buckets. The memory meter answers synchronously (no promise on the hot path). */
export interface Meter {
  readonly kind: 'memory' | 'redis';
  consume(bucket: string, limit: number, tick: Tick): MeterResult | Promise<MeterResult>;
  /** The counters' state; null when there is nothing to watch (in-process counters cannot become unreachable). */
  health(): MeterHealth | null;
}

/** Seconds from `now` to the next 00:00 UTC (at least 1). */
export function secondsToUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Keys carry the date, so a key's own TTL only has to outlive its day. */
const BUCKET_TTL_SECONDS = 2 * 86_400;

/**
 * Counters in this process's memory (one replica): a plain map of the current UTC day, dropped whole when the
 * day changes. Synchronous and allocation-light, because every metered request passes through it.
 */
class MemoryMeter implements Meter {
  readonly kind = 'memory' as const;
  private day = '';
  private readonly counts = new Map<string, number>();

  consume(bucket: string, limit: number, tick: Tick): MeterResult {
    if (tick.day !== this.day) {
      this.day = tick.day;
      this.counts.clear();
    }
    const used = (this.counts.get(bucket) ?? 0) + 1;
    this.counts.set(bucket, used);
    return {
      allowed: used <= limit,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: tick.toMidnight,
    };
  }

  health(): null {
    return null;
  }
}

/** Counters in this process's memory (one replica). */
export function memoryMeter(): Meter {
  return new MemoryMeter();
}

/** One line for the operator's log: the Redis meter's outage and recovery notices. */
export type MeterLog = (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void;

export interface RedisMeterOptions {
  /** Key prefix (PMREF_REDIS_PREFIX); counters are `${prefix}:rl:${limit}:${day}:${bucket}`. */
  prefix: string;
  log: MeterLog;
  /** Milliseconds since the epoch; injectable so the once-a-minute log and the retry pause can be tested. */
  now?: () => number;
  /**
   * Called for every call counted in this process instead of Redis, with why (the metrics'
   * `pmref_rate_limit_fallbacks_total`); the log says it at most once a minute, this says it per call.
   */
  onLocalCount?: (reason: LimiterFallbackReason) => void;
}

/** While Redis is unreachable the log says so at most this often. */
export const OUTAGE_LOG_EVERY_MS = 60_000;
/**
 * After a failed Redis call the next calls go straight to the local counters for this long: a Redis that hangs
 * (connection open, no answer) would otherwise cost every request the client's command timeout.
 */
export const RETRY_PAUSE_MS = 1_000;
/** Bound on the buckets remembered per day (one per client): past it the seeds are dropped, never the limits. */
const MAX_KNOWN_BUCKETS = 500_000;

/**
 * Counters in Redis with a per-process stand-in (see the file comment). `known` holds, per bucket of the day, the
 * last count Redis returned plus what this process counted while Redis was away; `owed` the calls served here
 * during an outage, added to Redis with the bucket's next successful call.
 */
class RedisMeter implements Meter {
  readonly kind = 'redis' as const;
  private readonly limiters = new Map<number, RateLimiterRedis>();
  private readonly now: () => number;
  private day = '';
  private readonly known = new Map<string, number>();
  private readonly owed = new Map<string, number>();
  private downSince: number | null = null;
  private retryAt = 0;
  private lastLogAt = Number.NEGATIVE_INFINITY;
  private localSinceLog = 0;
  private localTotal = 0;

  constructor(
    private readonly redis: Redis,
    private readonly opts: RedisMeterOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  private limiter(points: number): RateLimiterRedis {
    let l = this.limiters.get(points);
    if (!l) {
      l = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.opts.prefix}:rl:${points}`,
        points,
        duration: BUCKET_TTL_SECONDS,
      });
      this.limiters.set(points, l);
    }
    return l;
  }

  async consume(bucket: string, limit: number, tick: Tick): Promise<MeterResult> {
    if (tick.day !== this.day) {
      this.day = tick.day;
      this.known.clear();
      this.owed.clear();
    }
    const resetSeconds = tick.toMidnight;
    if (this.redis.status !== 'ready')
      return this.countLocally(bucket, limit, resetSeconds, `connection ${this.redis.status}`, 'disconnected');
    if (this.downSince !== null && this.now() < this.retryAt) {
      return this.countLocally(bucket, limit, resetSeconds, 'retry paused', 'retry_paused');
    }
    const owed = this.owed.get(bucket) ?? 0;
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await this.limiter(limit).consume(`${tick.day}:${bucket}`, 1 + owed);
    } catch (err) {
      if (!(err instanceof RateLimiterRes))
        return this.countLocally(bucket, limit, resetSeconds, errorText(err), 'error');
      res = err;
      allowed = false;
    }
    this.recovered();
    if (owed > 0) this.owed.delete(bucket);
    this.remember(bucket, res.consumedPoints);
    return { allowed, limit, remaining: allowed ? Math.max(0, res.remainingPoints) : 0, resetSeconds };
  }

  health(): MeterHealth {
    if (this.downSince !== null) {
      return {
        ok: false,
        detail: `Redis unreachable since ${new Date(this.downSince).toISOString()}; per-process counters in use`,
      };
    }
    if (this.redis.status !== 'ready') {
      return { ok: false, detail: `Redis connection ${this.redis.status}; per-process counters in use` };
    }
    return { ok: true, detail: 'daily counters in Redis, shared by every replica' };
  }

  private remember(bucket: string, used: number): void {
    if (this.known.size >= MAX_KNOWN_BUCKETS && !this.known.has(bucket)) this.known.clear();
    this.known.set(bucket, used);
  }

  /** Counts one call in this process, from the bucket's last known count; the call is owed to Redis if served. */
  private countLocally(
    bucket: string,
    limit: number,
    resetSeconds: number,
    why: string,
    reason: LimiterFallbackReason,
  ): MeterResult {
    this.wentDown(why);
    this.opts.onLocalCount?.(reason);
    const used = (this.known.get(bucket) ?? 0) + 1;
    this.remember(bucket, used);
    const allowed = used <= limit;
    if (allowed) this.owed.set(bucket, (this.owed.get(bucket) ?? 0) + 1);
    this.localSinceLog++;
    this.localTotal++;
    return { allowed, limit, remaining: Math.max(0, limit - used), resetSeconds };
  }

  private wentDown(why: string): void {
    const now = this.now();
    if (why !== 'retry paused') this.retryAt = now + RETRY_PAUSE_MS;
    if (this.downSince === null) {
      this.downSince = now;
      this.localTotal = 0;
    } else if (now - this.lastLogAt < OUTAGE_LOG_EVERY_MS) {
      return;
    }
    this.opts.log(
      'warn',
      {
        since: new Date(this.downSince).toISOString(),
        reason: why,
        counted_locally_since_last_line: this.localSinceLog,
      },
      'rate limits: Redis unreachable; per-process counters in use (limits still enforced; this line repeats at most once a minute)',
    );
    this.lastLogAt = now;
    this.localSinceLog = 0;
  }

  private recovered(): void {
    if (this.downSince === null) return;
    const now = this.now();
    this.opts.log(
      'info',
      {
        since: new Date(this.downSince).toISOString(),
        down_ms: now - this.downSince,
        counted_locally: this.localTotal,
      },
      'rate limits: Redis reachable again; shared counters in use',
    );
    this.downSince = null;
    this.lastLogAt = Number.NEGATIVE_INFINITY;
    this.localSinceLog = 0;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Counters in Redis: atomic increments shared by every replica using the same prefix, with per-process counters
 * standing in while Redis cannot be reached. Give the client `enableOfflineQueue: false` and a `commandTimeout`
 * (see `REDIS_COUNTER_OPTIONS`) so a call fails at once instead of waiting for a connection.
 */
export function redisMeter(redis: Redis, opts: RedisMeterOptions): Meter {
  return new RedisMeter(redis, opts);
}

/**
 * ioredis options for the counters' client: no offline queue (a call while disconnected fails at once and is
 * counted locally), one retry, and a command timeout so a Redis that hangs costs a request at most 500 ms.
 */
export const REDIS_COUNTER_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 500,
  connectTimeout: 2_000,
} as const;

export interface Limits {
  meter: Meter;
  /** Anonymous requests per UTC day per client IP. */
  anonDaily: number;
  /** Default daily limit written on new keys. */
  keyDaily: number;
  /** Keys one IP may create per UTC day. */
  keyCreationDaily: number;
}

/** The defaults of spec §8 on in-memory counters. */
export function defaultLimits(overrides: Partial<Limits> = {}): Limits {
  return { meter: memoryMeter(), anonDaily: 1000, keyDaily: 10_000, keyCreationDaily: 3, ...overrides };
}
