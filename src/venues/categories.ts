/**
 * Venue categories onto the nine service categories (spec §2.1), and the keyword classifier for
 * records that arrive without a usable venue category (about two thirds of recorded venue_b
 * markets: tags live only on Gamma events, and `/markets` pages nest events without tags).
 *
 * A result is either one of the nine or an out-of-scope reason `category:<name>`; the pipeline
 * counts those and stores nothing.
 */
import type { Category } from '../domain/index.ts';

export type CategoryVerdict =
  | { kind: 'in'; category: Category; via: 'venue' | 'keywords'; matched: string }
  | { kind: 'out'; reason: string; via: 'venue' | 'keywords' | 'none'; matched: string | null };

/**
 * venue_a event / series `category` → service category. `null` = out of scope under that name.
 *
 * | venue_a category         | service     |
 * |--------------------------|-------------|
 * | Economics                | economics   |
 * | Financials               | financials  |
 * | Crypto                   | crypto      |
 * | Companies                | companies   |
 * | Science and Technology   | technology  |
 * | Politics, Elections      | politics    |
 * | World                    | geopolitics |
 * | Health                   | health      |
 * | Climate and Weather      | climate     |
 * | Sports, Entertainment, Mentions, Social, Education, Transportation | out of scope |
 */
export const VENUE_A_CATEGORY_TABLE: Readonly<Record<string, Category | null>> = {
  economics: 'economics',
  financials: 'financials',
  crypto: 'crypto',
  companies: 'companies',
  'science and technology': 'technology',
  politics: 'politics',
  elections: 'politics',
  world: 'geopolitics',
  health: 'health',
  'climate and weather': 'climate',
  sports: null,
  entertainment: null,
  mentions: null,
  social: null,
  education: null,
  transportation: null,
};

/**
 * venue_b event tag slug → service category (`null` = out of scope as `category:<group>`).
 * The first tag of an event (in the venue's order) that appears here decides; tags such as
 * `featured`, `2025-predictions` or `hide-from-new` are skipped.
 */
const TAG_GROUPS: ReadonlyArray<readonly [Category | 'sports' | 'entertainment', readonly string[]]> = [
  [
    'sports',
    [
      'sports',
      'nba',
      'nfl',
      'nhl',
      'mlb',
      'soccer',
      'basketball',
      'hockey',
      'baseball',
      'football',
      'tennis',
      'golf',
      'ufc',
      'mma',
      'boxing',
      'f1',
      'esports',
      'cricket',
      'olympics',
      'world-cup',
      'fifa-world-cup',
      'epl',
      'champions-league',
      'nba-finals',
      'nba-playoffs',
      'super-bowl',
      'ncaa',
      'wnba',
      'games',
    ],
  ],
  [
    'entertainment',
    [
      'pop-culture',
      'culture',
      'music',
      'celebrities',
      'movies',
      'box-office',
      'hollywood',
      'awards',
      'entertainment',
      'tv',
      'oscars',
      'grammys',
      'taylor-swift',
      'youtube',
      'twitter',
      'social-media',
      'mentions',
      'tweet-markets',
      'divorce',
      'creators',
    ],
  ],
  [
    'geopolitics',
    [
      'geopolitics',
      'middle-east',
      'iran',
      'israel',
      'ukraine',
      'russia',
      'gaza',
      'hamas',
      'foreign-policy',
      'nato',
      'north-korea',
      'syria',
      'world',
      'military-action',
      'macro-geopolitics',
      'china',
      'taiwan',
      'india-pakistan',
      'us-iran',
      'israel-strike-iran',
      'venezuela',
      'iraq',
      'khamenei',
      'putin',
      'zelensky',
      'assad',
      'greenland',
    ],
  ],
  [
    'politics',
    [
      'politics',
      'us-politics',
      'elections',
      'global-elections',
      'world-elections',
      'trump',
      'trump-presidency',
      'senate-elections',
      'us-presidential-election',
      'nyc-mayor',
      'mayoral',
      'uptspt-politics',
      'trump-cabinet',
      'us-government',
      'courts',
      'scotus',
      'maga',
      'campaign-promises',
      'social-policy',
      'us-election',
      'midterms',
    ],
  ],
  [
    'crypto',
    [
      'crypto',
      'crypto-prices',
      'bitcoin',
      'ethereum',
      'solana',
      'xrp',
      'stablecoins',
      'btc',
      'eth',
      'altcoin',
      'altcoins',
      'crypto-policy',
      'ripple',
      'cardano',
      'litecoin',
      'ltc',
      'doge',
      'pepe',
      'airdrops',
      'microstrategy',
      'depeg',
      'hit-price',
      'up-or-down',
    ],
  ],
  [
    'economics',
    [
      'economy',
      'economic-policy',
      'fed-rates',
      'fed',
      'inflation',
      'recession',
      'tariffs',
      'trade-war',
      'deficit',
      'macro-single',
      'jobs',
      'gdp',
      'cpi',
      'fomc',
      'interest-rates',
      'liberation-day-tariffs',
    ],
  ],
  [
    'financials',
    [
      'finance',
      'stocks',
      'commodities',
      'gold',
      'treasuries',
      'nyse',
      'etf',
      'metals',
      'oil',
      'indices',
      'sp500',
      'forex',
    ],
  ],
  [
    'companies',
    [
      'business',
      'big-tech',
      'ceo',
      'companies',
      'earnings',
      'ipo',
      'ipos',
      'spacex',
      'tesla',
      'apple',
      'nvidia',
      'microsoft',
    ],
  ],
  [
    'technology',
    [
      'tech',
      'ai',
      'artificial-intelligence',
      'openai',
      'llm',
      'science',
      'space',
      'deepseek',
      'grok',
      'sam-altman',
      'technology',
      'internet',
    ],
  ],
  ['health', ['health', 'pandemics', 'bird-flu', 'h5n1', 'covid', 'flu', 'vaccine', 'measles', 'dissease', 'disease']],
  ['climate', ['climate', 'weather', 'global-warming', 'hurricanes', 'temperature']],
];

const TAG_TABLE: ReadonlyMap<string, Category | 'sports' | 'entertainment'> = new Map(
  TAG_GROUPS.flatMap(([cat, slugs]) => slugs.map((s) => [s, cat] as const)),
);

/** Maps venue_a's own category name. Unknown or empty names return null (fall back to keywords). */
export function categoryFromVenueA(name: string | null): CategoryVerdict | null {
  if (name === null || name.trim() === '') return null;
  const key = name.trim().toLowerCase();
  if (!(key in VENUE_A_CATEGORY_TABLE)) return null;
  const mapped = VENUE_A_CATEGORY_TABLE[key];
  if (mapped) return { kind: 'in', category: mapped, via: 'venue', matched: name };
  return { kind: 'out', reason: `category:${slugReason(key)}`, via: 'venue', matched: name };
}

/** Maps venue_b event tags (slugs or labels), first mapped tag wins. Null when no tag maps. */
export function categoryFromVenueBTags(
  tags: ReadonlyArray<{ slug: string | null; label: string | null }>,
): CategoryVerdict | null {
  for (const t of tags) {
    for (const k of [t.slug, t.label]) {
      if (!k) continue;
      const hit = TAG_TABLE.get(k.trim().toLowerCase().replace(/\s+/g, '-'));
      if (hit === undefined) continue;
      if (hit === 'sports' || hit === 'entertainment')
        return { kind: 'out', reason: `category:${hit}`, via: 'venue', matched: k };
      return { kind: 'in', category: hit, via: 'venue', matched: k };
    }
  }
  return null;
}

/**
 * Keyword classifier, in priority order: the first rule whose pattern occurs in the text decides.
 * Sports and entertainment come first so that "Will Trump attend the Super Bowl?" is not politics;
 * geopolitics comes before politics so that "US strikes Iran" is not domestic politics.
 */
const KEYWORD_RULES: ReadonlyArray<readonly [Category | 'sports' | 'entertainment' | 'mentions', RegExp]> = [
  [
    'mentions',
    /\b(say|mention|tweet)s?\b.{0,40}\b(during|times|in (his|her) (speech|address))\b|\bwhat (\w+ )?will .{0,30} say\b|# ?(of )?tweets|number of tweets|tweet count/i,
  ],
  [
    'sports',
    /\b(nfl|nba|nhl|mlb|wnba|mls|ncaa[fb]?|ufc|mma|fifa|uefa|epl|premier league|la liga|serie a|bundesliga|ligue 1|champions league|europa league|world cup|super bowl|stanley cup|world series|grand slam|wimbledon|french open|australian open|grand prix|formula 1|f1|nascar|olympics?|esports|league of legends|counter-strike|dota|valorant|cricket|ipl|golf|pga|masters tournament|boxing|heisman|mvp|playoffs?|touchdowns?|pro (football|basketball|hockey|baseball)|end in a draw|win on \d{4}-\d\d-\d\d|fc|atp|wta|euro ?basket|six nations|rugby|honor of kings|qualification|championships|quarterback|goals? scored|o\/u|over\/under|moneyline|college football|basketball|baseball|hockey|soccer|tennis)\b/i,
  ],
  // Match lines ("Lamar Cardinals vs. New Orleans Privateers"), best-of series, women's games, spreads, league prefixes.
  ['sports', /^[^?\n]{3,80}\bvs\.?\s[^?\n]{3,80}$|\((bo\d|w)\)|^spread: |^(khl|shl|snhl|del|ahl|lol|cs2|dota 2):/im],
  [
    'entertainment',
    /\b(oscars?|academy awards?|grammys?|emmys?|golden globes?|eurovision|billboard|spotify|album|song|box office|movie|film|netflix|tv show|season \d|taylor swift|kanye|drake|beyonce|celebrity|rotten tomatoes|youtube|mrbeast|tiktok followers|time person of the year|halftime show|bachelor|survivor|love island|gta (vi|6)|video game|pregnant|met gala|awards?|biopic|pok[eé]mon|wedding|engaged|sanremo)\b/i,
  ],
  [
    'crypto',
    /\b(launch an? token|bitcoin|btc|ethereum|eth|solana|sol|xrp|ripple|dogecoin|doge|cardano|litecoin|crypto(currency)?|stablecoin|usdt|usdc|tether|memecoin|airdrop|fdv|token launch|coinbase listing|binance|chainlink|pump\.fun|altcoin)\b/i,
  ],
  [
    'economics',
    /\b(fed|fomc|federal reserve|interest rates?|rate (cut|hike)s?|bps|basis points|inflation|cpi|pce|gdp|recession|unemployment|jobs report|nonfarm|payrolls|jobless claims|tariffs?|trade deficit|deficit|national debt|debt ceiling|government shutdown|treasury secretary|economy|gas prices?|central bank|bank of (england|japan|canada|korea)|reserve bank|ecb|base rate|cash rate|home sales|residential sales|housing starts|census bureau|retail sales|debt downgrade|credit rating)\b/i,
  ],
  [
    'financials',
    /\b(s&p ?500|spx|nasdaq|dow jones|djia|russell 2000|stock market|treasury yields?|10-year|bond yields?|gold|silver|crude oil|oil price|wti|brent|vix|forex|eur\/usd|usd\/jpy|yen|dollar index)\b/i,
  ],
  [
    'companies',
    /\b(earnings|revenue|market cap|ipo|ceo|acquire|acquisition|merger|layoffs|stock split|apple|tesla|nvidia|microsoft|amazon|alphabet|google|meta|netflix|spacex|openai|anthropic|xai|twitter|elon musk|polymarket|kalshi)\b/i,
  ],
  [
    'technology',
    /\b(ai|artificial intelligence|agi|gpt-?\d|chatgpt|llm|gemini|claude|grok|deepseek|model release|quantum|semiconductor|chips?|starship|rocket launch|spacecraft|mars|moon landing|robot|humanoid|self-driving|autonomous)\b/i,
  ],
  [
    'health',
    /\b(covid|coronavirus|pandemic|epidemic|measles|bird flu|h5n1|mpox|ebola|vaccine|fda|cdc|who declares|outbreak|cases|disease|drug approval|overdose|life expectancy)\b/i,
  ],
  [
    'climate',
    /\b(climate|temperature|hottest|heat ?wave|hurricane|tornado|earthquake|wildfire|snowfall|snow|rainfall|precipitation|weather|global warming|arctic sea ice|emissions|co2|el ni[nñ]o|la ni[nñ]a|degrees)\b/i,
  ],
  [
    'geopolitics',
    /\b(iran|israel|gaza|hamas|hezbollah|houthis?|russia|ukraine|putin|zelensky|nato|china|taiwan|xi jinping|north korea|kim jong|syria|assad|venezuela|maduro|ceasefire|invade|invasion|war|military|missile|strike|airstrike|nuclear(?! option)|troops|sanctions|supreme leader|khamenei|regime|coup|annex|peace deal|hostages?|embassy|hormuz|un security council|nobel peace|wagner|moscow|kremlin)\b/i,
  ],
  [
    'politics',
    /\b(elections?|electoral|president(ial)?|presidency|senate|senator|house of representatives|congress(ional)?|governor|mayor|trump|biden|harris|vance|newsom|desantis|obama|democrats?|republicans?|gop|nominee|nomination|primary election|primaries|parliament|prime minister|chancellor|cabinet|impeach(ment)?|approval rating|poll|vote|referendum|supreme court|scotus|executive order|pardon|white house|secretary of|minister|party|midterms?|deport(ation|ed)?|doge|citizenship|charges dropped|indicted|sentenced|convicted|guilty)\b/i,
  ],
];

/** Classifies free text (question, description, event title). `derived` provenance on the caller. */
export function categoryFromKeywords(text: string): CategoryVerdict {
  for (const [cat, re] of KEYWORD_RULES) {
    const m = re.exec(text);
    if (!m) continue;
    if (cat === 'sports' || cat === 'entertainment' || cat === 'mentions') {
      return { kind: 'out', reason: `category:${cat}`, via: 'keywords', matched: m[0] };
    }
    return { kind: 'in', category: cat, via: 'keywords', matched: m[0] };
  }
  return { kind: 'out', reason: 'category:unclassified', via: 'none', matched: null };
}

/**
 * Venues file wars, strikes and foreign leaders under "Politics"; the service keeps those in
 * geopolitics so a question's twins on both venues share a category. A venue `politics` verdict
 * becomes `geopolitics` (provenance `derived`) when the title's keywords say geopolitics.
 */
export function refinePolitics(verdict: CategoryVerdict, title: string): CategoryVerdict {
  if (verdict.kind !== 'in' || verdict.category !== 'politics') return verdict;
  const k = categoryFromKeywords(title);
  if (k.kind === 'in' && k.category === 'geopolitics') {
    return { kind: 'in', category: 'geopolitics', via: 'keywords', matched: `${verdict.matched} + ${k.matched}` };
  }
  return verdict;
}

function slugReason(key: string): string {
  return key.replace(/[^a-z0-9]+/g, '_');
}
