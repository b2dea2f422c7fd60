/**
 * Indicator families with many instances (cities, companies, indices, commodities, countries,
 * central banks): one template, a variant per instance, so the universe reaches its size with
 * distinct questions rather than repeats.
 */
import { niceStep } from '../builders.ts';
import { groupDigits, trimNum } from '../calendar.ts';
import type { SourcePlan } from '../model.ts';
import type { IndicatorSpec, IndicatorVariant } from './indicator.ts';

const nws = (city: string, station: string): SourcePlan => ({
  authority: { name: 'National Weather Service', url: 'https://www.weather.gov/wrh/climate' },
  prose: `the National Weather Service Daily Climate Report (CLI) for ${station}, ${city}`,
  aggregator: { name: 'Weather Underground', url: 'https://www.wunderground.com/history' },
});

const CITY_ROWS: ReadonlyArray<readonly [string, string, string, number]> = [
  ['NY', 'New York City', 'Central Park', 52],
  ['CHI', 'Chicago', 'Chicago Midway', 45],
  ['MIA', 'Miami', 'Miami International Airport', 80],
  ['AUS', 'Austin', 'Austin Bergstrom', 68],
  ['LAX', 'Los Angeles', 'Los Angeles International Airport', 70],
  ['DEN', 'Denver', 'Denver International Airport', 50],
  ['PHIL', 'Philadelphia', 'Philadelphia International Airport', 54],
  ['HOU', 'Houston', 'Houston Hobby', 72],
  ['SEA', 'Seattle', 'Seattle-Tacoma International Airport', 50],
  ['PHX', 'Phoenix', 'Phoenix Sky Harbor', 75],
  ['ATL', 'Atlanta', 'Atlanta Hartsfield', 62],
  ['BOS', 'Boston', 'Boston Logan', 49],
  ['DC', 'Washington, D.C.', 'Reagan National Airport', 56],
  ['SFO', 'San Francisco', 'San Francisco Downtown', 62],
  ['MIN', 'Minneapolis', 'Minneapolis-St. Paul International Airport', 40],
  ['LAS', 'Las Vegas', 'Harry Reid International Airport', 65],
  ['NOLA', 'New Orleans', 'Louis Armstrong New Orleans International Airport', 70],
];

export const CITY_HIGH: IndicatorSpec = {
  id: 'city_high',
  category: 'climate',
  categoryRaw: 'Climate and Weather',
  series: 'KXHIGH',
  seriesTitle: 'Highest temperature in {city}',
  tags: ['Climate', 'Weather', 'Temperature'],
  cadence: 'daily',
  offsets: [-5],
  measure: 'the maximum temperature recorded at {station} in the National Weather Service Daily Climate Report for {p}',
  short: 'the high temperature in {city}',
  fmt: (k) => `${Math.round(k)}°F`,
  center: 52,
  step: 2,
  plan: nws('New York', 'Central Park'),
  hourEt: 23,
  strikeType: 'greater',
  variants: CITY_ROWS.map(
    ([code, city, station, center]): IndicatorVariant => ({
      code,
      vars: { city, station },
      plan: nws(city, station),
      center,
    }),
  ),
};

const STOCK_ROWS: ReadonlyArray<readonly [string, string, string, number]> = [
  ['AAPL', 'Apple', 'Nasdaq', 232],
  ['NVDA', 'NVIDIA', 'Nasdaq', 181],
  ['MSFT', 'Microsoft', 'Nasdaq', 508],
  ['GOOGL', 'Alphabet', 'Nasdaq', 251],
  ['AMZN', 'Amazon', 'Nasdaq', 224],
  ['META', 'Meta', 'Nasdaq', 731],
  ['TSLA', 'Tesla', 'Nasdaq', 428],
  ['NFLX', 'Netflix', 'Nasdaq', 1205],
  ['PLTR', 'Palantir', 'Nasdaq', 176],
  ['COIN', 'Coinbase', 'Nasdaq', 318],
  ['JPM', 'JPMorgan Chase', 'NYSE', 302],
  ['DIS', 'Disney', 'NYSE', 114],
  ['AMD', 'AMD', 'Nasdaq', 238],
  ['ORCL', 'Oracle', 'NYSE', 288],
  ['AVGO', 'Broadcom', 'Nasdaq', 342],
  ['INTC', 'Intel', 'Nasdaq', 37],
  ['CRM', 'Salesforce', 'NYSE', 246],
  ['ADBE', 'Adobe', 'Nasdaq', 352],
  ['UBER', 'Uber', 'NYSE', 96],
  ['BA', 'Boeing', 'NYSE', 218],
  ['WMT', 'Walmart', 'Nasdaq', 103],
];

export const STOCK_CLOSE: IndicatorSpec = {
  tradingDays: true,
  id: 'stock_close',
  category: 'companies',
  categoryRaw: 'Companies',
  series: 'KXSTOCK',
  seriesTitle: '{name} daily close',
  tags: ['Business', 'Stocks'],
  cadence: 'daily',
  offsets: [-4],
  measure: 'the official closing price of {name} ({ticker}) common stock on the {exchange} on {p}',
  short: '{name} ({ticker}) stock',
  fmt: (k) => `$${groupDigits(k, k < 100 ? 2 : 0)}`,
  center: 200,
  step: 2,
  plan: {
    authority: { name: 'Nasdaq', url: 'https://www.nasdaq.com/market-activity/stocks' },
    prose: 'the official closing price published by the listing exchange',
  },
  hourEt: 16,
  variants: STOCK_ROWS.map(
    ([ticker, name, exchange, center]): IndicatorVariant => ({
      code: ticker,
      vars: { name, ticker, exchange },
      center,
      step: niceStep(center * 0.015),
      entity: name,
      plan: {
        authority: { name: exchange, url: `https://www.nasdaq.com/market-activity/stocks/${ticker.toLowerCase()}` },
        illustrative: {
          name: 'Google Finance',
          url: `https://www.google.com/finance/quote/${ticker}:${exchange === 'NYSE' ? 'NYSE' : 'NASDAQ'}`,
        },
        aggregator: { name: 'Yahoo Finance', url: `https://finance.yahoo.com/quote/${ticker}` },
        prose: `the official closing price published by the ${exchange}`,
      },
    }),
  ),
};

const INDEX_ROWS: ReadonlyArray<readonly [string, string, string, string, number]> = [
  [
    'DJI',
    'the Dow Jones Industrial Average',
    'S&P Dow Jones Indices',
    'https://www.spglobal.com/spdji/en/indices/equity/dow-jones-industrial-average/',
    46_500,
  ],
  ['RUT', 'the Russell 2000', 'FTSE Russell', 'https://www.lseg.com/en/ftse-russell/indices/russell-us', 2_450],
  ['FTSE', 'the FTSE 100', 'FTSE Russell', 'https://www.lseg.com/en/ftse-russell/indices/uk', 9_500],
  ['DAX', 'the DAX', 'Deutsche Börse', 'https://www.deutsche-boerse.com/dbg-en/our-company/know-how/indices', 24_000],
  ['N225', 'the Nikkei 225', 'Nikkei Inc.', 'https://indexes.nikkei.co.jp/en/nkave', 48_000],
];

export const WORLD_INDEX: IndicatorSpec = {
  tradingDays: true,
  id: 'world_index',
  category: 'financials',
  categoryRaw: 'Financials',
  series: 'KXIDX',
  seriesTitle: '{index} daily close',
  tags: ['Finance', 'Stocks', 'Indices'],
  cadence: 'daily',
  offsets: [-3],
  measure: 'the official closing value of {index} on {p}',
  short: '{index}',
  fmt: (k) => groupDigits(k, 2),
  center: 10_000,
  step: 50,
  plan: {
    authority: { name: 'S&P Dow Jones Indices', url: 'https://www.spglobal.com/spdji/' },
    prose: 'the index provider',
  },
  hourEt: 16,
  variants: INDEX_ROWS.map(
    ([code, index, provider, url, center]): IndicatorVariant => ({
      code,
      vars: { index },
      center,
      step: niceStep(center * 0.004),
      plan: {
        authority: { name: provider, url },
        illustrative: { name: 'Google Finance', url: 'https://www.google.com/finance' },
        prose: provider,
      },
    }),
  ),
};

const COMMODITY_ROWS: ReadonlyArray<readonly [string, string, string, number, string]> = [
  [
    'SILVER',
    'silver',
    'the COMEX silver front-month settlement price (USD per troy ounce)',
    52,
    'https://www.cmegroup.com/markets/metals/precious/silver.settlements.html',
  ],
  [
    'COPPER',
    'copper',
    'the COMEX copper front-month settlement price (USD per pound)',
    5.1,
    'https://www.cmegroup.com/markets/metals/base/copper.settlements.html',
  ],
  [
    'NATGAS',
    'natural gas',
    'the NYMEX Henry Hub natural gas front-month settlement price (USD per MMBtu)',
    3.9,
    'https://www.cmegroup.com/markets/energy/natural-gas/natural-gas.settlements.html',
  ],
  [
    'PLAT',
    'platinum',
    'the NYMEX platinum front-month settlement price (USD per troy ounce)',
    1550,
    'https://www.cmegroup.com/markets/metals/precious/platinum.settlements.html',
  ],
  [
    'BRENT',
    'Brent crude',
    'the ICE Brent crude front-month settlement price (USD per barrel)',
    68,
    'https://www.ice.com/products/219/Brent-Crude-Futures/data',
  ],
];

export const COMMODITY: IndicatorSpec = {
  tradingDays: true,
  id: 'commodity',
  category: 'financials',
  categoryRaw: 'Financials',
  series: 'KX',
  seriesTitle: '{name} price',
  tags: ['Finance', 'Commodities'],
  cadence: 'daily',
  offsets: [-2],
  measure: '{what} on {p}',
  short: 'the {name} price',
  fmt: (k) => `$${trimNum(k, 2)}`,
  center: 10,
  step: 1,
  plan: { authority: { name: 'CME Group', url: 'https://www.cmegroup.com' }, prose: 'CME Group' },
  hourEt: 15,
  variants: COMMODITY_ROWS.map(
    ([code, name, what, center, url]): IndicatorVariant => ({
      code,
      vars: { name, what },
      center,
      step: niceStep(center * 0.01),
      plan: {
        authority: { name: code === 'BRENT' ? 'ICE Futures Europe' : 'CME Group', url },
        prose: code === 'BRENT' ? 'ICE Futures Europe' : 'CME Group',
      },
    }),
  ),
};

const CPI_ROWS: ReadonlyArray<readonly [string, string, string, string, string, number]> = [
  ['EZ', 'the euro area', 'HICP', 'Eurostat', 'https://ec.europa.eu/eurostat/web/hicp', 2.1],
  [
    'UK',
    'the United Kingdom',
    'CPI',
    'the Office for National Statistics',
    'https://www.ons.gov.uk/economy/inflationandpriceindices',
    3.6,
  ],
  [
    'CA',
    'Canada',
    'CPI',
    'Statistics Canada',
    'https://www.statcan.gc.ca/en/subjects-start/prices_and_price_indexes/consumer_price_indexes',
    2.3,
  ],
  ['JP', 'Japan', 'CPI', 'the Statistics Bureau of Japan', 'https://www.stat.go.jp/english/data/cpi/', 2.8],
  [
    'AU',
    'Australia',
    'monthly CPI indicator',
    'the Australian Bureau of Statistics',
    'https://www.abs.gov.au/statistics/economy/price-indexes-and-inflation',
    3.0,
  ],
];

export const WORLD_CPI: IndicatorSpec = {
  id: 'world_cpi',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXCPI',
  seriesTitle: 'Inflation in {country}',
  tags: ['Economy', 'Inflation'],
  cadence: 'monthly',
  offsets: [-1],
  measure: 'the year-over-year change in the {index} for {country} for {p} as first published by {agency}',
  short: 'inflation in {country}',
  fmt: (k) => `${trimNum(k, 1)}%`,
  center: 2.5,
  step: 0.1,
  plan: { authority: { name: 'Eurostat', url: 'https://ec.europa.eu/eurostat' }, prose: 'Eurostat' },
  variants: CPI_ROWS.map(
    ([code, country, index, agency, url, center]): IndicatorVariant => ({
      code,
      vars: { country, index, agency },
      center,
      plan: { authority: { name: agency.replace(/^the /, ''), url }, prose: agency },
    }),
  ),
};

const BANK_ROWS: ReadonlyArray<readonly [string, string, string, string, number]> = [
  [
    'ECB',
    'the European Central Bank',
    'deposit facility rate',
    'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html',
    2.0,
  ],
  [
    'BOE',
    'the Bank of England',
    'Bank Rate',
    'https://www.bankofengland.co.uk/monetary-policy/the-interest-rate-bank-rate',
    4.0,
  ],
  [
    'BOJ',
    'the Bank of Japan',
    'short-term policy interest rate',
    'https://www.boj.or.jp/en/mopo/mpmdeci/index.htm',
    0.5,
  ],
  [
    'BOC',
    'the Bank of Canada',
    'target for the overnight rate',
    'https://www.bankofcanada.ca/core-functions/monetary-policy/key-interest-rate/',
    2.25,
  ],
  ['RBA', 'the Reserve Bank of Australia', 'cash rate target', 'https://www.rba.gov.au/statistics/cash-rate/', 3.6],
];

export const CENTRAL_BANK: IndicatorSpec = {
  id: 'central_bank',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXRATE',
  seriesTitle: '{bank} policy rate',
  tags: ['Economy', 'Interest Rates'],
  cadence: 'meeting',
  offsets: [0],
  measure: 'the {rate} announced by {bank} following {p}',
  short: "{bank}'s {rate}",
  fmt: (k) => `${trimNum(k, 2)}%`,
  center: 2,
  step: 0.25,
  plan: {
    authority: { name: 'European Central Bank', url: 'https://www.ecb.europa.eu' },
    prose: 'the European Central Bank',
  },
  hourEt: 9,
  variants: BANK_ROWS.map(
    ([code, bank, rate, url, center]): IndicatorVariant => ({
      code,
      vars: { bank, rate },
      center,
      entity: bank,
      plan: { authority: { name: bank.replace(/^the /, ''), url }, prose: `${bank}'s official website` },
    }),
  ),
};
