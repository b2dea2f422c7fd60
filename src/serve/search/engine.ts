/**
 * The search index of one read-model generation (issue 17). Built once with the read model, never per request.
 *
 * What is indexed: one document per event (title, tags, rules text) and one per market (question); identifiers
 * (tickers, condition ids, slugs, service ids) in a sorted lookup (ids.ts). An event's title, tags and rules are
 * shared by all its markets (a ladder has up to ~40), so they are indexed once per event; a market's relevance
 * is its own document's score plus a share of its event's.
 *
 * How: BM25 per field with field boosts (title 4, question 3, tags 2, rules text 0.3: topic matches beat
 * incidental ones), over postings kept in typed arrays; the vocabulary is minisearch's SearchableMap (a radix
 * tree with edit-distance and prefix lookup), which gives typo tolerance (one edit in words of five letters
 * or more) and prefix search. Why not minisearch's whole engine, which was the first build: measured on the
 * full simulated universe it took 182 MB with identifiers indexed (39 MB without) and 15–180 ms for a query
 * with a common word ("price" matches 15,000 markets: it builds a result object per match); these postings take
 * a fraction of that and answer in well under the 5 ms goal (README, Search; `npm run bench`).
 *
 * Matching is by query unit (text.ts `parseQuery`): a result must match every unit, by its typed words, by one
 * of its synonyms (data/search/synonyms.json, weighted 0.5), or, for an identifier, whole or by prefix. A unit
 * scores its best alternative, not their sum (a title with "Fed" and "rate cut" is not twice as much about the
 * Fed). When nothing matches every unit, the results matching the weightiest part of the query are returned (a
 * number weighs half a word) and the caller says which units went unmatched. Events with no live market score
 * 0.85 of their match.
 */
import { createHash } from 'node:crypto';
import SearchableMap from 'minisearch/SearchableMap';
import { IdLookup } from './ids.ts';
import { parseQuery, type QueryUnit, termsOf, withPhrases } from './text.ts';

/** What the index needs of an event (everything else about it is in the read model). */
export interface SearchEventDoc {
  title: string;
  tags: readonly string[];
  ids: readonly (string | null)[];
  /** The distinct rules texts of its markets (identical texts of ladder siblings once). */
  rules: readonly string[];
  live: boolean;
}

/** What the index needs of a market. */
export interface SearchMarketDoc {
  /** Index of its event in the events given to `build`, or -1. */
  event: number;
  question: string;
  ids: readonly (string | null)[];
}

/** Distinct rules terms kept per event: rules text is incidental evidence, and it dominates index size. */
export const RULES_TERMS_CAP = 200;
/** Share of an event's score a market inherits (the market's own question decides among siblings). */
const EVENT_SHARE = 0.8;
const SYNONYM_WEIGHT = 0.5;
const NOT_LIVE = 0.85;
/** Score of an identifier match (times its quality): above any text match, as a pasted ticker means that one. */
const ID_SCORE = 60;

/** A ranked match: the event or market index, its score and which units it matched (bit mask). */
export interface Hit {
  key: number;
  score: number;
}

export interface SearchOutcome {
  /** Unordered (callers rank: see `topK` in market-list.ts). */
  hits: Hit[];
  units: QueryUnit[];
  /** Units no returned result matched (empty when every result matched every unit). */
  unmatched: string[];
  /** Units beyond the query limit, ignored. */
  dropped: string[];
}

function uniq(terms: Iterable<string>, cap = Number.POSITIVE_INFINITY): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    if (out.size >= cap) break;
    out.add(t);
  }
  return [...out];
}

/** The plain data an index is built from. */
export interface SearchDocs {
  events: SearchEventDoc[];
  markets: SearchMarketDoc[];
}

/**
 * Documents as indexed: every field already normalized to space-separated terms, rules cut to their distinct
 * terms. Small (no raw rules text), and what a read-model pack keeps to rebuild the index at load.
 */
export interface IndexedDocs {
  /** Per event: title, tags, rules (terms joined by spaces). */
  events: Array<[title: string, tags: string, rules: string]>;
  /** Per market: question terms. */
  markets: string[];
  /** Per event: its identifiers (slug, venue ticker, service id). */
  eventIds: Array<Array<string | null>>;
  /** Per market: its identifiers (venue ticker or condition id, service id, question id). */
  marketIds: Array<Array<string | null>>;
  /** Per market: its event index, -1 without one. */
  eventOf: number[];
  /** Per event: 1 when it has a live market. */
  live: number[];
}

const fieldText = (text: string) => withPhrases(termsOf(text)).join(' ');

/** Normalizes documents for the index (text.ts), deduplicating and capping rules terms. */
export function indexedDocs(docs: SearchDocs): IndexedDocs {
  return normalizedDocs(docs, null).docs;
}

/**
 * One normalization of documents, kept for the next (issue 18: the read model rebuilds only what changed): the
 * normalized documents and, parallel to them, a fingerprint of each document's source text (`docFingerprint`).
 * In memory only: a read-model pack keeps the documents without fingerprints, so a model loaded from a pack
 * (possibly written by another version of the normalization) leaves nothing to reuse.
 */
export interface DocsNormalization {
  docs: IndexedDocs;
  eventKeys: string[];
  marketKeys: string[];
  /** Documents whose normalized text was taken from the previous normalization (events + markets). */
  reused: number;
}

/**
 * A document's fingerprint: a SHA-1 of the source texts its normalized text is made from, in order (an event's
 * title, the number of its tags, its tags and its rules texts; a market's question), each text preceded by its
 * length, so no two lists of texts hash the same input. The texts are hashed as their UTF-16 code units, as
 * JavaScript holds them: UTF-8 would write every lone surrogate as U+FFFD, and two different texts the same.
 */
function docFingerprint(texts: readonly string[]): string {
  const hash = createHash('sha1');
  for (const t of texts) hash.update(`${t.length}:`).update(t, 'utf16le');
  return hash.digest('base64url');
}

function positions(keys: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) out.set(keys[i] as string, i);
  return out;
}

/**
 * `indexedDocs`, taking the normalized text of every document whose source text is that of a document of
 * `previous` (the last build's normalization in this process) instead of normalizing it again. Normalization is
 * a pure function of the text (text.ts), so a reused text is the one normalizing would give. On the full
 * simulated universe normalizing every document is about 5 s of a rebuild; an hourly refresh changes the text of
 * a few hundred markets.
 */
export function normalizedDocs(docs: SearchDocs, previous: DocsNormalization | null): DocsNormalization {
  let reused = 0;
  /** Normalizes each source into `keys` and the result: the previous text where its fingerprint is found. */
  const normalize = <S, T>(
    sources: readonly S[],
    texts: (s: S) => string[],
    normal: (s: S) => T,
    last: { keys: readonly string[]; values: readonly T[] } | null,
  ): { keys: string[]; values: T[] } => {
    const at = last === null ? null : positions(last.keys);
    const keys: string[] = [];
    const values = sources.map((source) => {
      const key = docFingerprint(texts(source));
      keys.push(key);
      const i = at?.get(key);
      const kept = i === undefined ? undefined : last?.values[i];
      if (kept === undefined) return normal(source);
      reused++;
      return kept;
    });
    return { keys, values };
  };
  const events = normalize(
    docs.events,
    (e) => [e.title, String(e.tags.length), ...e.tags, ...e.rules],
    (e): [string, string, string] => [
      fieldText(e.title),
      e.tags.map((t) => fieldText(t)).join(' '),
      uniq(
        e.rules.flatMap((r) => termsOf(r)),
        RULES_TERMS_CAP,
      ).join(' '),
    ],
    previous && { keys: previous.eventKeys, values: previous.docs.events },
  );
  const markets = normalize(
    docs.markets,
    (m) => [m.question],
    (m) => fieldText(m.question),
    previous && { keys: previous.marketKeys, values: previous.docs.markets },
  );
  return {
    docs: {
      events: events.values,
      markets: markets.values,
      eventIds: docs.events.map((e) => [...e.ids]),
      marketIds: docs.markets.map((m) => [...m.ids]),
      eventOf: docs.markets.map((m) => m.event),
      live: docs.events.map((e) => (e.live ? 1 : 0)),
    },
    eventKeys: events.keys,
    marketKeys: markets.keys,
    reused,
  };
}

/** Field numbers and boosts. Event documents have title, tags, rules; market documents have question. */
const TITLE = 0;
const TAGS = 1;
const RULES = 2;
const QUESTION = 3;
const FIELD_BOOST = [4, 2, 0.3, 3];
const BM25_K1 = 1.2;
const BM25_B = 0.5;
const FUZZY_WEIGHT = 0.5;
const PREFIX_WEIGHT = 0.4;
/** A term in fewer documents than this may be a typo of a commoner one: its one-edit variants are searched too. */
const RARE_DOCS = 3;
/** Most completions a prefix expands to ("elec" → elect, electr, electron, …). */
const MAX_COMPLETIONS = 50;

/** One term's postings in one field: document ids and their BM25 term-frequency factors. */
interface Postings {
  docs: Int32Array;
  w: Float32Array;
}

export class SearchIndex {
  private readonly terms = new SearchableMap<number>();
  /** postings[field][termId]. */
  private readonly postings: Array<Array<Postings | undefined>> = [[], [], [], []];
  /** Documents that have each field (the N of BM25's idf). */
  private readonly fieldDocs = [0, 0, 0, 0];
  /** Markets of each event, by index. */
  private readonly marketsOf: number[][];
  private readonly eventOf: Int32Array;
  private readonly live: Uint8Array;
  private readonly eventCount: number;
  private readonly ids: IdLookup;

  private constructor(docs: IndexedDocs) {
    this.eventCount = docs.events.length;
    this.ids = new IdLookup(docs.eventIds, docs.marketIds);
    this.live = Uint8Array.from(docs.live);
    this.eventOf = Int32Array.from(docs.eventOf);
    this.marketsOf = Array.from({ length: this.eventCount }, () => []);
    docs.eventOf.forEach((e, i) => {
      if (e >= 0) this.marketsOf[e]?.push(i);
    });
  }

  /**
   * Builds the index from normalized documents: events are documents 0..E-1, markets E..E+M-1. Terms get ids
   * on first sight and per-document counts live in typed arrays (a full universe has ~1.4 million postings but
   * only a few thousand distinct terms), so a rebuild at pack load stays short.
   */
  static build(docs: IndexedDocs): SearchIndex {
    const index = new SearchIndex(docs);
    const E = docs.events.length;
    const N = E + docs.markets.length;
    const ids = new Map<string, number>();
    // Per field and term id: [doc, tf, doc, tf, …]; per field and doc: its length in terms.
    const raw: number[][][] = [[], [], [], []];
    const lengths = [new Int32Array(N), new Int32Array(N), new Int32Array(N), new Int32Array(N)];
    let tf = new Int32Array(1024);
    const seen: number[] = [];
    const addField = (field: number, doc: number, text: string) => {
      if (text.length === 0) return;
      let n = 0;
      for (const t of text.split(' ')) {
        if (t.length === 0) continue;
        let id = ids.get(t);
        if (id === undefined) {
          id = ids.size;
          ids.set(t, id);
          if (id >= tf.length) {
            const grown = new Int32Array(tf.length * 2);
            grown.set(tf);
            tf = grown;
          }
        }
        if (tf[id] === 0) seen.push(id);
        tf[id] = (tf[id] ?? 0) + 1;
        n++;
      }
      const lens = lengths[field];
      if (lens) lens[doc] = n;
      const lists = raw[field] ?? [];
      for (const id of seen) {
        const list = lists[id];
        if (list) list.push(doc, tf[id] ?? 0);
        else lists[id] = [doc, tf[id] ?? 0];
        tf[id] = 0;
      }
      seen.length = 0;
    };
    docs.events.forEach(([title, tags, rules], i) => {
      addField(TITLE, i, title);
      addField(TAGS, i, tags);
      addField(RULES, i, rules);
    });
    docs.markets.forEach((question, i) => {
      addField(QUESTION, E + i, question);
    });
    for (const [term, id] of ids) index.terms.set(term, id);
    raw.forEach((lists, field) => {
      const lens = lengths[field] ?? new Int32Array(0);
      let total = 0;
      let count = 0;
      for (const l of lens) {
        if (l > 0) {
          total += l;
          count++;
        }
      }
      index.fieldDocs[field] = count;
      const avg = count > 0 ? total / count : 1;
      const out = index.postings[field] ?? [];
      lists.forEach((list, id) => {
        const n = list.length / 2;
        const docsArr = new Int32Array(n);
        const w = new Float32Array(n);
        for (let k = 0; k < n; k++) {
          const doc = list[2 * k] ?? 0;
          const f = list[2 * k + 1] ?? 0;
          docsArr[k] = doc;
          w[k] = (f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * (lens[doc] ?? avg)) / avg));
        }
        out[id] = { docs: docsArr, w };
      });
    });
    return index;
  }

  /** Events matching `q`, best first. */
  searchEvents(q: string): SearchOutcome {
    return this.run(q, 'events');
  }

  /** Markets matching `q`, best first. */
  searchMarkets(q: string): SearchOutcome {
    return this.run(q, 'markets');
  }

  /** Adds a vocabulary term's BM25 score (times `weight`) to `into`, per document. */
  private scoreTerm(termId: number, weight: number, into: Scratch): void {
    for (let f = 0; f < 4; f++) {
      const p = this.postings[f]?.[termId];
      if (!p) continue;
      const n = p.docs.length;
      const N = this.fieldDocs[f] ?? 0;
      const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
      const k = idf * (FIELD_BOOST[f] ?? 1) * weight;
      for (let i = 0; i < n; i++) into.add(p.docs[i] ?? 0, k * (p.w[i] ?? 0));
    }
  }

  /** Documents holding a vocabulary term in any field. */
  private docFrequency(termId: number): number {
    let n = 0;
    for (let f = 0; f < 4; f++) n += this.postings[f]?.[termId]?.docs.length ?? 0;
    return n;
  }

  /**
   * Scores of one query term into `into`: the term itself; one-edit variants when the term is not (or hardly) in
   * the vocabulary (a correctly spelled word is not fuzzed: "price" must not find "prime"); completions when asked.
   */
  private scoreQueryTerm(term: string, opts: { fuzzy: boolean; prefix: boolean }, into: Scratch): void {
    const exact = this.terms.get(term);
    if (exact !== undefined) this.scoreTerm(exact, 1, into);
    if (opts.fuzzy && (exact === undefined || this.docFrequency(exact) < RARE_DOCS)) {
      for (const [t, [id, distance]] of this.terms.fuzzyGet(term, 1)) {
        if (distance > 0 && t !== term) this.scoreTerm(id, FUZZY_WEIGHT, into);
      }
    }
    if (opts.prefix) {
      let n = 0;
      for (const [t, id] of this.terms.atPrefix(term)) {
        if (t === term) continue;
        if (++n > MAX_COMPLETIONS) break;
        this.scoreTerm(id, PREFIX_WEIGHT, into);
      }
    }
  }

  /** Per document, the unit's best alternative score (typed form, synonyms, identifier parts), into `best`. */
  private scoreUnit(u: QueryUnit, last: boolean, best: Scratch): void {
    const key = this.keyScratch;
    const scoreKey = (terms: readonly string[], typed: boolean, weight: number) => {
      key.reset();
      const opts = (term: string) => ({
        fuzzy: typed && fuzzyFor(term),
        prefix: typed && last && u.alternatives.length === 0 && term.length >= 4 && !term.includes('_'),
      });
      if (terms.length === 1) this.scoreQueryTerm(terms[0] ?? '', opts(terms[0] ?? ''), key);
      else {
        // Several terms (an identifier's parts): all of them in one document.
        const part = new Scratch(0);
        let acc: Map<number, number> | null = null;
        for (const term of terms) {
          part.resetAsMap();
          this.scoreQueryTerm(term, opts(term), part);
          const next = new Map<number, number>();
          for (const [d, v] of part.entries()) {
            if (acc === null) next.set(d, v);
            else {
              const prev = acc.get(d);
              if (prev !== undefined) next.set(d, prev + v);
            }
          }
          acc = next;
        }
        for (const [d, v] of acc ?? []) key.add(d, v);
      }
      for (let i = 0; i < key.n; i++) {
        const d = key.list[i] ?? 0;
        best.max(d, (key.val[d] ?? 0) * weight);
      }
    };
    if (!u.id) scoreKey(u.typed, true, 1);
    for (const alt of u.alternatives) scoreKey(alt, false, u.id ? 1 : SYNONYM_WEIGHT);
  }

  // Accumulators reused by every query (a query runs synchronously, start to end), reset as they are used.
  private readonly keyScratch = new Scratch(0);
  private readonly unitScratch = new Scratch(0);
  private readonly totalScratch = new Scratch(0);
  private maskScratch = new Int32Array(0);

  private run(q: string, scope: 'events' | 'markets'): SearchOutcome {
    const { units, dropped } = parseQuery(q);
    if (units.length === 0) return { hits: [], units, unmatched: [], dropped };
    const E = this.eventCount;
    const N = E + this.eventOf.length;
    this.keyScratch.ensure(N);
    this.unitScratch.ensure(N);
    this.totalScratch.ensure(N);
    if (this.maskScratch.length < N) this.maskScratch = new Int32Array(N);
    // Per document (events and markets): summed unit scores and matched units (bit mask).
    const total = this.totalScratch;
    const mask = this.maskScratch;
    const unit = this.unitScratch;
    total.reset();
    units.forEach((u, i) => {
      unit.reset();
      if (u.id)
        for (const m of this.ids.find(u.typed[0] ?? ''))
          unit.max(m.kind === 'e' ? m.index : E + m.index, ID_SCORE * m.quality);
      this.scoreUnit(u, i === units.length - 1, unit);
      for (let k = 0; k < unit.n; k++) {
        const d = unit.list[k] ?? 0;
        total.add(d, unit.val[d] ?? 0);
        mask[d] = (mask[d] ?? 0) | (1 << i);
      }
    });
    const keys: number[] = [];
    const scores: number[] = [];
    const masks: number[] = [];
    if (scope === 'events') {
      // An event: its own score plus its best market's; the units its markets matched count for it.
      const bestMarket = new Map<number, number>();
      const marketMask = new Map<number, number>();
      for (let k = 0; k < total.n; k++) {
        const d = total.list[k] ?? 0;
        if (d < E) continue;
        const e = this.eventOf[d - E] ?? -1;
        if (e < 0) continue;
        bestMarket.set(e, Math.max(bestMarket.get(e) ?? 0, total.val[d] ?? 0));
        marketMask.set(e, (marketMask.get(e) ?? 0) | (mask[d] ?? 0));
      }
      for (let k = 0; k < total.n; k++) {
        const e = total.list[k] ?? 0;
        if (e >= E) continue;
        keys.push(e);
        scores.push(((total.val[e] ?? 0) + (bestMarket.get(e) ?? 0)) * (this.live[e] ? 1 : NOT_LIVE));
        masks.push((mask[e] ?? 0) | (marketMask.get(e) ?? 0));
        bestMarket.delete(e);
      }
      for (const [e, s] of bestMarket) {
        keys.push(e);
        scores.push(s * (this.live[e] ? 1 : NOT_LIVE));
        masks.push(marketMask.get(e) ?? 0);
      }
    } else {
      // A market: its own score plus a share of its event's; the units its event matched count for it.
      const seen = new Uint8Array(N - E);
      const push = (m: number) => {
        if (seen[m]) return;
        seen[m] = 1;
        const e = this.eventOf[m] ?? -1;
        keys.push(m);
        scores.push(
          ((total.val[E + m] ?? 0) + (e >= 0 ? EVENT_SHARE * (total.val[e] ?? 0) : 0)) *
            (e >= 0 && !this.live[e] ? NOT_LIVE : 1),
        );
        masks.push((mask[E + m] ?? 0) | (e >= 0 ? (mask[e] ?? 0) : 0));
      };
      for (let k = 0; k < total.n; k++) {
        const d = total.list[k] ?? 0;
        if (d >= E) push(d - E);
        else for (const m of this.marketsOf[d] ?? []) push(m);
      }
    }
    for (let k = 0; k < total.n; k++) mask[total.list[k] ?? 0] = 0;
    total.reset();
    unit.reset();
    // Keep what matches every unit; failing that, what matches the weightiest part of the query, where a number
    // weighs half a word ("btc above 100k" with no market at 100k: bitcoin markets above some price, not
    // anything above 100,000).
    const full = (1 << units.length) - 1;
    const weightOf = (m: number) => {
      let w = 0;
      units.forEach((u, i) => {
        if (m & (1 << i)) w += /^[\d.]+$/.test(u.typed[0] ?? '') ? 0.5 : 1;
      });
      return w;
    };
    let most = 0;
    for (const m of new Set(masks)) most = Math.max(most, weightOf(m));
    const weights = new Map<number, number>();
    const hits: Hit[] = [];
    let inter = full;
    for (let i = 0; i < keys.length; i++) {
      const m = masks[i] ?? 0;
      let w = weights.get(m);
      if (w === undefined) {
        w = weightOf(m);
        weights.set(m, w);
      }
      if (most > 0 && w === most) {
        hits.push({ key: keys[i] ?? 0, score: scores[i] ?? 0 });
        inter &= m;
      }
    }
    // Units some served hit lacks: empty only when every hit matches every unit. (Partial hits may cover every
    // unit between them, "bitcoin treaty" → bitcoin events and a treaty event, and still none matches both.)
    if (hits.length === 0) inter = 0;
    const unmatched = units.filter((_, i) => !(inter & (1 << i))).map((u) => u.text);
    return { hits, units, unmatched: inter === full ? [] : unmatched, dropped };
  }
}

/**
 * A sparse accumulator over documents: values in a dense array, the touched documents in a list, so a reset
 * costs the touched entries only (queries touch from a handful to ~15,000 of ~43,000 documents).
 */
class Scratch {
  val: Float64Array;
  list: Int32Array;
  n = 0;
  private seen: Uint8Array;
  private map: Map<number, number> | null = null;

  constructor(size: number) {
    this.val = new Float64Array(size);
    this.list = new Int32Array(size);
    this.seen = new Uint8Array(size);
  }

  ensure(size: number): void {
    if (this.val.length >= size) return;
    this.val = new Float64Array(size);
    this.list = new Int32Array(size);
    this.seen = new Uint8Array(size);
    this.n = 0;
  }

  /** Small map-backed mode (identifier parts), sized by use. */
  resetAsMap(): void {
    this.map = new Map();
  }

  entries(): Iterable<[number, number]> {
    return this.map ?? [];
  }

  add(d: number, v: number): void {
    if (this.map) {
      this.map.set(d, (this.map.get(d) ?? 0) + v);
      return;
    }
    if (!this.seen[d]) {
      this.seen[d] = 1;
      this.list[this.n++] = d;
      this.val[d] = v;
    } else this.val[d] = (this.val[d] ?? 0) + v;
  }

  max(d: number, v: number): void {
    if (!this.seen[d]) {
      this.seen[d] = 1;
      this.list[this.n++] = d;
      this.val[d] = v;
    } else if (v > (this.val[d] ?? 0)) this.val[d] = v;
  }

  reset(): void {
    for (let i = 0; i < this.n; i++) {
      const d = this.list[i] ?? 0;
      this.seen[d] = 0;
      this.val[d] = 0;
    }
    this.n = 0;
  }
}

/** Typo tolerance: one edit in words of five letters or more (shorter words are too often other words). */
function fuzzyFor(term: string): boolean {
  return term.length >= 5 && /^\p{L}+$/u.test(term);
}
