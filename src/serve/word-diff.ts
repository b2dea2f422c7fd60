/**
 * A word-level diff of two texts (issue 17: the two legs' rule texts side by side), our own small one: the
 * longest common subsequence of the two word lists, after trimming the words both texts start and end with.
 * Whitespace is normalized (a word is a maximal run of non-space characters; segments join words with one
 * space), so re-wrapped paragraphs do not show as changes.
 *
 * Bounded: the alignment table is (n + 1) × (m + 1) cells of the trimmed middles. Over `MAX_CELLS` the
 * middle is not aligned: it is shown as removed from one and added to the other, and `exact` is false. Rule
 * texts run to a few hundred words, so nearly every pair is aligned exactly.
 */
import type { DiffSegment, RulesDiff } from '../domain/index.ts';

/** Largest alignment table (cells) computed: 4M cells of 16-bit lengths is 8 MB, a few ms. */
export const MAX_CELLS = 4_000_000;

/** The words of `text`: maximal runs of non-whitespace. */
export function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** Appends words to the segment list, merging with the last segment when the op is the same. */
function push(out: DiffSegment[], op: DiffSegment['op'], list: readonly string[]): void {
  if (list.length === 0) return;
  const text = list.join(' ');
  const last = out.at(-1);
  if (last && last.op === op) last.text = `${last.text} ${text}`;
  else out.push({ op, text });
}

/**
 * LCS alignment of `a` and `b` (both short enough for `MAX_CELLS`): the segments in reading order, a change
 * shown as its `a` words before its `b` words. Lengths fit in 16 bits because each side is at most 65,535
 * words (the cell bound guarantees a side of at most MAX_CELLS words with the other side non-empty).
 */
function align(a: readonly string[], b: readonly string[], out: DiffSegment[]): number {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  // suffix[i][j] = LCS length of a[i..] and b[j..]; walking forwards from (0, 0) then reads in text order.
  const table =
    n + 1 <= 0xffff && m + 1 <= 0xffff ? new Uint16Array((n + 1) * width) : new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  let i = 0;
  let j = 0;
  let same = 0;
  let onlyA: string[] = [];
  let onlyB: string[] = [];
  let run: string[] = [];
  const flushChange = () => {
    push(out, 'a', onlyA);
    push(out, 'b', onlyB);
    onlyA = [];
    onlyB = [];
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      flushChange();
      run.push(a[i] as string);
      same++;
      i++;
      j++;
      continue;
    }
    push(out, 'same', run);
    run = [];
    if (j >= m || (i < n && (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))) {
      onlyA.push(a[i] as string);
      i++;
    } else {
      onlyB.push(b[j] as string);
      j++;
    }
  }
  flushChange();
  push(out, 'same', run);
  return same;
}

/**
 * The word diff of `a` (venue_a's text) and `b` (venue_b's).
 * @example diffWords('close above 100', 'close below 100').segments
 *   // [{op:'same',text:'close'},{op:'a',text:'above'},{op:'b',text:'below'},{op:'same',text:'100'}]
 */
export function diffWords(a: string, b: string, maxCells = MAX_CELLS): RulesDiff {
  const wa = words(a);
  const wb = words(b);
  let start = 0;
  while (start < wa.length && start < wb.length && wa[start] === wb[start]) start++;
  let end = 0;
  while (end < wa.length - start && end < wb.length - start && wa[wa.length - 1 - end] === wb[wb.length - 1 - end]) {
    end++;
  }
  const midA = wa.slice(start, wa.length - end);
  const midB = wb.slice(start, wb.length - end);
  const segments: DiffSegment[] = [];
  push(segments, 'same', wa.slice(0, start));
  let same = start + end;
  const exact = (midA.length + 1) * (midB.length + 1) <= maxCells;
  if (exact) same += align(midA, midB, segments);
  else {
    push(segments, 'a', midA);
    push(segments, 'b', midB);
  }
  push(segments, 'same', wa.slice(wa.length - end));
  return { segments, words_a: wa.length, words_b: wb.length, same_words: same, exact };
}
