/**
 * Renders venue_b (Polymarket Gamma + CLOB) raw records at one snapshot instant: events with
 * nested markets in the real field set (JSON-in-string `outcomes`, `outcomePrices`,
 * `clobTokenIds`, `umaResolutionStatuses`; string volumes on markets, numbers on events; tags
 * only on events; `bestBid`/`bestAsk` missing on some), CLOB `/book` objects and price history.
 */
import { DAY_MS, HOUR_MS, isoMicro, isoZ } from './calendar.ts';
import { hash32, Rng } from './prng.ts';
import type { Clock, EventRt, MarketRt } from './timeline.ts';

const ZERO_ADDRESS_LIKE = '0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d';
const CREATOR = '0x91430CaD2d3975766499717fA0D66A78D814E5c5';

/** Clarification appended to a description on a rule edit (between the snapshots). */
export function ruleEditB(m: MarketRt, at: number): string {
  const edits = [
    'If the reported figure is revised before this market resolves, the figure available at resolution time will be used.',
    'An official announcement of the outcome made before the end date will immediately resolve this market.',
    'Statements by official spokespeople count as official information for this market.',
  ];
  return `\n\nUpdate ${new Date(at).toISOString().slice(0, 10)}: ${edits[hash32(m.id) % edits.length] ?? ''}`;
}

const num = (x: number, dp = 6): number => Math.round(x * 10 ** dp) / 10 ** dp;

interface UmaState {
  status: string | null;
  history: string[];
}

/** The optimistic-oracle state of a closed market at instant `at`. */
export function umaAt(m: MarketRt, at: number): UmaState {
  if (at < m.closeMs || at < m.proposeMs) return { status: null, history: [] };
  if (m.disputeMs === null) {
    return at >= m.settleMs
      ? { status: 'resolved', history: ['proposed', 'resolved'] }
      : { status: 'proposed', history: ['proposed'] };
  }
  if (at < m.disputeMs) return { status: 'proposed', history: ['proposed'] };
  if (at < m.disputeMs + 2 * HOUR_MS) return { status: 'disputed', history: ['proposed', 'disputed'] };
  if (at < m.settleMs) return { status: 'proposed', history: ['proposed', 'disputed', 'proposed'] };
  return { status: 'resolved', history: ['proposed', 'disputed', 'proposed', 'resolved'] };
}

function windowVolume(m: MarketRt, dayIndex: number, span: number): number {
  let v = 0;
  for (let i = Math.max(0, dayIndex - span + 1); i <= dayIndex; i++) v += m.volumes[i] ?? 0;
  return v;
}

/** One Gamma market object at instant `at`. */
export function renderMarketB(m: MarketRt, at: number, clock: Clock): Record<string, unknown> {
  const d = m.draft;
  const k = Math.round((at - clock.windowStart) / HOUR_MS);
  const dayIndex = Math.round((at - clock.windowStart) / DAY_MS) - 1;
  const closed = at >= m.closeMs;
  const uma = umaAt(m, at);
  const resolved = uma.status === 'resolved';
  const p = m.path[k] ?? 0.5;
  const yes = resolved ? (m.result === 'yes' ? 1 : 0) : num(Math.min(0.999, Math.max(0.001, p)), 4);
  const volume = m.priorVolume + windowVolume(m, dayIndex, dayIndex + 1);
  const liquidity = closed ? 0 : m.liquidity;
  const description = m.editMs !== null && at >= m.editMs ? `${d.rules}${ruleEditB(m, m.editMs)}` : d.rules;
  const ev = m.event.draft;
  const prev = m.path[Math.max(0, k - 24)] ?? p;
  const prevWeek = m.path[Math.max(0, k - 24 * 7)] ?? p;
  const r: Record<string, unknown> = {
    id: m.numericId,
    question: d.title,
    conditionId: m.id,
    slug: m.slug,
    resolutionSource: ev.resolutionSource,
    endDate: isoZ(d.deadlineMs),
    startDate: isoMicro(ev.openMs, hash32(m.id) % 1_000_000),
    description,
    outcomes: '["Yes", "No"]',
    outcomePrices: JSON.stringify([String(yes), String(num(1 - yes, 4))]),
    volume: String(num(volume)),
    active: true,
    closed,
    marketMakerAddress: '',
    createdAt: isoMicro(ev.openMs - HOUR_MS, hash32(`c${m.id}`) % 1_000_000),
    updatedAt: isoMicro(Math.max(ev.openMs, at - (hash32(`u${m.id}`) % 3600) * 1000), hash32(`v${m.id}`) % 1_000_000),
  };
  if (closed) r.closedTime = `${new Date(m.closeMs).toISOString().slice(0, 19).replace('T', ' ')}+00`;
  Object.assign(r, {
    new: false,
    featured: false,
    submitted_by: CREATOR,
    archived: false,
    resolvedBy: ZERO_ADDRESS_LIKE,
    restricted: true,
    groupItemTitle: d.sub,
    groupItemThreshold: String(m.event.markets.indexOf(m)),
    questionID: m.questionId,
    enableOrderBook: true,
    orderPriceMinTickSize: yes < 0.04 || yes > 0.96 ? 0.001 : 0.01,
    orderMinSize: 5,
  });
  if (uma.status !== null) {
    r.umaEndDate = isoZ(m.proposeMs + 2 * HOUR_MS);
    r.umaResolutionStatus = uma.status;
  }
  Object.assign(r, {
    volumeNum: num(volume),
    liquidity: String(num(liquidity)),
    liquidityNum: num(liquidity),
    endDateIso: isoZ(d.deadlineMs).slice(0, 10),
    startDateIso: isoZ(ev.openMs).slice(0, 10),
    hasReviewedDates: true,
    volume24hr: num(m.volumes[dayIndex] ?? 0),
    volume1wk: num(windowVolume(m, dayIndex, 7)),
    volume1mo: num(windowVolume(m, dayIndex, 30) + m.priorVolume * 0.2),
    volume1yr: num(volume),
    clobTokenIds: JSON.stringify(m.tokens),
    umaBond: '500',
    umaReward: '5',
    volumeClob: num(volume),
    liquidityClob: num(liquidity),
    acceptingOrders: !closed,
    negRisk: ev.negRisk,
  });
  if (ev.negRisk) {
    r.negRiskMarketID = m.event.negRiskMarketId;
    r.negRiskRequestID = `0x${new Rng(`nrr/${m.id}`).hex(64)}`;
  }
  Object.assign(r, {
    ready: false,
    funded: false,
    cyom: false,
    competitive: num(0.5 + 0.5 * Math.cos((yes - 0.5) * Math.PI), 4),
    pagerDutyNotificationEnabled: false,
    approved: true,
    rewardsMinSize: 50,
    rewardsMaxSpread: 3.5,
    spread: closed ? 1 : m.spread,
  });
  if (d.automatic) r.automaticallyResolved = true;
  r.oneDayPriceChange = num(yes - prev, 4);
  r.oneWeekPriceChange = num(yes - prevWeek, 4);
  r.lastTradePrice = resolved ? yes : num(Math.min(0.999, Math.max(0.001, p + m.spread * 0.25)), 3);
  if (!m.noBestBid && !closed) {
    r.bestBid = num(Math.max(0.001, yes - m.spread / 2), 3);
    r.bestAsk = num(Math.min(0.999, yes + m.spread / 2), 3);
  }
  Object.assign(r, {
    automaticallyActive: true,
    clearBookOnStart: true,
    showGmpSeries: false,
    showGmpOutcome: false,
    manualActivation: false,
    negRiskOther: d.sub === 'Other',
    umaResolutionStatuses: JSON.stringify(uma.history),
    pendingDeployment: false,
    deploying: false,
    rfqEnabled: false,
  });
  return r;
}

const TAG_IDS: Record<string, string> = {
  Politics: '2',
  Crypto: '21',
  Bitcoin: '235',
  Economy: '100328',
  Geopolitics: '100265',
  Tech: '1401',
  AI: '439',
  Business: '107',
  Finance: '120',
  Health: '1509',
  Climate: '103037',
  Weather: '84',
  Science: '74',
  Elections: '144',
  World: '101970',
};

function tagObject(label: string): { id: string; label: string; slug: string } {
  const slug = label
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return { id: TAG_IDS[label] ?? String(100_000 + (hash32(`tag:${label}`) % 900_000)), label, slug };
}

/** One Gamma event with nested markets and tags at instant `at`. */
export function renderEventB(ev: EventRt, at: number, clock: Clock): Record<string, unknown> {
  const d = ev.draft;
  const markets = ev.markets.map((m) => renderMarketB(m, at, clock));
  const dayIndex = Math.round((at - clock.windowStart) / DAY_MS) - 1;
  let volume = 0;
  let v24 = 0;
  let v1w = 0;
  let liq = 0;
  for (const m of ev.markets) {
    volume += m.priorVolume + windowVolume(m, dayIndex, dayIndex + 1);
    v24 += m.volumes[dayIndex] ?? 0;
    v1w += windowVolume(m, dayIndex, 7);
    if (at < m.closeMs) liq += m.liquidity;
  }
  const allClosed = ev.markets.every((m) => at >= m.closeMs);
  const endMs = Math.max(...ev.markets.map((m) => m.draft.deadlineMs));
  const r: Record<string, unknown> = {
    id: ev.numericId,
    ticker: ev.ticker,
    slug: ev.ticker,
    title: d.title,
    description: d.description || (ev.markets[0]?.draft.rules ?? ''),
    resolutionSource: d.resolutionSource,
    startDate: isoMicro(d.openMs, hash32(ev.ticker) % 1_000_000),
    creationDate: isoMicro(d.openMs, (hash32(ev.ticker) + 5) % 1_000_000),
    endDate: isoZ(endMs),
    active: true,
    closed: allClosed,
    archived: false,
    new: false,
    featured: false,
    restricted: true,
    liquidity: num(liq, 5),
    volume: num(volume, 5),
    openInterest: 0,
    createdAt: isoMicro(d.openMs - HOUR_MS, hash32(`e${ev.ticker}`) % 1_000_000),
    updatedAt: isoMicro(at - (hash32(`eu${ev.ticker}`) % 3600) * 1000, hash32(`ev${ev.ticker}`) % 1_000_000),
    competitive: num(0.7 + 0.3 * ((hash32(ev.ticker) % 1000) / 1000), 4),
    volume24hr: num(v24, 5),
    volume1wk: num(v1w, 5),
    volume1mo: num(v1w * 3.4, 5),
    volume1yr: num(volume, 5),
    enableOrderBook: true,
    liquidityClob: num(liq, 5),
    negRisk: d.negRisk,
  };
  if (d.negRisk) r.negRiskMarketID = ev.negRiskMarketId;
  Object.assign(r, {
    commentCount: hash32(`cc${ev.ticker}`) % 400,
    markets,
    tags: d.tags.map(tagObject),
    cyom: false,
    showAllOutcomes: true,
    showMarketImages: true,
    enableNegRisk: d.negRisk,
    automaticallyActive: true,
    gmpChartMode: 'default',
    negRiskAugmented: d.augmented,
    pendingDeployment: false,
    deploying: false,
  });
  if (allClosed)
    r.closedTime = `${new Date(Math.max(...ev.markets.map((m) => m.closeMs))).toISOString().slice(0, 19).replace('T', ' ')}+00`;
  return r;
}

/** A CLOB `/book` response for a market's YES token at instant `at`. */
export function renderBook(m: MarketRt, at: number, clock: Clock): Record<string, unknown> {
  const k = Math.round((at - clock.windowStart) / HOUR_MS);
  const p = m.path[k] ?? 0.5;
  const rng = new Rng(`book/${m.id}/${at}`);
  const tick = p < 0.04 || p > 0.96 ? 0.001 : 0.01;
  const mid = Math.round(p / tick) * tick;
  const half = Math.max(tick, Math.round(m.spread / 2 / tick) * tick);
  const levels = (side: 1 | -1) => {
    const out: Array<{ price: string; size: string }> = [];
    const n = rng.int(6, 18);
    let offset = half;
    for (let i = 0; i < n; i++) {
      const px = mid + side * offset;
      offset += tick * rng.int(1, 3);
      if (px <= 0 || px >= 1) break;
      out.push({ price: String(num(px, 3)), size: String(num(rng.logNormal(400, 1.2), 2)) });
    }
    // The CLOB lists both sides from the far end toward the touch.
    return out.reverse();
  };
  return {
    market: m.id,
    asset_id: m.tokens[0],
    timestamp: String(at - rng.int(1, 600) * 1000),
    hash: rng.hex(40),
    bids: levels(-1),
    asks: levels(1),
    min_order_size: '5',
    tick_size: String(tick),
    neg_risk: m.event.draft.negRisk,
    last_trade_price: String(num(p, 3)),
  };
}

/** Hourly `{t, p}` points of a market's YES token over the window, up to its close. */
export function pricesHistoryB(m: MarketRt, clock: Clock): Array<{ t: number; p: number }> {
  const out: Array<{ t: number; p: number }> = [];
  for (let k = 0; k <= clock.hours; k++) {
    const t = clock.windowStart + k * HOUR_MS;
    if (t < m.event.draft.openMs || t > m.closeMs) continue;
    out.push({ t: t / 1000, p: num(m.path[k] ?? 0.5, 4) });
  }
  return out;
}

/**
 * The same points already serialized (`[{"t":…,"p":…},…]`, byte-identical to JSON.stringify of
 * `pricesHistoryB`), built without one object per point: the history file is the largest output.
 */
export function pricesHistoryJsonB(m: MarketRt, clock: Clock): string {
  const parts: string[] = [];
  for (let k = 0; k <= clock.hours; k++) {
    const t = clock.windowStart + k * HOUR_MS;
    if (t < m.event.draft.openMs || t > m.closeMs) continue;
    parts.push(`{"t":${t / 1000},"p":${num(m.path[k] ?? 0.5, 4)}}`);
  }
  return `[${parts.join(',')}]`;
}
