/**
 * The lifecycle log from venue comparison (spec §2.4, §6; DESIGN.md §4 step 4). Version 0.1 produced
 * `status_change`, `rule_change` and `resolved` by comparing the stored market with the freshly
 * normalized one; this version adds `resolution_proposed`, `disputed` and `amended` from the resolution
 * process the venue reports (venue_b's UMA history, venue_a's settlement states: `Market.resolution_history`).
 * Pure: the same (prev, next) pair always yields the same entries, and an unchanged market yields none —
 * that is what makes a rerun of the same input append nothing.
 */
import type { LogEventType, Market, NewResolutionLogEntry, OccurredBasis, ResolutionHistory } from '../domain/index.ts';

/** Fields whose change is a `rule_change`: the resolution criteria as the venue states them. */
const RULE_FIELDS = ['resolution_rules_raw', 'description_raw'] as const;

interface Occurrence {
  basis: OccurredBasis;
  at: string;
}

function entry(
  market: Market,
  now: string,
  fields: Pick<NewResolutionLogEntry, 'event_type' | 'from_value' | 'to_value' | 'diff'> & { when: Occurrence },
): NewResolutionLogEntry {
  return {
    market_id: market.market_id,
    event_type: fields.event_type,
    occurred_basis: fields.when.basis,
    occurred_at: fields.when.at,
    recorded_at: now,
    from_value: fields.from_value,
    to_value: fields.to_value,
    diff: fields.diff,
    source: 'platform_api',
    source_ref: null,
    actor: null,
  };
}

function notAfter(time: string | null, now: string): time is string {
  return time !== null && Date.parse(time) <= Date.parse(now);
}

/**
 * Which clock a resolution's `occurred_at` holds: the venue's settlement time when it gives one
 * (resolved_at from the venue), else the deadline (resolve, then close time, if already passed),
 * else the moment we first saw it. Deadline-basis times are never presented as settlement times.
 */
export function resolutionOccurrence(market: Market, now: string): Occurrence {
  const resolvedAtSource = market.field_provenance.resolved_at?.source;
  if (market.resolved_at !== null && (resolvedAtSource === undefined || resolvedAtSource === 'platform_api')) {
    return { basis: 'venue_settlement', at: market.resolved_at };
  }
  if (notAfter(market.resolve_at, now)) return { basis: 'deadline', at: market.resolve_at };
  if (notAfter(market.close_at, now)) return { basis: 'deadline', at: market.close_at };
  return { basis: 'first_observed', at: now };
}

/** When a status move happened, as far as the venue lets us say. */
function statusOccurrence(prev: Market | null, next: Market, now: string): Occurrence {
  if (prev === null) return { basis: 'first_observed', at: now };
  if (next.status === 'resolved') return resolutionOccurrence(next, now);
  if (next.status === 'closed' && notAfter(next.close_at, now)) return { basis: 'deadline', at: next.close_at };
  return { basis: 'first_observed', at: now };
}

/** Final price of a resolved binary: 1 for YES, 0 for NO, else the venue's settlement value. */
export function finalPriceOf(market: Market): number | null {
  const outcome = market.resolution_outcome?.toUpperCase();
  if (outcome === 'YES') return 1;
  if (outcome === 'NO') return 0;
  return market.resolution_value;
}

/** The log entry a venue resolution state stands for; null for states logged otherwise (resolved, finalized). */
function historyEventType(state: string): LogEventType | null {
  switch (state) {
    case 'proposed': // venue_b: a UMA proposal
    case 'determined': // venue_a: the exchange's outcome determination, final after the settlement timer
      return 'resolution_proposed';
    case 'disputed':
      return 'disputed';
    case 'amended': // venue_a: a settlement corrected after determination
      return 'amended';
    default:
      return null;
  }
}

/** What a log entry says of one venue resolution state: the canonical state it moved to. */
const LOGGED_STATE: Partial<Record<LogEventType, string>> = {
  resolution_proposed: 'proposed',
  disputed: 'disputed',
  amended: 'amended',
};

/**
 * The resolution states `next` reports that `prev` did not, with the state before each. venue_b's UMA list
 * only grows, so when the stored list is a prefix of the new one the new steps are its suffix; venue_a shows
 * one state at a time, and a list the venue rewrote is not a prefix: then only the newest state counts, and
 * only when it differs from the stored newest. A market first seen (or stored before this field existed)
 * gets every step it reports.
 */
export function newResolutionSteps(
  prev: ResolutionHistory | null | undefined,
  next: ResolutionHistory | null | undefined,
): { state: string; before: string | null; index: number }[] {
  if (!next || next.statuses.length === 0) return [];
  const seen = prev?.statuses ?? [];
  const isPrefix = seen.length <= next.statuses.length && seen.every((x, i) => next.statuses[i] === x);
  if (isPrefix) {
    return next.statuses
      .slice(seen.length)
      .map((state, k) => ({ state, before: next.statuses[seen.length + k - 1] ?? null, index: seen.length + k }));
  }
  const last = next.statuses.length - 1;
  const state = next.statuses[last];
  if (state === undefined || state === seen.at(-1)) return [];
  return [{ state, before: seen.at(-1) ?? null, index: last }];
}

/**
 * `resolution_proposed`, `disputed` and `amended` entries for the resolution steps a market reports that
 * its stored state did not. The venues give no time for a step (Gamma's list is bare; Kalshi stamps only
 * settlement), so each is dated when first observed, with basis `first_observed`. Source `platform_api`:
 * the UMA history is read off the Gamma API, not the UMA subgraph.
 */
export function resolutionStepEntries(prev: Market | null, next: Market, now: string): NewResolutionLogEntry[] {
  const history = next.resolution_history;
  if (!history) return [];
  const out: NewResolutionLogEntry[] = [];
  for (const step of newResolutionSteps(prev?.resolution_history, history)) {
    const eventType = historyEventType(step.state);
    if (eventType === null) continue;
    out.push(
      entry(next, now, {
        event_type: eventType,
        from_value: step.before,
        to_value: LOGGED_STATE[eventType] ?? step.state,
        diff: { venue_state: step.state, step: step.index + 1, statuses: history.statuses },
        when: { basis: 'first_observed', at: now },
      }),
    );
  }
  return out;
}

/**
 * Log entries for one market between its stored state (`prev`, null when first seen) and its new
 * state. A market first seen already closed or resolved gets a `status_change` with basis
 * `first_observed` (and a `resolved` entry when the outcome is known); an open first sighting gets
 * nothing. Source is always `platform_api` with `source_ref` null (spec §2.4).
 * @example diffMarkets(stored, { ...stored, status: 'closed' }, now) // [{ event_type: 'status_change', from_value: 'open', to_value: 'closed', … }]
 */
export function diffMarkets(prev: Market | null, next: Market, now: string): NewResolutionLogEntry[] {
  const out: NewResolutionLogEntry[] = [];
  const statusMoved = prev === null ? next.status !== 'open' : prev.status !== next.status;
  if (statusMoved) {
    out.push(
      entry(next, now, {
        event_type: 'status_change',
        from_value: prev?.status ?? null,
        to_value: next.status,
        diff: null,
        when: statusOccurrence(prev, next, now),
      }),
    );
  }

  if (prev !== null) {
    const changed: Record<string, { before: string | null; after: string | null }> = {};
    for (const field of RULE_FIELDS) {
      if (prev[field] !== next[field]) changed[field] = { before: prev[field], after: next[field] };
    }
    if (Object.keys(changed).length > 0) {
      out.push(
        entry(next, now, {
          event_type: 'rule_change',
          from_value: null,
          to_value: null,
          diff: changed,
          when: { basis: 'first_observed', at: now },
        }),
      );
    }
  }

  out.push(...resolutionStepEntries(prev, next, now));

  const outcomeArrived =
    next.status === 'resolved' &&
    next.resolution_outcome !== null &&
    (prev === null || prev.status !== 'resolved' || prev.resolution_outcome === null);
  if (outcomeArrived) {
    out.push(
      entry(next, now, {
        event_type: 'resolved',
        from_value: prev?.status ?? null,
        to_value: next.resolution_outcome,
        diff: { final_price: finalPriceOf(next), resolution_value: next.resolution_value },
        when: resolutionOccurrence(next, now),
      }),
    );
  }
  return out;
}
