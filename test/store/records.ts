/**
 * Realistic example records, one factory per record type, shared by the store contract and the JSON
 * Schema tests. Ids are real (derived through src/domain/ids.ts); every factory takes overrides.
 */
import {
  type Catalyst,
  type Event,
  eventIdFor,
  type Market,
  marketIdFor,
  type NewMark,
  type NewResolutionLogEntry,
  questionIdFor,
  type SignalBulletin,
  type SpotRow,
  type Venue,
} from '../../src/domain/index.ts';

export const VENUE_A_EVENT = 'KXFEDDECISION-26APR';
export const VENUE_A_TICKER = 'KXFEDDECISION-26APR-H0';

export function eventId(n = 0, venue: Venue = 'venue_a'): string {
  return eventIdFor(venue, `${VENUE_A_EVENT}-${n}`);
}

export function marketId(n = 0, venue: Venue = 'venue_a'): string {
  return marketIdFor(venue, `${VENUE_A_TICKER}-${n}`);
}

/** A venue_a binary event: "Will the Fed hold rates at its April 2026 meeting?" */
export function makeEvent(n = 0, overrides: Partial<Event> = {}): Event {
  return {
    event_id: eventId(n),
    slug: `fed-decision-april-2026-${n}`,
    question: 'Will the Fed hold rates at its April 2026 meeting?',
    category: 'economics',
    tags: ['fed', 'rates', 'fomc'],
    primary_market_id: marketId(n),
    primary_market_locked: false,
    catalyst_dates: [
      {
        date: '2026-04-29',
        label: 'FOMC rate decision',
        type: 'fomc',
        source_url: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
      },
    ],
    published: true,
    editorial_notes: null,
    venue: 'venue_a',
    bundle_type: 'singleton',
    resolution_reference: null,
    created_at: '2026-01-05T14:00:00Z',
    updated_at: '2026-03-02T09:15:00.123Z',
    field_provenance: {
      category: { source: 'service_editorial', rule: 'category.series-prefix' },
      bundle_type: { source: 'service_editorial', rule: 'bundle.singleton' },
      question: { source: 'platform_api' },
    },
    platform_event_id: `${VENUE_A_EVENT}-${n}`,
    event_type: 'BINARY',
    ladder_distribution: null,
    ladder_distribution_reason: 'singleton event',
    catalyst_types: ['fomc'],
    ...overrides,
  };
}

const RULES =
  'If the Federal Reserve announces that the upper bound of the federal funds target range is unchanged ' +
  'after its April 28-29, 2026 meeting, then the market resolves to Yes. The outcome is verified from the ' +
  'FOMC statement published at https://www.federalreserve.gov/newsevents/pressreleases.htm.';

/** The event's one market, graded B with every factor, rule and evidence span filled. */
export function makeMarket(n = 0, overrides: Partial<Market> = {}): Market {
  const ticker = `${VENUE_A_TICKER}-${n}`;
  const sourceStart = RULES.indexOf('FOMC statement');
  return {
    market_id: marketId(n),
    platform: 'venue_a',
    platform_market_id: ticker,
    event_id: eventId(n),
    platform_event_id: `${VENUE_A_EVENT}-${n}`,
    question_raw: 'Will the Fed hold rates in April 2026?',
    description_raw: null,
    category_raw: 'Economics',
    contract_type: 'binary',
    settlement_currency: 'USD',
    tick_size: 0.01,
    contract_multiplier: 1,
    underlying_reference: null,
    group_item_title: null,
    close_at: '2026-04-29T17:55:00Z',
    last_trading_date: '2026-04-29T17:55:00Z',
    resolve_at: '2026-04-29T18:00:00Z',
    status: 'open',
    resolution_rules_raw: RULES,
    resolution_triggers: {
      triggers: [
        {
          type: 'announcement',
          description: 'Upper bound of the federal funds target range unchanged',
          metric: 'fed_funds_upper_bound',
          threshold: { unchanged: true },
          source: 'FOMC statement',
          deadline: '2026-04-29T18:00:00Z',
        },
      ],
      trigger_logic: 'SINGLE',
      exclusions: [],
      resolution_risks: 'An unscheduled inter-meeting move before the meeting.',
    },
    arbitration_model: 'venue_a_staff',
    resolution_proposer: 'platform_staff',
    resolution_source: 'Federal Reserve',
    source_citation: 'https://www.federalreserve.gov/newsevents/pressreleases.htm',
    resolution_source_list: [
      { name: 'Federal Reserve', url: 'https://www.federalreserve.gov/', provenance: 'platform_api' },
      {
        name: 'FOMC statement',
        url: 'https://www.federalreserve.gov/newsevents/pressreleases.htm',
        provenance: 'service_editorial',
      },
    ],
    source_commitment: 'named',
    source_commitment_subtype: 'named',
    source_of_record: 'Federal Reserve',
    source_status: 'platform_named',
    source_mechanism: 'single_authority',
    source_type: 'central_bank',
    threshold: null,
    direction: 'occurrence',
    settlement_style: 'occurrence',
    question_id: questionIdFor(`fed|hold|2026-04|${n}`),
    tags: ['fed'],
    regulatory_class: 'DCM',
    analyst_notes: null,
    contract_terms_url: 'https://venue-a.example/contract-terms/KXFEDDECISION.pdf',
    resolution_outcome: null,
    resolution_value: null,
    resolved_at: null,
    first_seen_at: '2026-01-05T14:00:00Z',
    last_updated_at: '2026-03-02T09:15:00Z',
    also_on: [{ venue: 'venue_b', market_id: marketId(n, 'venue_b'), price: 0.87 }],
    field_provenance: {
      resolution_source_list: { source: 'service_editorial', rule: 'sources.structured+prose' },
      question_id: { source: 'service_editorial', rule: 'canon.fed-decision' },
      close_at: { source: 'platform_api' },
      description_raw: { source: 'null_by_venue_limitation', note: 'venue_a has no description field' },
    },
    rcg: {
      grade: 'B',
      score: 82,
      caps: [],
      applied_factors: 6,
      rubric_version: 'rcg-1',
      factors: [
        {
          factor: 'trigger_objectivity',
          weight: 20,
          rating: 'pass',
          points: 20,
          rule: 'trigger.numeric-announcement',
          evidence: [{ field: 'resolution_rules_raw', quote: 'unchanged', start: 97, end: 106 }],
        },
        {
          factor: 'source_clarity',
          weight: 20,
          rating: 'pass',
          points: 20,
          rule: 'source.named-url',
          evidence: [
            {
              field: 'resolution_rules_raw',
              quote: 'FOMC statement',
              start: sourceStart,
              end: sourceStart + 'FOMC statement'.length,
            },
          ],
        },
        {
          factor: 'arbiter_incentive',
          weight: 15,
          rating: 'partial',
          points: 7,
          rule: 'arbiter.venue-staff',
          evidence: [{ field: 'arbitration_model', quote: null, start: null, end: null, value: 'venue_a_staff' }],
        },
        {
          factor: 'source_conflict_rule',
          weight: 10,
          rating: 'not_applicable',
          points: 0,
          rule: 'conflict.single-source',
          evidence: [],
        },
      ],
    },
    question_id_reason: null,
    claim_key: { subject: 'fed_funds_upper_bound', predicate: 'unchanged', period: '2026-04' },
    source_hedge_text: null,
    eligibility_screens: [
      {
        regime: 'us-cftc',
        screen_version: '2026.1',
        status: 'eligible',
        reasons: ['DCM-listed economic indicator'],
        permitted_category: 'economics',
        screened_at: '2026-03-01T00:00:00Z',
      },
    ],
    ...overrides,
  };
}

export function makeMark(n = 0, snapshotDate = '2026-03-02', overrides: Partial<NewMark> = {}): NewMark {
  return {
    market_id: marketId(n),
    snapshot_date: snapshotDate,
    snapshot_at: `${snapshotDate}T10:00:00Z`,
    source_updated_at: `${snapshotDate}T09:58:30Z`,
    yes_bid: 0.86,
    yes_ask: 0.88,
    no_bid: 0.12,
    no_ask: 0.14,
    yes_bid_size_usd: 1720,
    yes_ask_size_usd: 2640.5,
    no_bid_size_usd: 300,
    no_ask_size_usd: 410,
    yes_last_price: 0.87,
    implied_probability: 0.87,
    volume_24h_usd: 125000.25,
    volume_total_usd: 4810000,
    open_interest_usd: 2200000,
    mark_method: 'venue_snapshot',
    stale_flag: false,
    source_count: 1,
    raw_payload: { ticker: `${VENUE_A_TICKER}-${n}`, yes_bid: 86, yes_ask: 88, last_price: 87 },
    spread: 0.02,
    mid: 0.87,
    divergence_from_primary: null,
    hours_since_source_update: 0.025,
    field_provenance: {
      volume_24h_usd: { source: 'imputed', note: 'contracts × last price' },
      yes_bid: { source: 'platform_api' },
    },
    ...overrides,
  };
}

export function makeLogEntry(n = 0, overrides: Partial<NewResolutionLogEntry> = {}): NewResolutionLogEntry {
  return {
    market_id: marketId(n),
    event_type: 'status_change',
    occurred_basis: 'first_observed',
    occurred_at: '2026-03-02T10:00:00Z',
    recorded_at: '2026-03-02T10:00:05Z',
    from_value: 'open',
    to_value: 'closed',
    diff: null,
    source: 'platform_api',
    source_ref: null,
    actor: null,
    ...overrides,
  };
}

export function makeCatalyst(overrides: Partial<Catalyst> = {}): Catalyst {
  return {
    date: '2026-04-29',
    type: 'fomc',
    label: 'FOMC rate decision',
    source_url: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
    origin: 'calendar',
    event_ids: [eventId(0)],
    ...overrides,
  };
}

export function makeSignal(slug = 'fed-hold-april-repricing', overrides: Partial<SignalBulletin> = {}): SignalBulletin {
  return {
    $schema: 'https://pmref.example/schemas/signals.json',
    record_id: `SIG-${slug}`,
    record_slug: slug,
    schema_version: '0.2.0',
    provenance_version: '1',
    published_at: '2026-03-02T11:00:00Z',
    headline: 'Fed-hold odds reprice 9 points on venue_a after CPI print',
    category_tag: 'MOMENTUM_REPRICING',
    secondary_tags: ['fed', 'cpi'],
    detection_path: 'news_cycle',
    pre_news_classification: 'lagging',
    target_event_id: eventId(0),
    target_event_slug: 'fed-decision-april-2026-0',
    event_question: 'Will the Fed hold rates at its April 2026 meeting?',
    linked_event_ids: [eventId(1)],
    venues: ['venue_a', 'venue_b'],
    primary_market: {
      market_id: marketId(0),
      platform: 'venue_a',
      platform_market_id: `${VENUE_A_TICKER}-0`,
      question_raw: 'Will the Fed hold rates in April 2026?',
      current_price: 0.87,
      grade: 'B',
    },
    related_markets: [
      {
        market_id: marketId(0, 'venue_b'),
        platform: 'venue_b',
        question_raw: 'Fed holds in April?',
        current_price: 0.84,
        grade: 'C',
      },
    ],
    bullets: [
      'Hold odds rose from 0.78 to 0.87 over 24 hours.',
      'The move followed the February CPI release.',
      'venue_b trails at 0.84.',
    ],
    atomic_claims: [{ type: 'price_move', text: 'Hold odds rose 9 points.', field_provenance: 'platform_api' }],
    numbers: [
      { name: 'price_change', value: 0.09, unit: 'probability', provenance: 'derived', source: marketId(0) },
      { name: 'price_gap', value: 0.03, unit: 'probability', provenance: 'derived', source: null },
    ],
    sources: [{ label: 'BLS CPI release', url: 'https://www.bls.gov/cpi/' }],
    license: 'CC-BY-4.0',
    ...overrides,
  };
}

export function makeSpot(coin = 'bitcoin', asOf = '2026-03-02T10:00:00Z', price = 87234.12): SpotRow {
  return { coin, price_usd: price, as_of: asOf };
}
