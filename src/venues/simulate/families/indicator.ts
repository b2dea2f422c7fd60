/**
 * Numeric indicators read at a reference period (strike ladders): the period a slot points at,
 * how each venue names it, and the ladder written in each venue's phrasing.
 */
import type { Category } from '../../../domain/index.ts';
import { aboveProb, EventKit, type FamilyCtx, strikesAround } from '../builders.ts';
import {
  addMonths,
  DAY_MS,
  easternTime,
  longDate,
  monthDay,
  monthName,
  shortDate,
  slugify,
  tickerDate,
  tickerMonth,
  trimNum,
  year,
} from '../calendar.ts';
import type { EventDraft, MarketDraft, SourcePlan } from '../model.ts';

export type Cadence = 'daily' | 'weekly' | 'monthly' | 'meeting' | 'quarterly' | 'annual';

/** Where a reference period sits and how each venue names it. */
export interface RefPeriod {
  inA: string;
  inB: string;
  /** The period as a noun phrase ("Mar 2026", "Nov 16, 2026", "the Nov 4, 2026 meeting"). */
  nameA: string;
  nameB: string;
  deadlineMs: number;
  tickerPart: string;
  slugPart: string;
}

/**
 * The `offset`-th weekday from the as-of (0 = the as-of or the next weekday; −1 = the last weekday
 * before it). Injective, so distinct offsets never land on one trading day. Holidays are ignored.
 */
export function tradingDay(asOfMs: number, offset: number): number {
  const weekend = (ms: number): boolean => {
    const d = new Date(ms).getUTCDay();
    return d === 0 || d === 6;
  };
  const step = offset >= 0 ? DAY_MS : -DAY_MS;
  let day = offset >= 0 ? asOfMs : asOfMs - DAY_MS;
  while (weekend(day)) day += step;
  for (let n = offset >= 0 ? offset : -offset - 1; n > 0; n--) {
    day += step;
    while (weekend(day)) day += step;
  }
  return day;
}

/** The `offset`-th period of a cadence relative to the as-of day (negative = already past). */
export function refPeriod(cadence: Cadence, asOfMs: number, offset: number, hourEt = 16, trading = false): RefPeriod {
  switch (cadence) {
    case 'daily': {
      const day = trading ? tradingDay(asOfMs, offset) : asOfMs + offset * DAY_MS;
      return {
        inA: `on ${shortDate(day)}`,
        inB: `on ${monthDay(day)}`,
        nameA: shortDate(day),
        nameB: longDate(day),
        deadlineMs: easternTime(day, hourEt),
        tickerPart: tickerDate(day),
        slugPart: slugify(monthDay(day)),
      };
    }
    case 'weekly': {
      const day = asOfMs + offset * 7 * DAY_MS;
      return {
        inA: `for the week ending ${shortDate(day)}`,
        inB: `for the week ending ${monthDay(day)}`,
        nameA: `the week ending ${shortDate(day)}`,
        nameB: `the week ending ${longDate(day)}`,
        deadlineMs: easternTime(day + DAY_MS, 10),
        tickerPart: tickerDate(day),
        slugPart: `week-ending-${slugify(monthDay(day))}`,
      };
    }
    case 'monthly': {
      const m = addMonths(asOfMs, offset - 1);
      const release = addMonths(m, 1) + 12 * DAY_MS;
      const name = `${monthName(m)} ${year(m)}`;
      return {
        inA: `in ${monthName(m).slice(0, 3)} ${year(m)}`,
        inB: `in ${monthName(m)}`,
        nameA: `${monthName(m).slice(0, 3)} ${year(m)}`,
        nameB: name,
        deadlineMs: easternTime(release, 8) + 30 * 60_000,
        tickerPart: tickerMonth(m),
        slugPart: slugify(name),
      };
    }
    case 'meeting': {
      const day = asOfMs + (offset * 45 - 20) * DAY_MS;
      return {
        inA: `after the ${shortDate(day)} meeting`,
        inB: `after the ${monthName(day)} ${year(day)} meeting`,
        nameA: `the ${shortDate(day)} meeting`,
        nameB: `the ${monthName(day)} ${year(day)} meeting`,
        deadlineMs: easternTime(day, 14),
        tickerPart: tickerMonth(day),
        slugPart: `${slugify(monthName(day))}-${year(day)}`,
      };
    }
    case 'quarterly': {
      const m = addMonths(asOfMs, offset * 3 - 3);
      const q = Math.floor(new Date(m).getUTCMonth() / 3) + 1;
      const release = addMonths(m, 4) + 27 * DAY_MS;
      return {
        inA: `in Q${q} ${year(m)}`,
        inB: `in Q${q} ${year(m)}`,
        nameA: `Q${q} ${year(m)}`,
        nameB: `Q${q} ${year(m)}`,
        deadlineMs: easternTime(release, 8) + 30 * 60_000,
        tickerPart: `${year(m) % 100}Q${q}`,
        slugPart: `q${q}-${year(m)}`,
      };
    }
    case 'annual': {
      const y = year(asOfMs) + offset;
      const end = Date.UTC(y, 11, 31);
      return {
        inA: `in ${y}`,
        inB: `in ${y}`,
        nameA: String(y),
        nameB: String(y),
        deadlineMs: end + 40 * DAY_MS,
        tickerPart: String(y % 100),
        slugPart: String(y),
      };
    }
  }
}

export interface IndicatorSpec {
  id: string;
  category: Category;
  categoryRaw: string;
  series: string;
  seriesTitle: string;
  tags: string[];
  cadence: Cadence;
  /** Offsets (periods from the as-of) this family cycles through. */
  offsets: readonly number[];
  /** What is measured, with `{p}` for the period name: "the year-over-year change in CPI-U for {p}". */
  measure: string;
  /** Short name for titles: "CPI inflation". */
  short: string;
  fmt: (k: number) => string;
  center: number;
  step: number;
  plan: SourcePlan;
  extrasA?: string[];
  extrasB?: string[];
  /** venue_a strike style. */
  strikeType?: 'greater' | 'greater_or_equal';
  hourEt?: number;
  entity?: string;
  /** Strikes may go below zero (GDP growth, payroll changes). */
  allowNegative?: boolean;
  /**
   * Families measuring one quantity from different sources (CPI-U, core CPI, Truflation) share a
   * slot counter, so no two of them land on one period on one venue, and a cross-source trap is the
   * only place such a pair meets across venues.
   */
  group?: string;
  /**
   * Instances of one family (cities, companies, countries): `{name}` placeholders in measure,
   * short and seriesTitle are filled from `vars`; a slot picks a variant, then a period.
   */
  variants?: readonly IndicatorVariant[];
  /** Daily periods are trading days (no weekend closes for stocks, indices, rates, commodities). */
  tradingDays?: boolean;
}

export interface IndicatorVariant {
  /** Appended to the series ticker, e.g. "NY" → KXHIGHNY. */
  code: string;
  vars: Record<string, string>;
  plan?: SourcePlan;
  center?: number;
  step?: number;
  entity?: string;
}

/** The variant a slot lands on, as a plain spec, and which period of that variant it is. */
export function variantFor(base: IndicatorSpec, slot: number): { spec: IndicatorSpec; periodIndex: number } {
  const vs = base.variants;
  if (!vs || vs.length === 0) return { spec: base, periodIndex: slot };
  const v = vs[slot % vs.length] ?? (vs[0] as IndicatorVariant);
  const fill = (t: string): string =>
    t.replace(/\{(\w+)\}/g, (m: string, k: string) => (k === 'p' ? m : (v.vars[k] ?? m)));
  const { variants: _drop, ...rest } = base;
  return {
    spec: {
      ...rest,
      id: `${base.id}_${v.code.toLowerCase()}`,
      series: `${base.series}${v.code}`,
      seriesTitle: fill(base.seriesTitle),
      measure: fill(base.measure),
      short: fill(base.short),
      plan: v.plan ?? base.plan,
      center: v.center ?? base.center,
      step: v.step ?? base.step,
      ...(v.entity ? { entity: v.entity } : {}),
    },
    periodIndex: Math.floor(slot / vs.length),
  };
}

/**
 * The period offset (from the as-of) of the `i`-th period index. Daily families fan out around
 * the as-of (venue_a's even indices take even days 0, −2, 2, −4 …, venue_b's odd ones −1, 1, −3 …),
 * so the first events already close between the two snapshots; other cadences count forward from
 * the family's earliest offset.
 */
export function periodOffset(spec: IndicatorSpec, i: number): number {
  if (spec.cadence !== 'daily') return Math.min(...spec.offsets) + i;
  const k = Math.floor(i / 2);
  const raw = i % 2 === 0 ? (k % 2 === 0 ? k : -(k + 1)) : k % 2 === 0 ? -(k + 1) : k;
  // No further back than the history window: older slots move well ahead (parity kept, no overlap).
  return raw < -10 ? 40 - raw : raw;
}

export interface LadderOpts {
  offset?: number;
  strikes?: number[];
  /** venue_b asks "below" instead of "above" (complement twins). */
  below?: boolean;
}

/** A strike ladder over one indicator at one reference period, in the venue's own phrasing. */
export function indicatorLadder(ctx: FamilyCtx, base: IndicatorSpec, opts: LadderOpts = {}): EventDraft {
  const { spec, periodIndex } = variantFor(base, ctx.slot);
  const offset = opts.offset ?? periodOffset(spec, periodIndex);
  const ref = refPeriod(spec.cadence, ctx.asOfMs, offset, spec.hourEt, spec.tradingDays === true);
  const center = spec.center * (1 + 0.02 * ctx.rng.normal());
  const strikes =
    opts.strikes ?? strikesAround(center, spec.step, Math.max(1, ctx.size), 0, spec.allowNegative === true);
  const a = ctx.venue === 'venue_a';
  const kit = new EventKit(ctx, spec.plan, { eventLike: false });
  const measure = spec.measure.replace('{p}', a ? ref.nameA : ref.nameB);
  const dir = opts.below ? 'below' : 'above';
  const markets = strikes.map((k): MarketDraft => {
    const ge = spec.strikeType === 'greater_or_equal';
    const t = kit.text({
      condition: a
        ? `${measure} is ${ge ? 'at least' : 'above'} ${spec.fmt(k)}`
        : `${measure} is ${opts.below ? 'less than' : ge ? 'equal to or greater than' : 'greater than'} ${spec.fmt(k)}`,
      when: '',
      extras: (a ? spec.extrasA : spec.extrasB) ?? [],
    });
    const pAbove = aboveProb(k, center, spec.step * 1.6);
    return {
      key: a ? `T${trimNum(k)}` : `${dir}-${trimNum(k)}`,
      title: a
        ? `Will ${spec.short} be ${ge ? 'at least' : 'above'} ${spec.fmt(k)} ${ref.inA}?`
        : `Will ${spec.short} be ${ge && !opts.below ? `${spec.fmt(k)} or more` : `${dir} ${spec.fmt(k)}`} ${ref.inB}?`,
      sub: a ? `${ge ? 'At least' : 'Above'} ${spec.fmt(k)}` : spec.fmt(k),
      strike: a ? { type: ge ? 'greater_or_equal' : 'greater', floor: k } : null,
      ...t,
      deadlineMs: ref.deadlineMs,
      claim: `${spec.id}|${ref.deadlineMs}|${dir}|${k}`,
      prob: opts.below ? 1 - pAbove : pAbove,
    };
  });
  const cap = spec.short.charAt(0).toUpperCase() + spec.short.slice(1);
  return kit.event(
    {
      category: spec.category,
      bundle: markets.length === 1 ? 'singleton' : 'strike_ladder',
      family: spec.id,
      series: {
        ticker: spec.series,
        title: spec.seriesTitle,
        categoryRaw: spec.categoryRaw,
        tags: spec.tags.slice(1, 3),
        frequency: spec.cadence === 'meeting' ? 'custom' : spec.cadence,
      },
      eventTicker: a ? `${spec.series}-${ref.tickerPart}` : `${slugify(spec.short)}-${dir}-${ref.slugPart}`,
      title: a
        ? `${cap} ${ref.inA}?`
        : markets.length === 1
          ? (markets[0]?.title ?? '')
          : `${cap} ${dir} ___ ${ref.inB}?`,
      subTitle: a ? ref.inA.charAt(0).toUpperCase() + ref.inA.slice(1) : '',
      description: `This market group covers ${measure}.`,
      tags: spec.tags,
      strikeDateMs: ref.deadlineMs,
      entity: spec.entity ?? null,
    },
    markets,
  );
}
