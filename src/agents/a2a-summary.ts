/** One-sentence text summaries of A2A results (served-shapes §14): what was found, in words a person reads. */

type Obj = Record<string, unknown>;

function price(v: unknown): string {
  return typeof v === 'number' ? v.toFixed(2) : 'n/a';
}

/** A count sentence, followed by why the answer is empty when the payload says so. */
function withNotice(sentence: string, p: Obj): string {
  const notice = p.notice as { reason?: unknown } | null | undefined;
  return notice && typeof notice.reason === 'string' ? `${sentence} ${notice.reason}` : sentence;
}

/** Summarizes a skill's payload in one sentence (two when an empty answer says why). */
export function summarize(skill: string, p: Obj): string {
  if (typeof p.error === 'string') return `${p.error} ${typeof p.next_step === 'string' ? p.next_step : ''}`.trim();
  switch (skill) {
    case 'get_market': {
      const rcg = (p.rcg ?? {}) as Obj;
      const res = (p.resolution ?? {}) as Obj;
      const source = (res.source_of_record ?? res.source ?? 'no committed source') as string;
      const caps = Array.isArray(rcg.caps)
        ? rcg.caps.map((c) => (typeof c === 'string' ? c : String((c as Obj).cap)))
        : [];
      return `Market ${String(p.market_id)}: grade ${String(rcg.grade ?? 'pending')}${caps.length > 0 ? ` (capped: ${caps.join(', ')})` : ''}, status ${String(p.status)}, last price ${price(p.last_price)}, resolution source: ${source}.`;
    }
    case 'search_markets':
      return withNotice(`Found ${String(p.total ?? 0)} market(s); showing ${String(p.count ?? 0)}.`, p);
    case 'compare_question': {
      if (Array.isArray(p.questions)) {
        return withNotice(
          `${String(p.total ?? 0)} cross-venue question(s); showing ${String(p.count ?? 0)}, largest divergence first.`,
          p,
        );
      }
      const a = (p.venue_a ?? {}) as Obj;
      const b = (p.venue_b ?? {}) as Obj;
      const gap =
        typeof p.divergence_points === 'number' ? `${p.divergence_points} points apart` : 'divergence unknown';
      return `${String(p.relation)} pair ${String(p.id)}: venue_a ${price(a.price)} (grade ${String(a.grade)}) vs venue_b ${price(b.price)} (grade ${String(b.grade)}), ${gap}.`;
    }
    case 'get_stats': {
      const sel = p.selection as Obj | null | undefined;
      if (sel && typeof sel.sentence === 'string') return sel.sentence;
      return withNotice(
        `${String(p.markets ?? 0)} market(s) served; ask with venue, category, grade or source_commitment_subtype for one count and its share.`,
        p,
      );
    }
    case 'glossary': {
      const entries = Array.isArray(p.entries) ? (p.entries as Obj[]) : [];
      const first = entries[0];
      if (entries.length === 1 && first) return `${String(first.term)}: ${String(first.meaning)}`;
      return withNotice(`${entries.length} glossary entr${entries.length === 1 ? 'y' : 'ies'}.`, p);
    }
    case 'get_event': {
      const markets = Array.isArray(p.markets) ? p.markets.length : 0;
      return `Event ${String(p.event_id)} "${String(p.question)}" (${String(p.category)}) with ${markets} market(s).`;
    }
    case 'list_events':
      return withNotice(`Found ${String(p.total ?? 0)} event(s); showing ${String(p.count ?? 0)}.`, p);
    case 'list_upcoming_catalysts':
      return `${String(p.count ?? 0)} scheduled catalyst(s) from ${String(p.from)} to ${String(p.to)}.`;
    case 'list_signals':
      return withNotice(`${String(p.count ?? 0)} signal bulletin(s) match.`, p);
    case 'get_signal':
      return `Signal ${String(p.record_slug)}: ${String(p.headline)}.`;
    case 'get_market_history':
      return `Market ${String(p.market_id)}: ${String(p.count ?? 0)} daily mark(s) from ${String(p.from)} to ${String(p.to)}.`;
    default:
      return 'Ask about a market (id, ticker or URL), an event (id or slug), a comparison across venues, stats, what a code means, upcoming catalysts, or search with a few words.';
  }
}
