/**
 * Exclusion clauses (rubric rcg-1.1.0): the parts of the rules that say what does NOT count. A factor
 * cue that appears only inside one must not fire the rule its positive form would: "Areas under
 * Russian control but not under Russian sovereignty (e.g., Crimea) do not count" is not a
 * territorial-control market, and "AI-generated audio or video will not count" names no record.
 *
 * Two shapes, each masked to the smallest span that carries the exclusion:
 * - a predicate exclusion ("… do not count", "… will not qualify", "… is not sufficient",
 *   "… will have no bearing on …") masks its subject clause: from the clause start (the sentence
 *   start, or the last ";", ":", " - " before it) to the end of the predicate;
 * - a prefix exclusion ("excluding …", "except …", "other than …", "does not include …",
 *   "not under …") masks from the marker to the end of its phrase (the next ",", ";", ".", ")").
 */
import type { Sentence, Span } from './text.ts';

const PREDICATE_RE =
  /\b(?:(?:do(?:es)?|will|shall|would|must|can|may)\s*(?:not|n['’]t)\s+(?:count|qualify|be (?:counted|considered|included|sufficient|used)|constitute|suffice|apply)|(?:is|are|will be) (?:not (?:sufficient|included|considered|encompassed|covered|eligible|counted)|insufficient|excluded|disregarded|ignored)|(?:has|have|will have) no (?:bearing|effect|impact))\b/gi;
const PREFIX_RE =
  /\b(?:excluding|excludes?|except(?: for)?|other than|not including|(?:does|do) not include|with the exception of|not under)\b/gi;
const CLAUSE_START = /[;:]\s|\s[-–—]\s/g;
const PHRASE_END = /[,;.)\n]/;

/** The excluded spans of a text, in offsets of that text, sorted and possibly overlapping. */
export function exclusionSpans(text: string, sentences: readonly Sentence[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const sentenceStart = (at: number) => {
    let s = 0;
    for (const x of sentences) if (x.start <= at) s = x.start;
    return s;
  };
  PREDICATE_RE.lastIndex = 0;
  for (let m = PREDICATE_RE.exec(text); m !== null; m = PREDICATE_RE.exec(text)) {
    let start = sentenceStart(m.index);
    CLAUSE_START.lastIndex = start;
    for (let c = CLAUSE_START.exec(text); c !== null && c.index < m.index; c = CLAUSE_START.exec(text))
      start = c.index + c[0].length;
    out.push([start, m.index + m[0].length]);
  }
  PREFIX_RE.lastIndex = 0;
  for (let m = PREFIX_RE.exec(text); m !== null; m = PREFIX_RE.exec(text)) {
    const after = m.index + m[0].length;
    const rest = PHRASE_END.exec(text.slice(after));
    out.push([m.index, rest ? after + rest.index : text.length]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** True when [start, end) lies inside one excluded span. */
export function isExcluded(spans: readonly (readonly [number, number])[], start: number, end: number): boolean {
  return spans.some(([a, b]) => start >= a && end <= b);
}

/**
 * First match of `re` inside [from, to) of text that is not inside an excluded span.
 * @example findOutside('X captures Y. Areas under Z control do not count.', TERRITORY_RE, spans)
 */
export function findOutside(
  text: string,
  re: RegExp,
  spans: readonly (readonly [number, number])[],
  from = 0,
  to = text.length,
): Span | null {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  const slice = text.slice(from, to);
  for (let m = g.exec(slice); m !== null; m = g.exec(slice)) {
    if (m[0] === '') {
      g.lastIndex++;
      continue;
    }
    const start = from + m.index;
    const end = start + m[0].length;
    if (!isExcluded(spans, start, end)) return { quote: m[0], start, end };
  }
  return null;
}
