/**
 * Identifier lookup for search: venue tickers ("KXFED-26DEC-T4.25"), condition ids, slugs and service ids,
 * matched whole or by prefix ("KXFED" finds every KXFED-… event and market). A sorted array searched by
 * bisection, not the full-text index: identifiers are unique strings, and each unique term costs minisearch a
 * tree node and two maps (measured: identifiers in the text index took over half its 180 MB).
 */

/** Most matches one prefix returns (a one-letter prefix must not walk the whole catalog). */
const MAX_PREFIX_MATCHES = 5000;

/** A matched identifier: the event (`kind` 'e') or market ('m') index and how well it matched. */
export interface IdMatch {
  kind: 'e' | 'm';
  index: number;
  /** 1 for the whole identifier, 0.8 for a prefix ending at a `-` boundary, 0.5 for any other prefix. */
  quality: number;
}

export class IdLookup {
  private readonly keys: string[];
  /** Event refs are -(index + 1), market refs index. */
  private readonly refs: Int32Array;

  constructor(
    eventIds: ReadonlyArray<ReadonlyArray<string | null>>,
    marketIds: ReadonlyArray<ReadonlyArray<string | null>>,
  ) {
    const pairs: Array<[string, number]> = [];
    eventIds.forEach((ids, i) => {
      for (const id of new Set(ids)) if (id) pairs.push([id.toLowerCase(), -(i + 1)]);
    });
    marketIds.forEach((ids, i) => {
      for (const id of new Set(ids)) if (id) pairs.push([id.toLowerCase(), i]);
    });
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.keys = pairs.map((p) => p[0]);
    this.refs = Int32Array.from(pairs.map((p) => p[1]));
  }

  /** Identifiers equal to or starting with `word` (case-insensitive). */
  find(word: string): IdMatch[] {
    const w = word.toLowerCase();
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.keys[mid] ?? '') < w) lo = mid + 1;
      else hi = mid;
    }
    const out: IdMatch[] = [];
    for (let i = lo; i < this.keys.length && out.length < MAX_PREFIX_MATCHES; i++) {
      const key = this.keys[i] ?? '';
      if (!key.startsWith(w)) break;
      const ref = this.refs[i] ?? 0;
      const quality = key.length === w.length ? 1 : key[w.length] === '-' ? 0.8 : 0.5;
      out.push(ref < 0 ? { kind: 'e', index: -ref - 1, quality } : { kind: 'm', index: ref, quality });
    }
    return out;
  }
}
