/**
 * The contract the venue room exports to the pipeline: client options, the raw pull, and the
 * normalized records with their quotes.
 */
import type { Event, FieldProvenance, Market, Venue, VenueFacts } from '../domain/index.ts';
import type { VenueShapeManifest } from './drift/shapes.ts';
import type { VenueDriftSummary } from './drift/watch.ts';

/** Logger shape the clients need; pino satisfies it. */
export interface VenueLogger {
  info(o: object, msg?: string): void;
  warn(o: object, msg?: string): void;
}

/** Clock and sleep seams: tests inject them so backoff and rate caps never wait for real. */
export interface VenueClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` (a fake clock advances `now` instead of waiting). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1): the jitter source. */
  random(): number;
}

export interface VenueClientOptions {
  /** venue_a: the trade-api v2 root (…/trade-api/v2); venue_b: the Gamma root. */
  baseUrl: string;
  /** venue_b only: the CLOB root (books). Defaults to the public CLOB. */
  clobBaseUrl?: string;
  timeoutMs?: number;
  concurrency?: number;
  maxRetries?: number;
  ratePerSecond?: number;
  userAgent?: string;
  logger?: VenueLogger;
  signal?: AbortSignal;
  /**
   * Only closed/settled records that closed at or after this time (epoch ms): venue_a
   * `min_close_ts` on the closed and settled pages, venue_b `end_date_min` on the `closed=true`
   * pages. Unset = every closed record the venue lists (live venues list years of them).
   */
  closedSinceMs?: number;
  /** Page size (venue_a limit ≤ 200; venue_b limit). Tests use tiny pages to force paging. */
  pageSize?: number;
  /** Test seam: clock, sleep and jitter source. */
  clock?: Partial<VenueClock>;
  /**
   * The shape manifest every response of the pull is checked against (the drift watch, drift/watch.ts).
   * Default: the venue's committed manifest (data/venue-shapes); null: no drift watch.
   */
  driftShapes?: VenueShapeManifest | null;
}

/** Raw native records of one venue pull, already zod-parsed loosely (page shapes checked, records not). */
export interface RawVenuePull {
  venue: Venue;
  /** venue_a: v2 event objects with nested `markets`; venue_b: Gamma event objects with nested `markets`. */
  events: unknown[];
  /** venue_a series objects by series ticker (empty for venue_b). */
  series: Record<string, unknown>;
  /** venue_b CLOB `/book` responses by YES token id (empty for venue_a). */
  books: Record<string, unknown>;
  /** Records pulled: market records plus events that arrived without markets. */
  pulled: number;
  /**
   * Null when the pull completed. Otherwise the failure; `events` then holds only what arrived
   * before it, so the pipeline must treat the venue as failed (carry marks forward, infer nothing
   * from absences).
   */
  error: string | null;
  /**
   * Parts of a pull that completed but fell back, by part (`order_books`, `series`), each with what happened
   * in words: the run records them as `<venue>.<part>` in its `degraded` list (issue 15). Absent: none.
   */
  degraded?: Record<string, string>;
  /** How the pull's responses departed from the venue's published document (absent: not watched). */
  drift?: VenueDriftSummary;
  /** HTTP requests made, retries taken and book calls made: for the run summary. */
  requests?: number;
  retries?: number;
}

export interface VenueQuote {
  yes_bid: number | null;
  yes_ask: number | null;
  no_bid: number | null;
  no_ask: number | null;
  yes_bid_size_usd: number | null;
  yes_ask_size_usd: number | null;
  no_bid_size_usd: number | null;
  no_ask_size_usd: number | null;
  last_price: number | null;
  volume_24h_usd: number | null;
  volume_total_usd: number | null;
  open_interest_usd: number | null;
  liquidity_usd: number | null;
  source_updated_at: string | null;
  provenance: FieldProvenance;
  /** The venue's quote fields as received (for the mark's raw_payload). */
  raw: Record<string, unknown>;
}

export interface NormalizedMarket {
  market: Market;
  facts: VenueFacts;
  quote: VenueQuote;
}

export interface NormalizedEvent {
  event: Event;
  markets: NormalizedMarket[];
}

/** What became of one pulled record; the counts in NormalizeResult are sums of these. */
export interface RecordOutcome {
  kind: 'market' | 'event';
  native_id: string;
  outcome: 'normalized' | 'out_of_scope' | 'rejected';
  reason: string | null;
}

export interface NormalizeResult {
  events: NormalizedEvent[];
  /** Records outside the service's scope, by reason (e.g. `category:sports`, `multivariate_combo`). */
  outOfScope: Record<string, number>;
  /** Records that could not be read, by reason (e.g. `invalid_json_field:outcomes`). */
  rejected: Record<string, number>;
  /** One line per pulled record, in pull order. */
  records: RecordOutcome[];
}

/** Resolves native ids to service ids (the pipeline backs this with the store's id registry). */
export interface IdResolver {
  eventId(nativeId: string): string;
  marketId(nativeId: string): string;
}
