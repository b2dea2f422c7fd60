// Builders for canon tests: canonical Market/VenueFacts/Event records with only the fields a test cares about.
import type { Event, Market, Venue, VenueFacts } from '../../../src/domain/index.ts';
import { emptyVenueFacts } from '../../../src/domain/index.ts';
import { blankEvent, nativeRecordsOf } from '../../../src/editorial/canon/index.ts';

export const NOW = '2026-03-02T00:00:00.000Z';

export interface MarketSpec {
  question: string;
  rules?: string;
  close?: string;
  group?: string;
  status?: Market['status'];
  facts?: Partial<VenueFacts>;
}

/** A canonical market on `venue` with native id `id`, via the canon module's own native mapping. */
export function market(venue: Venue, id: string, spec: MarketSpec): { market: Market; facts: VenueFacts } {
  const [rec] = nativeRecordsOf(
    { platform: venue, platform_market_id: id, question_raw: spec.question, resolution_rules_raw: spec.rules ?? null },
    NOW,
  );
  if (!rec) throw new Error('no record');
  const m: Market = {
    ...rec.market,
    close_at: spec.close ?? '2026-12-31T23:59:00.000Z',
    group_item_title: spec.group ?? null,
    status: spec.status ?? 'open',
    platform_event_id: `EVT-${id}`,
  };
  return { market: m, facts: { ...emptyVenueFacts(), ...spec.facts } };
}

export function event(venue: Venue, id: string, title: string): Event {
  return blankEvent(venue, id, title, NOW);
}
