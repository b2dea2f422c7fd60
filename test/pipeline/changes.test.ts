// The change feed's entries for a publish are exactly what it made visible: a new market, a lifecycle log entry (with
// its log_id), an RCG letter that moved, a cross-venue link that appeared or changed, a new bulletin; a price move or
// a rerun of the same input is no change.
import { describe, expect, it } from 'vitest';
import type { Market, ResolutionLogEntry } from '../../src/domain/index.ts';
import { ChangeSchema } from '../../src/domain/index.ts';
import { changesOf, marketBefore } from '../../src/pipeline/changes.ts';
import { makeLogEntry, makeMarket, makeSignal, marketId } from '../store/records.ts';

const AT = '2026-03-02T10:00:00.000Z';
const stamp = { generation: 4, publishedAt: AT };
const byId = (markets: readonly Market[]) => new Map(markets.map((m) => [m.market_id, m]));
const rcg = (m: Market, grade: 'A' | 'B' | 'C', score: number): Market => {
  if (!m.rcg) throw new Error('fixture market has no rcg');
  return { ...m, rcg: { ...m.rcg, grade, score } };
};

describe('changesOf', () => {
  it('reports a new market, and its link when it arrives linked', () => {
    const fresh = makeMarket(1);
    const unlinked = makeMarket(2, { question_id: null, also_on: null });
    const changes = changesOf({ before: new Map(), written: [unlinked, fresh], log: [], newSignals: [], ...stamp });
    expect(changes).toEqual([
      {
        kind: 'market_added',
        market_id: fresh.market_id,
        event_id: fresh.event_id,
        signal_slug: null,
        generation: 4,
        published_at: AT,
        detail: { platform: 'venue_a', status: 'open', to: { grade: 'B', score: 82 } },
      },
      {
        kind: 'market_added',
        market_id: unlinked.market_id,
        event_id: unlinked.event_id,
        signal_slug: null,
        generation: 4,
        published_at: AT,
        detail: { platform: 'venue_a', status: 'open', to: { grade: 'B', score: 82 } },
      },
      {
        kind: 'link_added',
        market_id: fresh.market_id,
        event_id: fresh.event_id,
        signal_slug: null,
        generation: 4,
        published_at: AT,
        detail: {
          from: null,
          to: { question_id: fresh.question_id, also_on: [{ market_id: marketId(1, 'venue_b'), relation: null }] },
        },
      },
    ]);
    for (const c of changes) expect(ChangeSchema.safeParse({ seq: 1, ...c }).success).toBe(true);
  });

  it('reports a grade letter that moved, not a score that moved within it, nor a price', () => {
    const m = makeMarket(0);
    const graded = changesOf({ before: byId([m]), written: [rcg(m, 'A', 91)], log: [], newSignals: [], ...stamp });
    expect(graded).toEqual([
      expect.objectContaining({
        kind: 'grade_changed',
        market_id: m.market_id,
        detail: { from: { grade: 'B', score: 82 }, to: { grade: 'A', score: 91 } },
      }),
    ]);
    const wobble = rcg(m, 'B', 79);
    const priced = {
      ...wobble,
      also_on: [{ venue: 'venue_b' as const, market_id: marketId(0, 'venue_b'), price: 0.2 }],
    };
    expect(changesOf({ before: byId([m]), written: [priced], log: [], newSignals: [], ...stamp })).toEqual([]);
  });

  it('tells a link that appeared from one that changed or went', () => {
    const bare = makeMarket(0, { question_id: null, also_on: null });
    const linked = makeMarket(0);
    const added = changesOf({ before: byId([bare]), written: [linked], log: [], newSignals: [], ...stamp });
    expect(added.map((c) => c.kind)).toEqual(['link_added']);
    const related = {
      ...linked,
      also_on: [
        { venue: 'venue_b' as const, market_id: marketId(7, 'venue_b'), price: 0.4, relation: 'related' as const },
      ],
    };
    const changed = changesOf({ before: byId([linked]), written: [related], log: [], newSignals: [], ...stamp });
    expect(changed).toEqual([
      expect.objectContaining({
        kind: 'link_changed',
        detail: {
          from: { question_id: linked.question_id, also_on: [{ market_id: marketId(0, 'venue_b'), relation: null }] },
          to: {
            question_id: linked.question_id,
            also_on: [{ market_id: marketId(7, 'venue_b'), relation: 'related' }],
          },
        },
      }),
    ]);
    const gone = changesOf({ before: byId([linked]), written: [bare], log: [], newSignals: [], ...stamp });
    expect(gone.map((c) => [c.kind, c.detail.to])).toEqual([['link_changed', { question_id: null, also_on: [] }]]);
  });

  it('reports no link for a question_id without a twin: it is no cross-venue link', () => {
    const keyedAlone = makeMarket(3, { also_on: null });
    expect(keyedAlone.question_id).not.toBeNull();
    const arrived = changesOf({ before: new Map(), written: [keyedAlone], log: [], newSignals: [], ...stamp });
    expect(arrived.map((c) => c.kind)).toEqual(['market_added']);
    const rekeyed = { ...keyedAlone, question_id: `${keyedAlone.question_id}X` };
    const bare = { ...keyedAlone, question_id: null };
    for (const next of [rekeyed, bare]) {
      expect(changesOf({ before: byId([keyedAlone]), written: [next], log: [], newSignals: [], ...stamp })).toEqual([]);
    }
    // Once it has a twin, a new question_id is a link change.
    const twinned = makeMarket(3);
    const moved = { ...twinned, question_id: `${twinned.question_id}X` };
    const relinked = changesOf({ before: byId([twinned]), written: [moved], log: [], newSignals: [], ...stamp });
    expect(relinked.map((c) => c.kind)).toEqual(['link_changed']);
  });

  it('carries every lifecycle entry with its log_id and event_type, in append order', () => {
    const m = makeMarket(0);
    const log: ResolutionLogEntry[] = [
      { log_id: 17, ...makeLogEntry(0, { event_type: 'status_change', from_value: 'open', to_value: 'closed' }) },
      { log_id: 18, ...makeLogEntry(0, { event_type: 'resolution_proposed', from_value: null, to_value: 'YES' }) },
    ];
    const changes = changesOf({ before: byId([m]), written: [], log, newSignals: [], ...stamp });
    expect(changes).toEqual([
      {
        kind: 'lifecycle',
        market_id: m.market_id,
        event_id: m.event_id,
        signal_slug: null,
        generation: 4,
        published_at: AT,
        detail: {
          event_type: 'status_change',
          log_id: 17,
          occurred_at: log[0]?.occurred_at,
          from: 'open',
          to: 'closed',
        },
      },
      expect.objectContaining({
        kind: 'lifecycle',
        detail: expect.objectContaining({ event_type: 'resolution_proposed', log_id: 18, from: null, to: 'YES' }),
      }),
    ]);
  });

  it('reports a new bulletin by its slug', () => {
    const signal = makeSignal('fed-hold-repricing');
    expect(changesOf({ before: new Map(), written: [], log: [], newSignals: [signal], ...stamp })).toEqual([
      {
        kind: 'signal',
        market_id: null,
        event_id: signal.target_event_id,
        signal_slug: 'fed-hold-repricing',
        generation: 4,
        published_at: AT,
        detail: { headline: signal.headline },
      },
    ]);
  });

  it('reads of a stored market only what its slim copy keeps (a run lets the stored records it replaced go)', () => {
    const stored = [
      makeMarket(0),
      makeMarket(1, { question_id: null, also_on: null }),
      rcg(makeMarket(2), 'C', 30),
      makeMarket(3),
    ];
    const written = [
      rcg(stored[0] as Market, 'A', 95),
      {
        ...(stored[1] as Market),
        question_id: (stored[0] as Market).question_id,
        also_on: (stored[0] as Market).also_on,
      },
      { ...(stored[2] as Market), also_on: null, question_id: null },
    ];
    // Market 3 is not written: its lifecycle entry finds its event through the stored market.
    const log: ResolutionLogEntry[] = [{ log_id: 11, ...makeLogEntry(3) }];
    const full = changesOf({ before: byId(stored), written, log, newSignals: [], ...stamp });
    const slim = new Map(stored.map((m) => [m.market_id, marketBefore(m)]));
    expect(full.map((c) => c.kind)).toEqual(['lifecycle', 'grade_changed', 'link_added', 'link_changed']);
    expect(changesOf({ before: slim, written, log, newSignals: [], ...stamp })).toEqual(full);
    expect(full[0]?.event_id).toBe((stored[3] as Market).event_id);
    expect(Object.keys(marketBefore(makeMarket(3))).sort()).toEqual([
      'also_on',
      'event_id',
      'market_id',
      'question_id',
      'rcg',
    ]);
  });

  it('finds nothing in a rerun: the same markets written again, no log entry, no new bulletin', () => {
    const markets = [makeMarket(0), makeMarket(1, { question_id: null, also_on: null }), rcg(makeMarket(2), 'C', 30)];
    expect(changesOf({ before: byId(markets), written: markets, log: [], newSignals: [], ...stamp })).toEqual([]);
  });
});
