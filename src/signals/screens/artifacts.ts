/**
 * The published screen artifacts (served-shapes §15 and issue 10): one JSON document and one CSV per
 * regime, built from the screen results stored on each market, plus the index of regimes.
 *
 * CSV encoding: RFC 4180 (CRLF record separator, fields quoted when they hold a comma, quote, CR or LF,
 * quotes doubled), UTF-8 with a byte-order mark so that spreadsheet programs read non-ASCII names
 * correctly — the same choice as the reference service. Rows are ordered by `svc_market_id`, the join key.
 */
import { stringify } from 'csv-stringify/sync';
import type { EligibilityScreenResult, Event, Market } from '../../domain/index.ts';
import type { Regime } from './regime.ts';

export const SCREEN_CSV_COLUMNS = [
  'svc_market_id',
  'venue',
  'venue_id',
  'question',
  'status',
  'reasons',
  'review_cluster',
  'permitted_category',
  'resolves',
  'resolution_source',
  'rcg_grade',
  'regime',
  'screen_version',
  'screened_at',
] as const;

/** What the artifacts read of a market: a stored Market satisfies it, and so does a served market detail mapped back. */
export type ScreenSubject = Pick<
  Market,
  | 'market_id'
  | 'event_id'
  | 'platform'
  | 'platform_market_id'
  | 'question_raw'
  | 'status'
  | 'resolve_at'
  | 'close_at'
  | 'source_of_record'
  | 'resolution_source'
  | 'eligibility_screens'
> & { rcg: { grade: string } | null };

export interface ScreenedMarket {
  market: ScreenSubject;
  event: Event | null;
  result: EligibilityScreenResult;
}

export interface ScreenDocument {
  regime: string;
  regime_name: string;
  screen_version: string;
  screened_at: string | null;
  venue: string[];
  scope: string;
  funnel: {
    in_scope: number;
    candidate_category: number;
    min_maturity: number;
    eligible: number;
    review: number;
    not_eligible: number;
  };
  eligible_buckets: Record<string, number>;
  eligible_no_committed_source: number;
  review_reasons: Record<string, number>;
  not_eligible_reasons: Record<string, number>;
  review_clusters: Array<{
    key: string;
    label: string;
    reason: string | null;
    market_count: number;
    event_count: number;
    example_events: string[];
  }>;
  market_ids: { eligible: string[]; review: string[]; not_eligible: string[] };
  markets: Record<string, { status: string; reasons: string[]; bucket: string | null; cluster?: string }>;
  sections: Regime['sections'];
  primary_source: Regime['primary_source'];
  disclaimer: string;
}

const PRE_CATEGORY_REASONS = new Set(['venue_out_of_scope', 'no_resolution_date', 'no_committed_source']);

/** The regime's result on a market, if it was screened under it. */
export function resultFor(market: ScreenSubject, regime: string): EligibilityScreenResult | null {
  return market.eligibility_screens?.find((r) => r.regime === regime) ?? null;
}

/** Collects the markets screened under a regime, ordered by market id. */
export function screenedMarkets(
  regime: Regime,
  markets: readonly ScreenSubject[],
  eventsById: ReadonlyMap<string, Event>,
): ScreenedMarket[] {
  const out: ScreenedMarket[] = [];
  for (const market of markets) {
    const result = resultFor(market, regime.regime);
    if (result) out.push({ market, event: market.event_id ? (eventsById.get(market.event_id) ?? null) : null, result });
  }
  return out.sort((a, b) =>
    a.market.market_id < b.market.market_id ? -1 : a.market.market_id > b.market.market_id ? 1 : 0,
  );
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** The regime JSON document, with market ids grouped by status (pmref goes further (h)). */
export function screenDocument(regime: Regime, rows: readonly ScreenedMarket[]): ScreenDocument {
  const funnel = {
    in_scope: rows.length,
    candidate_category: 0,
    min_maturity: 0,
    eligible: 0,
    review: 0,
    not_eligible: 0,
  };
  const eligibleBuckets: Record<string, number> = {};
  const reviewReasons: Record<string, number> = {};
  const notEligibleReasons: Record<string, number> = {};
  const ids = { eligible: [] as string[], review: [] as string[], not_eligible: [] as string[] };
  const markets: ScreenDocument['markets'] = {};
  const clusterMarkets = new Map<string, { reason: string | null; markets: number; events: Set<string> }>();
  let eligibleNoSource = 0;
  let screenedAt: string | null = null;

  for (const { market, event, result } of rows) {
    if (screenedAt === null || result.screened_at > screenedAt) screenedAt = result.screened_at;
    const passedScope = !result.reasons.some((r) => PRE_CATEGORY_REASONS.has(r));
    if (passedScope) funnel.candidate_category++;
    if (passedScope && !result.reasons.includes('under_min_maturity')) funnel.min_maturity++;
    funnel[result.status]++;
    ids[result.status].push(market.market_id);
    const cluster = result.review_cluster ?? null;
    markets[market.market_id] = {
      status: result.status,
      reasons: result.reasons,
      bucket: result.permitted_category,
      ...(cluster !== null ? { cluster } : {}),
    };
    if (result.status === 'eligible') {
      bump(eligibleBuckets, result.permitted_category ?? 'unbucketed');
      if (market.source_of_record === null) eligibleNoSource++;
    } else if (result.status === 'review') {
      for (const r of result.reasons) bump(reviewReasons, r);
      if (cluster !== null) {
        const entry = clusterMarkets.get(cluster) ?? {
          reason: result.reasons[0] ?? null,
          markets: 0,
          events: new Set(),
        };
        entry.markets++;
        if (event) entry.events.add(event.slug);
        clusterMarkets.set(cluster, entry);
      }
    } else {
      for (const r of result.reasons) bump(notEligibleReasons, r);
    }
  }

  return {
    regime: regime.regime,
    regime_name: regime.regime_name,
    screen_version: regime.screen_version,
    screened_at: screenedAt,
    venue: regime.scope.venues,
    scope: regime.scope.description,
    funnel,
    eligible_buckets: eligibleBuckets,
    eligible_no_committed_source: eligibleNoSource,
    review_reasons: reviewReasons,
    not_eligible_reasons: notEligibleReasons,
    review_clusters: regime.review_clusters.map((c) => {
      const entry = clusterMarkets.get(c.key);
      return {
        key: c.key,
        label: c.label,
        reason: entry?.reason ?? null,
        market_count: entry?.markets ?? 0,
        event_count: entry?.events.size ?? 0,
        example_events: [...(entry?.events ?? [])].sort().slice(0, 3),
      };
    }),
    market_ids: ids,
    markets,
    sections: regime.sections,
    primary_source: regime.primary_source,
    disclaimer: regime.disclaimer,
  };
}

/** The regime CSV: one row per screened market, same order and statuses as the JSON. */
export function screenCsv(rows: readonly ScreenedMarket[]): string {
  const records = rows.map(({ market, result }) => [
    market.market_id,
    market.platform,
    market.platform_market_id,
    market.question_raw ?? '',
    result.status,
    result.reasons.join(';'),
    result.review_cluster ?? '',
    result.permitted_category ?? '',
    (market.resolve_at ?? market.close_at ?? '').slice(0, 10),
    market.source_of_record ?? market.resolution_source ?? '',
    market.rcg?.grade ?? '',
    result.regime,
    result.screen_version,
    result.screened_at,
  ]);
  return `\uFEFF${stringify([[...SCREEN_CSV_COLUMNS], ...records], { record_delimiter: '\r\n', quoted_match: /[",\r\n]/ })}`;
}
