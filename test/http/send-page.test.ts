// Invariant: `/` serves the HTML explorer only to clients that rank text/html above JSON (browsers), never to
// curl, fetch or JSON clients; page parameters are echoed as their first non-empty value, trimmed and bounded.
import { describe, expect, it } from 'vitest';
import { pageParams, prefersHtml } from '../../src/http/send-page.ts';

describe('prefersHtml', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', true], // Chromium
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true], // Firefox
    ['text/html', true],
    ['text/html;q=0.9, application/json;q=0.5', true],
    ['text/*', true],
    ['*/*', false], // curl, fetch
    ['application/json', false],
    ['application/json, text/html', false], // a tie keeps today's JSON
    ['text/html;q=0.5, application/json', false],
    ['text/html;q=0, */*', false],
    ['', false],
    [undefined, false],
    ['garbage', false],
  ])('%s → %s', (accept, html) => {
    expect(prefersHtml(accept)).toBe(html);
  });
});

describe('pageParams', () => {
  it('keeps the listed keys, the first value of a repeated one, trimmed; drops empty values and others', () => {
    const long = 'x'.repeat(500);
    expect(
      pageParams({ q: ['  fed  ', 'btc'], grade: '', sort: long, other: 'y', category: 3 }, [
        'q',
        'grade',
        'sort',
        'category',
      ]),
    ).toEqual({
      q: 'fed',
      sort: 'x'.repeat(200),
    });
    expect(pageParams(undefined, ['q'])).toEqual({});
  });
});
