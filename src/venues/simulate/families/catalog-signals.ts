/**
 * Indicator families for technology, health and geopolitics (leaderboards, weekly case counts,
 * approvals, mapped territory): these categories are mostly one-off happenings, so their numeric
 * ladders are what keeps them at a realistic share of the universe.
 */
import { groupDigits, trimNum } from '../calendar.ts';
import type { IndicatorSpec, IndicatorVariant } from './indicator.ts';

const BOARDS: readonly string[] = ['Text', 'WebDev', 'Vision', 'Search', 'Text-to-Image'];

export const ARENA_SCORE: IndicatorSpec = {
  id: 'arena_score',
  category: 'technology',
  categoryRaw: 'Science and Technology',
  series: 'KXARENA',
  seriesTitle: 'Top LMArena {board} score',
  tags: ['Tech', 'AI', 'LLM'],
  cadence: 'daily',
  offsets: [-3],
  measure:
    'the highest arena score on the LMArena {board} Leaderboard (https://lmarena.ai/leaderboard) when checked at 12:00 PM ET on {p}',
  short: 'the top LMArena {board} score',
  fmt: (k) => String(Math.round(k)),
  center: 1460,
  step: 5,
  plan: { authority: { name: 'LMArena', url: 'https://lmarena.ai/leaderboard' }, prose: 'the LMArena leaderboard' },
  hourEt: 12,
  strikeType: 'greater',
  variants: BOARDS.map(
    (board, i): IndicatorVariant => ({
      code: board
        .replace(/[^A-Za-z]/g, '')
        .slice(0, 6)
        .toUpperCase(),
      vars: { board },
      center: 1460 - i * 60,
    }),
  ),
};

const DISEASE_ROWS: ReadonlyArray<readonly [string, string, number, number]> = [
  ['MEAS', 'measles', 1650, 25],
  ['PERT', 'pertussis', 21_000, 250],
  ['MPOX', 'mpox', 2_400, 50],
  ['DENG', 'dengue', 4_100, 50],
  ['H5N1', 'H5N1 human infection', 72, 2],
  ['WNV', 'West Nile virus disease', 1_900, 50],
  ['LEGI', "Legionnaires' disease", 5_200, 100],
];

export const CASE_COUNTS: IndicatorSpec = {
  id: 'case_counts',
  category: 'health',
  categoryRaw: 'Health',
  series: 'KXCASES',
  seriesTitle: 'US {disease} cases this year',
  tags: ['Health', 'Disease'],
  cadence: 'weekly',
  offsets: [0],
  measure: 'the cumulative number of {disease} cases in the United States this year reported by the CDC as of {p}',
  short: 'US {disease} cases this year',
  fmt: (k) => groupDigits(Math.round(k)),
  center: 1000,
  step: 25,
  plan: {
    authority: { name: 'Centers for Disease Control and Prevention', url: 'https://www.cdc.gov/nndss/' },
    prose: 'the CDC',
  },
  strikeType: 'greater_or_equal',
  variants: DISEASE_ROWS.map(
    ([code, disease, center, step]): IndicatorVariant => ({ code, vars: { disease }, center, step }),
  ),
};

export const FDA_APPROVALS: IndicatorSpec = {
  id: 'fda_approvals',
  category: 'health',
  categoryRaw: 'Health',
  series: 'KXFDANME',
  seriesTitle: 'FDA novel drug approvals',
  tags: ['Health', 'FDA'],
  cadence: 'monthly',
  offsets: [0],
  measure: "the number of novel drugs approved in {p} according to the FDA's Novel Drug Approvals page",
  short: 'FDA novel drug approvals',
  fmt: (k) => String(Math.round(k)),
  center: 4,
  step: 1,
  plan: {
    authority: { name: 'U.S. Food and Drug Administration', url: 'https://www.fda.gov/drugs/novel-drug-approvals-fda' },
    prose: 'the FDA',
  },
  strikeType: 'greater_or_equal',
};

export const OCCUPIED_AREA: IndicatorSpec = {
  id: 'occupied_area',
  category: 'geopolitics',
  categoryRaw: 'World',
  series: 'KXUKRAREA',
  seriesTitle: 'Territory of Ukraine under Russian control',
  tags: ['Geopolitics', 'Ukraine', 'Russia'],
  cadence: 'weekly',
  offsets: [0],
  measure:
    'the area of Ukraine shown as occupied on the DeepStateMap (https://deepstatemap.live) at the end of {p}, in thousand square kilometers',
  short: 'Russian-held territory in Ukraine',
  fmt: (k) => `${trimNum(k, 1)}k km²`,
  center: 116.5,
  step: 0.2,
  plan: { authority: { name: 'DeepStateMap', url: 'https://deepstatemap.live' }, prose: 'the DeepStateMap' },
};
