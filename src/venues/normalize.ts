/**
 * Venue-neutral entry points over a raw pull: the native keys (so the pipeline resolves ids in one
 * batch through the store's registry first) and normalization into canonical records.
 */
import { idOrNull, isRecord, strOrNull } from './parse.ts';
import type { IdResolver, NormalizeResult, RawVenuePull } from './types.ts';
import { normalizeVenueA } from './venue-a/normalize.ts';
import { normalizeVenueB } from './venue-b/normalize.ts';

const rawId = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * Native ids in a pull: event ticker / Gamma event id, market ticker / conditionId. A superset of
 * the ids normalization will ask for (out-of-scope records are included), in pull order, unique.
 */
export function nativeKeysOf(pull: RawVenuePull): { events: string[]; markets: string[] } {
  const events = new Set<string>();
  const markets = new Set<string>();
  for (const e of pull.events) {
    if (!isRecord(e)) continue;
    // The same readings normalization uses, so every id it asks for is in this list.
    const evId = pull.venue === 'venue_a' ? rawId(e.event_ticker) : idOrNull(e.id);
    if (evId) events.add(evId);
    for (const m of Array.isArray(e.markets) ? e.markets : []) {
      if (!isRecord(m)) continue;
      const id = pull.venue === 'venue_a' ? rawId(m.ticker) : strOrNull(m.conditionId);
      if (id) markets.add(id);
    }
  }
  return { events: [...events], markets: [...markets] };
}

/**
 * Native records → canonical Event/Market records with VenueFacts and quotes. Pure: `now` stamps
 * first_seen_at / last_updated_at / created_at / updated_at (the pipeline keeps stored first_seen_at).
 * Every pulled record appears once in `records`: normalized, out of scope or rejected, with a reason.
 */
export function normalizePull(pull: RawVenuePull, ids: IdResolver, now: string): NormalizeResult {
  return pull.venue === 'venue_a' ? normalizeVenueA(pull, ids, now) : normalizeVenueB(pull, ids, now);
}
