/**
 * The primary market of an event (spec §2.1): the market quoted as the headline price.
 */
import type { Market } from '../../domain/index.ts';

export interface MarkSummary {
  last_price: number | null;
  volume_24h_usd: number | null;
  liquidity_usd: number | null;
}

/**
 * The documented rule: among open markets (all markets when none is open), the highest 24 h volume;
 * ties by liquidity, then by market_id (so the choice is deterministic). Missing numbers count as 0.
 * @returns the chosen market_id, or null for an event with no markets.
 */
export function primaryMarketOf(markets: readonly Market[], marks: ReadonlyMap<string, MarkSummary>): string | null {
  const open = markets.filter((m) => m.status === 'open');
  const pool = open.length > 0 ? open : markets;
  let best: { id: string; vol: number; liq: number } | null = null;
  for (const m of pool) {
    const mark = marks.get(m.market_id);
    const c = { id: m.market_id, vol: mark?.volume_24h_usd ?? 0, liq: mark?.liquidity_usd ?? 0 };
    if (
      !best ||
      c.vol > best.vol ||
      (c.vol === best.vol && (c.liq > best.liq || (c.liq === best.liq && c.id < best.id)))
    ) {
      best = c;
    }
  }
  return best?.id ?? null;
}
