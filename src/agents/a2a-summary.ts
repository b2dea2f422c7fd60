/** One-sentence text summaries of A2A results (served-shapes §14): what was found, in words a person reads. */

type Obj = Record<string, unknown>;

function price(v: unknown): string {
  return typeof v === 'number' ? v.toFixed(2) : 'n/a';
}

/** Summarizes a skill's payload in one sentence. */
export function summarize(skill: string, p: Obj): string {
  if (typeof p.error === 'string') return `${p.error} ${typeof p.next_step === 'string' ? p.next_step : ''}`.trim();
  switch (skill) {
    case 'get_market': {
      const rcg = (p.rcg ?? {}) as Obj;
      const res = (p.resolution ?? {}) as Obj;
      const source = (res.source_of_record ?? res.source ?? 'no committed source') as string;
      return `Market ${String(p.market_id)}: grade ${String(rcg.grade ?? 'pending')}, status ${String(p.status)}, last price ${price(p.last_price)}, resolution source: ${source}.`;
    }
    case 'get_event': {
      const markets = Array.isArray(p.markets) ? p.markets.length : 0;
      return `Event ${String(p.event_id)} "${String(p.question)}" (${String(p.category)}) with ${markets} market(s).`;
    }
    case 'list_events':
      return `Found ${String(p.total ?? 0)} event(s); showing ${String(p.count ?? 0)}.`;
    case 'list_upcoming_catalysts':
      return `${String(p.count ?? 0)} scheduled catalyst(s) from ${String(p.from)} to ${String(p.to)}.`;
    case 'list_signals':
      return `${String(p.count ?? 0)} signal bulletin(s) match.`;
    case 'get_signal':
      return `Signal ${String(p.record_slug)}: ${String(p.headline)}.`;
    default:
      return 'Ask about a market (id, ticker or URL), an event (id or slug), upcoming catalysts, or search with a few words.';
  }
}
