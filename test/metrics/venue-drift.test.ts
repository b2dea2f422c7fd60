// A run summary's per-venue drift becomes one gauge per venue and kind (distinct fields of the latest watched pull); a venue without drift data leaves its series as they were.
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry, PipelineMetrics } from '../../src/metrics/index.ts';
import type { RunSummary } from '../../src/pipeline/index.ts';
import type { VenueRunSummary } from '../../src/store/index.ts';

const kinds = (unknown: number) => ({
  unknown_field: { fields: unknown, records: 10 },
  missing_required: { fields: 2, records: 10 },
  type_mismatch: { fields: 0, records: 0 },
  pagination: { fields: 0, records: 0 },
});

function run(venueA: VenueRunSummary): RunSummary {
  return {
    venues: { venue_a: venueA, venue_b: { pulled: 1, stored: 1, out_of_scope: {}, rejected: {}, error: null } },
    log_entries: 0,
    marks: 0,
    duration_ms: 1000,
    generation: 1,
    run_id: 1,
    status: 'ok',
    degraded: [],
    source: 'live',
    as_of: '2026-11-21T12:00:00.000Z',
    events_written: 0,
    markets_written: 0,
    marks_carried_forward: 0,
    editorial_failures: 0,
    backfill: null,
    fallbacks: [],
    timings_ms: {},
    cpu_ms: 0,
    cpu_ms_by_stage: {},
  };
}

describe('pmref_venue_drift_fields', () => {
  it('is set from the latest watched pull of each venue', async () => {
    const registry = createMetricsRegistry();
    const metrics = new PipelineMetrics(registry);
    const drift = (unknown: number): VenueRunSummary['drift'] => ({
      document: 'Kalshi Trade API Manual Endpoints 3.13.0 (extracted 2026-11-25)',
      checked: { responses: 1, records: 10, shapes: 1 },
      kinds: kinds(unknown),
      records_with_drift: 10,
      examples: [],
      cost_ms: 1,
    });
    const base = { pulled: 10, stored: 10, out_of_scope: {}, rejected: {}, error: null };
    metrics.observeRun(run({ ...base, drift: drift(15) }));
    metrics.observeRun(run({ ...base, drift: drift(16) }));
    const text = await registry.metrics();
    expect(text).toContain('pmref_venue_drift_fields{venue="venue_a",kind="unknown_field"} 16');
    expect(text).toContain('pmref_venue_drift_fields{venue="venue_a",kind="missing_required"} 2');
    expect(text).not.toContain('pmref_venue_drift_fields{venue="venue_b"');
  });
});
