import { EventKit, type FamilyCtx, type EventKit as Kit, niceStep, strikesAround } from '../builders.ts';
import {
  addMonths,
  clockLabel,
  DAY_MS,
  easternTime,
  easternZone,
  endOfMonth,
  groupDigits,
  hourLabel,
  longDate,
  money,
  monthDay,
  shortDate,
  slugify,
  tickerDate,
  trimNum,
  year,
} from '../calendar.ts';
import type { CoinId, EventDraft, MarketDraft, SourcePlan } from '../model.ts';
import { COIN_IDS, COINS, spotAboveProb, stepFor } from './crypto-coins.ts';

function tagsFor(coin: CoinId): string[] {
  const label = coin === 'ripple' ? 'XRP' : COINS[coin].name;
  return ['Crypto', label, 'Crypto Prices'];
}

function binancePlan(coin: CoinId): SourcePlan {
  const sym = COINS[coin].sym;
  return {
    authority: { name: 'Binance', url: `https://www.binance.com/en/trade/${sym}_USDT` },
    prose: `Binance, specifically the ${sym}/USDT "Close" prices currently available at https://www.binance.com/en/trade/${sym}_USDT with "1m" and "Candles" selected on the top bar`,
  };
}

function brtiPlan(coin: CoinId): SourcePlan {
  const sym = COINS[coin].sym;
  return {
    authority: { name: 'CF Benchmarks', url: `https://www.cfbenchmarks.com/data/indices/${sym}USD_RTI` },
    prose: `CF Benchmarks' ${COINS[coin].name} Real-Time Index (${sym === 'BTC' ? 'BRTI' : `${sym}USD_RTI`})`,
  };
}

const BRTI_NOTE =
  "Not all cryptocurrency price data is the same. While checking a source like Google or Coinbase may help guide your decision, the price used to determine this market is based on CF Benchmarks' corresponding Real Time Index (RTI). At the last minute before expiration, 60 RTI prices are collected. The official and final value is the average of these prices.";

export interface CryptoDailyOpts {
  coin: CoinId;
  dayMs: number;
  hourEt: number;
  strikes: number[];
  /** venue_b: phrase "below" instead of "above". */
  below?: boolean;
  /** venue_b: read a different exchange pair (price-source variants). */
  sourcePair?: 'binance' | 'coinbase';
}

/** Default daily parameters for the `seq`-th event: coins rotate, days walk from 12 days ago forward. */
export function cryptoDailyDefaults(ctx: FamilyCtx): CryptoDailyOpts {
  const coin = COIN_IDS[ctx.seq % COIN_IDS.length] ?? 'bitcoin';
  // Days fan out around the as-of (−1, 0, 1, −2, 2, …): the first ladders close between the snapshots.
  const j = Math.floor(ctx.seq / COIN_IDS.length);
  const dayMs = ctx.asOfMs + DAY_MS * (j % 2 === 0 ? -(j / 2) - 1 : (j + 1) / 2 - 1);
  const info = COINS[coin];
  const spot = ctx.world.spot[coin];
  const hourEt = ctx.venue === 'venue_a' ? 17 : 12;
  const drift = ctx.rng.normal() * 0.03;
  return { coin, dayMs, hourEt, strikes: strikesAround(spot * (1 + drift), stepFor(info, spot, ctx.size), ctx.size) };
}

/** A daily "price above K at H o'clock ET" strike ladder (venue_a KXBTCD style; venue_b "above ___ on"). */
export function cryptoDaily(ctx: FamilyCtx, opts: CryptoDailyOpts): EventDraft {
  const info = COINS[opts.coin];
  const atMs = easternTime(opts.dayMs, opts.hourEt);
  const zone = easternZone(atMs);
  const spot = ctx.world.spot[opts.coin];
  const years = Math.max(0, (atMs - ctx.asOfMs) / (365 * DAY_MS));
  if (ctx.venue === 'venue_a') {
    const kit = new EventKit(ctx, brtiPlan(opts.coin), { eventLike: false, fixed: 'named' });
    const series = `KX${info.sym}D`;
    const eventTicker = `${series}-${tickerDate(opts.dayMs)}${String(opts.hourEt).padStart(2, '0')}`;
    const when = `on ${shortDate(opts.dayMs)} at ${clockLabel(opts.hourEt)} ${zone}`;
    const markets: MarketDraft[] = opts.strikes.map((k) => {
      const floor = Number((k - 10 ** -info.decimals).toFixed(info.decimals));
      const t = kit.text({
        condition: `the simple average of the sixty seconds of ${brtiPlan(opts.coin).prose} before ${clockLabel(opts.hourEt)} ${zone} is above ${trimNum(floor, info.decimals)}`,
        when,
        extras: [BRTI_NOTE],
      });
      return {
        key: `T${trimNum(floor, info.decimals)}`,
        title: `Will the ${info.name} price be above ${money(floor)} ${when}?`,
        sub: `${money(k)} or above`,
        strike: { type: 'greater', floor },
        ...t,
        deadlineMs: atMs,
        claim: `crypto|${opts.coin}|${atMs}|above|${k}`,
        prob: spotAboveProb(spot, k, info.vol, years),
        spot: { coin: opts.coin, threshold: floor, direction: 'above', atMs },
      };
    });
    return kit.event(
      {
        category: 'crypto',
        bundle: 'strike_ladder',
        family: 'crypto_daily',
        series: {
          ticker: series,
          title: `${info.name} price today at ${clockLabel(opts.hourEt)}`,
          categoryRaw: 'Crypto',
          tags: ['BTC', info.sym].filter((v, i, a) => a.indexOf(v) === i),
          frequency: 'daily',
        },
        eventTicker,
        title: `${info.name} price on ${shortDate(opts.dayMs)} at ${clockLabel(opts.hourEt).replace(':00 ', '').toLowerCase()} ${zone}?`,
        subTitle: `On ${shortDate(opts.dayMs)} at ${clockLabel(opts.hourEt).replace(':00 ', '').toLowerCase()} ${zone}`,
        tags: tagsFor(opts.coin),
        strikeDateMs: atMs,
        openMs: opts.dayMs - 2 * DAY_MS,
      },
      markets,
    );
  }
  const pair = opts.sourcePair === 'coinbase' ? 'coinbase' : 'binance';
  const plan: SourcePlan =
    pair === 'coinbase'
      ? {
          authority: { name: 'Coinbase', url: `https://www.coinbase.com/advanced-trade/spot/${info.sym}-USD` },
          prose: `Coinbase, specifically the ${info.sym}-USD "Close" prices currently available at https://www.coinbase.com/advanced-trade/spot/${info.sym}-USD with "1m" and "Candles" selected on the top bar`,
        }
      : binancePlan(opts.coin);
  const kit = new EventKit(ctx, plan, { eventLike: false, fixed: 'named', fixedOnBoth: true });
  const dir = opts.below ? 'below' : 'above';
  const at = opts.hourEt === 12 ? '' : ` at ${hourLabel(opts.hourEt)} ET`;
  const pairName = pair === 'coinbase' ? `${info.sym}-USD` : `${info.sym}/USDT`;
  const exchange = pair === 'coinbase' ? 'Coinbase' : 'Binance';
  const markets: MarketDraft[] = opts.strikes.map((k) => {
    const t = kit.text({
      condition: `the ${exchange} 1 minute candle for ${pairName} ${opts.hourEt === 12 ? '12:00' : `${String(opts.hourEt).padStart(2, '0')}:00`} in the ET timezone on the date specified in the title has a final "Close" price ${opts.below ? 'lower' : 'higher'} than the price specified in the title`,
      when: '',
      extras: [],
    });
    const tail = `Please note that this market is about the price according to ${exchange} ${pairName}, not according to other sources or spot markets.\n\nPrice precision is determined by the number of decimal places in the source.`;
    const pAbove = spotAboveProb(spot, k, info.vol, years);
    return {
      key: `${dir}-${trimNum(k, info.decimals)}`,
      title: `Will the price of ${info.name} be ${dir} ${money(k)} on ${monthDay(opts.dayMs)}${at}?`,
      sub: groupDigits(k, k < 10 ? info.decimals : 0),
      strike: null,
      rules: `${t.rules}\n\n${tail}`,
      rules2: '',
      deadlineMs: atMs,
      claim: `crypto|${opts.coin}|${atMs}|${dir}|${k}`,
      prob: opts.below ? 1 - pAbove : pAbove,
      spot: { coin: opts.coin, threshold: k, direction: dir, atMs },
    };
  });
  return kit.event(
    {
      category: 'crypto',
      bundle: markets.length === 1 ? 'singleton' : 'strike_ladder',
      family: 'crypto_daily',
      series: { ticker: '', title: '', categoryRaw: '', tags: [], frequency: '' },
      eventTicker: `${slugify(info.name)}-${dir}-on-${slugify(monthDay(opts.dayMs))}${at ? `-${hourLabel(opts.hourEt).toLowerCase()}-et` : ''}`,
      title:
        markets.length === 1 ? (markets[0]?.title ?? '') : `${info.name} ${dir} ___ on ${monthDay(opts.dayMs)}${at}?`,
      subTitle: '',
      description: `This is a market group over the ${info.name} price on ${longDate(opts.dayMs)}${at}.`,
      tags: tagsFor(opts.coin),
      strikeDateMs: atMs,
      openMs: opts.dayMs - 3 * DAY_MS,
    },
    markets,
  );
}

/** venue_a KXBTC-style "between" ranges / venue_b negative-risk brackets for one day. */
export function cryptoRange(ctx: FamilyCtx): EventDraft {
  const d = cryptoDailyDefaults(ctx);
  const info = COINS[d.coin];
  const spot = ctx.world.spot[d.coin];
  const step = stepFor(info, spot, ctx.size);
  const edges = strikesAround(spot, step, ctx.size + 1);
  const atMs = easternTime(d.dayMs, d.hourEt);
  const years = Math.max(0, (atMs - ctx.asOfMs) / (365 * DAY_MS));
  const a = ctx.venue === 'venue_a';
  const kit: Kit = new EventKit(ctx, a ? brtiPlan(d.coin) : binancePlan(d.coin), {
    eventLike: false,
    fixed: 'named',
    fixedOnBoth: true,
  });
  const zone = easternZone(atMs);
  const markets: MarketDraft[] = [];
  for (let i = 0; i < edges.length - 1; i++) {
    const lo = edges[i] ?? 0;
    const hi = edges[i + 1] ?? 0;
    const p = spotAboveProb(spot, lo, info.vol, years) - spotAboveProb(spot, hi, info.vol, years);
    const range = `${money(lo)} to ${money(hi - 10 ** -info.decimals)}`;
    const t = a
      ? kit.text({
          condition: `the simple average of the sixty seconds of ${brtiPlan(d.coin).prose} before ${clockLabel(d.hourEt)} ${zone} is between ${trimNum(lo)} and ${trimNum(hi - 10 ** -info.decimals, info.decimals)}`,
          when: `on ${shortDate(d.dayMs)}`,
          extras: [BRTI_NOTE],
        })
      : kit.text({
          condition: `the Binance 1 minute candle for ${info.sym}/USDT 12:00 in the ET timezone on ${longDate(d.dayMs)} has a final "Close" price between ${money(lo)} (inclusive) and ${money(hi)} (exclusive)`,
          when: '',
          extras: [],
        });
    markets.push({
      key: a ? `B${trimNum(lo + step / 2, info.decimals)}` : `${trimNum(lo)}-${trimNum(hi)}`,
      title: a
        ? `${info.name} price range on ${shortDate(d.dayMs)}?`
        : `Will the price of ${info.name} be between ${money(lo)} and ${money(hi)} on ${monthDay(d.dayMs)}?`,
      sub: a
        ? range
        : `${groupDigits(lo, lo < 10 ? info.decimals : 0)}-${groupDigits(hi, hi < 10 ? info.decimals : 0)}`,
      strike: a
        ? { type: 'between', floor: lo, cap: Number((hi - 10 ** -info.decimals).toFixed(info.decimals)) }
        : null,
      ...t,
      deadlineMs: atMs,
      claim: `crypto|${d.coin}|${atMs}|range|${lo}|${hi}`,
      prob: Math.max(0.005, p),
      spot: { coin: d.coin, threshold: lo, cap: hi, direction: 'between', atMs },
    });
  }
  return kit.event(
    {
      category: 'crypto',
      bundle: a ? 'strike_ladder' : 'categorical',
      family: 'crypto_range',
      series: {
        ticker: `KX${info.sym}`,
        title: `${info.name} range`,
        categoryRaw: 'Crypto',
        tags: [info.sym],
        frequency: 'daily',
      },
      eventTicker: a
        ? `KX${info.sym}-${tickerDate(d.dayMs)}${String(d.hourEt).padStart(2, '0')}`
        : `${slugify(info.name)}-price-on-${slugify(monthDay(d.dayMs))}`,
      title: a ? `${info.name} price range on ${shortDate(d.dayMs)}?` : `${info.name} price on ${monthDay(d.dayMs)}?`,
      subTitle: a ? `On ${shortDate(d.dayMs)}` : '',
      description: `This market group covers the ${info.name} price on ${longDate(d.dayMs)}.`,
      tags: tagsFor(d.coin),
      mutuallyExclusive: true,
      negRisk: !a,
      strikeDateMs: atMs,
      openMs: d.dayMs - 2 * DAY_MS,
    },
    markets,
  );
}

/** "How high will X get by year end?" (touch ladder; venue_b "Will X reach $K by December 31?"). */
export function cryptoHitBy(ctx: FamilyCtx): EventDraft {
  const coin = COIN_IDS[ctx.seq % COIN_IDS.length] ?? 'bitcoin';
  const info = COINS[coin];
  const spot = ctx.world.spot[coin];
  // Month ends by slot parity: the two venues never ask about the same coin and month by accident.
  const endMs = endOfMonth(addMonths(ctx.asOfMs, 2 + 2 * Math.floor(ctx.seq / COIN_IDS.length) + (ctx.slot % 2)));
  const step = niceStep((spot * 1.5) / Math.max(1, ctx.size));
  const strikes = strikesAround(spot * 1.5, step, ctx.size);
  const a = ctx.venue === 'venue_a';
  const kit = new EventKit(ctx, a ? brtiPlan(coin) : binancePlan(coin), {
    eventLike: false,
    fixed: 'named',
    fixedOnBoth: true,
  });
  const years = (endMs - ctx.asOfMs) / (365 * DAY_MS);
  const markets = strikes.map((k): MarketDraft => {
    const p = Math.min(0.99, 2 * (1 - spotAboveProb(k, spot, info.vol, years)));
    const t = kit.text({
      condition: a
        ? `${brtiPlan(coin).prose} is above ${trimNum(k)} at any time`
        : `any Binance 1 minute candle for ${info.name} (${info.sym}USDT) has a final "High" price of ${money(k)} or higher`,
      when: a
        ? `before ${shortDate(endMs + DAY_MS)}`
        : `between ${longDate(ctx.asOfMs - 60 * DAY_MS)} and ${longDate(endMs)}, 23:59 in the ET timezone`,
      whenVague: a ? `by the end of ${year(endMs)}` : `before the end of ${year(endMs)}`,
      extras: a ? [BRTI_NOTE] : [],
    });
    return {
      key: a ? `${trimNum(k)}` : `reach-${trimNum(k)}`,
      title: a
        ? `Will ${info.name} be above ${money(k)} before ${shortDate(endMs + DAY_MS)}?`
        : `Will ${info.name} reach ${money(k)} by ${longDate(endMs)}?`,
      sub: a ? `Above ${money(k)}` : money(k),
      strike: a ? { type: 'greater', floor: k } : null,
      ...t,
      deadlineMs: endMs + DAY_MS - 1000,
      claim: `crypto-touch|${coin}|${endMs}|${k}`,
      prob: Math.max(0.01, Math.min(0.99, k <= spot ? 0.99 : p)),
    };
  });
  return kit.event(
    {
      category: 'crypto',
      bundle: 'strike_ladder',
      family: 'crypto_hit_by',
      series: {
        ticker: `KX${info.sym}MAXY`,
        title: `How high will ${info.name} get`,
        categoryRaw: 'Crypto',
        tags: [info.sym],
        frequency: 'custom',
      },
      eventTicker: a
        ? `KX${info.sym}MAXY-${tickerDate(endMs).slice(0, 5)}`
        : `what-price-will-${slugify(info.name)}-hit-by-${slugify(longDate(endMs))}`,
      title: a
        ? `How high will ${info.name} get before ${shortDate(endMs + DAY_MS)}?`
        : `What price will ${info.name} hit by ${longDate(endMs)}?`,
      subTitle: a ? `Before ${shortDate(endMs + DAY_MS)}` : '',
      tags: tagsFor(coin),
      strikeDateMs: endMs,
    },
    markets,
  );
}
