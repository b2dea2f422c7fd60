// The word diff gives back each text exactly (same + a = venue_a's words, same + b = venue_b's), matches a longest common subsequence of words, merges neighbouring segments, and falls back to a marked inexact diff over its size bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffWords } from '../../src/serve/index.ts';

/** LCS length by plain recursion with memo: the reference the alignment must reach. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const memo = new Map<string, number>();
  const go = (i: number, j: number): number => {
    if (i === a.length || j === b.length) return 0;
    const key = `${i},${j}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const v = a[i] === b[j] ? 1 + go(i + 1, j + 1) : Math.max(go(i + 1, j), go(i, j + 1));
    memo.set(key, v);
    return v;
  };
  return go(0, 0);
}

const side = (segments: ReturnType<typeof diffWords>['segments'], drop: 'a' | 'b') =>
  segments
    .filter((s) => s.op !== drop)
    .map((s) => s.text)
    .join(' ');

describe('diffWords', () => {
  it('shows a replaced word as a then b between the shared words', () => {
    expect(diffWords('close above 100', 'close  below\n100')).toEqual({
      segments: [
        { op: 'same', text: 'close' },
        { op: 'a', text: 'above' },
        { op: 'b', text: 'below' },
        { op: 'same', text: '100' },
      ],
      words_a: 3,
      words_b: 3,
      same_words: 2,
      exact: true,
    });
  });

  it('handles identical, empty and disjoint texts', () => {
    expect(diffWords('a b c', ' a  b c ').segments).toEqual([{ op: 'same', text: 'a b c' }]);
    expect(diffWords('', '').segments).toEqual([]);
    expect(diffWords('', 'x y').segments).toEqual([{ op: 'b', text: 'x y' }]);
    expect(diffWords('p q', 'x y')).toMatchObject({
      segments: [
        { op: 'a', text: 'p q' },
        { op: 'b', text: 'x y' },
      ],
      same_words: 0,
    });
  });

  it('keeps the shared start and end, and marks the middle inexact, over the size bound', () => {
    const d = diffWords('start one two three end', 'start four five end', 4);
    expect(d).toEqual({
      segments: [
        { op: 'same', text: 'start' },
        { op: 'a', text: 'one two three' },
        { op: 'b', text: 'four five' },
        { op: 'same', text: 'end' },
      ],
      words_a: 5,
      words_b: 4,
      same_words: 2,
      exact: false,
    });
  });

  it('aligns two long rule texts within the bound', () => {
    const base = Array.from({ length: 1500 }, (_, i) => `w${i % 97}`);
    const other = base.map((w, i) => (i % 50 === 0 ? 'changed' : w));
    const d = diffWords(base.join(' '), other.join(' '));
    expect(d.exact).toBe(true);
    expect(d.same_words).toBe(1470);
    expect(side(d.segments, 'b')).toBe(base.join(' '));
  });

  it('reconstructs both texts, reaches the LCS, and never puts two segments of one op side by side', () => {
    const word = fc.constantFrom('the', 'market', 'resolves', 'yes', 'no', 'if', 'CPI', '3%', 'by');
    const text = fc.array(word, { maxLength: 14 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const d = diffWords(a.join(' '), b.join(' '));
        expect(side(d.segments, 'b')).toBe(a.join(' '));
        expect(side(d.segments, 'a')).toBe(b.join(' '));
        expect(d.same_words).toBe(lcs(a, b));
        expect(d.segments.filter((s) => s.op === 'same').reduce((n, s) => n + s.text.split(' ').length, 0)).toBe(
          d.same_words,
        );
        for (let i = 1; i < d.segments.length; i++) {
          expect(d.segments[i]?.op).not.toBe(d.segments[i - 1]?.op);
        }
      }),
      { numRuns: 300 },
    );
  });
});
