import type { Event, Market, VenueFacts } from '../domain/index.ts';

/** The latest price/liquidity facts of a market, for primary-market choice and also_on prices. */
export interface MarkSummary {
  last_price: number | null;
  volume_24h_usd: number | null;
  liquidity_usd: number | null;
}

export interface EditorialInput {
  event: Event;
  markets: ReadonlyArray<{ market: Market; facts: VenueFacts }>;
  marks: ReadonlyMap<string, MarkSummary>;
  /** ISO time of the run (editorial functions never read the clock). */
  now: string;
}

export interface EditorialOutput {
  event: Event;
  markets: Market[];
}

/** Seam: filled by the resolution-judgment (issue 5) and canon (issue 6) modules. */
export function deriveEvent(input: EditorialInput): EditorialOutput {
  return { event: input.event, markets: input.markets.map((m) => m.market) };
}

/** Seam: sets `also_on` from shared question_ids (issue 6). */
export function linkAcrossVenues(markets: readonly Market[], _marks: ReadonlyMap<string, MarkSummary>): Market[] {
  return markets.map((m) => ({ ...m, also_on: null }));
}
