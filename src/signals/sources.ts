/**
 * Source links for bulletins: where a reader can check the numbers. Venue market pages when the
 * venue ids make one; the pmref market record otherwise.
 */
import type { Market } from '../domain/index.ts';

export interface BulletinSource {
  label: string;
  url: string;
}

const VENUE_LABEL = { venue_a: 'venue_a market page', venue_b: 'venue_b market page' } as const;

/**
 * The public page of a market on its venue. venue_a pages are addressed by event ticker; venue_b pages
 * by event slug (a numeric venue_b event id makes no page, so the pmref record stands in).
 */
export function marketSource(market: Market): BulletinSource {
  const eventRef = market.platform_event_id;
  if (market.platform === 'venue_a') {
    const ticker = (eventRef ?? market.platform_market_id).toLowerCase();
    return {
      label: `${VENUE_LABEL.venue_a} (${ticker})`,
      url: `https://kalshi.com/markets/${encodeURIComponent(ticker)}`,
    };
  }
  if (eventRef && /[a-z]/i.test(eventRef) && /^[a-z0-9-]+$/i.test(eventRef)) {
    return {
      label: `${VENUE_LABEL.venue_b} (${eventRef})`,
      url: `https://polymarket.com/event/${encodeURIComponent(eventRef)}`,
    };
  }
  return { label: `pmref market record ${market.market_id}`, url: `/v1/markets/${market.market_id}` };
}

/** Distinct sources in first-seen order. */
export function uniqueSources(sources: readonly BulletinSource[]): BulletinSource[] {
  const seen = new Set<string>();
  const out: BulletinSource[] = [];
  for (const s of sources) {
    if (seen.has(s.url)) continue;
    seen.add(s.url);
    out.push(s);
  }
  return out;
}
