/** Economics families as data: inflation, jobs, GDP, the Fed, gas and mortgage rates, recessions, shutdowns, tariffs. */
import { groupDigits, trimNum } from '../calendar.ts';
import type { ChoiceSpec, HappeningSpec } from './generic.ts';
import type { IndicatorSpec } from './indicator.ts';
import { AAA, BEA, BLS, EIA_GAS, FED, FREDDIE } from './sources.ts';

/** Economics and financials families as data (indicators, happenings, choices). */
const pct = (k: number): string => `${trimNum(k, 2)}%`;
const usd = (k: number): string => `$${k.toFixed(2)}`;
const SNAPSHOT = 'Revisions published after the initial release will not be considered.';
export const CPI_YOY: IndicatorSpec = {
  group: 'cpi',
  id: 'cpi_yoy',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXCPIYOY',
  seriesTitle: 'Inflation (CPI year-over-year)',
  tags: ['Economy', 'Inflation', 'CPI'],
  cadence: 'monthly',
  offsets: [0, 1, 2, 3, -1],
  measure:
    'the year-over-year percent change in the Consumer Price Index for All Urban Consumers (CPI-U) for {p}, rounded to one decimal place,',
  short: 'CPI inflation',
  fmt: pct,
  center: 2.9,
  step: 0.1,
  plan: BLS,
  extrasA: [SNAPSHOT],
};
export const CORE_CPI_YOY: IndicatorSpec = {
  ...CPI_YOY,
  id: 'core_cpi_yoy',
  series: 'KXCPICOREYOY',
  seriesTitle: 'Core inflation (year-over-year)',
  measure:
    'the year-over-year percent change in the CPI-U excluding food and energy (core CPI) for {p}, rounded to one decimal place,',
  short: 'core CPI inflation',
  center: 3.0,
};
export const TRUFLATION_YOY: IndicatorSpec = {
  ...CPI_YOY,
  id: 'truflation_yoy',
  series: 'KXTRUF',
  measure: 'the Truflation US CPI Inflation Index year-over-year reading for {p}',
  short: 'Truflation US inflation',
  plan: {
    authority: { name: 'Truflation', url: 'https://truflation.com/marketplace/us-inflation-rate' },
    prose: 'the Truflation US CPI Inflation Index',
  },
};
export const UNEMPLOYMENT: IndicatorSpec = {
  id: 'unemployment',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXU3',
  seriesTitle: 'Unemployment rate',
  tags: ['Economy', 'Jobs'],
  cadence: 'monthly',
  offsets: [0, 1, 2, -1],
  measure: 'the U-3 unemployment rate for {p} as first reported in the Employment Situation release',
  short: 'the unemployment rate',
  fmt: pct,
  center: 4.3,
  step: 0.1,
  plan: {
    ...BLS,
    authority: { name: 'Bureau of Labor Statistics', url: 'https://www.bls.gov/news.release/empsit.toc.htm' },
  },
};
export const PAYROLLS: IndicatorSpec = {
  id: 'payrolls',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXPAYROLLS',
  seriesTitle: 'Jobs numbers',
  tags: ['Economy', 'Jobs'],
  cadence: 'monthly',
  offsets: [0, 1, 2],
  measure: 'the change in total nonfarm payroll employment for {p} in the initial Employment Situation release',
  short: 'nonfarm payrolls growth',
  fmt: (k) => `${groupDigits(k * 1000)}`,
  center: 120,
  step: 25,
  plan: { ...BLS, authority: { name: 'Bureau of Labor Statistics', url: 'https://www.bls.gov/ces/' } },
  strikeType: 'greater_or_equal',
  extrasA: [SNAPSHOT],
  allowNegative: true,
};
export const GDP: IndicatorSpec = {
  id: 'gdp',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXGDP',
  seriesTitle: 'GDP growth',
  tags: ['Economy', 'GDP'],
  cadence: 'quarterly',
  offsets: [0, 1, 2],
  measure: 'the seasonally adjusted annualized rate of real GDP growth for {p} in the advance estimate',
  short: 'US GDP growth',
  fmt: pct,
  center: 1.8,
  step: 0.5,
  plan: BEA,
  extrasA: [SNAPSHOT],
  allowNegative: true,
};
export const FED_RATE: IndicatorSpec = {
  id: 'fed_rate',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXFED',
  seriesTitle: 'Fed funds rate',
  tags: ['Economy', 'Fed Rates', 'FOMC'],
  cadence: 'meeting',
  offsets: [1, 2, 3, 4, 0],
  measure:
    "the upper bound of the target federal funds rate published on the Federal Reserve's official website following {p}",
  short: 'the upper bound of the federal funds rate',
  fmt: pct,
  center: 3.6,
  step: 0.25,
  plan: FED,
  hourEt: 14,
  extrasA: [
    'This market will expire the first 2:05 PM ET following the release of a Federal Reserve statement for that meeting or one week following the last day of that meeting.',
  ],
  entity: 'Federal Reserve',
};
export const GAS_AAA: IndicatorSpec = {
  group: 'gas',
  id: 'gas_aaa',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXAAAGASM',
  seriesTitle: 'US gas prices',
  tags: ['Economy', 'Gas Prices'],
  cadence: 'weekly',
  offsets: [0, 1, 2, 3, -1],
  measure: 'the national average price of regular gasoline reported by AAA for {p}',
  short: 'the US average gas price',
  fmt: usd,
  center: 3.12,
  step: 0.05,
  plan: AAA,
};
export const GAS_EIA: IndicatorSpec = {
  ...GAS_AAA,
  id: 'gas_eia',
  series: 'KXEIAGAS',
  measure: "the U.S. regular all-formulations retail gasoline price published in the EIA's weekly series for {p}",
  plan: EIA_GAS,
};
export const MORTGAGE: IndicatorSpec = {
  id: 'mortgage',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXMORTGAGE',
  seriesTitle: '30-year mortgage rate',
  tags: ['Economy', 'Housing'],
  cadence: 'weekly',
  offsets: [0, 1, 2, 3],
  measure: 'the 30-year fixed-rate mortgage average in the Primary Mortgage Market Survey for {p}',
  short: 'the 30-year mortgage rate',
  fmt: pct,
  center: 6.3,
  step: 0.05,
  plan: FREDDIE,
};
export const FED_DECISION: ChoiceSpec = {
  id: 'fed_decision',
  category: 'economics',
  categoryRaw: 'Economics',
  series: 'KXFEDDECISION',
  tags: ['Economy', 'Fed Rates', 'FOMC'],
  contests: ['{m} FOMC meeting'],
  numeric: true,
  outcomes: ['Cut >25bps', 'Cut 25bps', 'Hold', 'Hike 25bps', 'Hike >25bps'],
  condition:
    'the outcome of the {c} is "{o}" according to the change in the upper bound of the target federal funds rate',
  question: 'Fed decision at the {c}: {o}?',
  eventTitle: 'Fed decision at the {c}?',
  plan: FED,
  deadlineMonths: 1,
  extras: [
    'If the target range is changed by an amount not shown, the change is rounded up to the nearest 25 basis points.',
  ],
};
export const HAPPENINGS_MACRO: readonly HappeningSpec[] = [
  {
    id: 'recession',
    category: 'economics',
    categoryRaw: 'Economics',
    series: 'RECSSNBER',
    tags: ['Economy', 'Recession'],
    subjects: ['the United States', 'Germany', 'the United Kingdom', 'Japan', 'Canada'],
    condition:
      'the National Bureau of Economic Research (or the national statistics office for {s}) announces that a recession has begun in {s}',
    question: 'Recession in {s} {d}?',
    eventTitle: 'Recession in {s}?',
    plan: {
      authority: {
        name: 'National Bureau of Economic Research',
        url: 'https://www.nber.org/research/business-cycle-dating',
      },
      prose: 'the NBER Business Cycle Dating Committee',
    },
    hazard: 0.03,
    firstMonths: 5,
    // Two co-equal resolution paths and no rule for when they disagree (a documented failure shape).
    extras: [
      'This market will also resolve to "Yes" if the advance estimates show two consecutive quarters of negative real GDP growth for {s}.',
    ],
  },
  {
    id: 'shutdown',
    category: 'economics',
    categoryRaw: 'Economics',
    series: 'KXGOVSHUT',
    tags: ['Economy', 'US Government'],
    subjects: ['the federal government'],
    condition:
      'a lapse in appropriations causes {s} to shut down, as shown on the Office of Personnel Management operating status page',
    question: 'Government shutdown {d}?',
    eventTitle: 'Government shutdown?',
    plan: {
      authority: {
        name: 'Office of Personnel Management',
        url: 'https://www.opm.gov/policy-data-oversight/snow-dismissal-procedures/current-status/',
      },
      prose: 'the OPM operating status page',
    },
    hazard: 0.08,
    kit: { mutability: 'editable' },
  },
  {
    id: 'tariff',
    category: 'economics',
    categoryRaw: 'Economics',
    series: 'KXTARIFF',
    tags: ['Economy', 'Tariffs', 'Trade War'],
    subjects: ['China', 'the European Union', 'Mexico', 'Canada', 'Japan', 'India', 'Brazil', 'Vietnam'],
    condition:
      'the United States imposes a new tariff of at least 25% on a broad category of imports from {s}, as published in the Federal Register',
    question: 'New US tariffs on {s} {d}?',
    eventTitle: 'New US tariffs on {s}?',
    plan: {
      authority: { name: 'Federal Register', url: 'https://www.federalregister.gov' },
      prose: 'the Federal Register',
    },
    hazard: 0.1,
  },
  {
    id: 'emergency_cut',
    category: 'economics',
    categoryRaw: 'Economics',
    series: 'KXFEDEMERG',
    tags: ['Economy', 'Fed Rates'],
    subjects: ['the Federal Reserve'],
    condition: '{s} lowers the target federal funds rate at an unscheduled (emergency) meeting',
    question: 'Emergency Fed rate cut {d}?',
    eventTitle: 'Emergency Fed rate cut?',
    plan: FED,
    hazard: 0.01,
  },
];
