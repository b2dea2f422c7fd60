/**
 * Canonical records → served objects (spec §2, served-shapes §3–§5). Pure functions: the read model calls them
 * once per generation and keeps the bytes. Key order of every literal here is the served key order.
 */
import {
  type Catalyst,
  type ConciseMarket,
  type Event,
  type EventListItem,
  type FieldProvenanceEntry,
  isPastClose,
  type Mark,
  type Market,
  type MarketDetail,
  type MarketStatus,
  type Notice,
  type Provenance,
  type ResolutionLogEntry,
  type ServedDisputes,
  type ServedLogEntry,
  type ServedMarket,
} from '../domain/index.ts';

/** The latest mark's price facts for a market, or nulls when it has none. */
export interface PriceFacts {
  last_price: number | null;
  implied_probability: number | null;
  price_as_of: string | null;
  volume_24h_usd: number | null;
  volume_total_usd: number | null;
  last_checked_at: string | null;
}

export const NO_PRICE: PriceFacts = {
  last_price: null,
  implied_probability: null,
  price_as_of: null,
  volume_24h_usd: null,
  volume_total_usd: null,
  last_checked_at: null,
};

/**
 * `price_as_of` of a mark: the venue's own time for its quote. A mark must hold a `source_updated_at` (spec
 * §2.3), so when the venue gave none the pipeline stores the pull time and its provenance says so (`imputed`);
 * that time is ours, not the venue's, and is served as null (issue 15). `last_checked_at` carries the pull time.
 */
export function venueQuoteTime(mark: Omit<Mark, 'raw_payload'>): string | null {
  const source = mark.field_provenance.source_updated_at?.source;
  return source === 'imputed' || source === 'null_by_venue_limitation' ? null : mark.source_updated_at;
}

/** Price fields from a mark. For binaries the implied probability is the last price (spec §2.3). */
export function priceFacts(mark: Omit<Mark, 'raw_payload'> | undefined): PriceFacts {
  if (!mark) return NO_PRICE;
  const last = mark.yes_last_price;
  return {
    last_price: last,
    implied_probability: mark.implied_probability ?? last,
    price_as_of: venueQuoteTime(mark),
    volume_24h_usd: mark.volume_24h_usd,
    volume_total_usd: mark.volume_total_usd,
    last_checked_at: mark.snapshot_at,
  };
}

export function provenanceOf(origin: string, ref: string): Provenance {
  return { source: origin, ref, terms: `Attribution required. ${origin}` };
}

/** `also_on` with each twin's price taken from the twin's latest mark (the stored price may be an hour old). */
function servedAlsoOn(market: Market, priceOf: (marketId: string) => number | null): Market['also_on'] {
  if (!market.also_on || market.also_on.length === 0) return null;
  // relation and differences (issue 16) pass through; records stored before them carry neither.
  return market.also_on.map((t) => ({
    venue: t.venue,
    market_id: t.market_id,
    price: priceOf(t.market_id) ?? t.price,
    ...(t.relation ? { relation: t.relation } : {}),
    ...(t.differences ? { differences: t.differences } : {}),
  }));
}

function servedRcg(market: Market) {
  const r = market.rcg;
  if (!r) return { grade: 'pending' as const, score: null, caps: [], applied_factors: 0 };
  return { grade: r.grade, score: r.score, caps: r.caps, applied_factors: r.applied_factors };
}

/**
 * A market's status as served at `now`, with its provenance. The stored status was decided at the last run;
 * a market the venue reported open whose close time has passed since is served `closed`, derived, exactly as
 * the next run will store it (issue 15: never served open past its close).
 * @example servedStatus({ ...market, status: 'open', close_at: '2026-01-01T00:00:00Z' }, '2026-02-01T00:00:00.000Z').status // 'closed'
 */
export function servedStatus(market: Market, now: string): { status: MarketStatus; provenance: FieldProvenanceEntry } {
  const stored = market.field_provenance.status ?? { source: 'platform_api' };
  if (market.status === 'open' && isPastClose(market.close_at, now)) {
    return {
      status: 'closed',
      provenance: {
        source: 'derived',
        rule: 'past_close',
        note: `the venue last reported it open${stored.note ? ` (${stored.note})` : ''} but its close time ${market.close_at} has passed: closed, derived from close_at`,
      },
    };
  }
  return { status: market.status, provenance: stored };
}

/** What a market's lifecycle log says of its resolution: proposals and disputes seen, the latest dispute. */
export interface MarketLogSummary {
  proposals: number;
  disputes: number;
  last_disputed_at: string | null;
}

/** Per-market resolution summaries of a set of log entries. */
export function logSummaries(entries: Iterable<ResolutionLogEntry>): Map<string, MarketLogSummary> {
  const out = new Map<string, MarketLogSummary>();
  for (const e of entries) {
    if (e.event_type !== 'resolution_proposed' && e.event_type !== 'disputed') continue;
    let s = out.get(e.market_id);
    if (!s) {
      s = { proposals: 0, disputes: 0, last_disputed_at: null };
      out.set(e.market_id, s);
    }
    if (e.event_type === 'resolution_proposed') s.proposals++;
    else {
      s.disputes++;
      if (s.last_disputed_at === null || e.occurred_at > s.last_disputed_at) s.last_disputed_at = e.occurred_at;
    }
  }
  return out;
}

function servedDisputes(market: Market, log: MarketLogSummary | undefined): ServedDisputes {
  const count = log?.disputes ?? 0;
  return {
    disputed: count > 0,
    count,
    last_at: log?.last_disputed_at ?? null,
    proposals: log?.proposals ?? 0,
    state: market.resolution_history?.state ?? null,
  };
}

/** Final price of a resolved market: 1 for YES, 0 for NO, else the settlement value; null before (spec §3). */
export function finalPrice(market: Pick<Market, 'status' | 'resolution_outcome' | 'resolution_value'>): number | null {
  if (market.status !== 'resolved' && market.status !== 'amended') return null;
  const outcome = market.resolution_outcome?.toUpperCase();
  if (outcome === 'YES') return 1;
  if (outcome === 'NO') return 0;
  const v = market.resolution_value;
  return v !== null && v >= 0 && v <= 1 ? v : null;
}

/** The serve-time context of one market: the build clock and its log summary. */
export interface MarketServeContext {
  now: string;
  log: MarketLogSummary | undefined;
}

/** The served market (served-shapes §5) as nested in an event detail. */
export function servedMarket(
  market: Market,
  price: PriceFacts,
  priceOf: (id: string) => number | null,
  ctx: MarketServeContext,
): ServedMarket {
  const status = servedStatus(market, ctx.now);
  return {
    market_id: market.market_id,
    event_id: market.event_id,
    platform: market.platform,
    platform_market_id: market.platform_market_id,
    question: market.question_raw,
    description: market.description_raw,
    contract_type: market.contract_type,
    settlement_currency: market.settlement_currency,
    underlying_reference: market.underlying_reference,
    close_at: market.close_at,
    resolve_at: market.resolve_at,
    status: status.status,
    status_provenance: status.provenance,
    resolution_outcome: market.resolution_outcome,
    resolved_at: market.resolved_at,
    final_price: finalPrice(market),
    resolution: {
      rules_raw: market.resolution_rules_raw,
      arbitration_model: market.arbitration_model,
      proposer: market.resolution_proposer,
      source: market.resolution_source,
      // Spec §2.2: the serve layer emits `unknown` for rows with no stamp; the store never holds it.
      source_status: market.source_status ?? 'unknown',
      source_citation: market.source_citation,
      sources: market.resolution_source_list,
      source_of_record: market.source_of_record,
      source_mechanism: market.source_mechanism,
      source_type: market.source_type,
      source_quality: null,
      source_commitment: market.source_commitment,
      source_commitment_subtype: market.source_commitment_subtype,
      source_hedge_text: market.source_hedge_text,
      disputes: servedDisputes(market, ctx.log),
    },
    rcg: servedRcg(market),
    last_price: price.last_price,
    implied_probability: price.implied_probability,
    price_as_of: price.price_as_of,
    volume_24h_usd: price.volume_24h_usd,
    volume_total_usd: price.volume_total_usd,
    settlement_style: market.settlement_style,
    direction: market.direction,
    threshold: market.threshold,
    question_id: market.question_id,
    also_on: servedAlsoOn(market, priceOf),
    tags: market.tags,
    eligibility_screens: market.eligibility_screens,
    last_checked_at: price.last_checked_at,
    reconciled_at: null,
  };
}

/** `GET /v1/markets/{id}`: the served market with the grade's factors, then `_provenance`, then `_notice`. */
export function marketDetail(served: ServedMarket, market: Market, origin: string, notice: Notice): MarketDetail {
  return {
    ...served,
    rcg: { ...served.rcg, factors: market.rcg?.factors ?? [] },
    _provenance: provenanceOf(origin, market.market_id),
    _notice: notice,
  };
}

/** `detail=concise` (served-shapes §4): grade, price and source only. */
export function conciseMarket(m: ServedMarket): ConciseMarket {
  return {
    market_id: m.market_id,
    platform: m.platform,
    question: m.question,
    last_price: m.last_price,
    implied_probability: m.implied_probability,
    price_as_of: m.price_as_of,
    status: m.status,
    rcg: { grade: m.rcg.grade, score: m.rcg.score },
    resolution: {
      arbitration_model: m.resolution.arbitration_model,
      source: m.resolution.source,
      source_status: m.resolution.source_status,
    },
    question_id: m.question_id,
    also_on: m.also_on,
    last_checked_at: m.last_checked_at,
  };
}

/**
 * Live: the market is served open at `now` (spec §3: `status=active` matches events with at least one open
 * market, `resolved` those with none). A market past its close is never open (servedStatus), so an event's
 * `resolved` and its markets' statuses cannot contradict each other. served-shapes §3 also asks the first of
 * resolve_at/close_at to be today or later; close_at is covered by servedStatus, and a resolve_at in the past
 * with trading still open is a venue's expected payout slipping, not a resolution.
 */
export function isLiveMarket(market: Market, now: string): boolean {
  return servedStatus(market, now).status === 'open';
}

/** A served log entry (spec §2.4, served-shapes §4). */
export function servedLogEntry(entry: ResolutionLogEntry, platform: Market['platform'] | undefined): ServedLogEntry {
  const outcome = entry.to_value;
  const fromDiff = entry.diff?.final_price;
  const finalPrice =
    entry.event_type !== 'resolved'
      ? null
      : outcome === 'YES'
        ? 1
        : outcome === 'NO'
          ? 0
          : typeof fromDiff === 'number'
            ? fromDiff
            : null;
  const deadline = entry.occurred_basis === 'deadline';
  return {
    market_id: entry.market_id,
    platform: platform ?? 'venue_a',
    event_type: entry.event_type,
    outcome,
    resolved_at: deadline ? null : entry.occurred_at,
    ...(deadline ? { deadline_at: entry.occurred_at } : {}),
    occurred_basis: entry.occurred_basis,
    final_price: finalPrice,
    recorded_at: entry.recorded_at,
    source: entry.source,
    source_ref: entry.source_ref,
  };
}

/**
 * Event `catalyst_dates` (served-shapes §4): calendar catalysts bound to the event and dated no later than the
 * latest market close, merged with the event's own entries, de-duplicated on (date, type), ascending, at most 5.
 */
export function eventCatalystDates(event: Event, bound: readonly Catalyst[], latestClose: string | null) {
  const seen = new Set<string>();
  const out: Array<{ date: string; type: string | null; label: string; source_url: string | null }> = [];
  const push = (date: string, type: string | null, label: string, url: string | null) => {
    const key = `${date}|${type ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ date, type, label, source_url: url });
  };
  for (const c of event.catalyst_dates) push(c.date, c.type ?? null, c.label, c.source_url ?? null);
  for (const c of bound) {
    if (latestClose === null || c.date <= latestClose.slice(0, 10)) push(c.date, c.type, c.label, c.source_url);
  }
  out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return out.slice(0, 5);
}

/** The part of a served market that its event's list item and headline mark quote. */
export interface ServedSummary {
  platform: ServedMarket['platform'];
  rcg: { grade: ServedMarket['rcg']['grade']; score: number | null };
  status: ServedMarket['status'];
  last_price: number | null;
  implied_probability: number | null;
  price_as_of: string | null;
  last_checked_at: string | null;
}

/** Event list item (served-shapes §3). Grade, score, price and status are the primary market's. */
export function eventListItem(
  event: Event,
  markets: readonly ServedSummary[],
  primary: ServedSummary | undefined,
  live: boolean,
  origin: string,
): EventListItem {
  return {
    event_id: event.event_id,
    slug: event.slug,
    question: event.question,
    category: event.category,
    event_type: event.event_type || 'BINARY',
    tags: event.tags,
    venues_covered: venuesCovered(markets),
    market_count: markets.length,
    primary_market_id: event.primary_market_id,
    grade: primary ? primary.rcg.grade : null,
    rcg_score: primary ? primary.rcg.score : null,
    last_price: primary ? primary.last_price : null,
    price_as_of: primary ? primary.price_as_of : null,
    last_checked_at: primary ? primary.last_checked_at : null,
    status: primary ? primary.status : null,
    updated_at: event.updated_at,
    _provenance: provenanceOf(origin, event.event_id),
    resolved: !live,
  };
}

export function venuesCovered(markets: readonly { platform: ServedMarket['platform'] }[]): ServedMarket['platform'][] {
  return [...new Set(markets.map((m) => m.platform))].sort();
}
