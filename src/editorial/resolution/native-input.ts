/**
 * A minimal, self-contained mapping from native venue records (venue_a market ± series, venue_b
 * Gamma market ± event) or a canonical §2.2 record to the (Market, VenueFacts) pair that
 * `judgeResolution` reads. Only the fields the judgment uses are mapped; the venue normalizer
 * (src/venues/) is the full mapping and should replace this once it lands.
 */
import { blankMarket, emptyVenueFacts, type Market, type VenueFacts } from '../../domain/index.ts';

/** Records read here carry no ingest time; a fixed one keeps `pmref grade` output reproducible. */
const EPOCH = '1970-01-01T00:00:00.000Z';

export type InputKind = 'venue_a' | 'venue_b' | 'canonical';
type Rec = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ISO date-time, or null for missing and venue placeholder timestamps (0001-01-01…). */
function iso(v: unknown): string | null {
  const s = str(v);
  if (s === null) return null;
  const t = Date.parse(s);
  if (!Number.isFinite(t) || t < 0) return null;
  return new Date(t).toISOString();
}

/** venue_b JSON-in-string arrays (`outcomes`, `umaResolutionStatuses`). */
function jsonArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  const s = str(v);
  if (s === null) return [];
  try {
    const parsed: unknown = JSON.parse(s);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Which shape a record has; null when it is none of the three. */
export function detectInputKind(rec: unknown): InputKind | null {
  if (!isRec(rec)) return null;
  if ('rules_primary' in rec || ('ticker' in rec && 'event_ticker' in rec)) return 'venue_a';
  if ('conditionId' in rec || ('description' in rec && 'outcomes' in rec)) return 'venue_b';
  if ('platform' in rec && ('question_raw' in rec || 'resolution_rules_raw' in rec || 'description_raw' in rec))
    return 'canonical';
  return null;
}

/** venue_a market (optionally with its `series` object under `series`, or passed separately). */
export function venueAInput(m: Rec, seriesArg?: Rec): { market: Market; facts: VenueFacts } {
  const series = seriesArg ?? (isRec(m.series) ? m.series : undefined);
  const market = blankMarket('venue_a', str(m.ticker) ?? 'unknown', EPOCH);
  const primary = str(m.rules_primary) ?? '';
  const secondary = str(m.rules_secondary) ?? '';
  const rules = [primary, secondary].filter((s) => s !== '').join('\n\n');
  const sources = Array.isArray(series?.settlement_sources)
    ? series.settlement_sources.filter(isRec).map((s) => ({ name: str(s.name), url: str(s.url) }))
    : [];
  market.question_raw = str(m.title);
  market.platform_event_id = str(m.event_ticker);
  market.resolution_rules_raw = rules === '' ? null : rules;
  market.close_at = iso(m.close_time);
  market.resolve_at = iso(m.expected_expiration_time) ?? iso(m.expiration_time);
  market.contract_terms_url = str(series?.contract_terms_url);
  market.resolution_source_list =
    sources.length > 0 ? sources.map((s) => ({ ...s, provenance: 'platform_api' as const })) : null;
  const facts: VenueFacts = {
    ...emptyVenueFacts(),
    strike_type: str(m.strike_type),
    floor_strike: num(m.floor_strike),
    cap_strike: num(m.cap_strike),
    expiration_time: iso(m.expected_expiration_time) ?? iso(m.expiration_time),
    series_ticker: str(series?.ticker),
    series_title: str(series?.title),
    settlement_sources: sources,
    early_close_condition: str(m.early_close_condition),
  };
  return { market, facts };
}

/** venue_b Gamma market (its first nested event, when present, supplies the event description). */
export function venueBInput(m: Rec): { market: Market; facts: VenueFacts } {
  const market = blankMarket('venue_b', str(m.conditionId) ?? str(m.id) ?? 'unknown', EPOCH);
  const event = Array.isArray(m.events) && isRec(m.events[0]) ? m.events[0] : undefined;
  const rs = str(m.resolutionSource) ?? str(event?.resolutionSource);
  market.question_raw = str(m.question);
  market.description_raw = str(m.description);
  market.close_at = iso(m.endDate);
  market.resolve_at = iso(m.umaEndDate) ?? iso(m.endDate);
  market.group_item_title = str(m.groupItemTitle);
  market.resolution_source_list = rs ? [{ name: null, url: rs, provenance: 'platform_api' }] : null;
  const facts: VenueFacts = {
    ...emptyVenueFacts(),
    expiration_time: iso(m.endDate),
    resolution_source_field: rs,
    event_title: str(event?.title),
    event_description: str(event?.description),
    neg_risk: typeof m.negRisk === 'boolean' ? m.negRisk : null,
    uma_resolution_statuses: jsonArray(m.umaResolutionStatuses),
    uma_resolution_status: str(m.umaResolutionStatus),
    resolved_by: str(m.resolvedBy),
    automatically_resolved: typeof m.automaticallyResolved === 'boolean' ? m.automaticallyResolved : null,
    outcomes: jsonArray(m.outcomes),
  };
  return { market, facts };
}

/** A canonical record with spec §2.2 field names; unknown venue facts stay empty. */
export function canonicalInput(r: Rec): { market: Market; facts: VenueFacts } {
  const platform = r.platform === 'venue_b' ? 'venue_b' : 'venue_a';
  const market = blankMarket(platform, str(r.platform_market_id) ?? str(r.market_id) ?? 'unknown', EPOCH);
  market.question_raw = str(r.question_raw) ?? str(r.question);
  market.description_raw = str(r.description_raw) ?? str(r.description);
  market.resolution_rules_raw = str(r.resolution_rules_raw);
  market.close_at = iso(r.close_at);
  market.resolve_at = iso(r.resolve_at);
  market.contract_terms_url = str(r.contract_terms_url);
  const list = Array.isArray(r.resolution_source_list) ? r.resolution_source_list.filter(isRec) : [];
  market.resolution_source_list =
    list.length > 0
      ? list
          .filter((s) => s.provenance !== 'service_editorial')
          .map((s) => ({ name: str(s.name), url: str(s.url), provenance: 'platform_api' as const }))
      : null;
  const facts: VenueFacts = {
    ...emptyVenueFacts(),
    settlement_sources: (market.resolution_source_list ?? []).map((s) => ({ name: s.name, url: s.url })),
    resolved_by: str(r.resolved_by),
    automatically_resolved: typeof r.automatically_resolved === 'boolean' ? r.automatically_resolved : null,
  };
  return { market, facts };
}

/** Maps any supported record; null when the shape is not recognised. */
export function inputOf(rec: unknown): { kind: InputKind; market: Market; facts: VenueFacts } | null {
  const kind = detectInputKind(rec);
  if (kind === null || !isRec(rec)) return null;
  const mapped = kind === 'venue_a' ? venueAInput(rec) : kind === 'venue_b' ? venueBInput(rec) : canonicalInput(rec);
  return { kind, ...mapped };
}
