/**
 * `/llms.txt` (served-shapes §16): a plain-text inventory for language-model agents: what the service is, the
 * REST endpoints and limits, the MCP and A2A addresses, schemas and attribution terms.
 */
import { RECORD_SCHEMA_NAMES } from '../domain/index.ts';

export interface LlmsTxtInput {
  origin: string;
  counts: { published_events: number; markets: number };
  dataSource: string | null;
  exampleSlugs: readonly string[];
}

/** The llms.txt text for an origin and the current counts. */
export function llmsTxt(input: LlmsTxtInput): string {
  const o = input.origin;
  const simulated =
    input.dataSource === 'simulated' ? '\nNOTE: this instance serves SIMULATED data, not real venue data.\n' : '';
  const examples =
    input.exampleSlugs.length > 0
      ? input.exampleSlugs.map((s) => `- ${o}/v1/events/${s}`).join('\n')
      : '- (no events yet)';
  return `# pmref

> Open reference data for prediction markets: canonical events, cross-venue question identity, Resolution Clarity Grades (A/B/C), marks and signals. Read-only; no key needed.
${simulated}
## What this is

- Events link markets into one tradable question; every event is single-venue (venue_a or venue_b).
- The same question on both venues shares a question_id (SVCX-…); each market's also_on lists its twins with prices and a relation (same, complement, or related: a near-equivalent question with another question_id, whose typed differences are listed).
- Every market carries a Resolution Clarity Grade with its factors and the resolution source with provenance.
- Coverage now: ${input.counts.published_events} published events, ${input.counts.markets} markets. Prices refresh hourly (price_as_of on each market).

## REST (JSON, CORS open)

- ${o}/ : service info, counts, filter vocabulary
- ${o}/v1/events : list/search graded events (category, platform, grade, q, status, limit ≤ 100, offset)
- ${o}/v1/events/{slug} : one event by slug or SVC-EVT- id (detail=full|concise)
- ${o}/v1/markets/{id} : one market by SVC-MKT- id, venue id/ticker or URL-encoded venue URL
- ${o}/v1/markets/{id}/history : one market's daily marks (from, to; 365 days by default) or, with interval=hour, its quote at each hourly refresh of the days kept; each point with price_as_of and how it was obtained
- ${o}/v1/resolve?ref= : any identifier (venue URL, ticker, event ticker, slug, condition id, token id, pmref id) to the canonical market or event and all its identifiers
- ${o}/v1/markets/movers : 24h volume movers (min_mult ≥ 1, limit ≤ 200)
- ${o}/v1/catalysts/upcoming : catalyst calendar (days 1..365)
- ${o}/v1/signals and ${o}/v1/signals/{slug} : signal wire (also as RSS: ${o}/v1/signals.rss)
- ${o}/v1/spot : reference spot prices
- ${o}/v1/questions : questions on both venues (same, complement, related), both legs with prices and as-of times, divergence in points; category, relation, min_divergence, limit ≤ 100, offset
- ${o}/v1/questions/{question_id} : one cross-venue pair side by side, with a word diff of the two rule texts
- ${o}/v1/stats : markets by venue × grade × commitment subtype × category, linked pairs by relation, dispute rates by grade
- ${o}/v1/marks?since=<ISO> : marks feed, daily marks written or updated since a moment (cursor, limit ≤ 2000); not cached
- ${o}/v1/changes?after=<seq> : sequenced change feed (lifecycle log entries, grade changes, new markets, new and changed cross-venue links, new signals), dense seq shared by every replica (limit ≤ 1000); not cached
- ${o}/v1/changes/stream : the same feed as server-sent events (id = seq; resumes from Last-Event-ID; heartbeats; event: reset when too far behind)
- ${o}/v1/status : operational state (ok, degraded or stale), its checks and the latest pipeline runs; not cached
- POST ${o}/v1/keys {"email": …} : free key

Limits: 1,000 requests/day per IP anonymous; 10,000/day with a key (Authorization: Bearer <key> or ?key=). RateLimit-* headers on every metered response; 429 with Retry-After. ETag/If-None-Match supported. Unknown filter values return 200 with an empty page and a notice naming the valid values. Responses carry _notice (additive; shape stable).

OpenAPI 3.1: ${o}/openapi.json · Reference: ${o}/docs

## MCP

- Streamable HTTP (JSON-RPC 2.0) at ${o}/mcp; no authentication.
- Tools: list_events, search_markets, get_event, get_market (detail concise|full), compare_question, get_stats, glossary, list_upcoming_catalysts, list_signals, get_signal, get_market_history.
- Connect: npx mcp-remote ${o}/mcp

## A2A

- Agent-to-agent interface at ${o}/a2a; agent card at ${o}/.well-known/agent-card.json

## Signal wire

- ${o}/v1/signals
- ${o}/v1/signals?detection_path=cross_venue_divergence
- ${o}/v1/signals?detection_path=benchmark_drift
- ${o}/v1/signals?detection_path=volume_spike
- ${o}/v1/signals?detection_path=news_cycle

## Example events

${examples}

## Eligibility screens

- ${o}/screens/ (HTML, JSON and CSV artifacts; join on svc_market_id = market_id)

## Schema (JSON Schema 2020-12)

${RECORD_SCHEMA_NAMES.map((n) => `- ${o}/schemas/${n}.json`).join('\n')}

## Attribution

Attribution required. Every event and market response carries _provenance {source, ref, terms}; cite ${o} and the record id (SVC-EVT-…, SVC-MKT-…) or the question_id (SVCX-…).

## Repository

- Source and methodology: the pmref repository (MIT).
`;
}
