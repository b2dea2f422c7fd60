/**
 * All settings come from the environment (and matching CLI flags), parsed by one zod schema at boot.
 * A bad value stops the process with a message naming the variable and what it accepts.
 * The README's configuration table lists exactly these variables.
 */
import { z } from 'zod';

export const DEFAULT_VENUE_A_URL = 'https://api.elections.kalshi.com/trade-api/v2';
export const DEFAULT_VENUE_B_URL = 'https://gamma-api.polymarket.com';
export const DEFAULT_VENUE_B_CLOB_URL = 'https://clob.polymarket.com';
export const DEFAULT_SPOT_URL = 'https://api.coingecko.com/api/v3';
/** Days of hourly history detail kept (PMREF_HOURLY_RETENTION_DAYS): the last 7 days and today. */
export const DEFAULT_HOURLY_RETENTION_DAYS = 7;

const url = (what: string) =>
  z.string().refine((v) => {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  }, `${what} must be an absolute URL such as http://127.0.0.1:8080`);

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const ConfigSchema = z.object({
  PMREF_DB_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'use sqlite:PATH or postgres://user@host:port/db')
    .default('sqlite:./data/pmref.sqlite'),
  PMREF_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/.+/, 'use redis://host:port')
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PMREF_BASE_URL: url('PMREF_BASE_URL').optional(),
  PMREF_SOURCE: z.enum(['auto', 'live', 'replay', 'simulated']).default('auto'),
  PMREF_REPLAY_DIR: z.string().optional(),
  PMREF_SIM_DIR: z.string().default('./data/sim'),
  PMREF_SIM_SEED: z.coerce.number().int().min(0).default(42),
  PMREF_VENUE_A_URL: url('PMREF_VENUE_A_URL').default(DEFAULT_VENUE_A_URL),
  PMREF_VENUE_B_URL: url('PMREF_VENUE_B_URL').default(DEFAULT_VENUE_B_URL),
  PMREF_VENUE_B_CLOB_URL: url('PMREF_VENUE_B_CLOB_URL').default(DEFAULT_VENUE_B_CLOB_URL),
  PMREF_SPOT_URL: url('PMREF_SPOT_URL').default(DEFAULT_SPOT_URL),
  PMREF_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  PMREF_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PMREF_TRUST_PROXY: bool.default(false),
  PMREF_ANON_DAILY_LIMIT: z.coerce.number().int().min(1).default(1000),
  PMREF_KEY_DAILY_LIMIT: z.coerce.number().int().min(1).default(10000),
  /** Keys one client IP may create per UTC day (POST /v1/keys). */
  PMREF_KEY_CREATION_DAILY_LIMIT: z.coerce.number().int().min(1).default(3),
  /**
   * Bound of each read model's cache of decompressed bodies (bodies are held gzip; an identity or brotli request
   * for a cold body decompresses it once, then it is served from this cache until pushed out).
   */
  PMREF_BODY_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  /**
   * Bound of the pipeline thread's JavaScript heap (`pmref start`), in MB. A run that would need more ends with a
   * clear error (logged; the run is aborted and nothing of it published) instead of the process being killed for
   * memory; a new pipeline thread starts 30 s later.
   */
  PMREF_PIPELINE_HEAP_MB: z.coerce.number().int().min(128).max(65536).default(2048),
  /**
   * The most malloc arenas glibc may create in a pmref process; 0 leaves glibc's default (8 per core). Read and
   * applied by bin/malloc-arenas.mjs before anything else loads (default 2 there); checked here, so a bad value is
   * named like any other setting.
   */
  PMREF_MALLOC_ARENA_MAX: z.coerce.number().int().min(0).max(64).optional(),
  /**
   * How often a `pmref worker` that does not lead tries to take the lead (PostgreSQL advisory lock), in seconds.
   * Bounds failover: a leader that dies is replaced within about this long, and the new leader redoes the
   * run it interrupted.
   */
  PMREF_LEADER_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /**
   * How old the served data may be, in minutes, before `GET /readyz` answers 503 (the age of the data is the
   * time since the pipeline run that published the served generation finished). 180 is three missed hourly
   * refreshes: one failed or slow run (a venue away, a long first backfill) does not take a replica out of
   * rotation, and a replica whose rebuilds keep failing while the store moves on leaves it within hours.
   * Replicas sharing a store age together, so past the bound they all go unready at once: an operator who
   * would rather serve old data than none sets it high. Keep it above PMREF_REFRESH_MINUTES plus a run's length.
   * Simulated data (a fixed universe on the simulated clock) is not judged by age, as in /v1/status.
   */
  PMREF_READY_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(525_600).default(180),
  /**
   * Port of the Prometheus endpoint (`GET /metrics` on a small server of its own, never on the public API).
   * Unset: no metrics endpoint and no per-request instrumentation. 0 picks a free port (logged).
   */
  PMREF_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Bind address of the metrics endpoint; loopback by default, so metrics are not public by accident. */
  PMREF_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * How long a stopping server (SIGTERM/SIGINT) lets in-flight requests finish, in seconds. Past it the remaining
   * connections are closed and the process exits anyway (it logs that it forced the close). 20 s stays under
   * Kubernetes' default 30 s kill deadline, leaving time for the rest of the shutdown; `docker stop` waits 10 s
   * unless given `--time`.
   */
  PMREF_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  /**
   * Seconds between heartbeat comments on `/v1/changes/stream` (issue 20). Proxies commonly close a connection idle
   * for 30–60 s; 15 s stays well under that and costs a few bytes per stream.
   */
  PMREF_CHANGES_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  /**
   * Days of hourly detail the pipeline keeps for `GET /v1/markets/{id}/history?interval=hour` (issue 20): each run
   * writes a row per market whose quote changed and deletes rows of hours before midnight UTC this many days ago.
   * 0 keeps none (interval=hour then answers 400 saying so). Daily marks are kept forever whatever this says.
   */
  PMREF_HOURLY_RETENTION_DAYS: z.coerce.number().int().min(0).max(366).default(DEFAULT_HOURLY_RETENTION_DAYS),
  PMREF_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]+$/, 'use letters, digits, ":", "_" or "-"')
    .default('pmref'),
});
export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = ConfigSchema.safeParse(picked);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map(
    (i) => `  ${i.path.join('.')}=${JSON.stringify(picked[String(i.path[0])])}: ${i.message}`,
  );
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}
