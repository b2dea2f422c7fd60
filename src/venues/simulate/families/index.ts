/**
 * The family registry: every kind of event the universe holds, with its share of each venue's
 * events and its typical size. Ladders and categoricals carry most markets; singletons most events.
 */
import type { Category } from '../../../domain/index.ts';
import type { FamilyCtx } from '../builders.ts';
import type { EventDraft } from '../model.ts';
import type { Rng } from '../prng.ts';
import * as C from './catalog-companies.ts';
import * as E from './catalog-economics.ts';
import * as F from './catalog-financials.ts';
import * as G from './catalog-geopolitics.ts';
import * as HC from './catalog-health-climate.ts';
import * as P from './catalog-politics.ts';
import * as SG from './catalog-signals.ts';
import * as V from './catalog-variants.ts';
import { cryptoDaily, cryptoDailyDefaults, cryptoHitBy, cryptoRange } from './crypto.ts';
import { cryptoEtf, cryptoUpDown } from './crypto-events.ts';
import { type ChoiceSpec, choice, evenSpan, type HappeningSpec, happening } from './generic.ts';
import { type Cadence, type IndicatorSpec, indicatorLadder } from './indicator.ts';

export interface FamilyDef {
  id: string;
  category: Category;
  /** Relative share of venue_a / venue_b events (0 = not listed there). */
  weightA: number;
  weightB: number;
  size: (rng: Rng) => number;
  /**
   * Most events of this family one venue can hold before questions run out of plausible periods
   * or subjects (CPI for a month three years out is not a market anyone lists); the plan then
   * draws another family.
   */
  capacity: number;
  build: (ctx: FamilyCtx) => EventDraft;
}

/** Periods per venue for each cadence (slots alternate between venues, so the window is twice this). */
const CADENCE_CAPACITY: Record<Cadence, number> = {
  daily: 24,
  weekly: 8,
  monthly: 8,
  meeting: 6,
  quarterly: 4,
  annual: 2,
};
/** Events per subject and venue (each in its own round of deadlines). */
const ROUNDS = 6;

const ladder = (lo: number, hi: number) => (rng: Rng) => rng.int(lo, hi);
const dateLadder = (rng: Rng): number =>
  rng.weighted([
    [1, 55],
    [2, 8],
    [3, 12],
    [4, 10],
    [5, 8],
    [6, 7],
  ]);

function ind(spec: IndicatorSpec, wA: number, wB: number, lo = 8, hi = 20): FamilyDef {
  return {
    id: spec.group ?? spec.id,
    category: spec.category,
    weightA: wA,
    weightB: wB,
    size: ladder(lo, hi),
    capacity: CADENCE_CAPACITY[spec.cadence] * Math.max(1, spec.variants?.length ?? 0),
    build: (ctx) => indicatorLadder(ctx, spec),
  };
}
function hap(spec: HappeningSpec, wA: number, wB: number): FamilyDef {
  return {
    id: spec.id,
    category: spec.category,
    // Happenings are the long tail of one-off questions: double weight keeps singletons common.
    weightA: 2 * wA,
    weightB: 2 * wB,
    size: dateLadder,
    capacity: Math.ceil((evenSpan(spec.subjects.length) * ROUNDS) / 2),
    build: (ctx) => happening(ctx, spec),
  };
}
function cho(spec: ChoiceSpec, wA: number, wB: number, lo = 5, hi = 16): FamilyDef {
  const max = spec.outcomes.length;
  return {
    id: spec.id,
    category: spec.category,
    weightA: wA,
    weightB: wB,
    size: (rng) => Math.min(max, rng.int(lo, hi)),
    capacity:
      spec.contests.length === 1 && (spec.contests[0] ?? '').includes('{m}')
        ? 6
        : Math.ceil(evenSpan(spec.contests.length) / 2) * 3,
    build: (ctx) => choice(ctx, spec),
  };
}

export const FAMILIES: readonly FamilyDef[] = [
  // crypto
  {
    id: 'crypto_daily',
    category: 'crypto',
    weightA: 95,
    weightB: 5,
    size: ladder(10, 24),
    capacity: 160,
    build: (ctx) => cryptoDaily(ctx, cryptoDailyDefaults(ctx)),
  },
  {
    id: 'crypto_range',
    category: 'crypto',
    weightA: 40,
    weightB: 3,
    size: ladder(8, 16),
    capacity: 70,
    build: cryptoRange,
  },
  {
    id: 'crypto_hit_by',
    category: 'crypto',
    weightA: 12,
    weightB: 4,
    size: ladder(8, 14),
    capacity: 24,
    build: cryptoHitBy,
  },
  { id: 'crypto_etf', category: 'crypto', weightA: 10, weightB: 30, size: dateLadder, capacity: 15, build: cryptoEtf },
  {
    id: 'crypto_up_down',
    category: 'crypto',
    weightA: 0,
    weightB: 40,
    size: () => 1,
    capacity: 27,
    build: cryptoUpDown,
  },
  // economics
  ind(E.CPI_YOY, 14, 12),
  ind(E.CORE_CPI_YOY, 10, 6),
  ind(E.UNEMPLOYMENT, 10, 8, 6, 12),
  ind(E.PAYROLLS, 10, 6),
  ind(E.GDP, 8, 6, 6, 10),
  ind(E.FED_RATE, 12, 6, 8, 14),
  ind(E.GAS_AAA, 16, 10, 6, 12),
  ind(E.MORTGAGE, 10, 4, 6, 10),
  cho(E.FED_DECISION, 8, 12, 4, 5),
  ...E.HAPPENINGS_MACRO.map((h) => hap(h, 14, 40)),
  // financials
  ind(F.SP500, 60, 30, 10, 20),
  ind(F.NASDAQ, 40, 16, 10, 20),
  ind(F.TEN_YEAR, 24, 10),
  ind(F.WTI, 26, 16),
  ind(F.GOLD, 14, 16),
  ind(F.EURUSD, 14, 6),
  ...F.HAPPENINGS_FIN.map((h) => hap(h, 12, 40)),
  // politics
  cho(P.ELECTION_WINNER, 60, 50, 3, 8),
  cho(P.FOREIGN_ELECTION, 24, 40, 6, 16),
  cho(P.NOMINEE, 4, 8, 20, 30),
  cho(P.CABINET_FIRST_OUT, 4, 6, 8, 10),
  ...P.HAPPENINGS_POLITICS.map((h) => hap(h, 24, 50)),
  ind(P.EXEC_ORDERS, 10, 6, 6, 10),
  ind(P.APPROVAL, 16, 14, 8, 14),
  // geopolitics
  ...G.HAPPENINGS_GEO.map((h) => hap(h, 26, 60)),
  cho(G.NEXT_LEADER, 10, 16, 8, 18),
  // companies
  ...C.HAPPENINGS_COMPANIES.map((h) => hap(h, 40, 70)),
  ind(C.MARKET_CAP, 14, 10),
  ind(C.DELIVERIES, 8, 8, 6, 12),
  cho(C.LARGEST_COMPANY, 6, 10, 8, 16),
  // technology
  ...C.HAPPENINGS_TECH.map((h) => hap(h, 40, 70)),
  cho(C.TOP_AI_MODEL, 14, 20, 6, 10),
  cho(C.APP_RANK, 10, 12, 6, 10),
  // health
  ind(HC.MEASLES, 10, 10, 8, 14),
  ind(HC.FLU_HOSP, 14, 8, 6, 12),
  ...HC.HAPPENINGS_HEALTH.map((h) => hap(h, 40, 70)),
  // climate
  ind(V.CITY_HIGH, 40, 30, 6, 10),
  ind(V.STOCK_CLOSE, 15, 20, 8, 16),
  ind(V.WORLD_INDEX, 20, 12, 8, 16),
  ind(V.COMMODITY, 16, 12, 8, 14),
  ind(V.WORLD_CPI, 12, 10, 6, 12),
  ind(V.CENTRAL_BANK, 10, 10, 6, 10),
  ind(SG.ARENA_SCORE, 20, 20, 6, 12),
  ind(SG.CASE_COUNTS, 20, 16, 6, 12),
  ind(SG.FDA_APPROVALS, 8, 6, 5, 8),
  ind(SG.OCCUPIED_AREA, 10, 10, 6, 12),
  ind(HC.GLOBAL_TEMP, 12, 10, 6, 12),
  ind(HC.HURRICANES, 8, 8, 6, 10),
  ind(HC.SEA_ICE, 8, 8, 6, 10),
  ind(HC.CITY_RAIN, 14, 10, 6, 10),
  cho(HC.HOTTEST_YEAR, 8, 12, 6, 6),
];
