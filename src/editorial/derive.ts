/**
 * The editorial seam, wired (DESIGN.md §4 step 3): for one event, first the resolution judgment of each
 * market (sources, commitment, arbitration, triggers, RCG — ./resolution), then the canon of the event
 * and its markets (bundle, references, claim keys, question_id, primary market, overrides — ./canon).
 * Field provenance from both layers is merged onto each record. Pure: no clock, no I/O.
 */
import type { Event, Market, VenueFacts } from '../domain/index.ts';
import {
  CHECKED_IN_OVERRIDES,
  canonEvent,
  linkAcrossVenues as linkTwins,
  type MarkSummary,
  type Overrides,
  repriceEvent as repriceCanon,
} from './canon/index.ts';
import { judgeResolution } from './resolution/index.ts';

export type { MarkSummary };

export interface EditorialInput {
  event: Event;
  markets: ReadonlyArray<{ market: Market; facts: VenueFacts }>;
  marks: ReadonlyMap<string, MarkSummary>;
  /** ISO time of the run (editorial functions never read the clock). */
  now: string;
  /** Editorial overrides; the checked-in file (data/editorial/overrides.json) when omitted. */
  overrides?: Overrides;
}

export interface EditorialOutput {
  event: Event;
  markets: Market[];
}

/** Applies the resolution judgment to one market, keeping its other fields and merging provenance. */
export function judgedMarket(market: Market, facts: VenueFacts): Market {
  const { field_provenance, ...judgment } = judgeResolution(market, facts);
  return { ...market, ...judgment, field_provenance: { ...market.field_provenance, ...field_provenance } };
}

/**
 * Derives every editorial field of one event and its markets.
 * @example deriveEvent({ event, markets: [{ market, facts }], marks: new Map(), now }).markets[0].rcg?.grade
 */
export function deriveEvent(input: EditorialInput): EditorialOutput {
  const judged = input.markets.map(({ market, facts }) => ({ market: judgedMarket(market, facts), facts }));
  return canonEvent({
    event: input.event,
    markets: judged,
    marks: input.marks,
    overrides: input.overrides ?? CHECKED_IN_OVERRIDES,
    now: input.now,
  });
}

export interface RepriceEventInput {
  /** The event deriveEvent was given (its inputs: the same as this run's). */
  event: Event;
  /** What deriveEvent gave for it at earlier quotes. */
  derived: EditorialOutput;
  /** Each market's venue facts, parallel to `derived.markets`. */
  facts: readonly VenueFacts[];
  /** The quotes of this run. */
  marks: ReadonlyMap<string, MarkSummary>;
  overrides?: Overrides;
}

/**
 * What deriveEvent gives for an event whose inputs are unchanged but for its markets' quotes, from what it gave
 * at the earlier quotes: the resolution judgment reads no quote, and canon reads them only for the ladder
 * distribution and the primary market (canon-event.ts `repriceEvent`). Null when `derived` does not carry what
 * that needs: derive the event instead. Pure.
 * @example repriceEvent({ event, derived: deriveEvent(input), facts, marks: laterMarks }) // = deriveEvent at laterMarks
 */
export function repriceEvent(input: RepriceEventInput): EditorialOutput | null {
  return repriceCanon({ ...input, overrides: input.overrides ?? CHECKED_IN_OVERRIDES });
}

/** Sets `also_on` on every market from shared question_ids, with each twin's latest price. */
export function linkAcrossVenues(markets: readonly Market[], marks: ReadonlyMap<string, MarkSummary>): Market[] {
  const prices = new Map<string, number | null>();
  for (const [id, m] of marks) prices.set(id, m.last_price);
  return linkTwins(markets, prices);
}
