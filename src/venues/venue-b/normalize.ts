/**
 * venue_b native records (Gamma events with nested markets, CLOB books) → canonical Event / Market
 * records, VenueFacts and a quote (spec §2). Every event is single-venue; the category comes from
 * the event's tags (table in categories.ts) or, when no tag maps, the keyword classifier
 * (provenance `derived`).
 */
import {
  emptyVenueFacts,
  type FieldProvenance,
  type MarketFeeTerms,
  type MarketVenueRefs,
  type ResolutionHistory,
  type VenueFacts,
} from '../../domain/index.ts';
import { type CategoryVerdict, categoryFromKeywords, categoryFromVenueBTags, refinePolitics } from '../categories.ts';
import { decodeJsonList, idOrNull, isoOrNull, isRecord, numOrNull, slugify, strOrNull } from '../parse.ts';
import {
  baseEvent,
  baseMarket,
  lifecycleStatus,
  marketProblem,
  nonNegative,
  prob,
  pushEvent,
  ResultBuilder,
  usd,
} from '../records.ts';
import type { IdResolver, NormalizedMarket, NormalizeResult, RawVenuePull, VenueQuote } from '../types.ts';
import { schemaReason } from '../venue-a/schemas.ts';
import {
  type ClobBook,
  ClobBookSchema,
  type VenueBEvent,
  VenueBEventSchema,
  type VenueBMarket,
  VenueBMarketSchema,
} from './schemas.ts';

const API: FieldProvenance[string] = { source: 'platform_api' };

interface Decoded {
  mk: VenueBMarket;
  conditionId: string;
  outcomes: string[];
  prices: number[] | null;
  tokens: string[];
  umaStatuses: string[];
}

/** Normalizes a venue_b pull. Every pulled record ends normalized, out of scope or rejected. */
export function normalizeVenueB(pull: RawVenuePull, ids: IdResolver, now: string): NormalizeResult {
  const out = new ResultBuilder();
  const seen = new Set<string>();
  for (const rawEvent of pull.events) {
    const parsed = VenueBEventSchema.safeParse(rawEvent);
    if (!parsed.success) {
      const reason = schemaReason(parsed.error);
      const markets = isRecord(rawEvent) && Array.isArray(rawEvent.markets) ? rawEvent.markets : [];
      const evId = isRecord(rawEvent) ? (idOrNull(rawEvent.id) ?? '?') : '?';
      if (markets.length === 0) out.reject('event', evId, reason);
      for (const m of markets) out.reject('market', nativeIdOf(m), `event_${reason}`);
      continue;
    }
    const ev = parsed.data;
    const evId = String(ev.id);
    const rawMarkets = ev.markets ?? [];
    if (rawMarkets.length === 0) {
      out.out('event', evId, 'event_without_markets');
      continue;
    }
    const decoded: Decoded[] = [];
    for (const raw of rawMarkets) {
      const d = decodeMarket(raw);
      if (typeof d === 'string') {
        out.reject('market', nativeIdOf(raw), d);
        continue;
      }
      if ('outOfScope' in d) {
        out.out('market', nativeIdOf(raw), d.outOfScope);
        continue;
      }
      if (seen.has(d.conditionId)) {
        out.reject('market', d.conditionId, 'duplicate_market_in_pull');
        continue;
      }
      seen.add(d.conditionId);
      if (d.outcomes.length !== 2) {
        out.out('market', d.conditionId, 'non_binary');
        continue;
      }
      decoded.push(d);
    }
    if (decoded.length === 0) continue;
    const verdict = eventCategory(ev, decoded);
    if (verdict.kind === 'out') {
      for (const d of decoded) out.out('market', d.conditionId, verdict.reason);
      continue;
    }
    const eventId = ids.eventId(evId);
    const normalized: NormalizedMarket[] = [];
    for (const d of decoded) {
      const built = buildMarket(d, ev, evId, eventId, pull.books, ids, now);
      if (typeof built === 'string') out.reject('market', d.conditionId, built);
      else normalized.push(built);
    }
    if (normalized.length === 0) continue;
    const title = strOrNull(ev.title) ?? strOrNull(decoded[0]?.mk.question) ?? evId;
    const event = baseEvent({
      event_id: eventId,
      venue: 'venue_b',
      platform_event_id: evId,
      slug: strOrNull(ev.slug) ?? (slugify(title, 80) || `event-${evId}`),
      question: title,
      category: verdict.category,
      now,
      field_provenance: {
        slug: API,
        question: API,
        platform_event_id: API,
        category:
          verdict.via === 'venue'
            ? { source: 'platform_api', note: `event tag "${verdict.matched}" mapped by the venue_b tag table` }
            : { source: 'derived', note: `keyword classifier matched "${verdict.matched}"` },
      },
    });
    pushEvent(out, event, normalized);
  }
  return out.result();
}

function nativeIdOf(m: unknown): string {
  if (!isRecord(m)) return '?';
  return strOrNull(m.conditionId) ?? `id:${idOrNull(m.id) ?? '?'}`;
}

/** Decodes the JSON-in-string fields; a string result is the rejection reason. */
function decodeMarket(raw: unknown): Decoded | { outOfScope: string } | string {
  const p = VenueBMarketSchema.safeParse(raw);
  if (!p.success) return schemaReason(p.error);
  const mk = p.data;
  const conditionId = strOrNull(mk.conditionId);
  if (!conditionId) {
    // Gamma lists drafts that were never deployed on chain: no condition id, no CLOB tokens, inactive.
    if (mk.active === false && (mk.clobTokenIds === undefined || mk.clobTokenIds === null)) {
      return { outOfScope: 'undeployed_market' };
    }
    return 'missing_condition_id';
  }
  const fields = ['outcomes', 'outcomePrices', 'clobTokenIds', 'umaResolutionStatuses'] as const;
  const lists: Partial<Record<(typeof fields)[number], unknown[] | null>> = {};
  for (const f of fields) {
    const d = decodeJsonList(mk[f]);
    if (!d.ok) return `invalid_json_field:${f}`;
    lists[f] = d.value;
  }
  if (!lists.outcomes) return 'missing_outcomes';
  const prices = lists.outcomePrices ? lists.outcomePrices.map(numOrNull) : null;
  if (prices?.some((x) => x === null)) return 'invalid_json_field:outcomePrices';
  return {
    mk,
    conditionId,
    outcomes: lists.outcomes.map(String),
    prices: prices as number[] | null,
    tokens: (lists.clobTokenIds ?? []).map(String),
    umaStatuses: (lists.umaResolutionStatuses ?? []).map(String),
  };
}

/**
 * The UMA resolution process Gamma reports: `umaResolutionStatuses` (oldest first), then the current
 * `umaResolutionStatus` when the list does not end with it (Gamma often sends `["proposed"]` with status
 * `resolved`). Null when the market has neither.
 * @example venueBResolutionHistory(['proposed', 'disputed', 'proposed'], 'resolved') // { state: 'resolved', statuses: [… 'resolved'], proposals: 2, disputes: 1 }
 */
export function venueBResolutionHistory(
  list: readonly string[],
  current: string | null | undefined,
): ResolutionHistory | null {
  const statuses = list.map((x) => x.trim().toLowerCase()).filter((x) => x !== '');
  const state = strOrNull(current)?.toLowerCase() ?? statuses.at(-1) ?? null;
  if (state !== null && statuses.at(-1) !== state) statuses.push(state);
  if (statuses.length === 0) return null;
  return {
    state,
    statuses,
    proposals: statuses.filter((x) => x === 'proposed').length,
    disputes: statuses.filter((x) => x === 'disputed').length,
  };
}

/** Gamma's outcomePrices at an exact 1/0 (the settled form of markets that predate the UMA fields). */
function exactBinary(prices: number[] | null): boolean {
  return prices !== null && prices.length === 2 && prices.includes(1) && prices.includes(0);
}

/** Float dust Gamma leaves on settled prices (0.9999992…, 7.8e-7). */
const SETTLED_DUST = 1e-4;

/**
 * The outcome a settled market's final outcomePrices say: YES at [1, 0], NO at [0, 1] (within float dust), a
 * 50-50 resolution at [0.5, 0.5] (outcome "0.5", value 0.5); null for anything else (no outcome is invented).
 */
export function settlementOf(prices: number[] | null): { outcome: string; value: number | null } | null {
  if (prices === null || prices.length !== 2) return null;
  const [yes, no] = prices as [number, number];
  if (yes >= 1 - SETTLED_DUST && no <= SETTLED_DUST) return { outcome: 'YES', value: null };
  if (no >= 1 - SETTLED_DUST && yes <= SETTLED_DUST) return { outcome: 'NO', value: null };
  if (yes === 0.5 && no === 0.5) return { outcome: '0.5', value: 0.5 };
  return null;
}

function eventCategory(ev: VenueBEvent, markets: Decoded[]): CategoryVerdict {
  const tags = (ev.tags ?? []).map((t) => ({ slug: strOrNull(t.slug), label: strOrNull(t.label) }));
  const fromTags = categoryFromVenueBTags(tags);
  if (fromTags) return refinePolitics(fromTags, [ev.title, markets[0]?.mk.question].filter(Boolean).join('\n'));
  // Older Gamma records carry a free-text category ("Sports", "Crypto", "US-current-affairs").
  const cats = [ev.category, ...markets.map((d) => d.mk.category)].flatMap((c) => strOrNull(c) ?? []);
  const fromCategory = categoryFromVenueBTags(cats.map((c) => ({ slug: c, label: null })));
  if (fromCategory) return fromCategory;
  // Short texts first: a long description mentions many things in passing.
  const short = [ev.title, ...markets.slice(0, 5).map((d) => d.mk.question)].filter(Boolean).join('\n');
  const v = categoryFromKeywords(short);
  if (v.kind === 'in' || v.via !== 'none') return v;
  return categoryFromKeywords([ev.description, markets[0]?.mk.description].filter(Boolean).join('\n'));
}

function buildMarket(
  d: Decoded,
  ev: VenueBEvent,
  evId: string,
  eventId: string,
  books: Record<string, unknown>,
  ids: IdResolver,
  now: string,
): NormalizedMarket | string {
  const { mk, prices } = d;
  const prov: FieldProvenance = {};
  const set = (k: string, p: FieldProvenance[string] = API) => {
    prov[k] = p;
  };
  const history = venueBResolutionHistory(d.umaStatuses, mk.umaResolutionStatus);
  const umaResolved = history?.state === 'resolved';
  // The outcome is read off the final outcomePrices only when the venue says the market is settled: UMA
  // resolved (prices then sit at 1/0, within float dust, or 0.5/0.5 for a 50-50 resolution), or closed at an
  // exact 1/0 (older markets without UMA fields).
  const settlement = umaResolved || (mk.closed === true && exactBinary(prices)) ? settlementOf(prices) : null;
  const venueStatus =
    (mk.closed === true || umaResolved) && settlement !== null ? 'resolved' : mk.closed === true ? 'closed' : 'open';
  const endDate = isoOrNull(mk.endDate) ?? isoOrNull(ev.endDate);
  const lifecycle = lifecycleStatus(
    venueStatus,
    endDate,
    now,
    `closed ${mk.closed ?? null}, umaResolutionStatus ${JSON.stringify(mk.umaResolutionStatus ?? null)}`,
  );
  const status = lifecycle.status;
  const outcome = status === 'resolved' && settlement ? settlement.outcome : null;
  const value = status === 'resolved' && settlement ? settlement.value : null;
  const sourceField = strOrNull(mk.resolutionSource) ?? strOrNull(ev.resolutionSource);
  const sources = sourceField
    ? [
        /^https?:\/\//i.test(sourceField)
          ? { name: null, url: sourceField, provenance: 'platform_api' as const }
          : { name: sourceField, url: null, provenance: 'platform_api' as const },
      ]
    : null;
  for (const k of ['platform_market_id', 'platform_event_id', 'question_raw', 'description_raw', 'settlement_currency'])
    set(k);
  set('status', lifecycle.provenance);
  if (history) {
    set('resolution_history', {
      source: 'platform_api',
      note: 'Gamma umaResolutionStatuses, then umaResolutionStatus when the list lags it',
    });
  }
  set('resolution_rules_raw', { source: 'platform_api', note: 'venue_b description (its resolution text)' });
  if (endDate)
    for (const k of ['close_at', 'last_trading_date', 'resolve_at'])
      set(k, { source: 'platform_api', note: 'endDate' });
  if (mk.groupItemTitle) set('group_item_title');
  if (sources) set('resolution_source_list', { source: 'platform_api', note: 'resolutionSource' });
  if (outcome)
    set('resolution_outcome', {
      source: 'platform_api',
      note: `outcomePrices ${JSON.stringify(prices)} over ${JSON.stringify(d.outcomes)}`,
    });
  if (mk.orderPriceMinTickSize !== undefined && mk.orderPriceMinTickSize !== null) set('tick_size');
  const resolvedAt = status === 'resolved' ? (isoOrNull(mk.umaEndDate) ?? isoOrNull(mk.closedTime)) : null;
  if (resolvedAt) set('resolved_at', { source: 'platform_api', note: mk.umaEndDate ? 'umaEndDate' : 'closedTime' });
  const market = baseMarket(
    {
      market_id: ids.marketId(d.conditionId),
      platform: 'venue_b',
      platform_market_id: d.conditionId,
      event_id: eventId,
      platform_event_id: evId,
      question_raw: strOrNull(mk.question),
      description_raw: strOrNull(mk.description),
      category_raw: strOrNull(mk.category) ?? strOrNull(ev.category) ?? strOrNull(ev.tags?.[0]?.label),
      settlement_currency: 'USDC',
      tick_size: numOrNull(mk.orderPriceMinTickSize),
      contract_multiplier: 1,
      group_item_title: strOrNull(mk.groupItemTitle),
      close_at: endDate,
      last_trading_date: endDate,
      resolve_at: endDate,
      status,
      resolution_rules_raw: strOrNull(mk.description),
      resolution_source_list: sources,
      contract_terms_url: null,
      resolution_outcome: outcome,
      resolution_value: value,
      resolved_at: resolvedAt,
      field_provenance: prov,
      resolution_history: history,
      venue_refs: venueBRefs(mk, d.tokens),
      fee_terms: marketFeeTerms(mk),
    },
    now,
  );
  const problem = marketProblem(market);
  if (problem) return problem;
  const bookRaw = d.tokens[0] ? books[d.tokens[0]] : undefined;
  const book = bookRaw === undefined ? null : ClobBookSchema.safeParse(bookRaw);
  return { market, facts: facts(d, ev, sourceField), quote: quote(d, book?.success ? book.data : null) };
}

/**
 * The market's own fee terms (issue 20, item 5): `feesEnabled` false is no taker fee; true is a fee pmref cannot
 * price (the recorded fee-enabled markets carry `takerBaseFee` 1000 and sometimes `feeType`, whose rate base the
 * venue's documents do not pin down: data/fees/venue_b.json). Null when the market sends no `feesEnabled`.
 */
export function marketFeeTerms(mk: VenueBMarket): MarketFeeTerms | null {
  if (typeof mk.feesEnabled !== 'boolean') return null;
  const venueFields: MarketFeeTerms['venue_fields'] = { feesEnabled: mk.feesEnabled };
  if (mk.takerBaseFee !== null && mk.takerBaseFee !== undefined) venueFields.takerBaseFee = mk.takerBaseFee;
  const type = strOrNull(mk.feeType);
  if (type !== null) venueFields.feeType = type;
  return { taker_multiplier: mk.feesEnabled ? null : 0, basis: 'venue_market', venue_fields: venueFields };
}

/**
 * The identifiers a client may hold for a venue_b market besides its condition id (issue 20: any-identifier
 * lookup): its slug (the last part of its page URL), its CLOB token ids, Gamma's questionID and numeric id.
 */
function venueBRefs(mk: VenueBMarket, tokens: readonly string[]): MarketVenueRefs | null {
  const refs: MarketVenueRefs = {};
  const slug = strOrNull(mk.slug);
  if (slug) refs.market_slug = slug;
  if (tokens.length > 0) refs.token_ids = [...tokens];
  const questionId = strOrNull(mk.questionID);
  if (questionId) refs.venue_question_id = questionId;
  const id = idOrNull(mk.id);
  if (id) refs.venue_market_id = id;
  return Object.keys(refs).length > 0 ? refs : null;
}

function facts(d: Decoded, ev: VenueBEvent, sourceField: string | null): VenueFacts {
  return {
    ...emptyVenueFacts(),
    expiration_time: isoOrNull(d.mk.endDate) ?? isoOrNull(ev.endDate),
    resolution_source_field: sourceField,
    event_title: strOrNull(ev.title),
    event_description: strOrNull(ev.description),
    neg_risk: d.mk.negRisk ?? ev.negRisk ?? null,
    neg_risk_augmented: ev.negRiskAugmented ?? null,
    uma_resolution_statuses: d.umaStatuses,
    uma_resolution_status: strOrNull(d.mk.umaResolutionStatus),
    resolved_by: strOrNull(d.mk.resolvedBy),
    automatically_resolved: d.mk.automaticallyResolved ?? null,
    outcomes: d.outcomes,
    venue_tags: (ev.tags ?? []).flatMap((t) => strOrNull(t.label) ?? []),
  };
}

/** Best level of a side: highest bid or lowest ask, with its size in contracts. */
function best(levels: ClobBook['bids'], side: 'bid' | 'ask'): { price: number; size: number } | null {
  let top: { price: number; size: number } | null = null;
  for (const l of levels ?? []) {
    const price = numOrNull(l.price);
    const size = numOrNull(l.size);
    if (price === null || size === null || size <= 0) continue;
    if (!top || (side === 'bid' ? price > top.price : price < top.price)) top = { price, size };
  }
  return top;
}

/**
 * The venue's own time for a venue_b quote (served as `price_as_of`): the CLOB book's `timestamp` when the
 * bid/ask came from a book, else the Gamma market's `updatedAt` (Gamma rewrites it as prices move); null with
 * the reason when neither is there — never the pull or build time.
 */
function quoteTimeOf(
  mk: VenueBMarket,
  book: ClobBook | null,
): { at: string | null; provenance: FieldProvenance[string] } {
  const bookMs = numOrNull(book?.timestamp);
  const bookAt = bookMs === null ? null : isoOrNull(bookMs);
  if (bookAt) return { at: bookAt, provenance: { source: 'platform_api', note: 'CLOB book timestamp' } };
  const updated = isoOrNull(mk.updatedAt);
  if (updated) return { at: updated, provenance: { source: 'platform_api', note: 'Gamma market updatedAt' } };
  return {
    at: null,
    provenance: { source: 'null_by_venue_limitation', note: 'Gamma gave no updatedAt and no book was read' },
  };
}

function quote(d: Decoded, book: ClobBook | null): VenueQuote {
  const { mk } = d;
  const bid = book ? best(book.bids, 'bid') : null;
  const ask = book ? best(book.asks, 'ask') : null;
  const yesBid = prob(bid?.price ?? numOrNull(mk.bestBid));
  const yesAsk = prob(ask?.price ?? numOrNull(mk.bestAsk));
  const lastTrade = prob(numOrNull(mk.lastTradePrice));
  const last = lastTrade ?? prob(d.prices?.[0] ?? null);
  const noBook: FieldProvenance[string] = {
    source: 'null_by_venue_limitation',
    note: book ? 'book side empty' : 'no CLOB book fetched for this market (missing or beyond maxBookCalls)',
  };
  const fromBook = (x: unknown, note: string): FieldProvenance[string] =>
    x ? { source: 'platform_api', note } : noBook;
  const comp = (p: number | null) => (p === null ? null : prob(1 - p));
  const quoteTime = quoteTimeOf(mk, book);
  const provenance: FieldProvenance = {
    yes_bid: bid ? { source: 'platform_api', note: 'CLOB best bid' } : API,
    yes_ask: ask ? { source: 'platform_api', note: 'CLOB best ask' } : API,
    // Binary complement: a NO bid at 1 − p is a YES ask at p.
    no_bid: { source: 'derived', note: '1 − yes_ask' },
    no_ask: { source: 'derived', note: '1 − yes_bid' },
    yes_bid_size_usd: fromBook(bid, 'CLOB best bid size × price'),
    yes_ask_size_usd: fromBook(ask, 'CLOB best ask size × price'),
    no_bid_size_usd: ask ? { source: 'derived', note: 'CLOB best ask size × (1 − ask)' } : noBook,
    no_ask_size_usd: bid ? { source: 'derived', note: 'CLOB best bid size × (1 − bid)' } : noBook,
    last_price: lastTrade !== null ? API : { source: 'derived', note: 'outcomePrices[0] (no lastTradePrice)' },
    volume_total_usd: { source: 'platform_api', note: 'native USDC' },
    volume_24h_usd: { source: 'platform_api', note: 'native USDC' },
    open_interest_usd: { source: 'null_by_venue_limitation', note: 'Gamma gives no per-market open interest' },
    liquidity_usd: API,
    source_updated_at: quoteTime.provenance,
  };
  return {
    yes_bid: yesBid,
    yes_ask: yesAsk,
    no_bid: comp(yesAsk),
    no_ask: comp(yesBid),
    yes_bid_size_usd: bid ? usd(bid.size, bid.price) : null,
    yes_ask_size_usd: ask ? usd(ask.size, ask.price) : null,
    no_bid_size_usd: ask ? usd(ask.size, 1 - ask.price) : null,
    no_ask_size_usd: bid ? usd(bid.size, 1 - bid.price) : null,
    last_price: last,
    volume_24h_usd: nonNegative(numOrNull(mk.volume24hr)),
    volume_total_usd: nonNegative(numOrNull(mk.volumeNum) ?? numOrNull(mk.volume)),
    open_interest_usd: null,
    liquidity_usd: nonNegative(numOrNull(mk.liquidityNum) ?? numOrNull(mk.liquidity)),
    source_updated_at: quoteTime.at,
    provenance,
    raw: {
      bestBid: mk.bestBid ?? null,
      bestAsk: mk.bestAsk ?? null,
      lastTradePrice: mk.lastTradePrice ?? null,
      outcomePrices: mk.outcomePrices ?? null,
      volume: mk.volume ?? null,
      volume24hr: mk.volume24hr ?? null,
      liquidity: mk.liquidity ?? null,
      updatedAt: mk.updatedAt ?? null,
      book: book
        ? { asset_id: book.asset_id ?? null, timestamp: book.timestamp ?? null, best_bid: bid, best_ask: ask }
        : null,
    },
  };
}

/**
 * The venue_b market fields only `quote` reads (issue 18, requote.ts): best bid and ask, the last trade, volume,
 * liquidity and the update time; `outcomePrices` too while the market is neither closed nor UMA-resolved (then its
 * settlement is read off them). With the fields the market schema does not name (read by nothing), they are a
 * market's quote part, and the market's order books beside it: a change there changes its quote and nothing else
 * normalization gives (test/venues/requote.test.ts checks it on every fixture market).
 */
const QUOTE_FIELDS = new Set([
  'bestBid',
  'bestAsk',
  'lastTradePrice',
  'volume',
  'volumeNum',
  'volume24hr',
  'liquidity',
  'liquidityNum',
  'updatedAt',
]);
const SCHEMA_FIELDS: ReadonlySet<string> = new Set(Object.keys(VenueBMarketSchema.shape));

/** Whether settlement may be read off a raw market's `outcomePrices` (see buildMarket): closed, or UMA-resolved. */
function maySettle(raw: Record<string, unknown>): boolean {
  if (raw.closed === true) return true;
  const list = raw.umaResolutionStatuses;
  const current = raw.umaResolutionStatus;
  // No status says resolved anywhere (most markets): nothing to decode.
  if (
    (list == null || (typeof list === 'string' && !list.includes('resolved'))) &&
    !String(current ?? '').includes('resolved')
  )
    return false;
  const statuses = decodeJsonList(list);
  if (!statuses.ok) return true;
  const status = typeof current === 'string' ? current : null;
  return venueBResolutionHistory((statuses.value ?? []).map(String), status)?.state === 'resolved';
}

/** Whether a field of one raw venue_b market is in its quote part (see QUOTE_FIELDS). */
export function venueBQuoteFields(raw: Record<string, unknown>): (field: string) => boolean {
  const pricesQuote = !maySettle(raw);
  return (field) => QUOTE_FIELDS.has(field) || (field === 'outcomePrices' ? pricesQuote : !SCHEMA_FIELDS.has(field));
}

/**
 * The quote normalization gives a raw venue_b market with the pull's order books, without normalizing it: null
 * when it does not read or would not be normalized (out of scope).
 */
export function requoteVenueB(rawMarket: unknown, books: Record<string, unknown>): VenueQuote | null {
  const d = decodeMarket(rawMarket);
  if (typeof d === 'string' || 'outOfScope' in d) return null;
  const bookRaw = d.tokens[0] ? books[d.tokens[0]] : undefined;
  const book = bookRaw === undefined ? null : ClobBookSchema.safeParse(bookRaw);
  return quote(d, book?.success ? book.data : null);
}
