/**
 * Today's mark of a market whose raw venue input did not change since the last run (issue 18, incremental.ts):
 * the mark `markFromQuote` would build from the same quote at this run's clock, made from the last run's mark
 * instead of a normalized quote. Only the time-dependent fields move (snapshot date and time, hours since the
 * venue's update, the stale flag, and the update time itself when the venue gave none); the rest is the quote
 * as the mark kept it, run through `markFromQuote` again so that both paths share one definition. The raw payload
 * stays where the store keeps it (run.ts writes it by content id).
 */
import type { Market, MarkFacts, NewMark } from '../domain/index.ts';
import { sameRecord } from './editorial-stage.ts';
import { markFromQuote, type QuoteInput } from './marks.ts';

/**
 * The quote a mark was made from, as far as `markFromQuote` reads it, but for its raw payload (`{}` here: see
 * retimeMark). The mark's clamped values read back to themselves (its range checks are idempotent); a mark whose
 * venue gave no update time has the pull time there and no hours since update (a venue time that does not parse
 * also leaves hours null, but never equals the snapshot time, which is an ISO time).
 */
export function quoteOfMark(mark: MarkFacts): QuoteInput {
  const noVenueTime = mark.hours_since_source_update === null && mark.source_updated_at === mark.snapshot_at;
  return {
    yes_bid: mark.yes_bid,
    yes_ask: mark.yes_ask,
    no_bid: mark.no_bid,
    no_ask: mark.no_ask,
    yes_bid_size_usd: mark.yes_bid_size_usd,
    yes_ask_size_usd: mark.yes_ask_size_usd,
    no_bid_size_usd: mark.no_bid_size_usd,
    no_ask_size_usd: mark.no_ask_size_usd,
    last_price: mark.yes_last_price,
    volume_24h_usd: mark.volume_24h_usd,
    volume_total_usd: mark.volume_total_usd,
    open_interest_usd: mark.open_interest_usd,
    source_updated_at: noVenueTime ? null : mark.source_updated_at,
    provenance: mark.field_provenance,
    raw: {},
  };
}

/**
 * The mark of `market` at `now` from its last run's mark `previous` (a `venue_snapshot` mark of the same quote);
 * `primaryPrice` as for markFromQuote (the event's primary market's quoted last price, null for a lone market).
 * Its raw payload is null: the payload is the previous mark's, which the run keeps where it is stored
 * (`KeptRawPayloads`) rather than reading it, serializing it and hashing it again. Its provenance is the previous
 * mark's object when equal (the store's read shares one object per distinct provenance, so the write serializes
 * each once).
 * @example retimeMark(market, lastRunMark, '2026-03-01T13:00:00.000Z', null).snapshot_at // '2026-03-01T13:00:00.000Z'
 */
export function retimeMark(market: Market, previous: MarkFacts, now: string, primaryPrice: number | null): NewMark {
  const mark = markFromQuote(market, quoteOfMark(previous), { now, primaryPrice });
  const provenance = sameRecord(mark.field_provenance, previous.field_provenance)
    ? previous.field_provenance
    : mark.field_provenance;
  return { ...mark, raw_payload: null, field_provenance: provenance };
}

/** What a re-timed mark may change of its previous mark, besides what the store keeps (raw payload, id). */
const MOVING = new Set([
  'mark_id',
  'snapshot_at',
  'source_updated_at',
  'stale_flag',
  'hours_since_source_update',
  'raw_payload',
  'field_provenance',
]);

/**
 * True when `mark` (retimeMark's) is `previous` moved to a later time of the same day: the same date, the same
 * provenance object (retimeMark shares it when equal), and every other field equal but the time fields. The store
 * may then rewrite only its time columns (`StoreTx.retimeMarks`).
 */
export function movedInDay(mark: NewMark, previous: MarkFacts): boolean {
  return (
    mark.snapshot_date === previous.snapshot_date &&
    mark.field_provenance === previous.field_provenance &&
    sameRecord(mark, previous, MOVING)
  );
}
