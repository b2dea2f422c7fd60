/**
 * Bundles (spec §2.1 `bundle_type`): which resolution fields an event's markets share and which are
 * per child, read from the venue structure; the subject-free event `resolution_reference`; and the
 * normalized `ladder_distribution` of ladders and exclusive categorical bundles.
 */
import type { BundleType, LadderDistribution, Market, VenueFacts } from '../../domain/index.ts';
import type { ClaimKeyResult } from './claim-key.ts';
import { foldText } from './text.ts';

export interface BundleChild {
  market: Market;
  facts: VenueFacts;
  claim: ClaimKeyResult;
}

/**
 * The bundle type of an event's markets:
 * - `singleton`: one market;
 * - `strike_ladder`: the children differ only by a numeric strike (venue_a strike fields, or thresholds read from the text);
 * - `augmented_negrisk`: a venue_b negative-risk bundle flagged augmented (outcomes may be added; "Other" exists);
 * - `categorical`: mutually exclusive named outcomes (venue_a `mutually_exclusive`, venue_b `negRisk`),
 *   or independent named outcomes that are not ladders;
 * - `date_ladder`: the children differ only by their deadline (cumulative "by date" questions).
 */
export function bundleTypeOf(children: readonly BundleChild[]): BundleType {
  if (children.length <= 1) return 'singleton';
  const keyed = children.flatMap((c) => (c.claim.status === 'keyed' ? [c.claim.key] : []));
  const allKeyed = keyed.length === children.length;
  const thresholds = new Set(keyed.map((k) => `${k.op}:${k.threshold}:${k.cap}`));
  const structuredStrikes = children.every(
    (c) =>
      c.facts.strike_type !== null &&
      c.facts.strike_type !== 'custom' &&
      c.facts.strike_type !== 'structured' &&
      (c.facts.floor_strike !== null || c.facts.cap_strike !== null),
  );
  if (
    structuredStrikes ||
    (allKeyed &&
      keyed.every((k) => k.threshold !== null) &&
      thresholds.size === children.length &&
      new Set(keyed.map((k) => k.metric)).size === 1)
  ) {
    return 'strike_ladder';
  }
  if (children.some((c) => c.facts.neg_risk_augmented === true)) return 'augmented_negrisk';
  const exclusive = children.some((c) => c.facts.mutually_exclusive === true || c.facts.neg_risk === true);
  if (exclusive) return 'categorical';
  const horizons = new Set(keyed.map((k) => k.horizon));
  const phrases = new Set(keyed.map((k) => k.metric));
  // Venues list a stray duplicate date or an unkeyable child now and then: most children suffice.
  const mostKeyed = keyed.length >= 2 && keyed.length >= 0.8 * children.length;
  if (mostKeyed && phrases.size === 1 && horizons.size >= Math.max(2, 0.8 * keyed.length)) return 'date_ladder';
  return 'categorical';
}

const SENTENCE_RE = /[^.!?\n]+[.!?]?/g;
const MAX_REFERENCE = 600;

/**
 * The event-level resolution rule with no child subject in it: venue_b's event description when there
 * is one, else the first child's rules with the child's outcome name and strike replaced by
 * "the listed outcome" / "the listed strike". Null when there is no rules text.
 */
export function resolutionReferenceOf(children: readonly BundleChild[], bundle: BundleType): string | null {
  const first = children[0];
  if (!first) return null;
  const shared = first.facts.event_description?.trim();
  let text =
    shared && shared.length > 0
      ? shared
      : (first.market.resolution_rules_raw ?? first.market.description_raw ?? '').trim();
  if (!text) return null;
  text = foldText(text);
  if (bundle !== 'singleton') {
    const label =
      bundle === 'date_ladder'
        ? 'the listed date'
        : bundle === 'strike_ladder'
          ? 'the listed strike'
          : 'the listed outcome';
    const replace = (v: string) => {
      const f = foldText(v);
      if (f.length > 1) text = text.replace(new RegExp(f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), label);
    };
    for (const c of children) {
      const name = c.market.group_item_title?.trim();
      if (name) replace(name);
      for (const v of Object.values(c.facts.custom_strike ?? {})) if (typeof v === 'string') replace(v);
    }
    if (bundle === 'strike_ladder') {
      for (const c of children) {
        for (const n of [c.facts.floor_strike, c.facts.cap_strike]) {
          if (n !== null)
            text = text.replace(new RegExp(`\\$?${String(n).replace('.', '\\.')}%?`, 'g'), 'the listed strike');
        }
      }
    }
  }
  const sentences = text.match(SENTENCE_RE) ?? [text];
  let out = '';
  for (const s of sentences) {
    if ((out + s).length > MAX_REFERENCE && out.length > 0) break;
    out += s;
  }
  return out.trim() || null;
}

/**
 * The child's underlying reference composed from the event's reference and the child's title, with
 * the provenance the spec names: `composed:event+child`, `inherited:event`, `derived:group_item_title`.
 */
export function underlyingReferenceOf(
  reference: string | null,
  market: Market,
  bundle: BundleType,
): { value: string | null; source: 'composed:event+child' | 'inherited:event' | 'derived:group_item_title' | null } {
  const child = market.group_item_title?.trim() || null;
  if (reference && child && bundle !== 'singleton')
    return { value: `${reference} Outcome: ${child}.`, source: 'composed:event+child' };
  if (reference) return { value: reference, source: 'inherited:event' };
  if (child) return { value: child, source: 'derived:group_item_title' };
  return { value: null, source: null };
}

/**
 * The normalized distribution over a ladder's strikes (or an exclusive bundle's outcomes), or null with a reason.
 * - Exclusive outcomes (categorical, augmented, bracket ladders): each price over their sum.
 * - Cumulative "above" strike ladders: P(above t_i) − P(above t_{i+1}) per bracket, plus the mass below the lowest strike.
 * - Cumulative date ladders: P(by d_i) − P(by d_{i−1}) per interval; the rest is "after the last date".
 * A cumulative ladder whose prices are not monotone gives null: it has no consistent distribution.
 */
export function ladderDistributionOf(
  children: readonly BundleChild[],
  bundle: BundleType,
  prices: ReadonlyMap<string, number | null>,
): { distribution: LadderDistribution; reason: string | null } {
  if (bundle === 'singleton') return { distribution: null, reason: 'singleton: no ladder' };
  const priced = children.map((c) => ({ c, p: prices.get(c.market.market_id) ?? null }));
  const missing = priced.filter((x) => x.p === null).length;
  if (missing > 0) return { distribution: null, reason: `no price for ${missing} of ${children.length} markets` };
  const keyOf = (c: BundleChild) => (c.claim.status === 'keyed' ? c.claim.key : null);
  const exclusive =
    bundle === 'categorical' || bundle === 'augmented_negrisk'
      ? children.some((c) => c.facts.mutually_exclusive === true || c.facts.neg_risk === true)
      : children.every((c) => keyOf(c)?.op === 'between');
  if (exclusive) {
    const sum = priced.reduce((s, x) => s + (x.p ?? 0), 0);
    if (sum <= 0) return { distribution: null, reason: 'prices sum to zero' };
    return {
      distribution: {
        kind: bundle === 'strike_ladder' ? 'strike_ladder' : 'categorical',
        points: priced.map((x) => ({
          market_id: x.c.market.market_id,
          label: x.c.market.group_item_title ?? x.c.market.question_raw ?? x.c.market.platform_market_id,
          probability: (x.p ?? 0) / sum,
        })),
        raw_sum: sum,
      },
      reason: null,
    };
  }
  if (bundle === 'categorical' || bundle === 'augmented_negrisk') {
    return { distribution: null, reason: 'outcomes are not mutually exclusive' };
  }
  if (bundle === 'strike_ladder') {
    const rows = priced.map((x) => ({ ...x, k: keyOf(x.c) }));
    if (!rows.every((r) => r.k?.threshold !== null && r.k?.direction === 'above')) {
      return { distribution: null, reason: 'ladder mixes strike directions or has unkeyed strikes' };
    }
    rows.sort((a, b) => (a.k?.threshold ?? 0) - (b.k?.threshold ?? 0));
    return cumulative(
      rows.map((r) => ({ id: r.c.market.market_id, label: String(r.k?.threshold), p: r.p ?? 0 })),
      'strike_ladder',
      true,
    );
  }
  const rows = priced.map((x) => ({ ...x, k: keyOf(x.c) }));
  if (!rows.every((r) => r.k?.horizon.startsWith('by:')))
    return { distribution: null, reason: 'date ladder with non-deadline horizons' };
  rows.sort((a, b) => (a.k?.horizon ?? '').localeCompare(b.k?.horizon ?? ''));
  return cumulative(
    rows.map((r) => ({ id: r.c.market.market_id, label: (r.k?.horizon ?? '').slice(3), p: r.p ?? 0 })),
    'date_ladder',
    false,
  );
}

function cumulative(
  rows: Array<{ id: string; label: string; p: number }>,
  kind: 'strike_ladder' | 'date_ladder',
  survival: boolean,
): { distribution: LadderDistribution; reason: string | null } {
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last) return { distribution: null, reason: 'empty ladder' };
  for (let i = 1; i < rows.length; i++) {
    const prev = rows[i - 1]?.p ?? 0;
    const cur = rows[i]?.p ?? 0;
    if (survival ? cur > prev + 1e-9 : cur < prev - 1e-9) {
      return { distribution: null, reason: `prices are not monotone along the ladder (at ${rows[i]?.label})` };
    }
  }
  const points: Array<{ market_id: string; label: string; probability: number }> = [];
  if (survival) {
    points.push({ market_id: first.id, label: `<= ${first.label}`, probability: 1 - first.p });
    rows.forEach((r, i) => {
      const next = rows[i + 1];
      points.push({
        market_id: r.id,
        label: next ? `> ${r.label} and <= ${next.label}` : `> ${r.label}`,
        probability: r.p - (next?.p ?? 0),
      });
    });
  } else {
    rows.forEach((r, i) => {
      const prev = rows[i - 1];
      points.push({
        market_id: r.id,
        label: prev ? `after ${prev.label}, by ${r.label}` : `by ${r.label}`,
        probability: r.p - (prev?.p ?? 0),
      });
    });
    points.push({ market_id: last.id, label: `not by ${last.label}`, probability: 1 - last.p });
  }
  return { distribution: { kind, points, raw_sum: 1 }, reason: null };
}
