/**
 * Cross-venue links (spec §2.2 `also_on`, extended by issue 16). Markets on the other venue that share a
 * question_id are `same` (one side) or `complement` (the other side of one boundary); markets whose claim
 * keys differ only in typed parts (./relation.ts) are `related`, with those differences. Markets on the same
 * venue are never linked (every event is single-venue; a venue does not list one question twice).
 */
import type { AlsoOn, LinkDifference, LinkRelation, Market } from '../../domain/index.ts';
import { bucketOf, type ClaimReading, claimKeyOfRecord, readClaim, relatedDifferences } from './relation.ts';

/** A link's relation (the name the issue-6 API gave it). */
export type LinkKind = LinkRelation;

/** One cross-venue link: a venue_a market, a venue_b market, their relation and (related) their differences. */
export interface CrossVenueLink {
  a: Market;
  b: Market;
  kind: LinkRelation;
  differences?: LinkDifference[];
}

const RANK: Record<LinkRelation, number> = { same: 0, complement: 1, related: 2 };

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

type Read = [Market, ClaimReading];

/**
 * Related pairs, compared only within a bucket of one subject, measured thing and horizon class, so linking
 * stays near-linear on the full universe: a horizon that never relaxes (window, date, meeting, event) is part
 * of the bucket; `by:` deadlines are bucketed by 32-day slot and compared with the neighbouring slots only
 * (two deadlines at most 31 days apart are never more than one slot apart).
 */
function relatedLinks(markets: readonly Market[]): CrossVenueLink[] {
  const buckets = new Map<string, { a: Read[]; b: Read[] }>();
  const slotOf = (r: ClaimReading): number | null => {
    const d = /^by:(\d{4}-\d{2}-\d{2})$/.exec(r.horizon)?.[1];
    return d ? Math.floor(Date.parse(`${d}T00:00:00Z`) / (32 * 86_400_000)) : null;
  };
  const keyOf = (r: ClaimReading, slot: number | null) => `${bucketOf(r)}#${slot === null ? r.horizon : `by@${slot}`}`;
  for (const m of markets) {
    if (!m.question_id) continue;
    const key = claimKeyOfRecord(m.claim_key);
    const reading = key ? readClaim(key) : null;
    if (!reading) continue;
    const id = keyOf(reading, slotOf(reading));
    let bucket = buckets.get(id);
    if (!bucket) {
      bucket = { a: [], b: [] };
      buckets.set(id, bucket);
    }
    (m.platform === 'venue_a' ? bucket.a : bucket.b).push([m, reading]);
  }
  const links: CrossVenueLink[] = [];
  for (const { a } of buckets.values()) {
    for (const [ma, ra] of a) {
      const slot = slotOf(ra);
      const near = slot === null ? [keyOf(ra, null)] : [slot - 1, slot, slot + 1].map((s) => keyOf(ra, s));
      for (const id of near) {
        for (const [mb, rb] of buckets.get(id)?.b ?? []) {
          if (ma.question_id === mb.question_id) continue;
          const differences = relatedDifferences(ra, rb);
          if (differences) links.push({ a: ma, b: mb, kind: 'related', differences });
        }
      }
    }
  }
  return links;
}

/**
 * Every cross-venue link: `same` when two markets share a question_id and a direction, `complement` when they
 * share it on opposite sides, `related` (with differences) when their keys differ only in typed parts.
 */
export function crossVenueLinks(markets: readonly Market[]): CrossVenueLink[] {
  const links: CrossVenueLink[] = [];
  for (const group of byQuestion(markets).values()) {
    const a = group.filter((m) => m.platform === 'venue_a');
    const b = group.filter((m) => m.platform === 'venue_b');
    for (const x of a) {
      for (const y of b) links.push({ a: x, b: y, kind: x.direction === y.direction ? 'same' : 'complement' });
    }
  }
  return [...links, ...relatedLinks(markets)];
}

/**
 * Sets `also_on` on every market: the other venue's markets linked to it (see `crossVenueLinks`), each with
 * its relation, its differences when related, and its price (`prices` keyed by market_id; a missing price is
 * null). Same and complement first, then related, each by market_id. Null when there are none.
 */
export function linkAcrossVenues(markets: readonly Market[], prices: ReadonlyMap<string, number | null>): Market[] {
  const listed = new Map<string, Array<{ other: Market; kind: LinkRelation; differences?: LinkDifference[] }>>();
  const add = (self: Market, other: Market, kind: LinkRelation, differences?: LinkDifference[]) => {
    const entry = differences ? { other, kind, differences } : { other, kind };
    const list = listed.get(self.market_id);
    if (list) list.push(entry);
    else listed.set(self.market_id, [entry]);
  };
  for (const l of crossVenueLinks(markets)) {
    add(l.a, l.b, l.kind, l.differences);
    add(l.b, l.a, l.kind, l.differences);
  }
  return markets.map((m) => {
    const entries = listed.get(m.market_id) ?? [];
    const alsoOn: AlsoOn =
      entries.length === 0
        ? null
        : entries
            .sort((x, y) => RANK[x.kind] - RANK[y.kind] || x.other.market_id.localeCompare(y.other.market_id))
            .map((e) => ({
              venue: e.other.platform,
              market_id: e.other.market_id,
              price: clampPrice(prices.get(e.other.market_id) ?? null),
              relation: e.kind,
              ...(e.differences ? { differences: e.differences } : {}),
            }));
    // A market already linked so is given back as it is: most are, on every run, and a copy of each of 39,200
    // records (and of its provenance) was most of what linking cost (issue 18).
    if (linkedAs(m, alsoOn)) return m;
    const provenance = { ...m.field_provenance, also_on: { ...LINK_PROVENANCE } };
    return { ...m, also_on: alsoOn, field_provenance: provenance };
  });
}

const LINK_PROVENANCE = { source: 'derived', rule: 'canon.also_on' } as const;

/** Whether `m` holds `alsoOn` and its provenance entry already (values equal, as JSON; entries in order). */
function linkedAs(m: Market, alsoOn: AlsoOn): boolean {
  const entry = m.field_provenance?.also_on as Record<string, unknown> | undefined;
  if (entry?.source !== LINK_PROVENANCE.source || entry.rule !== LINK_PROVENANCE.rule) return false;
  if (Object.keys(entry).length !== 2) return false;
  const held = m.also_on;
  if (held === null || alsoOn === null) return held === alsoOn;
  if (held === undefined || held.length !== alsoOn.length) return false;
  return alsoOn.every((item, i) => {
    const h = held[i];
    return (
      h !== undefined &&
      Object.keys(h).length === Object.keys(item).length &&
      h.venue === item.venue &&
      h.market_id === item.market_id &&
      h.price === item.price &&
      h.relation === item.relation &&
      JSON.stringify(h.differences) === JSON.stringify(item.differences)
    );
  });
}

function clampPrice(p: number | null): number | null {
  return p === null || !Number.isFinite(p) ? null : Math.min(1, Math.max(0, p));
}
