/**
 * Renders venue_a (Kalshi trade API v2) raw records at one snapshot instant: series objects with
 * settlement_sources, events with nested markets in the real field set and key order (both price
 * schemas mixed: integer cents plus `*_dollars` strings, and newer dollars/fp-only records), the
 * placeholder `0001-01-01T00:00:00Z` times nested markets carry, and daily candlesticks.
 */
import { DAY_MS, HOUR_MS, isoMicro, isoZ } from './calendar.ts';
import { hash32 } from './prng.ts';
import type { Clock, EventRt, MarketRt } from './timeline.ts';

const PLACEHOLDER_TIME = '0001-01-01T00:00:00Z';
const PRICE_RANGES = [{ end: '1.0000', start: '0.0000', step: '0.0100' }];

const dollars = (cents: number): string => (cents / 100).toFixed(4);
const fp = (n: number): string => n.toFixed(2);

/** Text appended to a rule on edit (between the two snapshots): the lifecycle log's rule_change. */
export function ruleEditA(m: MarketRt): string {
  const edits = [
    'Clarification: if the Source Agency revises the figure before expiration, the revised figure will be used.',
    'Clarification: the market will close early if the outcome is determined before the scheduled close.',
    'Clarification: an announcement by an official spokesperson counts as an official announcement for this market.',
  ];
  return edits[hash32(m.id) % edits.length] ?? '';
}

export interface PriceAt {
  cents: number;
  bid: number;
  ask: number;
  prevCents: number;
}

/** Yes price in cents at snapshot index k (bid/ask around it, clamped to 1..99 while trading). */
export function centsAt(m: MarketRt, k: number): PriceAt {
  const p = m.path[k] ?? 0.5;
  const cents = Math.min(99, Math.max(1, Math.round(p * 100)));
  const half = Math.max(1, Math.round((m.spread * 100) / 2));
  const prev = m.path[Math.max(0, k - 24)] ?? p;
  return {
    cents,
    bid: Math.max(0, cents - half),
    ask: Math.min(100, cents + half),
    prevCents: Math.min(99, Math.max(1, Math.round(prev * 100))),
  };
}

function volumeUntil(m: MarketRt, dayIndex: number): number {
  let v = m.priorVolume;
  for (let i = 0; i <= dayIndex; i++) v += m.volumes[i] ?? 0;
  return Math.round(v);
}

/** One nested venue_a market as the /events?with_nested_markets endpoint returns it at instant `at`. */
export function renderMarketA(m: MarketRt, at: number, clock: Clock): Record<string, unknown> {
  const d = m.draft;
  const result = m.reverseMs !== null && at < m.reverseMs ? (m.result === 'yes' ? 'no' : 'yes') : m.result;
  const k = Math.round((at - clock.windowStart) / HOUR_MS);
  const dayIndex = Math.round((at - clock.windowStart) / DAY_MS) - 1;
  const status = at < m.closeMs ? 'active' : at < m.settleMs ? 'closed' : 'finalized';
  const final = status === 'finalized';
  let { cents, bid, ask, prevCents } = centsAt(m, k);
  if (status !== 'active') {
    const yes = result === 'yes';
    cents = yes ? 99 : 1;
    bid = final ? 0 : yes ? 98 : 0;
    ask = final ? 100 : yes ? 100 : 2;
  }
  const vol = volumeUntil(m, dayIndex);
  const vol24 = Math.round(m.volumes[dayIndex] ?? 0);
  const oi = final ? 0 : m.openInterest;
  const liq = final ? 0 : Math.round(m.liquidity * 100);
  const closeTime = at >= m.closeMs ? m.closeMs : d.deadlineMs;
  const rules2 = m.editMs !== null && at >= m.editMs ? `${d.rules2}${d.rules2 ? ' ' : ''}${ruleEditA(m)}` : d.rules2;
  const legacy = !m.dollarsOnly;
  const r: Record<string, unknown> = {};
  r.can_close_early = true;
  if (d.strike?.cap !== undefined) r.cap_strike = d.strike.cap;
  if (legacy) r.category = '';
  r.close_time = isoZ(closeTime);
  r.created_time = PLACEHOLDER_TIME;
  if (d.strike?.custom) r.custom_strike = d.strike.custom;
  r.early_close_condition = 'This market will close and expire early if the event occurs.';
  r.event_ticker = m.event.ticker;
  r.expected_expiration_time = isoZ(d.deadlineMs + 5 * 60_000);
  r.expiration_time = isoZ(d.deadlineMs + 7 * DAY_MS);
  r.expiration_value = final && d.strike?.floor === undefined && result === 'yes' ? d.sub : '';
  if (d.strike?.floor !== undefined) r.floor_strike = d.strike.floor;
  r.fractional_trading_enabled = false;
  if (legacy) r.last_price = cents;
  r.last_price_dollars = dollars(cents);
  r.latest_expiration_time = isoZ(d.deadlineMs + 7 * DAY_MS);
  if (legacy) r.liquidity = liq;
  r.liquidity_dollars = (liq / 100).toFixed(4);
  r.market_type = 'binary';
  if (legacy) r.no_ask = 100 - bid;
  r.no_ask_dollars = dollars(100 - bid);
  if (legacy) r.no_bid = 100 - ask;
  r.no_bid_dollars = dollars(100 - ask);
  r.no_sub_title = d.sub;
  if (legacy) r.notional_value = 100;
  r.notional_value_dollars = '1.0000';
  if (legacy) r.open_interest = oi;
  r.open_interest_fp = fp(oi);
  r.open_time = isoZ(m.event.draft.openMs);
  if (legacy) r.previous_price = prevCents;
  r.previous_price_dollars = dollars(prevCents);
  if (legacy) r.previous_yes_ask = Math.min(100, prevCents + 1);
  r.previous_yes_ask_dollars = dollars(Math.min(100, prevCents + 1));
  if (legacy) r.previous_yes_bid = Math.max(0, prevCents - 1);
  r.previous_yes_bid_dollars = dollars(Math.max(0, prevCents - 1));
  r.price_level_structure = 'linear_cent';
  r.price_ranges = PRICE_RANGES;
  if (legacy) r.response_price_units = 'usd_cent';
  r.result = final ? result : '';
  r.rules_primary = d.rules;
  r.rules_secondary = rules2;
  r.settlement_timer_seconds = 1800;
  if (final) {
    r.settlement_ts = isoMicro(m.settleMs, (m.numericId.length * 7919) % 1_000_000);
    if (legacy) r.settlement_value = result === 'yes' ? 100 : 0;
    r.settlement_value_dollars = result === 'yes' ? '1.0000' : '0.0000';
  }
  r.status = status;
  r.strike_type = d.strike?.type ?? 'custom';
  if (legacy) r.subtitle = '';
  if (legacy) r.tick_size = 1;
  r.ticker = m.id;
  r.title = d.title;
  r.updated_time = PLACEHOLDER_TIME;
  if (legacy) r.volume = vol;
  if (legacy) r.volume_24h = vol24;
  r.volume_24h_fp = fp(vol24);
  r.volume_fp = fp(vol);
  if (legacy) r.yes_ask = ask;
  r.yes_ask_dollars = dollars(ask);
  if (legacy) r.yes_bid = bid;
  r.yes_bid_dollars = dollars(bid);
  r.yes_sub_title = d.sub;
  return r;
}

/** One venue_a event with its nested markets at instant `at`. */
export function renderEventA(ev: EventRt, at: number, clock: Clock): Record<string, unknown> {
  const d = ev.draft;
  const r: Record<string, unknown> = {
    available_on_brokers: d.category === 'economics' || d.category === 'financials' || d.category === 'crypto',
    category: d.categoryRaw,
    collateral_return_type: d.mutuallyExclusive ? 'MECNET' : d.category === 'crypto' ? 'DIRECNET' : '',
    event_ticker: ev.ticker,
    last_updated_ts: isoMicro(
      Math.min(at - 3 * 60_000, Math.max(d.openMs, at - 6 * HOUR_MS)),
      Number.parseInt(ev.numericId, 10) % 1_000_000,
    ),
    markets: ev.markets.map((m) => renderMarketA(m, at, clock)),
    mutually_exclusive: d.mutuallyExclusive,
    series_ticker: d.series.ticker,
  };
  if (d.strikeDateMs !== null) r.strike_date = isoZ(d.strikeDateMs);
  r.strike_period = '';
  r.sub_title = d.subTitle;
  r.title = d.title;
  return r;
}

/** venue_a series objects (one per series ticker, first event wins), at instant `at`. */
export function renderSeriesA(events: readonly EventRt[], at: number): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const ev of events) {
    const s = ev.draft.series;
    if (seen.has(s.ticker)) continue;
    const core = s.ticker.replace(/^KX/, '');
    seen.set(s.ticker, {
      additional_prohibitions: [
        'Persons who are employed by any of the Source Agencies are not permitted to trade on the Contract.',
        'Persons who hold any material, non-public information on the Underlying are not permitted to trade on the Contract.',
      ],
      category: s.categoryRaw,
      contract_terms_url: `https://kalshi-public-docs.s3.amazonaws.com/contract_terms/${core}.pdf`,
      contract_url: `https://kalshi-public-docs.s3.us-east-1.amazonaws.com/regulatory/product-certifications/${core}.pdf`,
      fee_multiplier: 1,
      fee_type: 'quadratic',
      frequency: s.frequency,
      last_updated_ts: isoMicro(at - 9 * DAY_MS, (core.length * 104_729) % 1_000_000),
      settlement_sources: s.sources.map((src) => ({ name: src.name, url: src.url })),
      tags: s.tags,
      ticker: s.ticker,
      title: s.title,
    });
  }
  return [...seen.values()].sort((x, y) => (String(x.ticker) < String(y.ticker) ? -1 : 1));
}

/** Daily candlesticks (Kalshi v2 shape) for one market over the window, up to its close. */
export function candlesA(m: MarketRt, clock: Clock): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let day = 0; day < clock.days; day++) {
    const endMs = clock.windowStart + (day + 1) * DAY_MS;
    if (endMs <= m.event.draft.openMs || endMs - DAY_MS >= m.settleMs) continue;
    const k0 = day * 24;
    let hi = 0;
    let lo = 1;
    let sum = 0;
    for (let k = k0; k <= k0 + 24; k++) {
      const p = m.path[k] ?? 0.5;
      hi = Math.max(hi, p);
      lo = Math.min(lo, p);
      sum += p;
    }
    const c = (p: number): number => Math.min(99, Math.max(1, Math.round(p * 100)));
    const open = c(m.path[k0] ?? 0.5);
    const close = c(m.path[k0 + 24] ?? 0.5);
    const half = Math.max(1, Math.round((m.spread * 100) / 2));
    const vol = Math.round(m.volumes[day] ?? 0);
    const ohlc = (o: number, h: number, l: number, cl: number, shift: number) => ({
      open: clampC(o + shift),
      high: clampC(h + shift),
      low: clampC(l + shift),
      close: clampC(cl + shift),
    });
    const price = ohlc(open, c(hi), c(lo), close, 0);
    if (m.dollarsOnly) {
      const dol = (x: { open: number; high: number; low: number; close: number }) => ({
        open_dollars: dollars(x.open),
        low_dollars: dollars(x.low),
        high_dollars: dollars(x.high),
        close_dollars: dollars(x.close),
      });
      out.push({
        end_period_ts: endMs / 1000,
        yes_bid: dol(ohlc(open, c(hi), c(lo), close, -half)),
        yes_ask: dol(ohlc(open, c(hi), c(lo), close, half)),
        price: { ...dol(price), mean_dollars: dollars(c(sum / 25)), previous_dollars: dollars(open) },
        volume_fp: fp(vol),
        open_interest_fp: fp(m.openInterest),
      });
    } else {
      out.push({
        end_period_ts: endMs / 1000,
        open_interest: m.openInterest,
        price: { ...price, mean: c(sum / 25), previous: open },
        volume: vol,
        yes_ask: ohlc(open, c(hi), c(lo), close, half),
        yes_bid: ohlc(open, c(hi), c(lo), close, -half),
      });
    }
  }
  return out;
}

function clampC(x: number): number {
  return Math.min(100, Math.max(0, x));
}
