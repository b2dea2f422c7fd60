/**
 * Evaluates a regime against one market. Pure: the screening time is passed in.
 *
 * Order (the funnel of served-shapes §15): venue and status scope → required fields → minimum
 * maturity → rules (keyword and category; the strictest outcome wins, every matching reason is kept)
 * → permitted category. A market with no blocking reason and a permitted bucket is eligible.
 */
import type { EligibilityScreenResult, Event, Market } from '../../domain/index.ts';
import type { Regime, ScreenRule } from './regime.ts';

export type ScreenOutcome = EligibilityScreenResult & { review_cluster: string | null };

const DAY_MS = 86_400_000;

function keywordPattern(keyword: string): RegExp {
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(`\\b${escaped}\\b`, 'i');
}

const patternCache = new Map<string, RegExp>();
function matchesKeyword(text: string, keyword: string): boolean {
  let re = patternCache.get(keyword);
  if (!re) {
    re = keywordPattern(keyword);
    patternCache.set(keyword, re);
  }
  return re.test(text);
}

function ruleMatches(rule: ScreenRule, category: string, text: string): boolean {
  if (rule.match.categories?.some((c) => c === category)) return true;
  return rule.match.keywords?.some((k) => matchesKeyword(text, k)) ?? false;
}

/** True when the regime's venue and status scope cover the market (the funnel's `in_scope`). */
export function inRegimeScope(regime: Regime, market: Market): boolean {
  return regime.scope.market_statuses.includes(market.status);
}

/**
 * Screens one market under one regime.
 * @example evaluateScreen(REGIMES[0], market, event, '2026-11-22T00:00:00Z').status // 'eligible'
 */
export function evaluateScreen(regime: Regime, market: Market, event: Event | null, now: string): ScreenOutcome {
  const base = {
    regime: regime.regime,
    screen_version: regime.screen_version,
    screened_at: now,
  };
  const category = event?.category ?? 'unknown';
  const done = (
    status: ScreenOutcome['status'],
    reasons: string[],
    permitted: string | null,
    cluster: string | null,
  ): ScreenOutcome => ({ ...base, status, reasons, permitted_category: permitted, review_cluster: cluster });

  if (!regime.scope.venues.includes(market.platform)) return done('not_eligible', ['venue_out_of_scope'], null, null);

  const missing = missingFields(regime, market);
  if (missing.length > 0) return done('not_eligible', missing, null, null);

  if (underMinMaturity(regime, market, now)) return done('not_eligible', ['under_min_maturity'], null, null);

  const text = `${event?.question ?? ''}\n${market.question_raw ?? ''}\n${market.group_item_title ?? ''}`;
  const bucket = regime.permitted_categories.find((b) => b.categories.some((c) => c === category))?.bucket ?? null;
  const hits = regime.rules.filter((r) => ruleMatches(r, category, text));
  const blocking = hits.filter((r) => r.outcome === 'not_eligible');
  if (blocking.length > 0) {
    return done('not_eligible', unique(blocking.map((r) => r.reason)), bucket, null);
  }
  const reviews = hits.filter((r) => r.outcome === 'review');
  if (reviews.length > 0) {
    const cluster = reviews.find((r) => r.cluster !== undefined)?.cluster ?? null;
    return done('review', unique(reviews.map((r) => r.reason)), bucket, cluster);
  }
  if (bucket === null) return done('not_eligible', ['category_not_permitted'], null, null);
  return done('eligible', [], bucket, null);
}

/** The funnel's required-fields step: the reasons of the fields the regime requires and the market lacks. */
function missingFields(regime: Regime, market: Market): string[] {
  const missing: string[] = [];
  if (regime.required_fields.includes('resolve_date') && (market.resolve_at ?? market.close_at) === null)
    missing.push('no_resolution_date');
  if (regime.required_fields.includes('resolution_source') && market.source_of_record === null)
    missing.push('no_committed_source');
  return missing;
}

/**
 * True when the funnel stops a market at its maturity step at `now`: in the regime's venue scope, no required field
 * missing, resolving sooner than the minimum maturity. The only step that reads the clock (the pipeline's
 * `screensStand` relies on it).
 */
export function stoppedAtMaturity(regime: Regime, market: Market, now: string): boolean {
  if (!regime.scope.venues.includes(market.platform) || missingFields(regime, market).length > 0) return false;
  return underMinMaturity(regime, market, now);
}

function underMinMaturity(regime: Regime, market: Market, now: string): boolean {
  const resolveDate = market.resolve_at ?? market.close_at;
  if (resolveDate === null || regime.min_days_to_resolution <= 0) return false;
  return (Date.parse(resolveDate) - Date.parse(now)) / DAY_MS < regime.min_days_to_resolution;
}

/** Whether a result is the one the maturity step gives. */
export function isUnderMinMaturity(result: EligibilityScreenResult): boolean {
  return (
    result.status === 'not_eligible' &&
    result.reasons.length === 1 &&
    result.reasons[0] === 'under_min_maturity' &&
    result.permitted_category === null &&
    (result.review_cluster ?? null) === null
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
