// Invariant: `/` answers browsers with the explorer page and every other client with the same JSON as before,
// both with `Vary: Accept`; the explorer pages (/, /questions, /questions/{id}) and event-page twin links work
// over HTTP on the seeded store, with the page CSP, ETag/304 and escaped echoes; their errors (a malformed number, an
// unknown pair) are the service's one JSON error shape and quote nothing back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Started, startServer } from '../../e2e/rest-helpers.ts';
import { btcA, btcB, btcMarketA, btcMarketB } from '../../serve/seed.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const QID = 'SVCX-0123456789';

let server: Started;
const page = (path: string, headers: Record<string, string> = {}) =>
  call(server.base, path, { headers: { accept: BROWSER, ...headers } });

describe('explorer routes', () => {
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('`/` keeps serving JSON to curl and JSON clients, now varying on Accept', async () => {
    for (const accept of ['*/*', 'application/json']) {
      const res = await call(server.base, '/', { headers: { accept } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('vary')).toBe('Accept, Accept-Encoding, Authorization');
      expect(res.body).toEqual((await call(server.base, '/health')).body);
    }
  });

  it('`/` gives a browser the home page: search form, filters, results, page headers, metered, ETag/304', async () => {
    const res = await page('/');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept, Accept-Encoding, Authorization');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'unsafe-inline';/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    expect(res.text).toContain('<form class="filters" role="search" method="get" action="/">');
    for (const name of ['q', 'category', 'platform', 'grade', 'source_commitment_subtype', 'has_twin', 'sort']) {
      expect(res.text, name).toContain(`name="${name}"`);
    }
    expect(res.text).toContain('class="badge grade-');
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"p-/);
    const again = await page('/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('a search finds the twin markets, links their event pages and the compare page, and escapes the query', async () => {
    const res = await page('/?q=bitcoin');
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(`href="/events/${btcA.slug}#m-${btcMarketA.market_id}"`);
    expect(res.text).toContain(`href="/questions/${QID}"`);
    const xss = await page(`/?q=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(xss.status).toBe(200);
    expect(xss.text).not.toContain('<script>alert(1)');
    expect(xss.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    const none = await page('/?q=zzzz');
    expect(none.text).toContain('<strong>Nothing found.</strong> No markets match');
    expect(none.text).toContain('<li>check the spelling');
  });

  it('a malformed number in the home address is a 400 in the one error shape that quotes nothing back', async () => {
    const res = await page('/?q=zqzq&offset=qzqz&grade=A');
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      error: 'A number in the address is malformed',
      code: 'invalid_request',
      hint: expect.any(String),
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.text).not.toMatch(/zqzq|qzqz/);
  });

  it('/questions lists the linked pair with both prices and links its compare page', async () => {
    const res = await page('/questions');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(res.text).toContain(`href="/questions/${QID}"`);
    expect(res.text).toContain('Showing 1–1 of 1 cross-venue pairs');
    const bad = await page('/questions?min_divergence=zqzq&category=crypto');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'invalid_request',
      error: expect.stringMatching(/^min_divergence must be/),
    });
    expect(bad.text).not.toContain('zqzq');
  });

  it('the compare page shows both legs and links both event pages; an unknown id is a 404 that echoes nothing', async () => {
    const res = await page(`/questions/${QID}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(`href="/events/${btcA.slug}#m-${btcMarketA.market_id}"`);
    expect(res.text).toContain(`href="/events/${btcB.slug}#m-${btcMarketB.market_id}"`);
    expect(res.text).toContain('Rules, word by word');
    const missing = await page('/questions/SVCX-NOPE%3Cb%3E');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: 'question_not_found',
      hint: 'See /questions for every cross-venue question.',
    });
    expect(missing.text).not.toContain('NOPE');
  });

  it("an event page links its twin to the other venue's event page and to the compare page", async () => {
    const res = await page(`/events/${btcA.slug}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(`href="/events/${btcB.slug}#m-${btcMarketB.market_id}"`);
    expect(res.text).toContain(`href="/questions/${QID}">compare side by side</a>`);
  });
});
