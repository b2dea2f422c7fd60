// Splitting a top-level JSON object into member texts gives exactly the members JSON.parse sees, and refuses anything that is not one whole object.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitTopLevelObject } from '../../src/venues/replay/json-split.ts';

describe('splitTopLevelObject', () => {
  it('agrees with JSON.parse on any object, compact or indented', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.constantFrom(0, 2), (obj, indent) => {
        const text = JSON.stringify(obj, null, indent);
        const parts = splitTopLevelObject(text);
        expect(parts).not.toBeNull();
        const parsed = JSON.parse(text) as Record<string, unknown>;
        expect([...(parts ?? new Map<string, string>()).keys()]).toEqual(Object.keys(parsed));
        for (const [k, v] of parts ?? []) expect(JSON.parse(v)).toEqual(parsed[k]);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps strings with brackets, quotes and escapes intact', () => {
    const text = '{ "a\\"b": ["x]}\\\\", {"y": "[{"}], "c": 1.5e3 }';
    expect(splitTopLevelObject(text)).toEqual(
      new Map([
        ['a"b', '["x]}\\\\", {"y": "[{"}]'],
        ['c', '1.5e3'],
      ]),
    );
  });

  it('returns null for truncated text, trailing garbage and non-objects', () => {
    expect(splitTopLevelObject('{"a": [1, 2')).toBeNull();
    expect(splitTopLevelObject('{"a": [1]} x')).toBeNull();
    expect(splitTopLevelObject('[1, 2]')).toBeNull();
    expect(splitTopLevelObject('{"a" [1]}')).toBeNull();
    expect(splitTopLevelObject('{}')).toEqual(new Map());
  });
});
