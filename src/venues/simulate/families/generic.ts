/**
 * Data-driven family builders for things that happen: a happening by a deadline (date ladder or
 * singleton) and a choice among named outcomes (categorical; on venue_b a negative-risk bundle,
 * optionally augmented with placeholder outcomes). The catalogue files describe families as data.
 */
import type { Category } from '../../../domain/index.ts';
import { byDeadlineProb, categoricalProbs, EventKit, type FamilyCtx, type KitOptions, nameCode } from '../builders.ts';
import {
  addMonths,
  DAY_MS,
  endOfMonth,
  longDate,
  monthName,
  shortDate,
  slugify,
  tickerDate,
  tickerMonth,
  year,
} from '../calendar.ts';
import type { EventDraft, MarketDraft, SourcePlan } from '../model.ts';
import type { Cadence } from './indicator.ts';

/** Largest even count ≤ n (≥ 1): slots of one parity then never meet the other venue's. */
export function evenSpan(n: number): number {
  return n > 1 ? n - (n % 2) : 1;
}

export interface HappeningSpec {
  id: string;
  category: Category;
  categoryRaw: string;
  series: string;
  tags: string[];
  subjects: readonly string[];
  /** Condition with `{s}` for the subject: "{s} ceases to hold the office of Prime Minister". */
  condition: string;
  /** Question with `{s}` and `{d}` (deadline label): "{s} out as PM by {d}?". */
  question: string;
  eventTitle: string;
  plan: SourcePlan | ((subject: string) => SourcePlan);
  hazard: number;
  extras?: string[];
  kit?: Omit<KitOptions, 'eventLike'>;
  /** Number of months between the as-of and the first deadline of the ladder. */
  firstMonths?: number;
}

export interface DateLadderOpts {
  subject?: string;
  deadlines?: number[];
  /** Replaces the condition (event-definition variants). */
  condition?: string;
  occurredMs?: number;
}

/** Default deadlines: month ends spaced out from the as-of (some in the past, closing during the window). */
export function defaultDeadlines(ctx: FamilyCtx, firstMonths: number, round = 0): number[] {
  const n = Math.max(1, Math.min(ctx.size, 12));
  return Array.from({ length: n }, (_, i) =>
    deadlineDay(addMonths(ctx.asOfMs, firstMonths + i * (n > 6 ? 1 : 2)), round),
  );
}

const ROUND_DAYS = [0, 15, 7, 22, 10, 25, 4, 18, 12, 27] as const;

/**
 * The deadline of the `round`-th event about one subject in the month starting at `monthMs`:
 * month end for the first, then the 15th, the 7th, … so repeated events about one subject never
 * share a deadline (no duplicate question on a venue).
 */
export function deadlineDay(monthMs: number, round: number): number {
  const day = ROUND_DAYS[round % ROUND_DAYS.length] ?? 0;
  return day === 0 ? endOfMonth(monthMs) : monthMs + (day - 1) * DAY_MS;
}

/** "Will X happen by D?" — one market per deadline (date ladder) or a singleton. */
export function happening(ctx: FamilyCtx, spec: HappeningSpec, opts: DateLadderOpts = {}): EventDraft {
  const span = evenSpan(spec.subjects.length);
  const subject = opts.subject ?? spec.subjects[ctx.slot % span] ?? 'X';
  const deadlines =
    opts.deadlines ??
    defaultDeadlines(
      ctx,
      (spec.firstMonths ?? (ctx.rng.chance(0.3) ? -1 : 0)) + 2 * Math.floor(ctx.slot / span),
      Math.floor(ctx.slot / span),
    );
  const a = ctx.venue === 'venue_a';
  const plan = typeof spec.plan === 'function' ? spec.plan(subject) : spec.plan;
  const kit = new EventKit(ctx, plan, { eventLike: true, ...(spec.kit ?? {}) });
  const cond = (opts.condition ?? spec.condition).replaceAll('{s}', subject);
  const occurred =
    opts.occurredMs ?? (ctx.rng.chance(0.04) ? ctx.asOfMs - ctx.rng.int(-20, 200) * 3_600_000 : undefined);
  const markets = deadlines.map((dl): MarketDraft => {
    const label = a ? `before ${shortDate(dl + DAY_MS)}` : `by ${longDate(dl).replace(/, \d{4}$/, '')}`;
    const t = kit.text({
      condition: cond,
      when: a ? `before ${shortDate(dl + DAY_MS)}` : `by ${longDate(dl)}, 11:59 PM ET`,
      whenVague: a ? `by the end of ${monthName(dl)} ${year(dl)}` : `by late ${monthName(dl)} ${year(dl)}`,
      extras: (spec.extras ?? []).map((x) => x.replaceAll('{s}', subject)),
    });
    return {
      key: a ? tickerDate(dl) : slugify(longDate(dl)),
      title: spec.question.replaceAll('{s}', subject).replaceAll('{d}', label),
      sub: a ? `Before ${shortDate(dl + DAY_MS)}` : longDate(dl).replace(/, \d{4}$/, ''),
      strike: a ? { type: 'custom', custom: { Date: shortDate(dl + DAY_MS) } } : null,
      ...t,
      deadlineMs: dl + DAY_MS - 60_000,
      claim: `${spec.id}|${subject}|${dl}|${cond}`,
      prob: byDeadlineProb(spec.hazard, ctx.asOfMs, dl),
      ...(occurred !== undefined && occurred < dl + DAY_MS ? { occurredMs: occurred } : {}),
    };
  });
  const code = nameCode(subject);
  return kit.event(
    {
      category: spec.category,
      bundle: markets.length === 1 ? 'singleton' : 'date_ladder',
      family: spec.id,
      series: {
        ticker: `${spec.series}${code}`,
        title: spec.eventTitle.replaceAll('{s}', subject),
        categoryRaw: spec.categoryRaw,
        tags: spec.tags.slice(1, 3),
        frequency: 'one_off',
      },
      eventTicker: `${spec.series}${code}-${tickerMonth(deadlines[deadlines.length - 1] ?? ctx.asOfMs)}`,
      title: spec.eventTitle.replaceAll('{s}', subject),
      subTitle: a ? `Before ${shortDate((deadlines[deadlines.length - 1] ?? ctx.asOfMs) + DAY_MS)}` : '',
      description: `This market group asks whether ${cond}.`,
      tags: spec.tags,
      entity: subject,
    },
    markets,
  );
}

export interface ChoiceSpec {
  id: string;
  category: Category;
  categoryRaw: string;
  series: string;
  tags: string[];
  /** Contest names the family cycles through, e.g. "2026 Ohio governor election". */
  contests: readonly string[];
  outcomes: readonly string[];
  /** Condition with `{o}` (outcome) and `{c}` (contest). */
  condition: string;
  question: string;
  eventTitle: string;
  plan: SourcePlan;
  cadence?: Cadence;
  deadlineMonths: number;
  extras?: string[];
  kit?: Omit<KitOptions, 'eventLike'>;
  /** venue_b: add "Person A"-style placeholders and "Other" (negRiskAugmented). */
  augmentable?: boolean;
  /** Outcome defined by a number or a ranking (no discretionary wording); default false. */
  numeric?: boolean;
}

export interface ChoiceOpts {
  contest?: string;
  outcomes?: string[];
  augmented?: boolean;
}

/** One winner among named outcomes: venue_a mutually exclusive event, venue_b negative-risk bundle. */
export function choice(ctx: FamilyCtx, spec: ChoiceSpec, opts: ChoiceOpts = {}): EventDraft {
  const span = evenSpan(spec.contests.length);
  const monthly = spec.contests.length === 1 && (spec.contests[0] ?? '').includes('{m}');
  const deadline = endOfMonth(
    addMonths(ctx.asOfMs, spec.deadlineMonths + (monthly ? ctx.slot : 3 * Math.floor(ctx.slot / span))),
  );
  const contestBase = spec.contests[ctx.slot % span] ?? 'contest';
  // One contest per month (FOMC meetings): the month names the contest, slots never collide.
  const contest =
    opts.contest ?? (monthly ? contestBase.replace('{m}', `${monthName(deadline)} ${year(deadline)}`) : contestBase);
  const a = ctx.venue === 'venue_a';
  const augmented = !a && (opts.augmented ?? (spec.augmentable === true && ctx.rng.chance(0.8)));
  let outcomes = opts.outcomes ?? ctx.rng.sample(spec.outcomes, Math.max(2, ctx.size - (augmented ? 3 : 0)));
  if (augmented && !opts.outcomes) outcomes = [...outcomes, 'Person A', 'Person B', 'Other'];
  const kit = new EventKit(ctx, spec.plan, { eventLike: spec.numeric !== true, ...(spec.kit ?? {}) });
  const probs = categoricalProbs(ctx.rng.fork(`probs:${contest}`), outcomes.length);
  const seen = new Set<string>();
  const markets = outcomes.map((o, i): MarketDraft => {
    const placeholder = /^Person [A-Z]$/.test(o);
    const t = kit.text({
      // The catch-all outcome of an augmented bundle reads as "someone else", as on the venue.
      condition: spec.condition
        .replaceAll('{o}', o === 'Other' ? 'an outcome not listed in this market group' : o)
        .replaceAll('{c}', contest),
      // A contest named by its month already carries its date.
      when: a && !monthly ? `before ${shortDate(deadline + DAY_MS)}` : '',
      extras: [
        ...(spec.extras ?? []),
        ...(placeholder
          ? [`This market may be updated in the future to replace ${o} with one of the potential candidates.`]
          : []),
        ...(o === 'Other'
          ? ['This market will resolve to "Yes" if the winner is not listed as another outcome in this market group.']
          : []),
      ],
    });
    let key = a ? nameCode(o) : slugify(o);
    while (seen.has(key)) key = `${key}${i}`;
    seen.add(key);
    return {
      key,
      // venue_a titles every outcome market with the event question (the outcome is the yes_sub_title).
      title: (a ? spec.eventTitle : spec.question)
        .replaceAll('{o}', o === 'Other' ? 'someone else' : o)
        .replaceAll('{c}', contest),
      sub: o,
      strike: a ? { type: 'custom', custom: { Individual: o } } : null,
      ...t,
      deadlineMs: deadline + DAY_MS - 60_000,
      claim: `${spec.id}|${contest}|${deadline}|${o}`,
      prob: placeholder ? 0.003 : (probs[i] ?? 0.01),
    };
  });
  return kit.event(
    {
      category: spec.category,
      bundle: augmented ? 'augmented_negrisk' : 'categorical',
      family: spec.id,
      series: {
        ticker: spec.series,
        title: spec.eventTitle.replaceAll('{c}', contest),
        categoryRaw: spec.categoryRaw,
        tags: spec.tags.slice(1, 3),
        frequency: 'one_off',
      },
      eventTicker: monthly
        ? `${spec.series}-${tickerMonth(deadline)}`
        : `${spec.series}-${nameCode(contest)}${ctx.slot % span}-${tickerMonth(deadline)}`,
      title: spec.eventTitle.replaceAll('{c}', contest),
      subTitle: a ? `Before ${shortDate(deadline + DAY_MS)}` : '',
      description: `This is a market group on the ${contest}.`,
      tags: spec.tags,
      mutuallyExclusive: true,
      negRisk: !a,
      augmented,
      entity: contest,
    },
    markets,
  );
}
