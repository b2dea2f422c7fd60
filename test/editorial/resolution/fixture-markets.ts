/**
 * Reads the real venue fixtures in place (../shared/fixtures/venues) and maps each market with the
 * minimal native mapping, joining venue_a markets to their series where a series object exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Market, VenueFacts } from '../../../src/domain/index.ts';
import { venueAInput, venueBInput } from '../../../src/editorial/resolution/native-input.ts';

export const FIXTURE_DIR = join(import.meta.dirname, '../../../../shared/fixtures/venues');

type Rec = Record<string, unknown>;
export interface FixtureMarket {
  venue: 'venue_a' | 'venue_b';
  file: string;
  id: string;
  /** The event the market belongs to (venue_a `event_ticker`; venue_b the parent event id), for sibling checks. */
  event: string | null;
  market: Market;
  facts: VenueFacts;
}

function walk(o: unknown, fn: (r: Rec, parentEvent: Rec | null) => void, parentEvent: Rec | null = null): void {
  if (Array.isArray(o)) for (const x of o) walk(x, fn, parentEvent);
  else if (o !== null && typeof o === 'object') {
    const r = o as Rec;
    fn(r, parentEvent);
    // venue_a events carry `event_ticker`, venue_b (Gamma) events a `slug`; both nest `markets`.
    const next = ('event_ticker' in r || 'slug' in r) && Array.isArray(r.markets) ? r : parentEvent;
    for (const v of Object.values(r)) walk(v, fn, next);
  }
}

/** Every unique market with rules text in the fixtures (venue_a combos without rules are out of scope). */
export function loadFixtureMarkets(): FixtureMarket[] {
  const out: FixtureMarket[] = [];
  const seen = new Set<string>();
  const series = new Map<string, Rec>();
  const files = (venue: string) =>
    readdirSync(join(FIXTURE_DIR, venue))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => ({ f, data: JSON.parse(readFileSync(join(FIXTURE_DIR, venue, f), 'utf8')) as unknown }));
  const aFiles = files('venue_a');
  for (const { data } of aFiles)
    walk(data, (r) => {
      if (Array.isArray(r.settlement_sources) && typeof r.ticker === 'string') series.set(r.ticker, r);
    });
  for (const { f, data } of aFiles)
    walk(data, (r, parent) => {
      if (typeof r.ticker !== 'string' || typeof r.rules_primary !== 'string' || r.rules_primary === '') return;
      if (seen.has(`a:${r.ticker}`)) return;
      seen.add(`a:${r.ticker}`);
      const st =
        typeof parent?.series_ticker === 'string' ? parent.series_ticker : String(r.event_ticker ?? '').split('-')[0];
      const { market, facts } = venueAInput(r, series.get(st ?? ''));
      const event = typeof r.event_ticker === 'string' ? r.event_ticker : null;
      out.push({ venue: 'venue_a', file: `venue_a/${f}`, id: r.ticker, event, market, facts });
    });
  for (const { f, data } of files('venue_b'))
    walk(data, (r, parent) => {
      if (typeof r.conditionId !== 'string' || !('description' in r)) return;
      if (seen.has(`b:${r.conditionId}`)) return;
      seen.add(`b:${r.conditionId}`);
      const { market, facts } = venueBInput(r);
      const nested = Array.isArray(r.events) ? (r.events[0] as Rec | undefined) : undefined;
      const eventId = parent?.id ?? nested?.id;
      const event = typeof eventId === 'string' || typeof eventId === 'number' ? `b:${eventId}` : null;
      out.push({ venue: 'venue_b', file: `venue_b/${f}`, id: r.conditionId, event, market, facts });
    });
  return out;
}
