/**
 * Eligibility screens of one market under every shipped regime (issue 10). A result whose outcome is
 * unchanged keeps its stored `screened_at`, so re-running the same input rewrites nothing.
 */
import type { EligibilityScreenResult, Event, Market } from '../domain/index.ts';
import { evaluateScreen, isUnderMinMaturity, REGIMES, stoppedAtMaturity } from '../signals/screens/index.ts';

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

/**
 * True when `screensFor(market, event, now)` gives back `market.eligibility_screens` as they are, decided without
 * screening (issue 18: an hourly refresh screened all 39,200 markets for 1 s, to change a few). The caller knows the
 * stored results were screened from this very record, against an event of the same category and question, under
 * the regimes loaded now (screensFor's other inputs). The clock enters a result at one step only, the minimum
 * maturity: a result stands when that step says now what it said then. Then the result's maturity shape tells:
 * - the step blocks now: screening gives that shape, so a stored result of that shape stands;
 * - it does not block now: a stored result of another shape passed the step then and stands (the funnel after it
 *   reads the record and the event alone); a stored result of that shape does not (rules might now say otherwise).
 * A regime or version missing, extra or out of order (the market's status moved it in or out of scope) does not.
 */
export function screensStand(market: Market, now: string): boolean {
  const stored = market.eligibility_screens ?? [];
  let at = 0;
  for (const regime of REGIMES) {
    if (!regime.scope.market_statuses.includes(market.status)) continue;
    const result = stored[at++];
    if (result === undefined || result.regime !== regime.regime || result.screen_version !== regime.screen_version)
      return false;
    if (stoppedAtMaturity(regime, market, now) !== isUnderMinMaturity(result)) return false;
  }
  return at === stored.length && (at > 0 || market.eligibility_screens === null);
}
