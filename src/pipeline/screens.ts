/**
 * Eligibility screens of one market under every shipped regime (issue 10). A result whose outcome is
 * unchanged keeps its stored `screened_at`, so re-running the same input rewrites nothing.
 */
import type { EligibilityScreenResult, Event, Market } from '../domain/index.ts';
import { evaluateScreen, REGIMES } from '../signals/screens/index.ts';

function sameScreen(a: EligibilityScreenResult, b: EligibilityScreenResult): boolean {
  return (
    a.regime === b.regime &&
    a.screen_version === b.screen_version &&
    a.status === b.status &&
    a.permitted_category === b.permitted_category &&
    (a.review_cluster ?? null) === (b.review_cluster ?? null) &&
    a.reasons.join('|') === b.reasons.join('|')
  );
}

/** The market's screen results under every regime whose status scope covers it; null when none does. */
export function screensFor(market: Market, event: Event | null, now: string): EligibilityScreenResult[] | null {
  const results: EligibilityScreenResult[] = [];
  for (const regime of REGIMES) {
    if (!regime.scope.market_statuses.includes(market.status)) continue;
    const fresh = evaluateScreen(regime, market, event, now);
    const previous = market.eligibility_screens?.find((r) => r.regime === regime.regime);
    results.push(previous && sameScreen(previous, fresh) ? previous : fresh);
  }
  return results.length > 0 ? results : null;
}
