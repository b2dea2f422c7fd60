/**
 * Venue-neutral entry points over a raw pull: the native keys (so the pipeline resolves ids in one
 * batch through the store's registry first) and normalization into canonical records.
 */
import { decodeJsonList, idOrNull, isRecord, strOrNull } from './parse.ts';
import type { IdResolver, NormalizeResult, RawVenuePull, VenueQuote } from './types.ts';
import { isVenueAQuoteField, normalizeVenueA, requoteVenueA } from './venue-a/normalize.ts';
import { normalizeVenueB, requoteVenueB, venueBQuoteFields } from './venue-b/normalize.ts';

const rawId = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The native id of a raw market (as `nativeKeysOf` reads it), or null. */
export function nativeMarketIdOf(venue: RawVenuePull['venue'], raw: unknown): string | null {
  if (!isRecord(raw)) return null;
  return venue === 'venue_a' ? rawId(raw.ticker) : strOrNull(raw.conditionId);
}

/**
 * A raw market's text as it reads (issue 18, pipeline/raw-reuse.ts): its JSON, and for venue_b the JSON of the order
 * books of its tokens (its quote reads them). Two pulls of a market with equal texts normalize alike. `bookTokens`:
 * `Object.keys(pull.books)`, for a caller that reads many markets of one pull.
 */
export function rawMarketText(
  pull: Pick<RawVenuePull, 'venue' | 'books'>,
  raw: unknown,
  bookTokens: readonly string[] = Object.keys(pull.books),
): string {
  const text = JSON.stringify(raw) ?? '';
  if (pull.venue !== 'venue_b' || !isRecord(raw)) return text;
  return `${text}\0${booksText(raw.clobTokenIds, pull.books, bookTokens)}`;
}

/**
 * A raw market's shape: its JSON without its quote part (the fields only its quote is normalized from, with the
 * fields the venue's market schema does not name, which nothing reads; `isVenueAQuoteField`, `venueBQuoteFields`).
 * Two pulls of a market with equal shapes (in an event whose fields outside its markets are equal) normalize to the
 * same records but for the quote (test/venues/requote.test.ts), so a changed quote can be priced without
 * normalizing the event again (pipeline/requote.ts).
 */
export function rawMarketShape(venue: RawVenuePull['venue'], raw: unknown): string {
  if (!isRecord(raw)) return JSON.stringify(raw) ?? '';
  return withoutFields(raw, rawQuoteFields(venue, raw));
}

/** The fields of a raw market's quote part (see `rawMarketShape`). */
export function rawQuoteFields(venue: RawVenuePull['venue'], raw: Record<string, unknown>): string[] {
  const isQuote = venue === 'venue_a' ? isVenueAQuoteField : venueBQuoteFields(raw);
  return Object.keys(raw).filter((key) => isQuote(key));
}

/** A raw event's JSON without its markets. */
export function rawEventShell(rawEvent: unknown): string {
  return isRecord(rawEvent) ? withoutFields(rawEvent, ['markets']) : (JSON.stringify(rawEvent) ?? '');
}

/**
 * JSON of a parsed JSON object without some of its fields, the rest in their order. The fields are set to undefined
 * (which JSON leaves out) for the one serialization and put back: a copy of each market without its quote part cost
 * more than the serialization itself (the full universe is 39,200 markets of about 45 fields, every run). A frozen
 * record is copied.
 */
function withoutFields(record: Record<string, unknown>, fields: readonly string[]): string {
  if (Object.isFrozen(record)) {
    const copy = { ...record };
    for (const field of fields) delete copy[field];
    return JSON.stringify(copy);
  }
  const values = fields.map((field) => record[field]);
  for (const field of fields) record[field] = undefined;
  try {
    return JSON.stringify(record);
  } finally {
    fields.forEach((field, i) => {
      record[field] = values[i];
    });
  }
}

/**
 * venue_b: the order books of a market's tokens, as JSON (empty when it has none). `tokens`: the books' token ids,
 * listed once by the caller for a whole pull.
 */
function booksText(clobTokenIds: unknown, books: Record<string, unknown>, tokens: readonly string[]): string {
  // Most markets have no book in a pull (200 asked of 20,500 on the full universe): nothing to decode for them.
  if (typeof clobTokenIds === 'string' && !tokens.some((token) => clobTokenIds.includes(token))) return '';
  const decoded = decodeJsonList(clobTokenIds);
  const out: unknown[] = [];
  for (const token of decoded.ok ? (decoded.value ?? []) : []) {
    if (typeof token === 'string' && books[token] !== undefined) out.push(token, books[token]);
  }
  return out.length === 0 ? '' : JSON.stringify(out);
}

/**
 * The quote normalization would give each raw market of `rawMarkets` (markets of `rawEvent`), without normalizing
 * the event: null for a market that would not be normalized or does not read.
 */
export function requoteMarkets(
  pull: Pick<RawVenuePull, 'venue' | 'books'>,
  rawEvent: unknown,
  rawMarkets: readonly unknown[],
): (VenueQuote | null)[] {
  return pull.venue === 'venue_a'
    ? requoteVenueA(rawEvent, rawMarkets)
    : rawMarkets.map((raw) => requoteVenueB(raw, pull.books));
}

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
