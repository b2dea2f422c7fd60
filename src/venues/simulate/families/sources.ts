/** Resolution sources the family catalogues cite: each authority, with its aggregator, loose example and fallback where a template needs one. */
import type { SourcePlan } from '../model.ts';

export const BLS: SourcePlan = {
  authority: { name: 'Bureau of Labor Statistics', url: 'https://www.bls.gov/cpi/' },
  aggregator: { name: 'Trading Economics', url: 'https://tradingeconomics.com/united-states/inflation-cpi' },
  fallback: {
    name: 'the Federal Reserve Bank of St. Louis (FRED)',
    url: 'https://fred.stlouisfed.org/series/CPIAUCSL',
  },
  prose: 'the Bureau of Labor Statistics (BLS)',
};
export const FED: SourcePlan = {
  authority: { name: 'Federal Reserve', url: 'https://www.federalreserve.gov/monetarypolicy/openmarket.htm' },
  prose: "the Federal Reserve's official website",
  fallback: { name: 'the FOMC statement', url: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm' },
};
export const AAA: SourcePlan = {
  authority: { name: 'AAA', url: 'https://gasprices.aaa.com' },
  prose: 'the AAA national average price for regular gasoline (https://gasprices.aaa.com)',
  fallback: { name: 'the U.S. Energy Information Administration', url: 'https://www.eia.gov/petroleum/gasdiesel/' },
};
export const EIA_GAS: SourcePlan = {
  authority: { name: 'U.S. Energy Information Administration', url: 'https://www.eia.gov/petroleum/gasdiesel/' },
  prose: "the U.S. Energy Information Administration's weekly retail gasoline price series",
};
export const SPX: SourcePlan = {
  authority: { name: 'S&P Dow Jones Indices', url: 'https://www.spglobal.com/spdji/en/indices/equity/sp-500/' },
  illustrative: { name: 'Google Finance', url: 'https://www.google.com/finance/quote/.INX:INDEXSP' },
  aggregator: { name: 'Yahoo Finance', url: 'https://finance.yahoo.com/quote/%5EGSPC/' },
  prose: 'S&P Dow Jones Indices',
};
export const NDX: SourcePlan = {
  authority: { name: 'Nasdaq', url: 'https://www.nasdaq.com/market-activity/index/ndx' },
  illustrative: { name: 'Google Finance', url: 'https://www.google.com/finance/quote/NDX:INDEXNASDAQ' },
  prose: 'Nasdaq, Inc.',
};
export const TREASURY: SourcePlan = {
  authority: {
    name: 'U.S. Department of the Treasury',
    url: 'https://home.treasury.gov/resource-center/data-chart-center/interest-rates',
  },
  aggregator: {
    name: 'investing.com',
    url: 'https://www.investing.com/rates-bonds/u.s.-10-year-bond-yield-historical-data',
  },
  prose: 'the U.S. Department of the Treasury daily par yield curve rates',
};
export const CME: SourcePlan = {
  authority: {
    name: 'CME Group',
    url: 'https://www.cmegroup.com/markets/energy/crude-oil/light-sweet-crude.settlements.html',
  },
  aggregator: { name: 'MarketWatch', url: 'https://www.marketwatch.com/investing/future/cl.1' },
  prose: 'the official settlement price published by CME Group',
};
export const COMEX: SourcePlan = {
  authority: {
    name: 'CME Group (COMEX)',
    url: 'https://www.cmegroup.com/markets/metals/precious/gold.settlements.html',
  },
  illustrative: { name: 'Google Finance', url: 'https://www.google.com/finance/quote/GCW00:COMEX' },
  prose: 'the COMEX gold front-month settlement price published by CME Group',
};
export const BEA: SourcePlan = {
  authority: { name: 'Bureau of Economic Analysis', url: 'https://www.bea.gov/data/gdp/gross-domestic-product' },
  prose: 'the Bureau of Economic Analysis (BEA)',
  fallback: {
    name: 'the Federal Reserve Bank of St. Louis (FRED)',
    url: 'https://fred.stlouisfed.org/series/A191RL1Q225SBEA',
  },
};
export const FREDDIE: SourcePlan = {
  authority: { name: 'Freddie Mac', url: 'https://www.freddiemac.com/pmms' },
  prose: "Freddie Mac's Primary Mortgage Market Survey (PMMS)",
};
export const ECB: SourcePlan = {
  authority: {
    name: 'European Central Bank',
    url: 'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
  },
  prose: 'the euro foreign exchange reference rate published by the European Central Bank',
};
/** Politics and geopolitics families as data (elections, offices, conflicts, diplomacy). */
export const CONGRESS: SourcePlan = {
  authority: { name: 'Congress.gov', url: 'https://www.congress.gov' },
  prose: 'the official record at Congress.gov',
};
export const FEDREG: SourcePlan = {
  authority: {
    name: 'Federal Register',
    url: 'https://www.federalregister.gov/presidential-documents/executive-orders',
  },
  prose: 'the Federal Register',
};
export const GOVT = (s: string): SourcePlan => ({
  authority: { name: `the government of ${s}`, url: 'https://www.un.org/en/about-us/member-states' },
  prose: `official announcements from the government of ${s}`,
});
export const ISW: SourcePlan = {
  authority: {
    name: 'Institute for the Study of War',
    url: 'https://www.understandingwar.org/backgrounder/ukraine-conflict-updates',
  },
  prose: 'the Institute for the Study of War (ISW) interactive map',
  fallback: { name: 'DeepStateMap', url: 'https://deepstatemap.live' },
};
export const ELECTION: SourcePlan = {
  authority: { name: 'the certifying election authority', url: 'https://www.eac.gov' },
  prose: 'the official certified results published by the relevant election authority',
  aggregator: { name: 'Decision Desk HQ', url: 'https://decisiondeskhq.com' },
};
export const RCP: SourcePlan = {
  authority: {
    name: 'RealClearPolling',
    url: 'https://www.realclearpolling.com/polls/approval/donald-trump/approval-rating',
  },
  aggregator: {
    name: 'RealClearPolling',
    url: 'https://www.realclearpolling.com/polls/approval/donald-trump/approval-rating',
  },
  prose: 'the RealClearPolling presidential job approval average',
};
export const SEC: SourcePlan = {
  authority: { name: 'U.S. Securities and Exchange Commission (EDGAR)', url: 'https://www.sec.gov/edgar/search/' },
  prose: "the company's filings with the SEC (EDGAR)",
};
export const ISSUER = (c: string): SourcePlan => ({
  authority: { name: `${c} investor relations`, url: `https://investor.${c.toLowerCase().replace(/[^a-z]/g, '')}.com` },
  prose: `official information from ${c}`,
});
export const CDC: SourcePlan = {
  authority: { name: 'Centers for Disease Control and Prevention', url: 'https://www.cdc.gov/measles/data-research/' },
  prose: 'the CDC',
  fallback: { name: 'the World Health Organization', url: 'https://www.who.int' },
};
export const FDA: SourcePlan = {
  authority: { name: 'U.S. Food and Drug Administration', url: 'https://www.fda.gov/drugs/news-events-human-drugs' },
  prose: 'the FDA',
};
export const WHO: SourcePlan = {
  authority: { name: 'World Health Organization', url: 'https://www.who.int/news' },
  prose: 'the World Health Organization',
};
export const NOAA: SourcePlan = {
  authority: {
    name: 'NOAA National Centers for Environmental Information',
    url: 'https://www.ncei.noaa.gov/access/monitoring/monthly-report/global/',
  },
  prose: 'NOAA National Centers for Environmental Information',
  fallback: { name: 'NASA GISS', url: 'https://data.giss.nasa.gov/gistemp/' },
};
export const COPERNICUS: SourcePlan = {
  authority: {
    name: 'Copernicus Climate Change Service',
    url: 'https://climate.copernicus.eu/surface-air-temperature-maps',
  },
  prose: 'the Copernicus Climate Change Service (ERA5)',
};
export const NWS = (city: string): SourcePlan => ({
  authority: { name: 'National Weather Service', url: 'https://www.weather.gov/wrh/climate' },
  prose: `the National Weather Service Daily Climate Report (CLI) for ${city}`,
  aggregator: { name: 'Weather Underground', url: 'https://www.wunderground.com/history' },
});
export const LMARENA: SourcePlan = {
  authority: { name: 'LMArena Text Leaderboard', url: 'https://lmarena.ai/leaderboard/text' },
  prose: 'the LMArena Text Leaderboard',
};
