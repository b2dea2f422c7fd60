// A reference is read by the shape of its identifier and, for a URL, by its host and path: each form gives the lookups (kind and normalized key) that name what it shows, most specific first, and nothing that is not an identifier gives any.
import { describe, expect, it } from 'vitest';
import { normalizeKey, parseRef } from '../../src/serve/resolve-ref.ts';

const CONDITION = '0x674073445ab7fe8eb5a97f3624bfedc62a0482fa1fbd6e4bdfcf26060c7a23d6';
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

/** The groups of a reference as `kind:key` strings, for compact expectations. */
function groups(ref: string): string[][] {
  return parseRef(ref).groups.map((g) => g.map((p) => `${p.kind}:${p.key}`));
}

describe('parseRef: bare identifiers', () => {
  it('reads pmref ids by their prefix, in any case, and nothing else for them', () => {
    expect(groups('SVC-MKT-0A1B2C3D4E')).toEqual([['market_id:SVC-MKT-0A1B2C3D4E']]);
    expect(groups(' svc-mkt-0a1b2c3d4e ')).toEqual([['market_id:SVC-MKT-0A1B2C3D4E']]);
    expect(groups('SVC-EVT-B47FYCB033')).toEqual([['event_id:SVC-EVT-B47FYCB033']]);
    expect(groups('svcx-013fd254dc')).toEqual([['question_id:SVCX-013FD254DC']]);
    expect(parseRef('SVC-MKT-0A1B2C3D4E').shape).toBe('identifier');
  });

  it('reads 0x hex as a condition id or Gamma question id, lower-cased', () => {
    const upper = `0x${CONDITION.slice(2).toUpperCase()}`;
    expect(groups(upper)).toEqual([[`condition_id:${CONDITION}`, `venue_question_id:${CONDITION}`]]);
    expect(groups(`0X${CONDITION.slice(2)}`)).toEqual(groups(CONDITION));
  });

  it('reads digits as a CLOB token id or a numeric Gamma id, without leading zeros', () => {
    expect(groups(TOKEN)).toEqual([[`token_id:${TOKEN}`, `venue_market_id:${TOKEN}`, `venue_event_id:${TOKEN}`]]);
    expect(groups('0026004')).toEqual([['token_id:26004', 'venue_market_id:26004', 'venue_event_id:26004']]);
  });

  it('reads a ticker-shaped word as tickers (upper case), then slugs (lower case), then a series', () => {
    expect(groups('kxfed-26apr-t4.25')).toEqual([
      ['ticker:KXFED-26APR-T4.25', 'event_ticker:KXFED-26APR-T4.25'],
      ['market_slug:kxfed-26apr-t4.25', 'event_slug:kxfed-26apr-t4.25'],
      ['series_ticker:KXFED-26APR-T4.25'],
    ]);
    expect(groups('Will-Trump-Win')[1]).toEqual(['market_slug:will-trump-win', 'event_slug:will-trump-win']);
  });

  it('reads a slug with characters no ticker has as a slug only', () => {
    expect(groups('fed-cut-50bps~dec')).toEqual([['market_slug:fed-cut-50bps~dec', 'event_slug:fed-cut-50bps~dec']]);
  });

  it('gives no lookup for words, empty or over-long text', () => {
    expect(groups('will the fed cut')).toEqual([]);
    expect(groups('   ')).toEqual([]);
    expect(groups(`K${'X'.repeat(3000)}`)).toEqual([]);
  });

  it('reads a reference pasted percent-encoded as decoded', () => {
    expect(groups('https%3A%2F%2Fpolymarket.com%2Fevent%2Ffed-decision')).toEqual([['event_slug:fed-decision']]);
  });
});

describe('parseRef: venue_b URLs', () => {
  it('reads an event page as its event slug, and an event page with a market as the market slug first', () => {
    expect(parseRef('https://polymarket.com/event/fed-decision').shape).toBe('venue_b_url');
    expect(groups('https://polymarket.com/event/fed-decision')).toEqual([['event_slug:fed-decision']]);
    expect(groups('https://polymarket.com/event/fed-decision/fed-cuts-50')).toEqual([
      ['market_slug:fed-cuts-50'],
      ['event_slug:fed-decision'],
    ]);
  });

  it('ignores www, the scheme, a locale segment, a trailing slash, the query, the fragment and case', () => {
    const want = [['market_slug:fed-cuts-50'], ['event_slug:fed-decision']];
    for (const url of [
      'http://www.polymarket.com/event/fed-decision/fed-cuts-50/',
      'polymarket.com/event/fed-decision/fed-cuts-50?tid=1764045739181',
      'https://polymarket.com/es/event/Fed-Decision/fed-cuts-50#comments',
      'HTTPS://POLYMARKET.COM/event/fed-decision/fed-cuts-50',
    ]) {
      expect(groups(url), url).toEqual(want);
    }
  });

  it('reads a /market/ page as a market slug', () => {
    expect(groups('https://polymarket.com/market/fed-cuts-50')).toEqual([['market_slug:fed-cuts-50']]);
  });

  it('reads an API URL by its last segments and its query values, with venue_b kinds only', () => {
    expect(groups(`https://clob.polymarket.com/markets/${CONDITION}`)).toEqual([
      [`condition_id:${CONDITION}`, `venue_question_id:${CONDITION}`],
      ['market_slug:markets', 'event_slug:markets'],
    ]);
    expect(groups(`https://clob.polymarket.com/book?token_id=${TOKEN}`)).toContainEqual([
      `token_id:${TOKEN}`,
      `venue_market_id:${TOKEN}`,
      `venue_event_id:${TOKEN}`,
    ]);
    expect(groups('https://gamma-api.polymarket.com/markets?slug=fed-cuts-50')).toContainEqual([
      'market_slug:fed-cuts-50',
      'event_slug:fed-cuts-50',
    ]);
  });
});

describe('parseRef: venue_a URLs', () => {
  it('reads an event page by its last segment: event ticker, then market ticker, then series', () => {
    const url = 'https://kalshi.com/markets/kxfed/fed-meeting/kxfed-26apr';
    expect(parseRef(url).shape).toBe('venue_a_url');
    expect(groups(url).slice(0, 3)).toEqual([
      ['event_ticker:KXFED-26APR'],
      ['ticker:KXFED-26APR'],
      ['series_ticker:KXFED-26APR'],
    ]);
    // Then the segment before it (the page's title words), the same way.
    expect(groups(url)[3]).toEqual(['event_ticker:FED-MEETING']);
  });

  it('reads a series page as a series ticker, whatever the host spelling', () => {
    for (const url of [
      'https://kalshi.com/markets/kxfed',
      'www.kalshi.com/markets/KXFED/',
      'kalshi.com/markets/kxfed?x=1',
    ]) {
      expect(groups(url), url).toContainEqual(['series_ticker:KXFED']);
    }
  });

  it('never tries a venue_b kind on a venue_a URL', () => {
    const kinds = parseRef('https://api.elections.kalshi.com/trade-api/v2/markets/KXFED-26APR-T4.25').groups.flatMap(
      (g) => g.map((p) => p.kind),
    );
    expect(new Set(kinds)).toEqual(new Set(['ticker', 'event_ticker', 'series_ticker']));
  });

  it('reads tickers in an API query (`?tickers=a,b`)', () => {
    const all = groups('https://api.elections.kalshi.com/trade-api/v2/markets?tickers=KXA-1,kxb-2').flat();
    expect(all).toContain('ticker:KXA-1');
    expect(all).toContain('ticker:KXB-2');
  });
});

describe('parseRef: other URLs and paths', () => {
  it('reads a pmref URL or path by its last segments, as the record type before them says', () => {
    expect(parseRef('https://pmref.example/v1/markets/SVC-MKT-0A1B2C3D4E').shape).toBe('url');
    expect(groups('https://pmref.example/v1/markets/SVC-MKT-0A1B2C3D4E')[0]).toEqual(['market_id:SVC-MKT-0A1B2C3D4E']);
    // `/events/<slug>` (the event page) names an event: its slug is not tried as a market slug.
    expect(groups('/events/fed-decision-kxfed-26apr').slice(0, 2)).toEqual([
      ['event_ticker:FED-DECISION-KXFED-26APR'],
      ['event_slug:fed-decision-kxfed-26apr'],
    ]);
    expect(groups('/v1/questions/svcx-013fd254dc')[0]).toEqual(['question_id:SVCX-013FD254DC']);
  });

  it('reads a path without a record type with every kind', () => {
    expect(groups('https://example.org/share/fed-decision')[1]).toEqual([
      'market_slug:fed-decision',
      'event_slug:fed-decision',
    ]);
  });

  it('reads venue API paths by the record type before the identifier', () => {
    expect(groups('https://gamma-api.polymarket.com/events/slug/fed-decision')[0]).toEqual(['event_slug:fed-decision']);
    expect(groups('https://gamma-api.polymarket.com/markets/700101')[0]).toEqual([
      'token_id:700101',
      'venue_market_id:700101',
    ]);
    expect(groups('https://api.elections.kalshi.com/trade-api/v2/events/KXFED-26APR')[0]).toEqual([
      'event_ticker:KXFED-26APR',
    ]);
    expect(groups('https://api.elections.kalshi.com/trade-api/v2/series/KXFED')[0]).toEqual(['series_ticker:KXFED']);
  });

  it('takes a dotted word without a path for an identifier, not a host', () => {
    expect(parseRef('KXBTC-25DEC31-T100000.99').shape).toBe('identifier');
    expect(parseRef('will-btc-hit-1.5m').shape).toBe('identifier');
  });
});

describe('normalizeKey', () => {
  it('puts every kind in the one form the index keeps', () => {
    expect(normalizeKey('ticker', 'kxfed-26apr')).toBe('KXFED-26APR');
    expect(normalizeKey('condition_id', '0xABC')).toBe('0xabc');
    expect(normalizeKey('event_slug', 'Fed-Decision')).toBe('fed-decision');
    expect(normalizeKey('token_id', '000')).toBe('0');
    expect(normalizeKey('venue_event_id', '007')).toBe('7');
  });
});
