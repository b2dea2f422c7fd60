/**
 * The signal wire as RSS 2.0 (served-shapes §8; pmref serves it at /v1/signals.rss). One item per
 * bulletin with title, link, description, pubDate, guid and two categories (category tag and
 * detection path). Deterministic: lastBuildDate is the newest bulletin's time, never the clock.
 */
import { Feed } from 'feed';
import type { SignalBulletin } from '../domain/index.ts';

const EPOCH = new Date(0);

/**
 * Renders bulletins (in the order given; the store lists newest first) as an RSS 2.0 document.
 * `baseUrl` is the service origin; item links point at `/v1/signals/{slug}`.
 */
export function signalsRss(bulletins: readonly SignalBulletin[], baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const newest = bulletins.reduce<Date>((acc, b) => {
    const t = new Date(b.published_at);
    return t > acc ? t : acc;
  }, EPOCH);
  const feed = new Feed({
    title: 'pmref signal wire',
    description:
      'Detected, explained prediction-market moves: cross-venue divergence, benchmark drift, news cycles and volume spikes.',
    id: `${base}/v1/signals`,
    link: `${base}/v1/signals`,
    language: 'en',
    updated: newest,
    generator: 'pmref',
    copyright: 'Attribution required.',
    feedLinks: { rss: `${base}/v1/signals.rss` },
  });
  for (const b of bulletins) {
    const link = `${base}/v1/signals/${encodeURIComponent(b.record_slug)}`;
    feed.addItem({
      title: b.headline,
      id: b.record_id,
      guid: b.record_id,
      link,
      date: new Date(b.published_at),
      description: b.bullets.join(' '),
      category: [{ name: b.category_tag }, { name: b.detection_path }],
    });
  }
  return feed.rss2();
}
