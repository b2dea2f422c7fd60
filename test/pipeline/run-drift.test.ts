// A pipeline run records each venue's drift against its published document in the run summary (summary.venues[venue].drift), the store keeps it with the run, and /v1/status lists it as an informational check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/pipeline/index.ts';
import { readStoreView, serviceStatus } from '../../src/serve/index.ts';
import { Body } from '../../src/serve/json-bytes.ts';
import type { Store } from '../../src/store/index.ts';
import { DAY1, DAY1_AT, runOn, tempStore } from './harness.ts';

describe('drift in the run summary', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let summary: RunSummary;
  beforeAll(async () => {
    ({ store, dispose } = await tempStore());
    summary = await runOn(store, DAY1, DAY1_AT);
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('carries each venue’s drift, and the stored run keeps it', async () => {
    for (const venue of ['venue_a', 'venue_b'] as const) {
      const d = summary.venues[venue].drift;
      expect(d, `${venue}: ${JSON.stringify(summary.venues[venue])}`).toBeDefined();
      expect(d?.checked.records).toBeGreaterThanOrEqual(summary.venues[venue].pulled);
    }
    const stored = await store.lastRun({ published: true });
    expect(stored?.summary.venues?.venue_a?.drift).toEqual(summary.venues.venue_a.drift);
  });

  it('shows in /v1/status as one check per venue, without changing the state', async () => {
    const view = await readStoreView(store);
    const status = serviceStatus({
      now: new Date(DAY1_AT),
      refreshMinutes: 60,
      serviceName: 'pmref',
      origin: 'http://pmref.test',
      store: view,
      model: {
        generation: view.ok ? view.generation : 0,
        builtAt: DAY1_AT,
        dataSource: 'live',
        counts: { events: 0, markets: 0, published_events: 0, live_events: 0 },
        signals: [],
        spot: new Body(JSON.stringify({ spot: [] }), 'e'),
      },
    });
    const drift = status.checks.filter((c) => c.name.endsWith('.drift'));
    expect(drift.map((c) => c.name)).toEqual(['venue_a.drift', 'venue_b.drift']);
    for (const c of drift) expect(c.detail).toMatch(/^run \d+ checked \d+ records/);
    expect(status.state, JSON.stringify(status.checks)).toBe('ok');
  });
});
