/**
 * Request metrics of the HTTP face: a count per route, method and status, a latency histogram per route and
 * method, and the rate limiter's per-process fallbacks. Routes are labelled by their pattern
 * (`/v1/markets/:id`), never by the raw URL, so the number of series is bounded by the routes the app has; a
 * request no route takes is labelled `unmatched`.
 *
 * The read path is benchmarked, so a request costs one histogram observation and one integer increment: each
 * (route, method) pair gets a recorder once, holding its histogram child (prom-client's `labels()` lookup done
 * once, not per request) and its counts by status in a small map; the counter series are written from those
 * counts when Prometheus scrapes.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Route label of a request no route takes (404s, 405s): one series however many unknown paths are tried. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Latency buckets in seconds: the precomputed read path answers in well under a millisecond, list pages and
 * `/v1/status` in milliseconds, a cold compression or a slow store in tens to hundreds.
 */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The methods the service answers; anything else (a 405 for PATCH, say) counts as `other`. */
const METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'] as const;
type MethodLabel = (typeof METHODS)[number] | 'other';

function methodLabel(method: string | undefined): MethodLabel {
  return (METHODS as readonly string[]).includes(method ?? '') ? (method as MethodLabel) : 'other';
}

/** What one request of a (route, method) pair updates. */
export interface RouteRecorder {
  /** Records one answered request: its status and how long it took, in seconds. */
  record(status: number, seconds: number): void;
}

class Recorder implements RouteRecorder {
  /** Requests answered, by status (cumulative: the counter is set from these at scrape time). */
  readonly byStatus = new Map<number, number>();

  constructor(
    readonly route: string,
    readonly method: MethodLabel,
    private readonly latency: { observe(seconds: number): void },
  ) {}

  record(status: number, seconds: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    this.latency.observe(seconds);
  }
}

/** Why the rate limiter counted a call in this process instead of Redis (limits.ts `countLocally`). */
export type LimiterFallbackReason = 'disconnected' | 'retry_paused' | 'error';

/** The rate-limit counters' own report (limits.ts `Meter.health()`): null when there is nothing to watch. */
export type MeterHealthSource = () => { ok: boolean } | null;

export class HttpMetrics {
  private readonly recorders = new Map<MethodLabel, Map<string, Recorder>>();
  private readonly latency: Histogram<'route' | 'method'>;
  private readonly fallbacks: Counter<'reason'>;

  constructor(private readonly registry: Registry) {
    const recorders = this.recorders;
    new Counter({
      name: 'pmref_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const byRoute of recorders.values()) {
          for (const r of byRoute.values()) {
            for (const [status, n] of r.byStatus) this.inc({ route: r.route, method: r.method, status }, n);
          }
        }
      },
    });
    this.latency = new Histogram({
      name: 'pmref_http_request_duration_seconds',
      help: 'Seconds from a request being routed to its response being written, by route pattern and method.',
      labelNames: ['route', 'method'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    this.fallbacks = new Counter({
      name: 'pmref_rate_limit_fallbacks_total',
      help: 'Metered calls counted in this process because the Redis that holds the shared counters could not be used (disconnected, retry_paused after a failure, error on the call).',
      labelNames: ['reason'] as const,
      registers: [registry],
    });
  }

  /**
   * The recorder of a route pattern and method (`undefined` route: a request no route took). Look it up once
   * per request; it is created on first use and kept.
   *
   * @example metrics.recorder('/v1/markets/:id', 'GET').record(200, 0.0004)
   */
  recorder(route: string | undefined, method: string | undefined): RouteRecorder {
    const m = methodLabel(method);
    let byRoute = this.recorders.get(m);
    if (!byRoute) {
      byRoute = new Map();
      this.recorders.set(m, byRoute);
    }
    const label = route ?? UNMATCHED_ROUTE;
    let r = byRoute.get(label);
    if (!r) {
      r = new Recorder(label, m, this.latency.labels(label, m));
      byRoute.set(label, r);
    }
    return r;
  }

  /** One metered call counted in this process while Redis was away (see `LimiterFallbackReason`). */
  limiterFallback(reason: LimiterFallbackReason): void {
    this.fallbacks.inc({ reason });
  }

  /**
   * Reports the state of counters that can become unreachable (Redis) at each scrape, as
   * `pmref_rate_limit_shared_counters_up`; in-process counters have no such state and get no series. Call once.
   */
  watchMeter(health: MeterHealthSource): void {
    new Gauge({
      name: 'pmref_rate_limit_shared_counters_up',
      help: '1 while the daily counters live in Redis, shared by every replica; 0 while this process counts on its own.',
      registers: [this.registry],
      collect() {
        this.set(health()?.ok === false ? 0 : 1);
      },
    });
  }
}
