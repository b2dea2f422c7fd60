/**
 * The flat tables of `pmref export` (issue 20, item 3): one column list per file, each column with a type
 * both writers honour and a getter from the stored record. One list drives the CSV header, the Parquet
 * schema and the manifest, so the three never disagree. Nested parts of a record (provenance, also_on, the
 * full grade) are JSON text: the files stay flat for DuckDB, pandas and spreadsheets.
 */
import type { Market, MarkFacts, Venue } from '../domain/index.ts';
import { priceFacts } from '../serve/index.ts';

/**
 * `timestamp`: UTC instant (ISO text in CSV, int64 milliseconds adjusted to UTC in Parquet). `date`: a UTC
 * calendar date. `json`: JSON text of a nested value.
 */
export type ColumnType = 'string' | 'double' | 'int32' | 'int64' | 'boolean' | 'timestamp' | 'date' | 'json';

/** A cell before a writer encodes it: strings for timestamps and dates (ISO), numbers, booleans or null. */
export type Cell = string | number | boolean | null;

export interface Column<R> {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** Spec §2.3/§2.2 field or a short note on where the value comes from (manifest). */
  get(record: R): Cell;
}

/** Where a mark's market sits, looked up from the markets written first. */
export interface MarketPlace {
  venue: Venue;
  event_id: string | null;
}

/** A mark with its market's venue and event (null when the store holds no such market). */
export interface MarkRow {
  mark: MarkFacts;
  place: MarketPlace | undefined;
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function col<R>(name: string, type: ColumnType, nullable: boolean, get: (record: R) => Cell): Column<R> {
  return { name, type, nullable, get };
}

/** Nullable double of a record field. */
function num<R>(name: string, get: (record: R) => number | null | undefined): Column<R> {
  return col(name, 'double', true, (r) => get(r) ?? null);
}

/**
 * The columns of `marks.*`: every field of spec §2.3 but `raw_payload` (the venue's own record, kept in the
 * store for audit and several KB a mark), plus `price_as_of` (the venue's time of the quote, null when the
 * venue gave none, as served) and the market's venue and event for joins without the markets file.
 */
export const MARK_COLUMNS: readonly Column<MarkRow>[] = [
  col('market_id', 'string', false, (r) => r.mark.market_id),
  col('venue', 'string', true, (r) => r.place?.venue ?? null),
  col('event_id', 'string', true, (r) => r.place?.event_id ?? null),
  col('snapshot_date', 'date', false, (r) => r.mark.snapshot_date),
  col('snapshot_at', 'timestamp', false, (r) => r.mark.snapshot_at),
  col('source_updated_at', 'timestamp', false, (r) => r.mark.source_updated_at),
  col('price_as_of', 'timestamp', true, (r) => priceFacts(r.mark).price_as_of),
  num('yes_bid', (r) => r.mark.yes_bid),
  num('yes_ask', (r) => r.mark.yes_ask),
  num('no_bid', (r) => r.mark.no_bid),
  num('no_ask', (r) => r.mark.no_ask),
  num('yes_bid_size_usd', (r) => r.mark.yes_bid_size_usd),
  num('yes_ask_size_usd', (r) => r.mark.yes_ask_size_usd),
  num('no_bid_size_usd', (r) => r.mark.no_bid_size_usd),
  num('no_ask_size_usd', (r) => r.mark.no_ask_size_usd),
  num('yes_last_price', (r) => r.mark.yes_last_price),
  num('implied_probability', (r) => r.mark.implied_probability),
  num('volume_24h_usd', (r) => r.mark.volume_24h_usd),
  num('volume_total_usd', (r) => r.mark.volume_total_usd),
  num('open_interest_usd', (r) => r.mark.open_interest_usd),
  num('spread', (r) => r.mark.spread),
  num('mid', (r) => r.mark.mid),
  num('divergence_from_primary', (r) => r.mark.divergence_from_primary),
  num('hours_since_source_update', (r) => r.mark.hours_since_source_update),
  col('mark_method', 'string', false, (r) => r.mark.mark_method),
  col('stale_flag', 'boolean', false, (r) => r.mark.stale_flag),
  col('source_count', 'int32', false, (r) => r.mark.source_count),
  col('mark_id', 'int64', false, (r) => r.mark.mark_id),
  col('field_provenance', 'json', false, (r) => json(r.mark.field_provenance)),
];

const str = (name: string, get: (m: Market) => string | null | undefined): Column<Market> =>
  col(name, 'string', true, (m) => get(m) ?? null);
const time = (name: string, get: (m: Market) => string | null): Column<Market> =>
  col(name, 'timestamp', true, (m) => get(m));
const nested = (name: string, get: (m: Market) => unknown): Column<Market> =>
  col(name, 'json', true, (m) => json(get(m)));

/**
 * The columns of `markets.*`: the scalar fields of spec §2.2 as stored (`status` is the stored one; the API
 * serves a market past its close time as closed), the grade and score of the stored Resolution Clarity
 * Grade, and the nested parts as JSON text.
 */
export const MARKET_COLUMNS: readonly Column<Market>[] = [
  col('market_id', 'string', false, (m) => m.market_id),
  col('event_id', 'string', true, (m) => m.event_id),
  col('venue', 'string', false, (m) => m.platform),
  col('platform_market_id', 'string', false, (m) => m.platform_market_id),
  str('platform_event_id', (m) => m.platform_event_id),
  str('question_id', (m) => m.question_id),
  str('question_raw', (m) => m.question_raw),
  str('group_item_title', (m) => m.group_item_title),
  str('category_raw', (m) => m.category_raw),
  col('status', 'string', false, (m) => m.status),
  str('grade', (m) => m.rcg?.grade),
  col('grade_score', 'double', true, (m) => m.rcg?.score ?? null),
  col('contract_type', 'string', false, (m) => m.contract_type),
  col('settlement_currency', 'string', false, (m) => m.settlement_currency),
  num('tick_size', (m) => m.tick_size),
  num('contract_multiplier', (m) => m.contract_multiplier),
  num('threshold', (m) => m.threshold),
  str('direction', (m) => m.direction),
  str('settlement_style', (m) => m.settlement_style),
  str('underlying_reference', (m) => m.underlying_reference),
  time('close_at', (m) => m.close_at),
  time('last_trading_date', (m) => m.last_trading_date),
  time('resolve_at', (m) => m.resolve_at),
  time('resolved_at', (m) => m.resolved_at),
  str('resolution_outcome', (m) => m.resolution_outcome),
  num('resolution_value', (m) => m.resolution_value),
  str('arbitration_model', (m) => m.arbitration_model),
  str('resolution_proposer', (m) => m.resolution_proposer),
  str('resolution_source', (m) => m.resolution_source),
  str('source_of_record', (m) => m.source_of_record),
  str('source_commitment', (m) => m.source_commitment),
  str('source_commitment_subtype', (m) => m.source_commitment_subtype),
  str('source_status', (m) => m.source_status),
  str('source_mechanism', (m) => m.source_mechanism),
  str('source_type', (m) => m.source_type),
  str('regulatory_class', (m) => m.regulatory_class),
  str('contract_terms_url', (m) => m.contract_terms_url),
  col('first_seen_at', 'timestamp', false, (m) => m.first_seen_at),
  col('last_updated_at', 'timestamp', false, (m) => m.last_updated_at),
  str('description_raw', (m) => m.description_raw),
  str('resolution_rules_raw', (m) => m.resolution_rules_raw),
  col('tags', 'json', false, (m) => json(m.tags)),
  nested('also_on', (m) => m.also_on),
  nested('resolution_source_list', (m) => m.resolution_source_list),
  nested('resolution_triggers', (m) => m.resolution_triggers),
  nested('resolution_history', (m) => m.resolution_history),
  nested('eligibility_screens', (m) => m.eligibility_screens),
  nested('rcg', (m) => m.rcg),
  col('field_provenance', 'json', false, (m) => json(m.field_provenance)),
];
