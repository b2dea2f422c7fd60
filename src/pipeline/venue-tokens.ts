/**
 * venue_b's price history is keyed by CLOB token, not by condition id: this reads each market's YES
 * token out of the raw Gamma pull (`clobTokenIds` is a JSON-encoded string, in `outcomes` order).
 */
import type { RawVenuePull } from '../venues/index.ts';

function decodeList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** condition id → YES token id, for every venue_b market of the pull that names both. */
export function yesTokensOf(pull: RawVenuePull): Map<string, string> {
  const out = new Map<string, string>();
  for (const event of pull.events) {
    const markets = (event as { markets?: unknown }).markets;
    if (!Array.isArray(markets)) continue;
    for (const raw of markets) {
      const m = raw as { conditionId?: unknown; clobTokenIds?: unknown; outcomes?: unknown };
      const tokens = decodeList(m.clobTokenIds);
      if (typeof m.conditionId !== 'string' || tokens === null) continue;
      const outcomes = decodeList(m.outcomes) ?? [];
      const yesIndex = outcomes.findIndex((o) => typeof o === 'string' && o.toLowerCase() === 'yes');
      const token = tokens[Math.max(yesIndex, 0)];
      if (typeof token === 'string' && token !== '') out.set(m.conditionId, token);
    }
  }
  return out;
}
