/**
 * The replay server: serves recorded venue responses under each venue's own paths with each
 * venue's own paging (cursor for venue_a, offset/limit for venue_b Gamma), CLOB books and price
 * history, and CoinGecko-shaped spot prices, with faults on demand. Plain node:http.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRecord, numOrNull } from '../parse.ts';
import type { VenueLogger } from '../types.ts';
import { FaultInjector, type FaultSpec, parseFaultSpec, targetsOf, withUnknownFields } from './faults.ts';
import { loadReplayData, type ReplayData, type ReplayFileReport } from './load.ts';
import { memberText } from './member-text.ts';

type Rec = Record<string, unknown>;
interface Answer {
  status: number;
  body: unknown;
}

export interface ReplayServerOptions {
  dir: string | string[];
  port?: number;
  host?: string;
  faults?: FaultSpec | string;
  logger?: VenueLogger;
}

export interface ReplayStats {
  requests: number;
  byTarget: Record<string, number>;
  faultsInjected: number;
  files: ReplayFileReport[];
}

export interface ReplayServer {
  url: string;
  /** venue_a trade-api v2 root. */
  venueAUrl: string;
  /** venue_b Gamma root. */
  venueBUrl: string;
  /** venue_b CLOB root. */
  clobUrl: string;
  /** CoinGecko-style root (`/simple/price`). */
  spotUrl: string;
  /** What the server serves (after `releaseCatalog`, without the catalog). */
  readonly data: ReplayData;
  /**
   * Lets go of the recorded catalog (venue_a events, markets and series; venue_b events, markets and order
   * books) once a client has pulled it; price histories and spot prices are still served. A later request for
   * the catalog answers 410 and says why. The simulated ingest calls it after each run's pull: the catalog is a
   * tenth of the pipeline thread's live heap for the rest of the run on the full universe (issue 18).
   */
  releaseCatalog(): void;
  close(): Promise<void>;
  stats(): ReplayStats;
}

const A = '/venue_a/trade-api/v2';
const B = '/venue_b/gamma';
const C = '/venue_b/clob';
const S = '/spot';
/** What a server still answers after `releaseCatalog`. */
const SERVED_AFTER_RELEASE = new Set([`${A}/markets/candlesticks`, `${C}/prices-history`, `${S}/simple/price`]);

/** venue_a market status → the `status` filter bucket of `GET /markets` and `GET /events`. */
function statusBucket(status: unknown): 'unopened' | 'open' | 'closed' | 'settled' {
  switch (String(status ?? '').toLowerCase()) {
    case 'initialized':
    case 'unopened':
      return 'unopened';
    case 'closed':
    case 'inactive':
    case 'paused':
      return 'closed';
    case 'finalized':
    case 'settled':
    case 'determined':
    case 'disputed':
    case 'amended':
      return 'settled';
    default:
      return 'open';
  }
}

/** venue_a `min_close_ts`: at least one market closes at or after the time (events without markets never). */
function closesAtOrAfter(ev: Rec, ms: number): boolean {
  const markets = Array.isArray(ev.markets) ? ev.markets : [];
  return markets.some((m) => isRecord(m) && Date.parse(String(m.close_time ?? '')) >= ms);
}

/** An event's bucket: the most open of its markets (events without markets count as open). */
function eventBucket(ev: Rec): 'unopened' | 'open' | 'closed' | 'settled' {
  const buckets = (Array.isArray(ev.markets) ? ev.markets : []).map((m) => statusBucket(isRecord(m) ? m.status : null));
  if (buckets.length === 0 || buckets.includes('open')) return 'open';
  if (buckets.includes('unopened')) return 'unopened';
  if (buckets.includes('closed')) return 'closed';
  return 'settled';
}

const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
const decodeCursor = (c: string | null): number => {
  if (!c) return 0;
  const m = /^o:(\d+)$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : -1;
};
const intParam = (q: URLSearchParams, k: string, dflt: number, max: number) => {
  const n = numOrNull(q.get(k));
  return n === null || n < 0 ? dflt : Math.min(Math.floor(n), max);
};
const kalshiError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message } },
});

function cursorPage(items: Rec[], q: URLSearchParams, key: string, maxLimit: number): Answer {
  const limit = Math.max(1, intParam(q, 'limit', 100, maxLimit));
  const offset = decodeCursor(q.get('cursor'));
  if (offset < 0) return kalshiError(400, 'bad_request', 'invalid cursor');
  const page = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? encodeCursor(offset + limit) : '';
  return { status: 200, body: { [key]: page, cursor: next } };
}

function offsetPage(items: Rec[], q: URLSearchParams): Answer {
  const limit = intParam(q, 'limit', 100, 1000);
  const offset = intParam(q, 'offset', 0, Number.MAX_SAFE_INTEGER);
  return { status: 200, body: items.slice(offset, offset + limit) };
}

function boolFilter(q: URLSearchParams, k: string): boolean | null {
  const v = q.get(k);
  return v === 'true' ? true : v === 'false' ? false : null;
}

const parseList = (text: string | undefined): unknown[] => (text === undefined ? [] : (JSON.parse(text) as unknown[]));

/** Builds the route table over loaded data. */
function router(data: ReplayData): (path: string, q: URLSearchParams) => Answer {
  const aEvents = data.venueA.events;
  const aByTicker = new Map(aEvents.map((e) => [String(e.event_ticker), e]));
  const aMarkets = [...data.venueA.markets.values()];
  const bEvents = data.venueB.events;
  const bById = new Map(bEvents.map((e) => [String(e.id), e]));
  const bMarkets = data.venueB.markets;

  return (path, q) => {
    if (path === `${A}/events`) {
      const statuses = (q.get('status') ?? '').split(',').filter(Boolean);
      const nested = q.get('with_nested_markets') === 'true';
      const series = q.get('series_ticker');
      let list = aEvents.filter((e) => statuses.length === 0 || statuses.includes(eventBucket(e)));
      if (series) list = list.filter((e) => e.series_ticker === series);
      const minClose = numOrNull(q.get('min_close_ts'));
      if (minClose !== null) list = list.filter((e) => closesAtOrAfter(e, minClose * 1000));
      if (!nested) list = list.map(({ markets: _m, ...e }) => e);
      const ans = cursorPage(list, q, 'events', 200);
      if (isRecord(ans.body)) ans.body.milestones = [];
      return ans;
    }
    let m = new RegExp(`^${A}/events/([^/]+)$`).exec(path);
    if (m) {
      const ev = aByTicker.get(decodeURIComponent(m[1] ?? ''));
      if (!ev) return kalshiError(404, 'not_found', 'event not found');
      const { markets, ...rest } = ev;
      return { status: 200, body: { event: rest, markets: markets ?? [] } };
    }
    m = new RegExp(`^${A}/series/([^/]+)$`).exec(path);
    if (m) {
      const s = data.venueA.series.get(decodeURIComponent(m[1] ?? ''));
      return s ? { status: 200, body: { series: s } } : kalshiError(404, 'not_found', 'series not found');
    }
    if (path === `${A}/series`) return { status: 200, body: { series: [...data.venueA.series.values()] } };
    if (path === `${A}/markets/candlesticks`) {
      const tickers = (q.get('market_tickers') ?? '').split(',').filter(Boolean);
      if (tickers.length === 0) return kalshiError(400, 'bad_request', 'market_tickers is required');
      if (tickers.length > 100) return kalshiError(400, 'bad_request', 'at most 100 market_tickers');
      const start = numOrNull(q.get('start_ts')) ?? Number.NEGATIVE_INFINITY;
      const end = numOrNull(q.get('end_ts')) ?? Number.POSITIVE_INFINITY;
      const markets = tickers.map((t) => ({
        market_ticker: t,
        candlesticks: parseList(memberText(data.venueA.candles.get(t))).filter((c) => {
          const ts = isRecord(c) ? numOrNull(c.end_period_ts) : null;
          return ts !== null && ts >= start && ts <= end;
        }),
      }));
      return { status: 200, body: { markets } };
    }
    if (path === `${A}/markets`) {
      const statuses = (q.get('status') ?? '').split(',').filter(Boolean);
      const et = q.get('event_ticker');
      const tickers = (q.get('tickers') ?? '').split(',').filter(Boolean);
      const list = aMarkets.filter(
        (x) =>
          (statuses.length === 0 || statuses.includes(statusBucket(x.status))) &&
          (!et || x.event_ticker === et) &&
          (tickers.length === 0 || tickers.includes(String(x.ticker))),
      );
      return cursorPage(list, q, 'markets', 1000);
    }
    m = new RegExp(`^${A}/markets/([^/]+)$`).exec(path);
    if (m) {
      const mk = data.venueA.markets.get(decodeURIComponent(m[1] ?? ''));
      return mk ? { status: 200, body: { market: mk } } : kalshiError(404, 'not_found', 'market not found');
    }
    if (path === `${B}/events`) {
      const closed = boolFilter(q, 'closed');
      const ids = q.getAll('id');
      const slugs = q.getAll('slug');
      const endMin = q.get('end_date_min');
      const endMinMs = endMin === null ? null : Date.parse(endMin);
      const list = bEvents.filter(
        (e) =>
          (closed === null || (e.closed === true) === closed) &&
          (endMinMs === null || Number.isNaN(endMinMs) || Date.parse(String(e.endDate ?? '')) >= endMinMs) &&
          (ids.length === 0 || ids.includes(String(e.id))) &&
          (slugs.length === 0 || slugs.includes(String(e.slug))),
      );
      return offsetPage(list, q);
    }
    m = new RegExp(`^${B}/events/([^/]+)$`).exec(path);
    if (m) {
      const ev = bById.get(decodeURIComponent(m[1] ?? ''));
      return ev ? { status: 200, body: ev } : { status: 404, body: { type: 'not found error', error: 'id not found' } };
    }
    if (path === `${B}/markets`) {
      const closed = boolFilter(q, 'closed');
      const cids = q.getAll('condition_ids').flatMap((s) => s.split(','));
      const ids = q.getAll('id');
      const list = bMarkets.filter(
        (x) =>
          (closed === null || (x.closed === true) === closed) &&
          (cids.length === 0 || cids.includes(String(x.conditionId))) &&
          (ids.length === 0 || ids.includes(String(x.id))),
      );
      return offsetPage(list, q);
    }
    m = new RegExp(`^${B}/markets/([^/]+)$`).exec(path);
    if (m) {
      const id = decodeURIComponent(m[1] ?? '');
      const mk = bMarkets.find((x) => String(x.id) === id);
      return mk ? { status: 200, body: mk } : { status: 404, body: { type: 'not found error', error: 'id not found' } };
    }
    if (path === `${C}/book`) {
      const token = q.get('token_id');
      if (!token) return { status: 400, body: { error: 'token_id is required' } };
      const book = data.venueB.books.get(token);
      return book
        ? { status: 200, body: book }
        : { status: 404, body: { error: 'No orderbook exists for the requested token id' } };
    }
    if (path === `${C}/prices-history`) {
      const token = q.get('market');
      if (!token) return { status: 400, body: { error: 'market is required' } };
      const start = numOrNull(q.get('startTs')) ?? Number.NEGATIVE_INFINITY;
      const end = numOrNull(q.get('endTs')) ?? Number.POSITIVE_INFINITY;
      const inWindow = parseList(memberText(data.venueB.history.get(token))).filter((p) => {
        const t = isRecord(p) ? numOrNull(p.t) : null;
        return t !== null && t >= start && t <= end;
      });
      return { status: 200, body: { history: atFidelity(inWindow, numOrNull(q.get('fidelity'))) } };
    }
    if (path === `${S}/simple/price`) {
      const ids = (q.get('ids') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const withTs = q.get('include_last_updated_at') === 'true';
      const withChange = q.get('include_24hr_change') === 'true';
      const body: Rec = {};
      for (const id of ids) {
        const p = data.spot.get(id);
        if (!p) continue;
        const row: Rec = { usd: p.usd };
        if (withChange && p.usd_24h_change !== undefined) row.usd_24h_change = p.usd_24h_change;
        if (withTs && p.last_updated_at !== undefined) row.last_updated_at = p.last_updated_at;
        body[id] = row;
      }
      return { status: 200, body };
    }
    return { status: 404, body: { error: `no replay route for ${path}` } };
  };
}

/**
 * Loads the folder(s) and starts serving (port 0 picks a free port). Bad fault specs throw before
 * anything listens.
 */
export async function startReplayServer(opts: ReplayServerOptions): Promise<ReplayServer> {
  const faults = typeof opts.faults === 'string' ? parseFaultSpec(opts.faults) : (opts.faults ?? []);
  let data = loadReplayData(opts.dir);
  let route = router(data);
  let catalogReleased = false;
  const injector = new FaultInjector(faults);
  const byTarget: Record<string, number> = {};
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();
  const held = new Set<ServerResponse>();

  const send = (res: ServerResponse, ans: Answer) => {
    const text = JSON.stringify(ans.body);
    res.writeHead(ans.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://replay.local');
    const target = targetsOf(url.pathname)[0] ?? 'all';
    byTarget[target] = (byTarget[target] ?? 0) + 1;
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, { status: 405, body: { error: 'GET only' } });
    const fault = injector.pick(url.pathname);
    if (fault) opts.logger?.info({ path: url.pathname, fault: fault.mode }, 'replay: injecting fault');
    if (fault?.mode === '5xx') return send(res, { status: fault.status, body: { error: 'injected upstream fault' } });
    if (fault?.mode === '429') {
      res.setHeader('retry-after', String(fault.retryAfterS));
      return send(res, { status: 429, body: { error: 'Too Many Requests' } });
    }
    const ans: Answer =
      catalogReleased && !SERVED_AFTER_RELEASE.has(url.pathname)
        ? {
            status: 410,
            body: {
              error:
                'replay: the recorded catalog was released after the run pulled it (releaseCatalog); price histories and spot prices are still served',
            },
          }
        : route(url.pathname, url.searchParams);
    if (fault?.mode === 'unknown-fields') return send(res, { ...ans, body: withUnknownFields(ans.body) });
    if (fault?.mode === 'malformed') {
      const text = '{"injected": "malformed", oops: [1, 2,, }';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      return res.end(text);
    }
    if (fault?.mode === 'truncated') {
      const text = JSON.stringify(ans.body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))), () => req.socket.destroy());
      return;
    }
    if (fault?.mode === 'timeout' || fault?.mode === 'slow') {
      held.add(res);
      res.on('close', () => held.delete(res));
      if (fault.delayMs === null) return; // hold until the client gives up or the server closes
      const t = setTimeout(() => {
        timers.delete(t);
        if (!res.destroyed) send(res, ans);
      }, fault.delayMs);
      timers.add(t);
      return;
    }
    send(res, ans);
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      opts.logger?.warn({ err: (err as Error).message, url: req.url }, 'replay: handler error');
      if (!res.headersSent) send(res, { status: 500, body: { error: 'replay internal error' } });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;
  opts.logger?.info(
    {
      url,
      venue_a_events: data.venueA.events.length,
      venue_a_markets: data.venueA.markets.size,
      venue_b_events: data.venueB.events.length,
      venue_b_markets: data.venueB.markets.length,
      books: data.venueB.books.size,
      faults: faults.length,
    },
    'replay: serving',
  );
  return {
    url,
    venueAUrl: `${url}${A}`,
    venueBUrl: `${url}${B}`,
    clobUrl: `${url}${C}`,
    spotUrl: `${url}${S}`,
    get data() {
      return data;
    },
    releaseCatalog() {
      if (catalogReleased) return;
      catalogReleased = true;
      data = {
        ...data,
        venueA: { events: [], series: new Map(), markets: new Map(), candles: data.venueA.candles },
        venueB: { events: [], markets: [], books: new Map(), history: data.venueB.history },
        origin: new Map(),
      };
      route = router(data);
    },
    stats: () => ({ requests, byTarget: { ...byTarget }, faultsInjected: injector.injected, files: data.files }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const r of held) r.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * CLOB `fidelity` is the resolution in minutes: like the venue, answer one point per bucket (the last one),
 * so a daily-fidelity request does not carry every recorded hourly point.
 */
function atFidelity(points: unknown[], fidelityMinutes: number | null): unknown[] {
  if (fidelityMinutes === null || fidelityMinutes <= 1) return points;
  const bucketSeconds = fidelityMinutes * 60;
  const last = new Map<number, unknown>();
  for (const p of points) {
    const t = isRecord(p) ? numOrNull(p.t) : null;
    if (t !== null) last.set(Math.floor(t / bucketSeconds), p);
  }
  return [...last.values()];
}
