/**
 * Shared builders for canonical records: editorial fields start null/empty (the editorial layer
 * fills them), and the result accumulator keeps counts and per-record outcomes in step.
 */
import {
  type Category,
  type Event,
  EventSchema,
  type FieldProvenance,
  isPastClose,
  type Market,
  type MarketFeeTerms,
  MarketSchema,
  type MarketStatus,
  type MarketVenueRefs,
  type ResolutionHistory,
  type Venue,
} from '../domain/index.ts';
import { bump, round6 } from './parse.ts';
import type { NormalizedEvent, NormalizedMarket, NormalizeResult, RecordOutcome, VenueQuote } from './types.ts';

export class ResultBuilder {
  readonly events: NormalizedEvent[] = [];
  readonly outOfScope: Record<string, number> = {};
  readonly rejected: Record<string, number> = {};
  readonly records: RecordOutcome[] = [];

  out(kind: RecordOutcome['kind'], nativeId: string, reason: string): void {
    bump(this.outOfScope, reason);
    this.records.push({ kind, native_id: nativeId, outcome: 'out_of_scope', reason });
  }
  reject(kind: RecordOutcome['kind'], nativeId: string, reason: string): void {
    bump(this.rejected, reason);
    this.records.push({ kind, native_id: nativeId, outcome: 'rejected', reason });
  }
  stored(nativeId: string): void {
    this.records.push({ kind: 'market', native_id: nativeId, outcome: 'normalized', reason: null });
  }
  result(): NormalizeResult {
    return { events: this.events, outOfScope: this.outOfScope, rejected: this.rejected, records: this.records };
  }
}

/** An Event with every editorial field at its empty value. */
export function baseEvent(f: {
  event_id: string;
  venue: Venue;
  platform_event_id: string;
  slug: string;
  question: string;
  category: Category;
  now: string;
  field_provenance: FieldProvenance;
}): Event {
  return {
    event_id: f.event_id,
    slug: f.slug,
    question: f.question,
    category: f.category,
    tags: [],
    primary_market_id: null,
    primary_market_locked: false,
    catalyst_dates: [],
    // In-scope events are public; the editorial layer or an override may unpublish.
    published: true,
    editorial_notes: null,
    venue: f.venue,
    bundle_type: null,
    resolution_reference: null,
    created_at: f.now,
    updated_at: f.now,
    field_provenance: f.field_provenance,
    platform_event_id: f.platform_event_id,
    event_type: 'BINARY',
    ladder_distribution: null,
    ladder_distribution_reason: null,
    catalyst_types: [],
  };
}

/** Market fields that the venue sets; everything editorial starts null. */
export type VenueMarketFields = Pick<
  Market,
  | 'market_id'
  | 'platform'
  | 'platform_market_id'
  | 'event_id'
  | 'platform_event_id'
  | 'question_raw'
  | 'description_raw'
  | 'category_raw'
  | 'settlement_currency'
  | 'tick_size'
  | 'contract_multiplier'
  | 'group_item_title'
  | 'close_at'
  | 'last_trading_date'
  | 'resolve_at'
  | 'status'
  | 'resolution_rules_raw'
  | 'resolution_source_list'
  | 'contract_terms_url'
  | 'resolution_outcome'
  | 'resolution_value'
  | 'resolved_at'
  | 'field_provenance'
> & {
  resolution_history: ResolutionHistory | null;
  venue_refs: MarketVenueRefs | null;
  fee_terms: MarketFeeTerms | null;
};

export function baseMarket(f: VenueMarketFields, now: string): Market {
  // One literal in schema order (no spread): this runs once per market, 40k times a run.
  return {
    market_id: f.market_id,
    platform: f.platform,
    platform_market_id: f.platform_market_id,
    event_id: f.event_id,
    platform_event_id: f.platform_event_id,
    question_raw: f.question_raw,
    description_raw: f.description_raw,
    category_raw: f.category_raw,
    contract_type: 'binary',
    settlement_currency: f.settlement_currency,
    tick_size: f.tick_size,
    contract_multiplier: f.contract_multiplier,
    underlying_reference: null,
    group_item_title: f.group_item_title,
    close_at: f.close_at,
    last_trading_date: f.last_trading_date,
    resolve_at: f.resolve_at,
    status: f.status,
    resolution_rules_raw: f.resolution_rules_raw,
    resolution_triggers: null,
    arbitration_model: null,
    resolution_proposer: null,
    resolution_source: null,
    source_citation: null,
    resolution_source_list: f.resolution_source_list,
    source_commitment: null,
    source_commitment_subtype: null,
    source_of_record: null,
    source_status: null,
    source_mechanism: null,
    source_type: null,
    threshold: null,
    direction: null,
    settlement_style: null,
    question_id: null,
    tags: [],
    regulatory_class: null,
    analyst_notes: null,
    contract_terms_url: f.contract_terms_url,
    resolution_outcome: f.resolution_outcome,
    resolution_value: f.resolution_value,
    resolved_at: f.resolved_at,
    first_seen_at: now,
    last_updated_at: now,
    also_on: null,
    field_provenance: f.field_provenance,
    rcg: null,
    question_id_reason: null,
    claim_key: null,
    source_hedge_text: null,
    eligibility_screens: null,
    resolution_history: f.resolution_history,
    venue_refs: f.venue_refs,
    fee_terms: f.fee_terms,
  };
}

/**
 * The status a freshly pulled market is stored with, and its provenance. The venue's own status, except that a
 * market the venue still reports open once its close time has passed at the run clock is `closed`, derived
 * (issue 15: a market past its close is never served open). The note names the venue's words and the close
 * time, never the clock, so a rerun on the same data stores the same record.
 * @example lifecycleStatus('open', '2026-03-01T00:00:00.000Z', '2026-09-01T12:00:00.000Z', 'status "active"').status // 'closed'
 */
export function lifecycleStatus(
  venueStatus: MarketStatus,
  closeAt: string | null,
  now: string,
  venueSaid: string,
): { status: MarketStatus; provenance: FieldProvenance[string] } {
  if (venueStatus === 'open' && isPastClose(closeAt, now)) {
    return {
      status: 'closed',
      provenance: {
        source: 'derived',
        rule: 'past_close',
        note: `the venue reports it open (${venueSaid}) but its close time ${closeAt} has passed: closed, derived from close_at and the run clock`,
      },
    };
  }
  return { status: venueStatus, provenance: { source: 'platform_api', note: venueSaid } };
}

/** Validates a built market against the domain schema; returns a rejection reason or null. */
export function marketProblem(m: Market): string | null {
  const r = MarketSchema.safeParse(m);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return `invalid_canonical:${issue ? issue.path.join('.') : 'unknown'}`;
}

export function eventProblem(e: Event): string | null {
  const r = EventSchema.safeParse(e);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return `invalid_canonical_event:${issue ? issue.path.join('.') : 'unknown'}`;
}

/** Price in [0, 1] or null (values outside are venue noise, never stored as a probability). */
export function prob(n: number | null): number | null {
  if (n === null || n < 0 || n > 1) return null;
  return round6(n);
}

/** USD value of `contracts` at `price`, or null when either is missing. */
export function usd(contracts: number | null, price: number | null): number | null {
  if (contracts === null || price === null || contracts < 0) return null;
  return round6(contracts * price);
}

export function nonNegative(n: number | null): number | null {
  return n === null || n < 0 ? null : round6(n);
}

export type QuoteDraft = Omit<VenueQuote, 'provenance' | 'raw'>;

/** Event built, validated, appended; markets already validated. Returns false if the event was rejected. */
export function pushEvent(out: ResultBuilder, event: Event, markets: NormalizedMarket[]): boolean {
  const problem = eventProblem(event);
  if (problem) {
    for (const m of markets) out.reject('market', m.market.platform_market_id, problem);
    return false;
  }
  for (const m of markets) out.stored(m.market.platform_market_id);
  out.events.push({ event, markets });
  return true;
}
