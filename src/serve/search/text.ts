/**
 * Text normalization for search: one function turns a word into its index term, used when indexing and when
 * querying, so the two always agree. Words are lowercased, stripped of accents and possessive 's, and English
 * words (letters only) are Porter-stemmed ("rates" → "rate", "elections" → "elect"); tokens with digits or
 * inner punctuation ("4.25", "s&p", "eur/usd") are kept whole. Identifiers (venue tickers, condition ids,
 * slugs, service ids) are indexed whole and by their hyphen prefixes, so "KXFED" finds every KXFED-… event and
 * "kxfed-26nov" the one.
 */
import { stemmer } from 'stemmer';
import table from '../../../data/search/synonyms.json' with { type: 'json' };

/** Letters and digits, with inner `. & / '` kept (decimals, "s&p", "eur/usd", "england's"). */
const WORD = /[\p{L}\p{N}]+(?:[.&/'’][\p{L}\p{N}]+)*/gu;
const LETTERS = /^\p{L}+$/u;

export const STOPWORDS: ReadonlySet<string> = new Set(table.stopwords);

/** The index term of one word, or null for a stopword. */
export function termOf(word: string): string | null {
  let w = word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]s$/, '');
  if (w.length === 0 || STOPWORDS.has(w)) return null;
  if (LETTERS.test(w)) w = stemmer(w);
  // Thousands as users write them: "100k" → 100000 (text "$100,000" is read as 100000, see termsOf).
  const k = /^(\d+(?:\.\d+)?)k$/.exec(w);
  if (k) w = String(Math.round(Number(k[1]) * 1000));
  return w;
}

/** The index terms of a text, in order (stopwords dropped). */
export function termsOf(text: string | null | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  // Digit-group commas go ("$100,000" → 100000) so amounts match however they are written.
  for (const m of text.replace(/(\d),(?=\d{3}(?!\d))/g, '$1').matchAll(WORD)) {
    const t = termOf(m[0]);
    if (t !== null) out.push(t);
  }
  return out;
}

/** Whether a query word looks like an identifier (hyphenated, or letters and digits fused: KXFED, 0xabc…). */
export function looksLikeId(word: string): boolean {
  return /[-_]/.test(word) || /^0x[0-9a-f]{6,}$/i.test(word) || /^kx[a-z0-9]+$/i.test(word);
}

/** A synonym group: its members, each as its list of index terms (a phrase has several). */
export interface SynonymGroup {
  name: string;
  members: string[][];
}

/** The synonym table (data/search/synonyms.json), members turned into index terms. */
export const SYNONYMS: readonly SynonymGroup[] = table.groups.map((g) => ({
  name: g.name,
  members: g.members.map((m) => termsOf(m)).filter((t) => t.length > 0),
}));

/** The token of a phrase: its terms joined by `_` (indexed where the phrase occurs, see `withPhrases`). */
export function phraseToken(terms: readonly string[]): string {
  return terms.join('_');
}

/** Multi-word members of the synonym table, as phrase tokens; the longest member's length in terms. */
const PHRASES: ReadonlySet<string> = new Set(
  SYNONYMS.flatMap((g) => g.members.filter((m) => m.length > 1).map((m) => phraseToken(m))),
);
const LONGEST_PHRASE = Math.max(1, ...SYNONYMS.flatMap((g) => g.members.map((m) => m.length)));

/**
 * Terms of a text plus a token for each synonym-table phrase in it ("federal funds rate" → feder, fund, rate,
 * feder_fund). Only the table's phrases get tokens: indexing every word pair would double the index for
 * phrases nobody searches as such.
 */
export function withPhrases(terms: readonly string[]): string[] {
  const out = [...terms];
  for (let i = 0; i < terms.length; i++) {
    for (let n = 2; n <= LONGEST_PHRASE && i + n <= terms.length; n++) {
      const token = phraseToken(terms.slice(i, i + n));
      if (PHRASES.has(token)) out.push(token);
    }
  }
  return out;
}

/** A member as it is matched: one term, or the phrase token of several. */
function memberKey(terms: readonly string[]): string[] {
  return terms.length === 1 ? [...terms] : [phraseToken(terms)];
}

/** Members by their first term, longest first: the phrase matcher tries the longest member at a position. */
const MEMBER_STARTS = (() => {
  const map = new Map<string, Array<{ terms: string[]; group: SynonymGroup }>>();
  for (const group of SYNONYMS) {
    for (const terms of group.members) {
      const first = terms[0];
      if (first === undefined) continue;
      const list = map.get(first) ?? [];
      list.push({ terms, group });
      map.set(first, list);
    }
  }
  for (const list of map.values()) list.sort((a, b) => b.terms.length - a.terms.length);
  return map;
})();

/**
 * One unit of a query that a result must match: what the user typed (a word, an identifier, or a phrase of the
 * synonym table) and the alternatives that satisfy it, each a list of terms that must all match.
 */
export interface QueryUnit {
  /** What the user typed, for notices. */
  text: string;
  /** The typed form: its terms (a table phrase as its token); single words matched with typo tolerance. */
  typed: string[];
  /** Synonyms and identifier splits: matched exactly, weighted lower. */
  alternatives: string[][];
  /** An identifier: matched whole and by prefix, never fuzzily. */
  id: boolean;
}

/** The most query units considered (a longer query is cut, with a notice). */
export const MAX_UNITS = 8;

/**
 * Splits a query into units. Synonym phrases are matched greedily, longest first ("federal funds rate" →
 * the unit "federal funds", then "rate"); a word that is an identifier is one unit, matched whole or as its
 * parts.
 */
export function parseQuery(q: string): { units: QueryUnit[]; dropped: string[] } {
  const words = q.split(/\s+/).filter((w) => w.length > 0);
  const units: QueryUnit[] = [];
  // Each plain word becomes its terms, remembering the word it came from (for unit text).
  const plain: Array<{ term: string; word: string }> = [];
  const flush = () => {
    let i = 0;
    while (i < plain.length) {
      const head = plain[i];
      if (!head) break;
      const candidates = MEMBER_STARTS.get(head.term) ?? [];
      const hit = candidates.find((c) => c.terms.every((t, k) => plain[i + k]?.term === t));
      if (hit) {
        const span = plain.slice(i, i + hit.terms.length);
        units.push({
          text: [...new Set(span.map((s) => s.word))].join(' '),
          typed: memberKey(hit.terms),
          alternatives: hit.group.members.filter((m) => m.join(' ') !== hit.terms.join(' ')).map(memberKey),
          id: false,
        });
        i += hit.terms.length;
      } else {
        units.push({ text: head.word, typed: [head.term], alternatives: [], id: false });
        i++;
      }
    }
    plain.length = 0;
  };
  for (const word of words) {
    if (looksLikeId(word)) {
      flush();
      const lower = word.toLowerCase();
      const parts = termsOf(lower.replace(/[-_]/g, ' '));
      units.push({
        text: word,
        typed: [lower],
        alternatives: parts.length > 1 || (parts.length === 1 && parts[0] !== lower) ? [parts] : [],
        id: true,
      });
      continue;
    }
    for (const t of termsOf(word)) plain.push({ term: t, word });
  }
  flush();
  const dropped = units.slice(MAX_UNITS).map((u) => u.text);
  return { units: units.slice(0, MAX_UNITS), dropped };
}
