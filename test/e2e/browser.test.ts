// Invariant: the human pages render in a real browser (Debian's Chromium driven by playwright-core): the
// screens index, a regime page, an event page and the API reference show their content, with no request
// leaving this machine; screenshots are saved under test-output/.
import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fed } from '../serve/seed.ts';
import { type Started, startServer } from './rest-helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(`browser tests skipped: ${CHROMIUM} is missing (.ci/run installs Debian's chromium package)`);

let server: Started;
let browser: Browser;
const external: string[] = [];

async function open(path: string, shot: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:') external.push(r.url());
  });
  const res = await page.goto(server.base + path, { waitUntil: 'load' });
  expect(res?.status(), path).toBe(200);
  await page.screenshot({ path: `test-output/${shot}.png`, fullPage: true });
  return page;
}

describe.skipIf(!haveChromium)('pages in Chromium', () => {
  beforeAll(async () => {
    mkdirSync('test-output', { recursive: true });
    server = await startServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('/screens/ lists both regimes with downloads', async () => {
    const page = await open('/screens/', 'screens-index');
    await expect(page.locator('h1').textContent()).resolves.toBe('Eligibility screens');
    const rows = page.locator('table tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await page.locator('a[href="/screens/ciro-26-0076.csv"]').count()).toBe(1);
    const ld = await page.locator('script[type="application/ld+json"]').textContent();
    expect(JSON.parse(ld ?? '{}')['@type']).toBe('DataCatalog');
    await page.close();
  });

  it('a regime page shows the funnel, buckets, review clusters and rule sections', async () => {
    const page = await open('/screens/cftc-40-11/', 'screens-cftc-40-11');
    for (const id of ['funnel', 'eligible', 'review', 'not-eligible', 'rules', 'methodology']) {
      expect(await page.locator(`#${id}`).count(), id).toBe(1);
    }
    expect(await page.locator('blockquote').first().textContent()).toMatch(/registered entity shall not list/);
    await page.close();
  });

  it('an event page shows grades, factors, sources, the chart and the log', async () => {
    const page = await open(`/events/${fed.slug}`, 'event-fed');
    await expect(page.locator('h1').textContent()).resolves.toBe(fed.question);
    expect(await page.locator('.badge').count()).toBeGreaterThan(0);
    expect(await page.locator('svg[role="img"] path').count()).toBeGreaterThan(0);
    expect(await page.locator('text=Factors that decided the grade').count()).toBeGreaterThan(0);
    expect(await page.locator('text=Federal Reserve').count()).toBeGreaterThan(0);
    expect(await page.locator('h2', { hasText: 'Lifecycle log' }).count()).toBe(1);
    await page.close();
  });

  it('/docs renders the API reference from the local OpenAPI document', async () => {
    const page = await open('/docs', 'docs');
    // Scalar renders the reference client-side from /openapi.json (served by this host).
    await page.getByText('Service Info', { exact: false }).first().waitFor({ timeout: 30_000 });
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toMatch(/prediction-market reference data/);
    expect(text).toMatch(/markets/);
    expect(text).toMatch(/signals/);
    await page.close();
  });

  it('no page requested anything outside this machine', () => {
    expect(external).toEqual([]);
  });
});
