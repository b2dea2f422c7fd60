/**
 * Pull and normalize one venue (DESIGN.md §4 steps 1–2). A venue that throws, reports an error, or
 * cannot be normalized comes back as `failed` with the reason: the run goes on without it and its
 * stored records stay as they are.
 */
import { eventIdFor, marketIdFor, nativeKey, type Venue } from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import type { NormalizedEvent, RawVenuePull, VenueClientOptions } from '../venues/index.ts';
import { nativeKeysOf, normalizePull, pullVenueA, pullVenueB } from '../venues/index.ts';
import type { PipelineLogger } from './types.ts';

export interface VenuePullOptions {
  venue_a: VenueClientOptions;
  venue_b: VenueClientOptions & { maxBookCalls?: number };
}

export interface VenueOutcome {
  venue: Venue;
  pull: RawVenuePull;
  /** Null when the venue failed (see `error`). */
  events: NormalizedEvent[] | null;
  outOfScope: Record<string, number>;
  rejected: Record<string, number>;
  error: string | null;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function emptyPull(venue: Venue, error: string): RawVenuePull {
  return { venue, events: [], series: {}, books: {}, pulled: 0, error };
}

/** Pulls one venue; never throws (a throw becomes the pull's error). */
export async function pullVenue(
  venue: Venue,
  options: VenuePullOptions,
  logger: PipelineLogger,
): Promise<RawVenuePull> {
  try {
    return venue === 'venue_a'
      ? await pullVenueA({ logger, ...options.venue_a })
      : await pullVenueB({ logger, ...options.venue_b });
  } catch (err) {
    return emptyPull(venue, `pull failed: ${message(err)}`);
  }
}

/** The native id inside a registry key (`venue:nativeId`); keys given bare are taken as they are. */
function nativeIdOf(venue: Venue, key: string): string {
  const prefix = `${venue}:`;
  return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

/**
 * Registers every native key of a pull in the store's id registry in one batch per kind, then
 * normalizes the pull with those ids (spec §2.1–2.2; ids never change once registered).
 */
export async function normalizeVenue(store: Store, pull: RawVenuePull, now: string): Promise<VenueOutcome> {
  const venue = pull.venue;
  const failed = (error: string): VenueOutcome => ({
    venue,
    pull,
    events: null,
    outOfScope: {},
    rejected: {},
    error,
  });
  if (pull.error !== null) return failed(pull.error);
  try {
    const keys = nativeKeysOf(pull);
    const eventKeys = keys.events.map((k) => nativeKey(venue, nativeIdOf(venue, k)));
    const marketKeys = keys.markets.map((k) => nativeKey(venue, nativeIdOf(venue, k)));
    const eventIds = await store.resolveIds('event', eventKeys, (key, attempt) =>
      eventIdFor(venue, nativeIdOf(venue, key), attempt),
    );
    const marketIds = await store.resolveIds('market', marketKeys, (key, attempt) =>
      marketIdFor(venue, nativeIdOf(venue, key), attempt),
    );
    const eventIdByKey = new Map(eventKeys.map((k, i) => [k, eventIds[i] ?? '']));
    const marketIdByKey = new Map(marketKeys.map((k, i) => [k, marketIds[i] ?? '']));
    const lookup = (map: Map<string, string>, kind: string, nativeId: string): string => {
      const id = map.get(nativeKey(venue, nativeId));
      if (id === undefined || id === '') {
        throw new Error(`${venue}: ${kind} '${nativeId}' was not among the pull's native keys (nativeKeysOf)`);
      }
      return id;
    };
    const result = normalizePull(
      pull,
      {
        eventId: (nativeId) => lookup(eventIdByKey, 'event', nativeId),
        marketId: (nativeId) => lookup(marketIdByKey, 'market', nativeId),
      },
      now,
    );
    return {
      venue,
      pull,
      events: result.events,
      outOfScope: result.outOfScope,
      rejected: result.rejected,
      error: null,
    };
  } catch (err) {
    return failed(`normalize failed: ${message(err)}`);
  }
}
