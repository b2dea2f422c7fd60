/**
 * Daily request limits (spec §8; served-shapes §11 (b)): 1,000 per UTC day per IP anonymous, 10,000 per key.
 * A counter bucket is named by the UTC date, so every bucket resets at 00:00 UTC whatever the counter store.
 * Counters live in memory by default, or in Redis (atomic, shared by every replica) through
 * rate-limiter-flexible. A Redis outage fails open: the request is served and the failure is logged.
 */
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

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

/** Spends requests against daily buckets. The memory meter answers synchronously (no promise on the hot path). */
export interface Meter {
  readonly kind: 'memory' | 'redis';
  consume(bucket: string, limit: number, tick: Tick): MeterResult | Promise<MeterResult>;
}

/** Seconds from `now` to the next 00:00 UTC (at least 1). */
export function secondsToUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Keys carry the date, so a key's own TTL only has to outlive its day. */
const BUCKET_TTL_SECONDS = 2 * 86_400;

/** Counters in a shared store through rate-limiter-flexible (one limiter per allowance size). */
class FlexibleMeter implements Meter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(
    readonly kind: 'memory' | 'redis',
    private readonly make: (points: number) => RateLimiterAbstract,
    private readonly onStoreError: (err: unknown) => void,
  ) {}

  private limiter(points: number): RateLimiterAbstract {
    let l = this.limiters.get(points);
    if (!l) {
      l = this.make(points);
      this.limiters.set(points, l);
    }
    return l;
  }

  async consume(bucket: string, limit: number, tick: Tick): Promise<MeterResult> {
    const key = `${tick.day}:${bucket}`;
    const resetSeconds = tick.toMidnight;
    try {
      const res = await this.limiter(limit).consume(key, 1);
      return { allowed: true, limit, remaining: Math.max(0, res.remainingPoints), resetSeconds };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetSeconds };
      this.onStoreError(err);
      return { allowed: true, limit, remaining: limit, resetSeconds };
    }
  }
}

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
}

/** Counters in this process's memory (one replica). */
export function memoryMeter(): Meter {
  return new MemoryMeter();
}

/** Counters in Redis: atomic increments shared by every replica using the same prefix. */
export function redisMeter(redis: Redis, prefix: string, onStoreError: (err: unknown) => void): Meter {
  return new FlexibleMeter(
    'redis',
    (points) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:rl:${points}`,
        points,
        duration: BUCKET_TTL_SECONDS,
      }),
    onStoreError,
  );
}

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
  return { meter: memoryMeter(), anonDaily: 1000, keyDaily: 10_000, keyCreationDaily: 20, ...overrides };
}
