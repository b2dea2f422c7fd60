/**
 * Cross-venue links from shared question_ids (spec §2.2 `also_on`). Markets on the same venue that
 * share a question_id are not twins of each other (every event is single-venue; a venue does not
 * list one question twice), so only the other venue's markets are listed.
 */
import type { AlsoOn, Market } from '../../domain/index.ts';

export type LinkKind = 'same' | 'complement';

/** One cross-venue link: two markets, one per venue, sharing a question_id. */
export interface CrossVenueLink {
  a: Market;
  b: Market;
  kind: LinkKind;
}

function byQuestion(markets: readonly Market[]): Map<string, Market[]> {
  const groups = new Map<string, Market[]>();
  for (const m of markets) {
    if (!m.question_id) continue;
    const g = groups.get(m.question_id);
    if (g) g.push(m);
    else groups.set(m.question_id, [m]);
  }
  return groups;
}

/**
 * Sets `also_on` on every market: the markets of the other venue that share its question_id, with
 * their prices (`prices` keyed by market_id; a missing price is null). Null when there are none.
 * Complements (above vs below one boundary) share the question_id and are listed too; their
 * `direction` tells the side.
 */
export function linkAcrossVenues(markets: readonly Market[], prices: ReadonlyMap<string, number | null>): Market[] {
  const groups = byQuestion(markets);
  return markets.map((m) => {
    const twins = m.question_id ? (groups.get(m.question_id) ?? []).filter((t) => t.platform !== m.platform) : [];
    const alsoOn: AlsoOn =
      twins.length === 0
        ? null
        : twins
            .map((t) => ({
              venue: t.platform,
              market_id: t.market_id,
              price: clampPrice(prices.get(t.market_id) ?? null),
            }))
            .sort((x, y) => x.market_id.localeCompare(y.market_id));
    const provenance = { ...m.field_provenance, also_on: { source: 'derived' as const, rule: 'canon.also_on' } };
    return { ...m, also_on: alsoOn, field_provenance: provenance };
  });
}

function clampPrice(p: number | null): number | null {
  return p === null || !Number.isFinite(p) ? null : Math.min(1, Math.max(0, p));
}

/** Every cross-venue pair sharing a question_id, `same` when the directions agree, else `complement`. */
export function crossVenueLinks(markets: readonly Market[]): CrossVenueLink[] {
  const links: CrossVenueLink[] = [];
  for (const group of byQuestion(markets).values()) {
    const a = group.filter((m) => m.platform === 'venue_a');
    const b = group.filter((m) => m.platform === 'venue_b');
    for (const x of a) {
      for (const y of b) links.push({ a: x, b: y, kind: x.direction === y.direction ? 'same' : 'complement' });
    }
  }
  return links;
}
