/**
 * Splits the text of a top-level JSON object into its members' raw value texts without parsing
 * them. The simulated universe's history maps (`{ticker: candles[]}`, `{token: points[]}`) run to
 * hundreds of MB; the replay server keeps each member as text and parses one on request, so a
 * server start does not parse and re-serialize the whole file.
 */

const WS = new Set([0x20, 0x0a, 0x0d, 0x09]);

function skipWs(text: string, i: number): number {
  let j = i;
  while (j < text.length && WS.has(text.charCodeAt(j))) j++;
  return j;
}

/** Index just past the string starting at `i` (a `"`), or -1. */
function endOfString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just past the value starting at `i`, or -1. */
function endOfValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return endOfString(text, i);
  if (c !== 0x5b && c !== 0x7b) {
    let j = i;
    while (j < text.length) {
      const d = text.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d || WS.has(d)) break;
      j++;
    }
    return j > i ? j : -1;
  }
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 0x22) {
      j = endOfString(text, j);
      if (j < 0) return -1;
      continue;
    }
    if (d === 0x5b || d === 0x7b) depth++;
    else if (d === 0x5d || d === 0x7d) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return -1;
}

/**
 * Where each member's raw value text sits in `text` (start and end indexes), or null when `text` is not a
 * top-level object (the caller then falls back to JSON.parse, which reports the error). Member values are
 * not validated here.
 * @example splitTopLevelSpans('{"a": [1, 2]}') // Map { 'a' => [6, 12] }
 */
export function splitTopLevelSpans(text: string): Map<string, [start: number, end: number]> | null {
  const out = new Map<string, [number, number]>();
  let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (text.charCodeAt(i) !== 0x7b) return null;
  i = skipWs(text, i + 1);
  if (text.charCodeAt(i) === 0x7d) return skipWs(text, i + 1) === text.length ? out : null;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22) return null;
    const keyEnd = endOfString(text, i);
    if (keyEnd < 0) return null;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return null;
    }
    i = skipWs(text, keyEnd);
    if (text.charCodeAt(i) !== 0x3a) return null;
    i = skipWs(text, i + 1);
    const end = endOfValue(text, i);
    if (end < 0) return null;
    out.set(String(key), [i, end]);
    i = skipWs(text, end);
    const sep = text.charCodeAt(i);
    if (sep === 0x2c) {
      i = skipWs(text, i + 1);
      continue;
    }
    if (sep === 0x7d) return skipWs(text, i + 1) === text.length ? out : null;
    return null;
  }
}

/**
 * Raw member texts of a top-level object, or null when `text` is not one.
 * @example splitTopLevelObject('{"a": [1, 2], "b": {}}') // Map { 'a' => '[1, 2]', 'b' => '{}' }
 */
export function splitTopLevelObject(text: string): Map<string, string> | null {
  const spans = splitTopLevelSpans(text);
  if (spans === null) return null;
  return new Map([...spans].map(([key, [start, end]]) => [key, text.slice(start, end)]));
}
