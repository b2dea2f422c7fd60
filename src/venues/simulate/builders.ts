/**
 * Shared machinery for the family builders: one `EventKit` per event draws the event's text
 * profile once (so every market of a ladder shares its template, as on the real venues) and
 * composes each market's rules from condition parts; plus the probability shapes of ladders,
 * categoricals and date ladders.
 */
import type { BundleType, Category, Venue } from '../../domain/index.ts';
import { DAY_MS } from './calendar.ts';
import type { CoinId, Commitment, EventDraft, MarketDraft, SeriesDraft, SourcePlan, TextProfile } from './model.ts';
import {
  compose,
  discretionize,
  drawProfile,
  mutabilitySentence,
  proposerSentence,
  type RuleParts,
  type SourceClause,
  sourceClause,
} from './phrasing.ts';
import type { Rng } from './prng.ts';

/** What a family builder gets: its own random stream, the venue, the as-of day and a target size. */
export interface FamilyCtx {
  rng: Rng;
  venue: Venue;
  /** The as-of day at 00:00 UTC. */
  asOfMs: number;
  /** Desired number of markets for variable-size bundles. */
  size: number;
  /** Sequence number of this event within its family and venue (distinct dates / entities). */
  seq: number;
  /**
   * 2·seq + venue parity (twins reuse venue_a's slot on both venues). Families pick periods,
   * subjects and contests by slot, so the two venues' non-twin events never ask the same question
   * by accident: every cross-venue twin is one the truth sidecar lists.
   */
  slot: number;
  world: World;
}

/** Universe-wide facts every family may read: spot prices at the as-of snapshot. */
export interface World {
  spot: Record<CoinId, number>;
}

export interface KitOptions {
  eventLike: boolean;
  /** A commitment class the family always uses on venue_a (venue_b draws its own). */
  fixed?: Commitment;
  /** Also force `fixed` on venue_b (crypto price feeds, which name their exchange on both venues). */
  fixedOnBoth?: boolean;
  /** Forces a profile field, e.g. editable sources for war maps or leaderboards. */
  mutability?: TextProfile['mutability'];
  proposer?: TextProfile['proposer'];
}

export interface EventFields {
  category: Category;
  bundle: BundleType;
  family: string;
  series: Omit<SeriesDraft, 'sources'>;
  eventTicker: string;
  title: string;
  subTitle: string;
  description?: string;
  tags: string[];
  mutuallyExclusive?: boolean;
  negRisk?: boolean;
  augmented?: boolean;
  strikeDateMs?: number | null;
  openMs?: number;
  entity?: string | null;
}

/** One event's text profile, source clause and tail sentences, applied to each of its markets. */
export class EventKit {
  readonly profile: TextProfile;
  readonly clause: SourceClause;
  private readonly tail: string[];
  private readonly discretionRng: string;

  constructor(
    readonly ctx: FamilyCtx,
    readonly plan: SourcePlan,
    opts: KitOptions,
  ) {
    const drawn = drawProfile(ctx.rng, ctx.venue, {
      eventLike: opts.eventLike,
      ...(opts.fixed && (ctx.venue === 'venue_a' || opts.fixedOnBoth) ? { fixed: opts.fixed } : {}),
    });
    this.profile = {
      ...drawn,
      ...(opts.mutability ? { mutability: opts.mutability } : {}),
      ...(opts.proposer && ctx.venue === 'venue_b' ? { proposer: opts.proposer } : {}),
    };
    this.clause = sourceClause(ctx.rng, ctx.venue, this.profile.commitment, plan, opts.eventLike);
    const sourceName = plan.authority.name.replace(/\.$/, '');
    // A venue notice that names a settlement source the series does not list (exchange_notice_source_conflict).
    const other = plan.fallback ?? plan.aggregator;
    const notice =
      ctx.venue === 'venue_a' &&
      other &&
      !this.clause.seriesSources.some((s) => s.name === other.name) &&
      ctx.rng.chance(0.015)
        ? `Exchange notice: this market will be settled using data published by ${other.name}.`
        : '';
    this.tail = [
      mutabilitySentence(ctx.rng, this.profile, sourceName, opts.eventLike),
      ctx.venue === 'venue_b' ? proposerSentence(this.profile) : '',
      notice,
    ];
    this.discretionRng = `${ctx.rng.label}/discretion`;
  }

  get venue(): Venue {
    return this.ctx.venue;
  }

  get a(): boolean {
    return this.ctx.venue === 'venue_a';
  }

  /** Rules for one market; `whenVague` replaces `when` when the profile's timing is vague. */
  text(parts: RuleParts & { whenVague?: string }): { rules: string; rules2: string } {
    let condition = parts.condition;
    if (this.profile.trigger === 'discretionary') {
      // Same wording for every market of the event: a fresh stream with a fixed label.
      condition = discretionize(this.ctx.rng.fork(this.discretionRng), condition);
    }
    const when = this.profile.timing === 'vague' && parts.whenVague !== undefined ? parts.whenVague : parts.when;
    return compose(this.ctx.venue, { ...parts, condition, when }, this.clause, this.tail);
  }

  /** Assembles the event draft (series sources come from the source clause). */
  event(fields: EventFields, markets: MarketDraft[]): EventDraft {
    // Every event is listed in both snapshots: it opened at least two days before the as-of.
    const openMs = Math.min(
      fields.openMs ?? this.ctx.asOfMs - DAY_MS * this.ctx.rng.int(20, 200),
      this.ctx.asOfMs - 2 * DAY_MS,
    );
    for (const m of markets) m.title = capitalize(m.title);
    return {
      venue: this.ctx.venue,
      category: fields.category,
      bundle: fields.bundle,
      family: fields.family,
      series: { ...fields.series, sources: this.clause.seriesSources },
      eventTicker: fields.eventTicker,
      title: capitalize(fields.title),
      subTitle: fields.subTitle,
      description: fields.description ?? '',
      tags: fields.tags,
      categoryRaw: fields.series.categoryRaw,
      mutuallyExclusive: fields.mutuallyExclusive ?? false,
      negRisk: fields.negRisk ?? false,
      augmented: fields.augmented ?? false,
      strikeDateMs: fields.strikeDateMs ?? null,
      openMs,
      resolutionSource: this.clause.resolutionSource,
      entity: fields.entity ?? null,
      profile: this.profile,
      markets,
    };
  }
}

/** P(value above k) for a ladder centred on `center` with logistic width `spread`. */
export function aboveProb(k: number, center: number, spread: number): number {
  return clampProb(1 / (1 + Math.exp((k - center) / spread)));
}

/** Keeps a fair value off the 0/1 rails, where a venue would not quote it. */
export function clampProb(p: number): number {
  return Math.min(0.99, Math.max(0.01, p));
}

/** Categorical weights summing to one, largest first (a favourite and a long tail). */
export function categoricalProbs(rng: Rng, n: number): number[] {
  const w = Array.from({ length: n }, () => Math.exp(1.4 * rng.normal()));
  w.sort((x, y) => y - x);
  const total = w.reduce((s, x) => s + x, 0);
  return w.map((x) => Math.max(0.002, x / total));
}

/** P(event by deadline) for a constant hazard per 30 days. */
export function byDeadlineProb(hazardPerMonth: number, asOfMs: number, deadlineMs: number): number {
  const months = Math.max(0, (deadlineMs - asOfMs) / (30 * DAY_MS));
  return clampProb(1 - Math.exp(-hazardPerMonth * months) + 0.01);
}

/**
 * `n` evenly spaced strikes around `center`, rounded to `step`. Unless `allowNegative`, the window
 * is shifted up so the lowest strike stays above zero (no "$-0.03" Dogecoin strikes).
 */
export function strikesAround(center: number, step: number, n: number, shift = 0, allowNegative = false): number[] {
  let start = Math.round(center / step) - Math.floor(n / 2) + shift;
  if (!allowNegative && start < 1) start = 1;
  return Array.from({ length: n }, (_, i) => Number(((start + i) * step).toFixed(6)));
}

/** A round ladder step near `x`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m < 1.5 ? 1 : m < 2.25 ? 2 : m < 3.5 ? 2.5 : m < 7.5 ? 5 : 10) * p;
}

/** Initials-style ticker suffix for a name: "Gavin Newsom" → "GNEW". */
export function nameCode(name: string): string {
  const words = name
    .replace(/[^A-Za-z ]/g, '')
    .split(' ')
    .filter(Boolean);
  if (words.length === 0) return 'X';
  const first = words[0] ?? 'X';
  const last = words[words.length - 1] ?? first;
  return `${words.length > 1 ? first.charAt(0) : ''}${last.slice(0, 3)}`.toUpperCase();
}

/** Titles start upper-case even when built from a lower-case subject ("the United States strikes …"). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
