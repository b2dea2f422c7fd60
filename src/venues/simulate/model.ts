/**
 * The generator's intermediate model: venue-shaped event and market drafts (texts already
 * written in the venue's own phrasing), before ids, prices and lifecycle are attached and the
 * raw venue records are rendered.
 */
import type { BundleType, Category, Venue } from '../../domain/index.ts';

/** How a market's text commits to a resolution source (rcg-model.md, source commitment). */
export type Commitment =
  | 'named'
  | 'secondhand'
  | 'illustrative'
  | 'consensus'
  | 'primary_fallback'
  | 'menu'
  | 'ordered_fallback'
  | 'quorum'
  | 'none';

/** Which pass/fail pattern of each RCG factor a draft's text carries. */
export interface TextProfile {
  commitment: Commitment;
  trigger: 'objective' | 'discretionary';
  timing: 'precise' | 'vague';
  mutability: 'none' | 'snapshot' | 'editable';
  proposer: 'silent' | 'permissionless' | 'managed' | 'automatic';
}

export interface SourceRef {
  name: string;
  url: string;
}

/** The sources a family can cite: the authority, a republisher, an illustrative pick, a fallback. */
export interface SourcePlan {
  authority: SourceRef;
  /** A commercial aggregator or single outlet republishing the authority's numbers. */
  aggregator?: SourceRef;
  /** The loose "for example" candidate (equity indices: Google Finance). */
  illustrative?: SourceRef;
  /** The second source of an ordered fallback. */
  fallback?: SourceRef;
  /** How the authority is named in prose: "official information from X" reads better for people. */
  prose?: string;
}

export type CoinId = 'bitcoin' | 'ethereum' | 'solana' | 'ripple' | 'dogecoin' | 'cardano';

export interface StrikeSpec {
  type: 'greater' | 'greater_or_equal' | 'less' | 'less_or_equal' | 'between' | 'custom' | 'structured';
  floor?: number;
  cap?: number;
  custom?: Record<string, string>;
}

export interface MarketDraft {
  /** venue_a ticker suffix, venue_b slug seed; unique within its event. */
  key: string;
  /** venue_a `title` / venue_b `question`. */
  title: string;
  /** venue_a `yes_sub_title` / venue_b `groupItemTitle`. */
  sub: string;
  strike: StrikeSpec | null;
  /** venue_a `rules_primary` / venue_b `description`. */
  rules: string;
  /** venue_a `rules_secondary` ('' on venue_b). */
  rules2: string;
  /** Scheduled close (deadline) as epoch ms. */
  deadlineMs: number;
  /** Fair probability at the as-of snapshot (before shocks and mispricing). */
  prob: number;
  /**
   * The underlying question in canonical form (family, subject, period, direction, level). Two
   * markets on different venues with the same claim are twins; tests check truth.json lists them all.
   */
  claim: string;
  /** Crypto threshold markets: priced from the simulated spot path. */
  spot?: { coin: CoinId; threshold: number; cap?: number; direction: 'above' | 'below' | 'between'; atMs: number };
  /** The event happened at this instant: the market closes early and resolves Yes. */
  occurredMs?: number;
  /** venue_b: the market resolves automatically from a price feed (no proposer). */
  automatic?: boolean;
  /** A cross-venue twin (or complement) whose price path this market follows. */
  link?: { to: MarketDraft; mode: 'same' | 'complement'; gap: number };
}

export interface SeriesDraft {
  ticker: string;
  title: string;
  categoryRaw: string;
  tags: string[];
  sources: SourceRef[];
  frequency: string;
}

export interface EventDraft {
  venue: Venue;
  category: Category;
  bundle: BundleType;
  family: string;
  /** venue_a series (also the event ticker prefix). */
  series: SeriesDraft;
  /** venue_a event ticker; venue_b uses it as `ticker` seed. */
  eventTicker: string;
  title: string;
  subTitle: string;
  /** venue_b event description (venue_a: unused). */
  description: string;
  /** venue_b tag labels, first one decides the category. */
  tags: string[];
  categoryRaw: string;
  mutuallyExclusive: boolean;
  negRisk: boolean;
  augmented: boolean;
  strikeDateMs: number | null;
  openMs: number;
  /** venue_b market `resolutionSource` (usually ''). */
  resolutionSource: string;
  /** Entity for news-cycle repricing (several events about one entity move together). */
  entity: string | null;
  profile: TextProfile;
  markets: MarketDraft[];
}

export type TrapKind = 'deadline' | 'threshold' | 'window' | 'price_source' | 'event_definition';

/** A labelled cross-venue pair, before native ids are known. */
export interface DraftPair {
  a: MarketDraft;
  b: MarketDraft;
  label: 'same' | 'complement' | 'different';
  trapKind?: TrapKind;
  why: string;
}

export interface TruthPair {
  a: { venue: 'venue_a'; native_id: string };
  b: { venue: 'venue_b'; native_id: string };
  label: 'same' | 'complement' | 'different';
  trap_kind?: TrapKind;
  why: string;
}

export interface VenueCounts {
  events: number;
  markets: number;
}

/** `manifest.json` (the contract the replay server and the pipeline read). */
export interface Manifest {
  seed: number;
  days: number;
  as_of: string;
  generated_by: 'pmref simulate';
  data_source: 'simulated';
  snapshots: [string, string];
  counts: {
    events: number;
    markets: number;
    venue_a: VenueCounts;
    venue_b: VenueCounts;
    /** Events per service category (all nine keys present). */
    by_category: Record<string, number>;
    /** Events per bundle type (all five keys present). */
    by_bundle_type: Record<string, number>;
    /** truth.json pairs labelled "same". */
    twins: number;
    /** truth.json pairs labelled "complement". */
    complements: number;
    /** truth.json pairs labelled "different" (near-miss traps). */
    traps: number;
  };
  /** Present while the price history is not written yet (generate.ts `generateHistory` writes it). */
  history_deferred?: { scale: number };
}
