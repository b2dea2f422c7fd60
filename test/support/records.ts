/** Small factories of valid domain records for tests: every field set, overridable per test. */
import { blankMarket, type Event, eventIdFor, type Market } from '../../src/domain/index.ts';

const T0 = '2026-11-01T00:00:00.000Z';

export function makeEvent(overrides: Partial<Event> & { native?: string } = {}): Event {
  const { native = 'KXTEST-26', ...rest } = overrides;
  return {
    event_id: eventIdFor('venue_a', native),
    slug: native.toLowerCase(),
    question: 'Will the test happen?',
    category: 'economics',
    tags: [],
    primary_market_id: null,
    primary_market_locked: false,
    catalyst_dates: [],
    published: true,
    editorial_notes: null,
    venue: 'venue_a',
    bundle_type: 'singleton',
    resolution_reference: null,
    created_at: T0,
    updated_at: T0,
    field_provenance: {},
    platform_event_id: native,
    event_type: 'BINARY',
    ladder_distribution: null,
    ladder_distribution_reason: null,
    catalyst_types: [],
    ...rest,
  };
}

export function makeMarket(overrides: Partial<Market> & { native?: string } = {}): Market {
  const { native = 'KXTEST-26-T1', ...rest } = overrides;
  return {
    ...blankMarket(rest.platform ?? 'venue_a', native, T0),
    question_raw: 'Will the test happen?',
    tick_size: 0.01,
    contract_multiplier: 1,
    close_at: '2027-06-30T00:00:00.000Z',
    resolve_at: '2027-06-30T00:00:00.000Z',
    ...rest,
  };
}
