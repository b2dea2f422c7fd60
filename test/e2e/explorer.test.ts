// Invariant: a person can use the explorer in a real browser (Debian's Chromium driven by playwright-core) with no
// script and no request leaving this machine: open the home page, type a query and see graded results, open an
// event page from a result, open /questions and a compare page with both legs and the rule-text diff; screenshots
// of the home page, a search, /questions and a compare page are saved under test-output/ (home.png, search.png,
// questions.png, compare.png on the seeded store; real-*.png on the recorded venue data when present).
import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { runOn, tempStore } from '../pipeline/harness.ts';
import { btcMarketA, btcMarketB, seedStore } from '../serve/seed.ts';
import { type Started, startServer } from './rest-helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(`explorer browser tests skipped: ${CHROMIUM} is missing (.ci/run installs Debian's chromium package)`);

let server: Started;
let browser: Browser;
let tab: Page;
const external: string[] = [];
const consoleErrors: string[] = [];

// The seeded twins carry no rules text; these give the compare page a word diff to show (a later published run).
const RULES_A =
  'If the CF Benchmarks Bitcoin Real-Time Index (BRTI) is above 150,000.00 at 11:59 PM ET on December 31, 2026, then the market resolves to Yes. The outcome is verified from CF Benchmarks.';
const RULES_B =
  'This market will resolve to "Yes" if the Binance BTC/USDT price reaches 150,000.00 at any time before 11:59 PM ET on December 31, 2026. Otherwise, this market will resolve to "No". The resolution source is Binance, such as the BTC/USDT 1-minute candles.';

async function seededWithRules(): Promise<Store> {
  const store = await seedStore();
  const run = await store.startRun('simulated', '2026-11-21T12:10:00.000Z');
  await store.transaction(async (tx) => {
    await tx.upsertMarkets([
      { ...btcMarketA, resolution_rules_raw: RULES_A },
      { ...btcMarketB, resolution_rules_raw: RULES_B },
    ]);
  });
  await store.finishRun(run, 'ok', {}, '2026-11-21T12:15:00.000Z', true);
  return store;
}

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A tab that records every request leaving this machine and every console error (a CSP violation is one). */
async function watchedTab(b: Browser): Promise<Page> {
  const t = await b.newPage({ viewport: { width: 1280, height: 900 } });
  t.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:') external.push(r.url());
  });
  t.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  return t;
}

describe.skipIf(!haveChromium)('the explorer in Chromium', () => {
  beforeAll(async () => {
    mkdirSync('test-output', { recursive: true });
    server = await startServer({ store: await seededWithRules() });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
    tab = await watchedTab(browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the home page shows the search box, the filters and graded results', async () => {
    const res = await tab.goto(`${server.base}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
    await expect(tab.locator('h1').textContent()).resolves.toBe('Find prediction markets');
    expect(await tab.locator('input[type="search"][name="q"]').count()).toBe(1);
    expect(await tab.locator('form.filters select').count()).toBeGreaterThanOrEqual(5);
    expect(await tab.locator('table.results tbody tr').count()).toBeGreaterThan(0);
    await tab.screenshot({ path: 'test-output/home.png', fullPage: true });
  });

  it('typing a query and pressing Enter shows matching markets with grade badges', async () => {
    await tab.fill('input[name="q"]', 'bitcoin');
    await Promise.all([tab.waitForURL(/\?q=bitcoin/), tab.press('input[name="q"]', 'Enter')]);
    const rows = tab.locator('table.results tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    const text = (await tab.locator('table.results').textContent()) ?? '';
    expect(text).toMatch(/Bitcoin/);
    expect(await tab.locator('table.results .badge').count()).toBe(await rows.count());
    await expect(tab.locator('input[name="q"]').inputValue()).resolves.toBe('bitcoin');
    await tab.screenshot({ path: 'test-output/search.png', fullPage: true });
  });

  it('a filter narrows the search through the same GET form', async () => {
    await tab.selectOption('select[name="platform"]', 'venue_b');
    await Promise.all([tab.waitForURL(/platform=venue_b/), tab.click('form.filters button[type="submit"]')]);
    const venues = await tab.locator('table.results tbody tr td:nth-child(3)').allTextContents();
    expect(venues.length).toBeGreaterThan(0);
    expect(new Set(venues)).toEqual(new Set(['venue_b']));
  });

  it('a result opens its event page, which links the twin and the compare page', async () => {
    await tab.goto(`${server.base}/?q=bitcoin&platform=venue_a`, { waitUntil: 'load' });
    await Promise.all([tab.waitForURL(/\/events\//), tab.locator('table.results tbody tr a').first().click()]);
    await expect(tab.locator('h1').textContent()).resolves.toMatch(/Bitcoin/);
    expect(await tab.locator(`a[href*="#m-${btcMarketB.market_id}"]`).count()).toBe(1);
    expect(await tab.locator('a', { hasText: 'compare side by side' }).count()).toBeGreaterThan(0);
  });

  it('/questions lists the pair and opens its compare page: both legs, the rule diff', async () => {
    await tab.goto(`${server.base}/questions`, { waitUntil: 'load' });
    await expect(tab.locator('h1').textContent()).resolves.toBe('Questions on both venues');
    await tab.screenshot({ path: 'test-output/questions.png', fullPage: true });
    await Promise.all([tab.waitForURL(/\/questions\/SVC/), tab.locator('table tbody tr a').first().click()]);
    expect(await tab.locator('.legs .leg').count()).toBe(2);
    expect(await tab.locator(`a[href*="#m-${btcMarketA.market_id}"]`).count()).toBe(1);
    expect(await tab.locator('h2', { hasText: 'Rules, word by word' }).count()).toBe(1);
    expect(await tab.locator('#rules-diff del').count()).toBeGreaterThan(0);
    expect(await tab.locator('#rules-diff ins').count()).toBeGreaterThan(0);
    await tab.screenshot({ path: 'test-output/compare.png', fullPage: true });
  });

  it('nothing was requested outside this machine and nothing was blocked by the page policy', () => {
    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

const REAL = new URL('../../../shared/fixtures/venues/', import.meta.url).pathname;
const haveReal = existsSync(REAL);
if (haveChromium && !haveReal)
  console.warn(`explorer screenshots on real data skipped: ${REAL} is absent (it holds the recorded venue data)`);

describe.skipIf(!haveChromium || !haveReal)('the explorer in Chromium on the recorded venue data', () => {
  let real: Started;
  let realBrowser: Browser;
  let realTab: Page;
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    mkdirSync('test-output', { recursive: true });
    ({ store, dispose } = await tempStore());
    await runOn(store, REAL, '2026-03-01T12:00:00.000Z', { timeoutMs: 30_000 });
    real = await startServer({ store });
    realBrowser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
    realTab = await watchedTab(realBrowser);
  }, 180_000);
  afterAll(async () => {
    await realBrowser?.close();
    await real?.app.close();
    await dispose?.();
  });

  it('home, a search and a compare page render real markets', async () => {
    await realTab.goto(`${real.base}/`, { waitUntil: 'load' });
    expect(await realTab.locator('table.results tbody tr').count()).toBeGreaterThan(0);
    await realTab.screenshot({ path: 'test-output/real-home.png', fullPage: false });
    await realTab.fill('input[name="q"]', 'iran');
    await Promise.all([realTab.waitForURL(/\?q=iran/), realTab.press('input[name="q"]', 'Enter')]);
    expect(await realTab.locator('table.results tbody tr').count()).toBeGreaterThan(0);
    await realTab.screenshot({ path: 'test-output/real-search.png', fullPage: false });
    await realTab.goto(`${real.base}/questions`, { waitUntil: 'load' });
    await realTab.screenshot({ path: 'test-output/real-questions.png', fullPage: false });
    const pairs = realTab.locator('table tbody tr a');
    expect(await pairs.count()).toBeGreaterThan(0);
    await Promise.all([realTab.waitForURL(/\/questions\/SVC/), pairs.first().click()]);
    expect(await realTab.locator('.legs .leg').count()).toBe(2);
    await realTab.screenshot({ path: 'test-output/real-compare.png', fullPage: true });
    // Round trip: the venue_a leg's event page links back to this very compare page (related pairs included).
    const compareUrl = realTab.url();
    await Promise.all([
      realTab.waitForURL(/\/events\//),
      realTab.locator('#leg-venue_a ~ p a', { hasText: 'event page' }).click(),
    ]);
    const back = realTab.locator(`a[href="${new URL(compareUrl).pathname}"]`, { hasText: 'compare side by side' });
    expect(await back.count()).toBeGreaterThan(0);
    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
