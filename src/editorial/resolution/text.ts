/**
 * Text-span helpers for the resolution judgment: every rule quotes the exact span it read, with
 * offsets into the named field, so a grade can be audited against the venue's own words.
 */
import type { Evidence } from '../../domain/index.ts';

/** A half-open character range of one field's text, with the text it covers. */
export interface Span {
  quote: string;
  start: number;
  end: number;
}

/** One sentence of a field: its offsets into the field text and its text. */
export interface Sentence {
  start: number;
  end: number;
  text: string;
}

/** The text the rules read: which record field it is and its content. */
export interface Doc {
  field: 'resolution_rules_raw' | 'description_raw';
  text: string;
}

// Abbreviations after which a period does not end a sentence ("U.S. Bureau", "St. Louis Fed", "e.g. X").
const ABBREVIATIONS = new Set([
  'u.s',
  'st',
  'e.g',
  'i.e',
  'vs',
  'mr',
  'mrs',
  'ms',
  'dr',
  'jr',
  'sr',
  'inc',
  'corp',
  'co',
  'no',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'a.m',
  'p.m',
  'etc',
  'approx',
  'gov',
  'u.k',
  'u.n',
]);
const BOUNDARY = /[.!?]["”’')\]]*\s+|\n\s*\n|\n(?=\s*[-*•<])/g;
const WORD_BEFORE = /([A-Za-z.]+)$/;

/** Splits text into sentences, keeping offsets; a period after a known abbreviation or an initial is not a boundary. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m !== null; m = BOUNDARY.exec(text)) {
    const cut = m.index + m[0].length;
    if (m[0].startsWith('.')) {
      const word = WORD_BEFORE.exec(text.slice(Math.max(0, m.index - 12), m.index))?.[1]?.toLowerCase() ?? '';
      if (word.length === 1 || ABBREVIATIONS.has(word) || ABBREVIATIONS.has(word.replace(/^\./, ''))) continue;
    }
    pushSentence(text, start, cut, out);
    start = cut;
  }
  pushSentence(text, start, text.length, out);
  return out;
}

function pushSentence(text: string, start: number, end: number, out: Sentence[]): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text.charAt(s))) s++;
  while (e > s && /\s/.test(text.charAt(e - 1))) e--;
  if (e > s) out.push({ start: s, end: e, text: text.slice(s, e) });
}

/** The sentence that contains offset `at` (or null). */
export function sentenceAt(sentences: readonly Sentence[], at: number): Sentence | null {
  for (const s of sentences) if (at >= s.start && at < s.end) return s;
  return null;
}

/** A span of `text` from start to end. */
export function spanOf(text: string, start: number, end: number): Span {
  return { quote: text.slice(start, end), start, end };
}

/** First match of a (non-global) regex inside [from, to) of text, as a span in text offsets. */
export function findIn(text: string, re: RegExp, from = 0, to = text.length): Span | null {
  const slice = text.slice(from, to);
  const m = re.exec(slice);
  if (m === null) return null;
  return { quote: m[0], start: from + m.index, end: from + m.index + m[0].length };
}

/** Evidence pointing at a quoted span of a field. */
export function quoteEvidence(field: string, span: Span): Evidence {
  return { field, quote: span.quote, start: span.start, end: span.end };
}

/** Evidence pointing at a venue field's value. */
export function fieldEvidence(field: string, value: unknown): Evidence {
  return { field, quote: null, start: null, end: null, value };
}
