// detectSignals over one universe yields all four kinds, each a valid bulletin with a slug that a same-day re-run reproduces; the RSS feed parses with one complete item per bulletin.
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { type Event, type Mark, type Market, questionIdFor, SignalBulletinSchema } from '../../src/domain/index.ts';
import { coinsReferenced, detectSignals, signalsRss } from '../../src/signals/index.ts';
import { emptyInput, eventWithMarket, makeMark, NOW, spotRow, TODAY } from './builders.ts';

const DAYS = ['2026-06-05', '2026-06-06', '2026-06-07', '2026-06-08', '2026-06-09'];

function universe() {
  const input = emptyInput();
  const add = (event: Event, market: Market, marks: Mark[]) => {
    if (!input.events.some((e) => e.event_id === event.event_id)) input.events.push(event);
    input.markets.push(market);
    input.marks.push(...marks);
  };
  // Twins 12 points apart.
  const qid = questionIdFor('cpi|2026-05|above|3.0');
  const a = eventWithMarket(
    'KXCPI-26MAY',
    { category: 'economics', question: 'CPI above 3.0% in May?' },
    { question_id: qid },
  );
  const b = eventWithMarket(
    'cpi-may-2026',
    { category: 'economics', question: 'CPI above 3.0% in May?' },
    { platform: 'venue_b', question_id: qid },
  );
  add(a.event, a.market, [makeMark(a.market, TODAY, 0.62, 100)]);
  add(b.event, b.market, [makeMark(b.market, TODAY, 0.5, 100)]);
  // A BTC strike the market prices far from spot.
  const c = eventWithMarket(
    'KXBTCD-26JUN30',
    { category: 'crypto', question: 'Bitcoin on June 30?' },
    {
      question_raw: 'Will Bitcoin be above $150,000 on June 30?',
      threshold: 150_000,
      direction: 'above',
      settlement_style: 'terminal',
      close_at: '2026-06-30T21:00:00.000Z',
    },
  );
  add(c.event, c.market, [makeMark(c.market, TODAY, 0.55, 100)]);
  input.spot.push(spotRow('bitcoin', 100_000), spotRow('ethereum', 2500));
  // Three election markets across three events repricing 15 points.
  for (const i of [1, 2, 3]) {
    const e = eventWithMarket(`KXSEN-${i}`, {
      category: 'politics',
      tags: ['senate-2026'],
      question: `Senate race ${i}?`,
    });
    add(e.event, e.market, [makeMark(e.market, '2026-06-09', 0.3, 100), makeMark(e.market, TODAY, 0.45, 100)]);
  }
  // A market trading 5× its trailing volume.
  const v = eventWithMarket('KXNFL-26', { category: 'companies', question: 'Stadium deal signed?' });
  add(v.event, v.market, [
    ...DAYS.map((d) => makeMark(v.market, d, 0.5, 2000)),
    makeMark(v.market, TODAY, 0.5, 10_000),
  ]);
  return input;
}

describe('detectSignals', () => {
  it('produces all four kinds, valid and de-duplicable', () => {
    const input = universe();
    const out = detectSignals(input);
    expect(out.map((b) => b.detection_path).sort()).toEqual([
      'benchmark_drift',
      'cross_venue_divergence',
      'news_cycle',
      'volume_spike',
    ]);
    for (const b of out) {
      expect(SignalBulletinSchema.safeParse(b).success).toBe(true);
      expect(b.published_at).toBe(NOW);
      expect(b.bullets.length).toBeGreaterThanOrEqual(3);
      expect(b.bullets.length).toBeLessThanOrEqual(5);
      expect(b.sources.length).toBeGreaterThanOrEqual(1);
      expect(b.numbers.length).toBeGreaterThan(0);
      expect(b.record_slug.endsWith(TODAY)).toBe(true);
    }
    // Same input, same bulletins (deterministic templates); a later run the same day reproduces the slugs.
    expect(detectSignals(input)).toEqual(out);
    const again = detectSignals({ ...input, now: '2026-06-10T18:00:00.000Z' });
    expect(again.map((b) => b.record_slug)).toEqual(out.map((b) => b.record_slug));
    // The next day is a new slug.
    const next = detectSignals({ ...input, now: '2026-06-11T12:00:00.000Z' });
    expect(next.every((b) => b.record_slug.endsWith('2026-06-11'))).toBe(true);
  });

  it('finds nothing in an empty store', () => {
    expect(detectSignals(emptyInput())).toEqual([]);
  });

  it('asks spot for the coins the markets reference', () => {
    expect(coinsReferenced(universe().markets)).toEqual(['bitcoin']);
  });
});

describe('signalsRss', () => {
  it('parses as RSS 2.0 with one complete item per bulletin', async () => {
    const bulletins = detectSignals(universe());
    const xml = signalsRss(bulletins, 'https://pmref.example/');
    expect(xml).toContain('<rss version="2.0"');
    const feed = await new Parser({
      customFields: { item: [['category', 'categories', { keepArray: true }]] },
    }).parseString(xml);
    expect(feed.items).toHaveLength(bulletins.length);
    feed.items.forEach((item, i) => {
      const b = bulletins[i];
      expect(item.title).toBe(b?.headline);
      expect(item.link).toBe(`https://pmref.example/v1/signals/${b?.record_slug}`);
      expect(item.guid).toBe(b?.record_id);
      expect(item.contentSnippet ?? item.content).toContain(b?.bullets[0]?.slice(0, 20));
      expect(new Date(item.pubDate ?? '').toISOString()).toBe(new Date(b?.published_at ?? '').toISOString());
      expect(item.categories).toEqual([b?.category_tag, b?.detection_path]);
    });
    expect(signalsRss(bulletins, 'https://pmref.example')).toBe(xml); // deterministic; trailing slash ignored
  });

  it('renders an empty wire', async () => {
    const feed = await new Parser().parseString(signalsRss([], 'http://localhost:8080'));
    expect(feed.items).toEqual([]);
    expect(feed.title).toBe('pmref signal wire');
  });
});
