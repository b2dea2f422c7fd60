/** Crypto event families: spot ETF approvals by a deadline, and venue_b "Up or Down" markets settled automatically from a price feed. */
import type { BundleType } from '../../../domain/index.ts';
import { byDeadlineProb, EventKit, type FamilyCtx } from '../builders.ts';
import { addMonths, DAY_MS, HOUR_MS, hourLabel, longDate, shortDate, slugify, tickerDate, year } from '../calendar.ts';
import type { EventDraft, MarketDraft } from '../model.ts';
import { COIN_IDS, COINS } from './crypto-coins.ts';
import { deadlineDay } from './generic.ts';

const ETF_COINS = [
  'Solana',
  'XRP',
  'Dogecoin',
  'Cardano',
  'Litecoin',
  'Avalanche',
  'Polkadot',
  'Hedera',
  'Sui',
  'Chainlink',
];

/** "Spot X ETF approved by DATE?" date ladder (SEC as authority, venue_b "however a consensus…"). */
export function cryptoEtf(ctx: FamilyCtx): EventDraft {
  const coinName = ETF_COINS[ctx.slot % ETF_COINS.length] ?? 'Solana';
  const a = ctx.venue === 'venue_a';
  const kit = new EventKit(
    ctx,
    { authority: { name: 'the SEC', url: 'https://www.sec.gov' }, prose: 'the SEC' },
    { eventLike: true },
  );
  const n = Math.max(1, Math.min(ctx.size, 6));
  const round = Math.floor(ctx.slot / ETF_COINS.length);
  const deadlines = Array.from({ length: n }, (_, i) => deadlineDay(addMonths(ctx.asOfMs, 1 + i * 2 + round), round));
  const markets = deadlines.map((dl): MarketDraft => {
    const t = kit.text({
      condition: `any spot ${coinName} ETF receives approval from the SEC`,
      when: a ? `before ${shortDate(dl + DAY_MS)}` : `by ${longDate(dl)}, 11:59 PM ET`,
      whenVague: `by the end of ${longDate(dl).replace(/ \d+,/, '')}`,
      extras: [
        a
          ? 'Approval of a Form 19b-4 filing counts; an effective S-1 registration alone does not.'
          : 'Approval under Rule 19-4b will qualify for a "Yes" resolution, even if there has not been an S-1 approval.',
      ],
    });
    return {
      key: a ? tickerDate(dl) : slugify(longDate(dl)),
      title: a
        ? `Will a spot ${coinName} ETF be approved before ${shortDate(dl + DAY_MS)}?`
        : `${coinName} ETF approved by ${longDate(dl).replace(/, \d{4}$/, '')}?`,
      sub: a ? `Before ${shortDate(dl + DAY_MS)}` : longDate(dl).replace(/, \d{4}$/, ''),
      strike: a ? { type: 'custom', custom: { Date: shortDate(dl) } } : null,
      ...t,
      deadlineMs: dl + DAY_MS - 60_000,
      claim: `etf|${coinName}|${dl}`,
      prob: byDeadlineProb(0.12, ctx.asOfMs, dl),
    };
  });
  const bundle: BundleType = markets.length === 1 ? 'singleton' : 'date_ladder';
  return kit.event(
    {
      category: 'crypto',
      bundle,
      family: 'crypto_etf',
      series: {
        ticker: `KXETF${coinName.toUpperCase().slice(0, 4)}`,
        title: `Spot ${coinName} ETF approval`,
        categoryRaw: 'Crypto',
        tags: ['ETF'],
        frequency: 'one_off',
      },
      eventTicker: `KXETF${coinName.toUpperCase().slice(0, 4)}-${year(ctx.asOfMs) % 100}${ctx.seq}`,
      title: a ? `When will a spot ${coinName} ETF be approved?` : `${coinName} ETF approved by ...?`,
      subTitle: '',
      tags: ['Crypto', 'Crypto Policy', 'ETF'],
      entity: coinName,
    },
    markets,
  );
}

/** venue_b "X Up or Down" hourly markets: settled automatically from a Chainlink or Binance feed. */
export function cryptoUpDown(ctx: FamilyCtx): EventDraft {
  const coin = COIN_IDS[ctx.seq % 3] ?? 'bitcoin';
  const info = COINS[coin];
  const startMs = ctx.asOfMs - DAY_MS * 2 + HOUR_MS * (Math.floor(ctx.seq / 3) * 5 + 1);
  const kit = new EventKit(
    ctx,
    { authority: { name: 'Chainlink', url: `https://data.chain.link/streams/${info.sym.toLowerCase()}-usd` } },
    { eventLike: false, fixed: 'named', fixedOnBoth: true, proposer: 'automatic' },
  );
  const label = `${longDate(startMs).replace(/, \d{4}$/, '')}, ${hourLabel(Math.floor((startMs % DAY_MS) / HOUR_MS))} UTC`;
  const t = kit.text({
    condition: `the ${info.sym}/USD price at the end of the time range specified in the title is greater than or equal to the price at the beginning of that range`,
    when: '',
    extras: [],
  });
  const market: MarketDraft = {
    key: 'up-or-down',
    title: `${info.name} Up or Down - ${label}`,
    sub: '',
    strike: null,
    ...t,
    deadlineMs: startMs + HOUR_MS,
    claim: `updown|${coin}|${startMs}`,
    prob: 0.5,
    automatic: true,
  };
  return kit.event(
    {
      category: 'crypto',
      bundle: 'singleton',
      family: 'crypto_up_down',
      series: { ticker: '', title: '', categoryRaw: '', tags: [], frequency: '' },
      eventTicker: `${info.sym.toLowerCase()}-updown-1h-${Math.floor(startMs / 1000)}`,
      title: market.title,
      subTitle: '',
      tags: ['Crypto', 'Up or Down', COINS[coin].name],
      openMs: startMs - DAY_MS,
      strikeDateMs: startMs + HOUR_MS,
    },
    [market],
  );
}
