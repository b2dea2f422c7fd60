// GET /v1/status lists each watched venue's drift against its published document as an informational `<venue>.drift` check: ok when none, not ok with the counts and the most frequent finding when some, and never a reason for `degraded`.
import { describe, expect, it } from 'vitest';
import { type StatusInputs, type StoreView, serviceStatus } from '../../src/serve/index.ts';
import { Body } from '../../src/serve/json-bytes.ts';
import type { PipelineRun, VenueRunSummary } from '../../src/store/index.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
type Drift = NonNullable<VenueRunSummary['drift']>;

const none = { fields: 0, records: 0 };
const CLEAN: Drift = {
  document: 'Markets API 1.0.0 (extracted 2026-11-25)',
  checked: { responses: 3, records: 120, shapes: 4 },
  kinds: { unknown_field: none, missing_required: none, type_mismatch: none, pagination: none },
  records_with_drift: 0,
  examples: [],
  cost_ms: 1.5,
};
const DRIFTED: Drift = {
  document: 'Kalshi Trade API Manual Endpoints 3.13.0 (extracted 2026-11-25)',
  checked: { responses: 10, records: 900, shapes: 12 },
  kinds: {
    unknown_field: { fields: 15, records: 800 },
    missing_required: { fields: 3, records: 850 },
    type_mismatch: none,
    pagination: { fields: 1, records: 1 },
  },
  records_with_drift: 850,
  examples: [{ record: 'Market', field: 'yes_ask_size_fp', kind: 'missing_required', records: 850 }],
  cost_ms: 20,
};

function view(drift: { venue_a?: Drift; venue_b?: Drift }): StoreView {
  const venue = (d?: Drift): VenueRunSummary => ({
    pulled: 10,
    stored: 9,
    out_of_scope: {},
    rejected: {},
    error: null,
    ...(d ? { drift: d } : {}),
  });
  const last: PipelineRun = {
    run_id: 7,
    started_at: '2026-11-22T09:00:00.000Z',
    finished_at: '2026-11-22T09:01:00.000Z',
    source: 'live',
    status: 'ok',
    generation: 3,
    summary: { venues: { venue_a: venue(drift.venue_a), venue_b: venue(drift.venue_b) } },
  };
  return {
    ok: true,
    generation: 3,
    counts: { events: 4, markets: 9, marks: 40, log: 2, signals: 1 },
    last,
    lastPublished: last,
  };
}

function inputs(store: StoreView): StatusInputs {
  return {
    now: NOW,
    refreshMinutes: 60,
    serviceName: 'pmref',
    origin: 'http://pmref.test',
    store,
    model: {
      generation: 3,
      builtAt: '2026-11-22T09:01:30.000Z',
      dataSource: 'live',
      counts: { events: 4, markets: 9, published_events: 3, live_events: 2 },
      signals: [],
      spot: new Body(JSON.stringify({ spot: [] }), 'e'),
    },
  };
}

describe('serviceStatus: venue drift', () => {
  it('shows drift per venue, honestly, without degrading the state', () => {
    const s = serviceStatus(inputs(view({ venue_a: DRIFTED, venue_b: CLEAN })));
    expect(s.state).toBe('ok');
    expect(s.checks.filter((c) => c.name.endsWith('.drift'))).toEqual([
      {
        name: 'venue_a.drift',
        ok: false,
        detail:
          'run 7 checked 900 records (12 distinct field sets) against Kalshi Trade API Manual Endpoints 3.13.0 (extracted 2026-11-25): ' +
          '15 unknown fields, 3 missing required fields, 0 changed types, 1 pagination findings, in 850 records; ' +
          'most frequent: Market.yes_ask_size_fp missing_required in 850 records (informational: the data was read)',
      },
      {
        name: 'venue_b.drift',
        ok: true,
        detail:
          'run 7 checked 120 records (4 distinct field sets) against Markets API 1.0.0 (extracted 2026-11-25): no drift',
      },
    ]);
  });

  it('lists no drift check for a run that did not watch (older runs, sources without the watch)', () => {
    const s = serviceStatus(inputs(view({})));
    expect(s.checks.some((c) => c.name.endsWith('.drift'))).toBe(false);
  });
});
