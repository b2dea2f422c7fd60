/**
 * `compare_question` (issue 17): "is this the same bet on the other venue?". Three ways in, all answered by the
 * query service's cross-venue questions (`question`, `findQuestions`): a question or pair id; a market, whose
 * pair is found through its question_id or its `also_on` links; or nothing, which lists the pairs by divergence.
 */
import { type MarketDetail, pairIdFor } from '../domain/index.ts';
import type { QueryService } from '../serve/index.ts';
import { found, marketNotFound, type ToolOutcome } from './tool-kit.ts';

export interface CompareArgs {
  question_id?: string | undefined;
  market_id?: string | undefined;
  category?: string | undefined;
  relation?: string | undefined;
  min_divergence?: number | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** The pair ids a market can belong to: its question_id (and the other pairs under it), then each related link. */
function pairIdsOf(qs: QueryService, m: MarketDetail): string[] {
  const ids: string[] = [];
  if (m.question_id !== null) {
    ids.push(m.question_id);
    ids.push(...(qs.question(m.question_id)?.other_pairs ?? []));
  }
  for (const t of m.also_on ?? []) {
    if (t.relation !== 'related') continue;
    const [a, b] = m.platform === 'venue_a' ? [m.market_id, t.market_id] : [t.market_id, m.market_id];
    ids.push(pairIdFor('related', a, b));
  }
  return ids;
}

function compareMarket(qs: QueryService, ref: string): ToolOutcome {
  const body = qs.getMarket(ref);
  if (!body) return marketNotFound(ref);
  const m = body.value<MarketDetail>();
  for (const id of pairIdsOf(qs, m)) {
    const pair = qs.question(id);
    if (pair && (pair.venue_a.market_id === m.market_id || pair.venue_b.market_id === m.market_id)) return found(pair);
  }
  return {
    found: false,
    error: `Market ${m.market_id} (${m.platform}) has no linked market on the other venue: no same, complement or related question was found${m.question_id === null ? '' : ` for its question_id ${m.question_id}`}.`,
    next_step:
      'Search the other venue by topic with search_markets (platform = the other venue, q = a few words of the question), or list linked pairs with compare_question and no arguments.',
  };
}

/** Runs `compare_question`. */
export function compareQuestion(qs: QueryService, a: CompareArgs): ToolOutcome {
  if (a.market_id !== undefined) return compareMarket(qs, a.market_id);
  if (a.question_id !== undefined) {
    const id = a.question_id.trim().toUpperCase();
    const pair = qs.question(id);
    if (pair) return found(pair);
    if (/^SVC-MKT-/.test(id) || !/^SVC[XRP]-/.test(id)) return compareMarket(qs, a.question_id);
    return {
      found: false,
      error: `No cross-venue pair has the id "${a.question_id}": the question trades on one venue only, or the id is not served in this generation.`,
      next_step:
        'Pass a question_id from a market that lists also_on, a pair id from compare_question with no arguments, or market_id to compare one market with its twin.',
    };
  }
  return found(
    qs.findQuestions({
      category: a.category,
      relation: a.relation,
      min_divergence: a.min_divergence,
      limit: a.limit ?? 20,
      offset: a.offset ?? 0,
    }),
  );
}
