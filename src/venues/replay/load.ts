/**
 * Loads every JSON file under the replay folder(s) and sorts what it finds by shape: venue_a events,
 * markets and series; Gamma events and markets; CLOB books; CoinGecko prices; candle and price
 * histories. Records seen in several files are de-duplicated (newest `updated_time` / `updatedAt`
 * / file date wins); markets that arrive without a parent get one synthesized.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { idOrNull, isoOrNull, isRecord, strOrNull } from '../parse.ts';
import { splitTopLevelSpans } from './json-split.ts';
import { type MemberText, membersOf } from './member-text.ts';

type Rec = Record<string, unknown>;

export interface ReplayFileReport {
  file: string;
  venue_a_events: number;
  venue_a_markets: number;
  venue_a_series: number;
  venue_b_events: number;
  venue_b_markets: number;
  books: number;
  spot: number;
  candles: number;
  price_histories: number;
  /** Why nothing was taken from the file (not a venue response, unreadable JSON). */
  ignored: string | null;
}

export interface ReplayData {
  /** History is kept as JSON text per key (the simulated universe's history runs to hundreds of MB). */
  venueA: { events: Rec[]; series: Map<string, Rec>; markets: Map<string, Rec>; candles: Map<string, MemberText> };
  venueB: { events: Rec[]; markets: Rec[]; books: Map<string, Rec>; history: Map<string, MemberText> };
  spot: Map<string, Rec>;
  files: ReplayFileReport[];
  /** `venue_a:<ticker>`, `venue_a:event:<ticker>`, `venue_b:<conditionId>`, `venue_b:event:<id>` → winning file. */
  origin: Map<string, string>;
}

interface Kept {
  value: Rec;
  ts: number;
  file: string;
}

function keep(map: Map<string, Kept>, key: string, value: Rec, ts: number, file: string): void {
  const cur = map.get(key);
  if (!cur || ts >= cur.ts) map.set(key, { value, ts, file });
}

/** Events merge (a newer copy without tags keeps the older tags); markets replace whole. */
function keepMerged(map: Map<string, Kept>, key: string, value: Rec, ts: number, file: string): void {
  const cur = map.get(key);
  if (!cur) map.set(key, { value, ts, file });
  else if (ts >= cur.ts) map.set(key, { value: { ...cur.value, ...value }, ts, file });
  else map.set(key, { ...cur, value: { ...value, ...cur.value } });
}

const tsOf = (v: unknown, fallback: number): number => {
  const iso = isoOrNull(v);
  return iso ? Date.parse(iso) : fallback;
};

function listJsonFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(p);
      } catch {
        continue; // a broken symlink or a file removed while listing
      }
      if (st.isDirectory()) walk(p);
      else if (name.toLowerCase().endsWith('.json')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const isVenueAMarket = (o: Rec) =>
  typeof o.ticker === 'string' &&
  typeof o.event_ticker === 'string' &&
  ('status' in o || 'market_type' in o || 'rules_primary' in o || 'close_time' in o);
const isVenueAEvent = (o: Rec) =>
  typeof o.event_ticker === 'string' &&
  typeof o.ticker !== 'string' &&
  ('series_ticker' in o || 'markets' in o || 'title' in o);
const isVenueASeries = (o: Rec) =>
  typeof o.ticker === 'string' &&
  !('event_ticker' in o) &&
  ('settlement_sources' in o || 'frequency' in o || 'contract_terms_url' in o);
const isGammaMarket = (o: Rec) =>
  typeof o.conditionId === 'string' || ('question' in o && 'outcomes' in o && 'clobTokenIds' in o);
const isGammaEvent = (o: Rec) =>
  Array.isArray(o.markets) && idOrNull(o.id) !== null && ('slug' in o || 'ticker' in o) && !('event_ticker' in o);
const isClobBook = (o: Rec) => typeof o.asset_id === 'string' && Array.isArray(o.bids) && Array.isArray(o.asks);
const isCoinGecko = (o: Rec) => {
  const vals = Object.values(o);
  return vals.length > 0 && vals.every((v) => isRecord(v) && typeof v.usd === 'number');
};

/** Loads the folder(s). Unreadable or unrecognized files are reported, never fatal. */
export function loadReplayData(dirs: string | string[]): ReplayData {
  const aEvents = new Map<string, Kept>();
  const aMarkets = new Map<string, Kept>();
  const aSeries = new Map<string, Kept>();
  const bEvents = new Map<string, Kept>();
  const bMarkets = new Map<string, Kept>();
  const books = new Map<string, Kept>();
  const spot = new Map<string, Kept>();
  const candles = new Map<string, MemberText>();
  const history = new Map<string, MemberText>();
  const files: ReplayFileReport[] = [];

  for (const dir of Array.isArray(dirs) ? dirs : [dirs]) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new Error(`replay folder ${dir} is not a folder; pass a folder of recorded venue responses`);
    }
    for (const path of listJsonFiles(dir)) {
      const file = relative(dir, path).split(sep).join('/');
      const rep: ReplayFileReport = {
        file,
        venue_a_events: 0,
        venue_a_markets: 0,
        venue_a_series: 0,
        venue_b_events: 0,
        venue_b_markets: 0,
        books: 0,
        spot: 0,
        candles: 0,
        price_histories: 0,
        ignored: null,
      };
      files.push(rep);
      let text: string;
      let bomBytes = 0;
      try {
        text = readFileSync(path, 'utf8');
        if (text.charCodeAt(0) === 0xfeff) {
          text = text.slice(1);
          bomBytes = 3;
        }
      } catch (err) {
        rep.ignored = `not readable: ${(err as Error).message}`;
        continue;
      }
      // History maps by name: split member texts without parsing the (large) whole.
      const historyTarget = /(^|\/)venue_a\/candlesticks\.json$/.test(file)
        ? candles
        : /(^|\/)venue_b\/prices-history\.json$/.test(file)
          ? history
          : null;
      if (historyTarget) {
        const spans = splitTopLevelSpans(text);
        if (spans && [...spans.values()].every(([start]) => text.charCodeAt(start) === 0x5b)) {
          const members = membersOf(path, text, spans, bomBytes);
          for (const [k, v] of members) historyTarget.set(k, v);
          if (historyTarget === candles) rep.candles = members.size;
          else rep.price_histories = members.size;
          continue;
        }
      }
      let json: unknown;
      let fileTs: number;
      try {
        json = JSON.parse(text);
        fileTs = fileDate(path, json);
      } catch (err) {
        rep.ignored = `not readable JSON: ${(err as Error).message}`;
        continue;
      }

      // History maps by shape, wherever they sit.
      if (isHistoryMap(json, 'end_period_ts') && isRecord(json)) {
        for (const [t, c] of Object.entries(json)) if (Array.isArray(c)) candles.set(t, JSON.stringify(c));
        rep.candles = Object.keys(json).length;
        continue;
      }
      if (isHistoryMap(json, 't') && isRecord(json)) {
        for (const [t, h] of Object.entries(json)) if (Array.isArray(h)) history.set(t, JSON.stringify(h));
        rep.price_histories = Object.keys(json).length;
        continue;
      }

      const aMarket = (m: Rec, parent: string | null) => {
        const rec = parent && m.event_ticker !== parent ? { ...m, event_ticker: parent } : m;
        keep(aMarkets, String(rec.ticker), rec, tsOf(rec.updated_time, fileTs), file);
        rep.venue_a_markets++;
      };
      const bMarket = (m: Rec, parentId: string | null) => {
        const key = strOrNull(m.conditionId) ?? `id:${idOrNull(m.id) ?? `${file}#${rep.venue_b_markets}`}`;
        const nested = Array.isArray(m.events) ? m.events.find(isRecord) : undefined;
        const parent = parentId ?? (nested ? idOrNull(nested.id) : null);
        if (nested && parent) {
          const { markets: _m, ...stub } = nested;
          keepMerged(bEvents, parent, stub, tsOf(stub.updatedAt, fileTs) - 1, file);
        }
        keep(bMarkets, key, { ...m, __parent: parent }, tsOf(m.updatedAt, fileTs), file);
        rep.venue_b_markets++;
      };

      const visit = (v: unknown, depth: number): void => {
        if (depth > 6) return;
        if (Array.isArray(v)) {
          for (const x of v) visit(x, depth + 1);
          return;
        }
        if (!isRecord(v) || 'openapi' in v || 'swagger' in v) return;
        if (isVenueAMarket(v)) {
          aMarket(v, null);
          return;
        }
        if (isVenueAEvent(v)) {
          const { markets, ...ev } = v;
          keepMerged(aEvents, String(ev.event_ticker), ev, tsOf(ev.last_updated_ts, fileTs), file);
          rep.venue_a_events++;
          if (Array.isArray(markets)) for (const m of markets) if (isRecord(m)) aMarket(m, String(ev.event_ticker));
          return;
        }
        if (isVenueASeries(v)) {
          keep(aSeries, String(v.ticker), v, tsOf(v.last_updated_ts, fileTs), file);
          rep.venue_a_series++;
          return;
        }
        if (typeof v.ticker === 'string' && Array.isArray(v.candlesticks)) {
          candles.set(v.ticker, JSON.stringify(v.candlesticks));
          rep.candles++;
          return;
        }
        if (isGammaEvent(v)) {
          const { markets, ...ev } = v;
          const id = String(idOrNull(ev.id));
          keepMerged(bEvents, id, ev, tsOf(ev.updatedAt, fileTs), file);
          rep.venue_b_events++;
          if (Array.isArray(markets)) for (const m of markets) if (isRecord(m)) bMarket(m, id);
          return;
        }
        if (isGammaMarket(v)) {
          bMarket(v, null);
          return;
        }
        if (isClobBook(v)) {
          keep(books, String(v.asset_id), v, tsOf(numberTs(v.timestamp), fileTs), file);
          rep.books++;
          return;
        }
        if (depth === 0 && isCoinGecko(v)) {
          for (const [id, p] of Object.entries(v))
            if (isRecord(p)) keep(spot, id, p, tsOf(p.last_updated_at, fileTs), file);
          rep.spot += Object.keys(v).length;
          return;
        }
        // A wrapper (`{cursor, events}`, `{markets}`, `{series, events, markets}`, capture notes,
        // `{payloads: {T: {series}}}`, `{nested, single: {market}, orderbook}`): look inside.
        for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) visit(x, depth + 1);
      };
      visit(json, 0);
      const taken =
        rep.venue_a_events +
        rep.venue_a_markets +
        rep.venue_a_series +
        rep.venue_b_events +
        rep.venue_b_markets +
        rep.books +
        rep.spot +
        rep.candles;
      if (taken === 0) rep.ignored = 'not a venue response (no venue record shape found)';
    }
  }
  return assemble({ aEvents, aMarkets, aSeries, bEvents, bMarkets, books, spot, candles, history, files });
}

/**
 * History maps (`history/venue_a/candlesticks.json` = `{ticker: candle[]}`, `history/venue_b/
 * prices-history.json` = `{token: [{t, p}]}`), recognized by shape wherever they sit.
 */
function isHistoryMap(json: unknown, key: string): boolean {
  if (!isRecord(json)) return false;
  const lists = Object.values(json);
  if (lists.length === 0 || !lists.every(Array.isArray)) return false;
  const first = (lists as unknown[][]).find((l) => l.length > 0)?.[0];
  return isRecord(first) && key in first;
}

function numberTs(v: unknown): unknown {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return n;
}

/** The data date of a file: a wrapper's `captured_at`/`timestamp`, else a date in its name, else mtime. */
function fileDate(path: string, json: unknown): number {
  if (isRecord(json)) {
    for (const k of ['captured_at', 'timestamp']) {
      const iso = isoOrNull(json[k]);
      if (iso) return Date.parse(iso);
    }
  }
  const m = /(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(path.split(/[\\/]/).pop() ?? '');
  if (m) return Date.parse(`${m[1]}-${m[2]}-${m[3] ?? '01'}T00:00:00Z`);
  return statSync(path).mtimeMs;
}

function assemble(s: {
  aEvents: Map<string, Kept>;
  aMarkets: Map<string, Kept>;
  aSeries: Map<string, Kept>;
  bEvents: Map<string, Kept>;
  bMarkets: Map<string, Kept>;
  books: Map<string, Kept>;
  spot: Map<string, Kept>;
  candles: Map<string, MemberText>;
  history: Map<string, MemberText>;
  files: ReplayFileReport[];
}): ReplayData {
  const origin = new Map<string, string>();
  const series = new Map([...s.aSeries].map(([k, v]) => [k, v.value]));

  // venue_a: group markets under their event; synthesize missing parents from event_ticker.
  const aByEvent = new Map<string, Rec[]>();
  const aMarkets = new Map<string, Rec>();
  for (const [ticker, k] of [...s.aMarkets].sort(([a], [b]) => a.localeCompare(b))) {
    origin.set(`venue_a:${ticker}`, k.file);
    aMarkets.set(ticker, k.value);
    const et = String(k.value.event_ticker);
    const list = aByEvent.get(et) ?? [];
    list.push(k.value);
    aByEvent.set(et, list);
  }
  const aEvents: Rec[] = [];
  const eventTickers = new Set([...s.aEvents.keys(), ...aByEvent.keys()]);
  for (const et of [...eventTickers].sort()) {
    const markets = aByEvent.get(et) ?? [];
    const kept = s.aEvents.get(et);
    if (kept && markets.length === 0) origin.set(`venue_a:event:${et}`, kept.file);
    const seriesTicker = strOrNull(kept?.value.series_ticker) ?? et.split('-')[0] ?? et;
    const ser = series.get(seriesTicker);
    const first = markets[0];
    const ev: Rec = kept
      ? { ...kept.value }
      : {
          event_ticker: et,
          series_ticker: seriesTicker,
          title: strOrNull(ser?.title) ?? strOrNull(first?.title) ?? et,
          sub_title: '',
          category: strOrNull(ser?.category) ?? strOrNull(first?.category) ?? '',
          mutually_exclusive: false,
          collateral_return_type: '',
          strike_period: '',
        };
    ev.markets = markets;
    aEvents.push(ev);
  }

  // venue_b: group markets under their parent event; synthesize a parent for orphan markets.
  const bByEvent = new Map<string, Rec[]>();
  const bMarkets: Rec[] = [];
  const bEventsKept = new Map([...s.bEvents].map(([k, v]) => [k, v]));
  for (const [key, k] of [...s.bMarkets].sort(([a], [b]) => a.localeCompare(b))) {
    origin.set(`venue_b:${key}`, k.file);
    const { __parent, events: _events, ...m } = k.value;
    let parent = typeof __parent === 'string' ? __parent : null;
    if (parent === null || !bEventsKept.has(parent)) {
      parent = parent ?? `market-${idOrNull(m.id) ?? key}`;
      bEventsKept.set(parent, {
        value: {
          id: parent,
          slug: m.slug ?? parent,
          ticker: m.slug ?? parent,
          title: m.question ?? parent,
          description: m.description ?? '',
          resolutionSource: m.resolutionSource ?? '',
          endDate: m.endDate,
          active: m.active,
          closed: m.closed,
          updatedAt: m.updatedAt,
        },
        ts: k.ts,
        file: k.file,
      });
    }
    const list = bByEvent.get(parent) ?? [];
    list.push(m);
    bByEvent.set(parent, list);
    bMarkets.push({ ...m, __parent: parent });
  }
  const bEvents: Rec[] = [];
  for (const [id, k] of [...bEventsKept].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const markets = bByEvent.get(id) ?? [];
    if (markets.length === 0) origin.set(`venue_b:event:${id}`, k.file);
    bEvents.push({ ...k.value, markets });
  }
  const eventStub = new Map(bEvents.map((e) => [String(e.id), (({ markets: _m, ...rest }) => rest)(e)]));
  const bMarketsOut = bMarkets.map(({ __parent, ...m }) => ({ ...m, events: [eventStub.get(String(__parent))] }));

  return {
    venueA: { events: aEvents, series, markets: aMarkets, candles: s.candles },
    venueB: {
      events: bEvents,
      markets: bMarketsOut,
      books: new Map([...s.books].map(([k, v]) => [k, v.value])),
      history: s.history,
    },
    spot: new Map([...s.spot].map(([k, v]) => [k, v.value])),
    files: s.files,
    origin,
  };
}
