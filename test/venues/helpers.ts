/** Shared seams for the venue tests: fixture paths, a deterministic id resolver, a fake clock. */
import { fileURLToPath } from 'node:url';
import { eventIdFor, marketIdFor, type Venue } from '../../src/domain/index.ts';
import type { IdResolver, VenueClock } from '../../src/venues/index.ts';

export const BASIC_DIR = fileURLToPath(new URL('../fixtures/venues/basic', import.meta.url));
export const SHARED_VENUES_DIR = fileURLToPath(new URL('../../../shared/fixtures/venues', import.meta.url));
export const NOW = '2026-04-20T12:30:00.000Z';

export function idsFor(venue: Venue): IdResolver {
  return { eventId: (n) => eventIdFor(venue, n), marketId: (n) => marketIdFor(venue, n) };
}

/** A clock whose sleep returns at once and advances time; records every sleep. */
export function fakeClock(start = Date.parse(NOW)): VenueClock & { sleeps: number[] } {
  let t = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    random: () => 0.5,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}
