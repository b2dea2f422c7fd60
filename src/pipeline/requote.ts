/**
 * Requoting (issue 18): a raw event whose markets changed in their quote parts alone (venues/normalize.ts
 * `rawMarketShape`: prices, volume, liquidity, books, update times) is not normalized again. Its shape key equals
 * the last published run's, so normalization would give the same event, markets and venue facts as then but for
 * the quotes (test/venues/requote.test.ts checks this on every fixture market), so its editorial key's inputs half
 * is unchanged and the editorial stage would reprice its stored records. Requoting does that directly: the changed
 * markets' quotes are read off their raw records (`requoteMarkets`), the stored records repriced with what the last
 * normalization gave the editorial layer (kept in the memo, `packRepriceInputs`), and today's marks of the changed
 * markets made from the new quotes. Anything it cannot do alike (no stored record, no kept inputs, no earlier
 * key, a market whose quote does not read, `repriceEvent` declining) sends the event through normalization instead.
 *
 * A run where 5% of the markets changed touches about 40% of the events (an event changes when any of its markets
 * does), and nine changes in ten are quote moves: those events skip normalization and their editorial keys.
 */
import type { Event, Market, VenueFacts } from '../domain/index.ts';
import type { EditorialOutput, MarkSummary, RepriceEventInput } from '../editorial/index.ts';
import type { NormalizedEvent, VenueQuote } from '../venues/index.ts';
import { quotesKeyOf, type RawMemo, withQuotesKey } from './incremental.ts';

/** What the editorial layer reads of a normalized event besides the quotes, when it reprices it. */
interface RepriceInputs {
  event: Event;
  facts: VenueFacts[];
}

/**
 * Kept form: the first market's facts whole, each other market's as the fields that differ from them (most facts are
 * the event's or the series': its title, description, settlement sources). On the full simulated universe that is
 * 6.8 MB of JSON for 3,860 events instead of 32 MB; kept as text (deflated it was 3.1 MB, and each requote paid
 * the inflate).
 */
interface PackedInputs {
  event: Event;
  first: VenueFacts | null;
  rest: Partial<VenueFacts>[];
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/**
 * The normalized event and its markets' venue facts, as kept in a raw memo: JSON, the facts shared with the first
 * market's left out. Null when it cannot be serialized.
 */
export function packRepriceInputs(n: NormalizedEvent): string | null {
  const [first, ...others] = n.markets.map((m) => m.facts);
  const rest = others.map((facts) => {
    const diff: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(facts)) {
      if (!sameValue(value, (first as Record<string, unknown> | undefined)?.[key])) diff[key] = value;
    }
    return diff as Partial<VenueFacts>;
  });
  const packed: PackedInputs = { event: n.event, first: first ?? null, rest };
  return JSON.stringify(packed) ?? null;
}

function unpackRepriceInputs(text: string): RepriceInputs {
  const packed = JSON.parse(text) as PackedInputs;
  const facts =
    packed.first === null
      ? []
      : [packed.first, ...packed.rest.map((diff) => ({ ...packed.first, ...diff }) as VenueFacts)];
  return { event: packed.event, facts };
}

/** The mark summary of a quote (what markSummaries gives a normalized market). */
export function summaryOfQuote(q: VenueQuote): MarkSummary {
  return { last_price: q.last_price, volume_24h_usd: q.volume_24h_usd, liquidity_usd: q.liquidity_usd };
}

/** An event requoted in the normalize stage: its repriced record and what the later stages read of it. */
export interface RequotedEvent {
  eventId: string;
  /** Its markets in event order and their mark summaries (the new ones where the quote changed). */
  marketIds: string[];
  summaries: MarkSummary[];
  /** The new quotes, by market_id: the markets whose quote parts changed. */
  quotes: ReadonlyMap<string, VenueQuote>;
  /**
   * The repriced event, `updated_at` at the run clock (as a normalized event's); null when the summaries the
   * editorial layer reads did not change (a bid, a total volume): the stored records stand, as for a reused event.
   */
  event: Event | null;
  /** Its editorial key at the new quotes. */
  key: string;
}

/**
 * The stored records of an event repriced at `marks` (editorial `repriceEvent`), as the editorial stage and the
 * requoter both do it: the stored markets, each still under the stored event, the event as normalization gave it
 * with the stored `created_at`, and the result's `updated_at` at `updatedAt`. Null when a stored market is missing
 * or `repriceEvent` declines (the event is derived, or normalized, instead).
 */
export function repriceStored(
  reprice: (input: RepriceEventInput) => EditorialOutput | null,
  input: {
    event: Event;
    storedEvent: Event;
    marketIds: readonly string[];
    storedMarkets: ReadonlyMap<string, Market>;
    facts: readonly VenueFacts[];
    marks: ReadonlyMap<string, MarkSummary>;
    updatedAt: string;
  },
): { event: Event; markets: Market[] } | null {
  const { storedEvent } = input;
  const markets: Market[] = [];
  for (const id of input.marketIds) {
    const stored = input.storedMarkets.get(id);
    if (stored === undefined || stored.event_id !== storedEvent.event_id) return null;
    markets.push(stored);
  }
  if (input.facts.length !== markets.length) return null;
  const out = reprice({
    event: { ...input.event, created_at: storedEvent.created_at },
    derived: { event: storedEvent, markets },
    facts: input.facts,
    marks: input.marks,
  });
  return out === null ? null : { event: { ...out.event, updated_at: input.updatedAt }, markets };
}

/** Reprices a memo's event at new quotes for some of its markets (by market_id), or says it cannot (null). */
export type Requoter = (
  memo: NonNullable<RawMemo['event']>,
  quotes: ReadonlyMap<string, VenueQuote>,
) => RequotedEvent | null;

/**
 * The requoter of a run, or undefined when it cannot requote at all: editorial functions without `repriceEvent`,
 * or no editorial keys of a last run to keep the inputs half of.
 */
export function requoter(input: {
  /** The run's editorial functions (editorial-stage.ts `EditorialFunctions`): only `repriceEvent` is read. */
  editorial: { repriceEvent?(input: RepriceEventInput): EditorialOutput | null };
  previousKeys: ReadonlyMap<string, string> | null;
  storedEvents: ReadonlyMap<string, Event>;
  storedMarkets: ReadonlyMap<string, Market>;
  now: string;
}): Requoter | undefined {
  const { editorial, previousKeys, storedEvents, storedMarkets, now } = input;
  const reprice = editorial.repriceEvent;
  if (reprice === undefined || previousKeys === null) return undefined;
  return (memo, quotes) => {
    const previous = previousKeys.get(memo.eventId);
    const storedEvent = storedEvents.get(memo.eventId);
    if (memo.repriceInputs === null || previous === undefined || storedEvent === undefined) return null;
    const summaries = memo.marketIds.map((id, i) => {
      const q = quotes.get(id);
      return q === undefined ? (memo.summaries[i] as MarkSummary) : summaryOfQuote(q);
    });
    const key = withQuotesKey(previous, quotesKeyOf(summaries));
    if (key === null) return null;
    const requoted = { eventId: memo.eventId, marketIds: memo.marketIds, summaries, quotes, key };
    if (key === previous) return { ...requoted, event: null };
    const inputs = unpackRepriceInputs(memo.repriceInputs);
    const out = repriceStored(reprice, {
      // Normalization stamps the event at this run's clock (records.ts baseEvent).
      event: { ...inputs.event, updated_at: now },
      storedEvent,
      marketIds: memo.marketIds,
      storedMarkets,
      facts: inputs.facts,
      marks: new Map(memo.marketIds.map((id, i) => [id, summaries[i] as MarkSummary])),
      updatedAt: now,
    });
    return out === null ? null : { ...requoted, event: out.event };
  };
}
