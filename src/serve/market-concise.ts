/**
 * Full market detail → the concise market (issue 17, `MarketConciseSchema`). Pure: the query service passes what
 * the detail does not hold (the event, the twins' price times) through `ConciseContext`.
 */
import {
  CAP_MEANINGS,
  type DataSource,
  type DecidingFactor,
  type Evidence,
  type MarketConcise,
  type MarketDetail,
  RULE_MEANINGS,
} from '../domain/index.ts';

export interface ConciseContext {
  origin: string;
  dataSource: DataSource | null;
  /** The event of the market, when it is published. */
  event: { event_id: string; slug: string; question: string } | null;
  /** `price_as_of` of another market, by id (null when unknown or when the venue gave no time). */
  priceAsOf(marketId: string): string | null;
}

function conciseEvidence(e: Evidence): DecidingFactor['evidence'][number] {
  return e.quote !== null ? { field: e.field, quote: e.quote } : { field: e.field, value: e.value ?? null };
}

/** Factors rated partial or fail, most points lost first (ties in the rubric's factor order). */
function decidingFactors(factors: MarketDetail['rcg']['factors']): DecidingFactor[] {
  const out: DecidingFactor[] = [];
  for (const f of factors) {
    if (f.rating !== 'partial' && f.rating !== 'fail') continue;
    out.push({
      factor: f.factor,
      rating: f.rating,
      points_lost: f.weight - f.points,
      rule: f.rule,
      meaning: RULE_MEANINGS[f.rule] ?? null,
      evidence: f.evidence.map(conciseEvidence),
    });
  }
  return out.sort((a, b) => b.points_lost - a.points_lost);
}

/**
 * The concise view of one market detail.
 * @example conciseMarketDetail(detail, { origin, dataSource: 'live', event: null, priceAsOf: () => null }).rcg.deciding_factors
 */
export function conciseMarketDetail(d: MarketDetail, ctx: ConciseContext): MarketConcise {
  return {
    detail: 'concise',
    market_id: d.market_id,
    platform: d.platform,
    platform_market_id: d.platform_market_id,
    question: d.question,
    status: d.status,
    close_at: d.close_at,
    resolution_outcome: d.resolution_outcome,
    last_price: d.last_price,
    price_as_of: d.price_as_of,
    volume_24h_usd: d.volume_24h_usd,
    rcg: {
      grade: d.rcg.grade,
      score: d.rcg.score,
      caps: d.rcg.caps.map((cap) => ({ cap, ...CAP_MEANINGS[cap] })),
      deciding_factors: decidingFactors(d.rcg.factors),
    },
    resolution: {
      source_of_record: d.resolution.source_of_record,
      source_commitment_subtype: d.resolution.source_commitment_subtype,
      source_hedge_text: d.resolution.source_hedge_text,
      source_citation: d.resolution.source_citation,
      arbitration_model: d.resolution.arbitration_model,
      proposer: d.resolution.proposer,
      disputes: { count: d.resolution.disputes.count, state: d.resolution.disputes.state },
      // venue_b keeps its rules in the description (and rules_raw copies it); venue_a has rules_raw.
      rules: d.resolution.rules_raw ?? d.description,
    },
    question_id: d.question_id,
    also_on: d.also_on ? d.also_on.map((t) => ({ ...t, price_as_of: ctx.priceAsOf(t.market_id) })) : null,
    event: ctx.event ? { ...ctx.event, url: `${ctx.origin}/events/${ctx.event.slug}` } : null,
    data_source: ctx.dataSource,
    _provenance: d._provenance,
  };
}
