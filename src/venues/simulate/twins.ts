/**
 * Cross-venue twin groups: the same underlying question written once per venue in that venue's
 * own phrasing, plus complements (venue_b asks "below" where venue_a asks "above") and near-miss
 * traps that differ in deadline, threshold, observation window, price source or event definition.
 * Each group returns its labelled market pairs; the generator turns them into truth.json.
 */
import { type FamilyCtx, strikesAround } from './builders.ts';
import { addMonths, DAY_MS } from './calendar.ts';
import * as C from './families/catalog-companies.ts';
import * as E from './families/catalog-economics.ts';
import * as F from './families/catalog-financials.ts';
import * as G from './families/catalog-geopolitics.ts';
import * as HC from './families/catalog-health-climate.ts';
import * as P from './families/catalog-politics.ts';
import { type CryptoDailyOpts, cryptoDaily } from './families/crypto.ts';
import { COIN_IDS, COINS, stepFor } from './families/crypto-coins.ts';
import { type ChoiceSpec, choice, deadlineDay, evenSpan, type HappeningSpec, happening } from './families/generic.ts';
import { type IndicatorSpec, indicatorLadder, periodOffset } from './families/indicator.ts';
import type { DraftPair, EventDraft, MarketDraft, TrapKind } from './model.ts';

export interface TwinGroup {
  kind: string;
  events: EventDraft[];
  pairs: DraftPair[];
}

/** Contexts for the two venues of one group: same slot (venue_a's), own random streams. */
export interface TwinCtx {
  a: FamilyCtx;
  b: FamilyCtx;
}

function pairBy(
  a: EventDraft,
  b: EventDraft,
  keyA: (m: MarketDraft) => string,
  keyB: (m: MarketDraft) => string,
  label: DraftPair['label'],
  why: string,
  trapKind?: TrapKind,
): DraftPair[] {
  const byKey = new Map(b.markets.map((m) => [keyB(m), m] as const));
  const out: DraftPair[] = [];
  for (const ma of a.markets) {
    const mb = byKey.get(keyA(ma));
    if (mb) out.push({ a: ma, b: mb, label, why, ...(trapKind ? { trapKind } : {}) });
  }
  return out;
}

const _strikeKey = (m: MarketDraft): string =>
  String(Math.round((m.spot?.threshold ?? m.strike?.floor ?? Number.NaN) * 100) / 100);
const indexKey = (e: EventDraft) => {
  const idx = new Map(e.markets.map((m, i) => [m, String(i)] as const));
  return (m: MarketDraft): string => idx.get(m) ?? '';
};

/**
 * Twin crypto ladders settle at 4 PM ET on both venues; no other ladder uses that hour (venue_a's
 * own ladders settle at 5 PM, venue_b's at noon), so every 4 PM pair is one the truth lists.
 */
const TWIN_HOUR = 16;

/** Crypto daily ladders: same / window / deadline / threshold, plus a "below" complement. */
export function cryptoTwin(t: TwinCtx, variant: 'same' | 'window' | 'deadline' | 'threshold'): TwinGroup {
  const coin = COIN_IDS[t.a.seq % COIN_IDS.length] ?? 'bitcoin';
  const spot = t.a.world.spot[coin];
  const n0 = Math.max(6, t.a.size);
  const step = stepFor(COINS[coin], spot, n0);
  // Twin days are two apart, so the deadline variant's next day is never another group's day.
  const dayMs = t.a.asOfMs + DAY_MS * (5 + 2 * Math.floor(t.a.seq / COIN_IDS.length));
  const strikes = strikesAround(spot, step, n0);
  const optsA: CryptoDailyOpts = { coin, dayMs, hourEt: TWIN_HOUR, strikes };
  const bStrikes = strikes.slice(1, -1);
  const optsB: CryptoDailyOpts = {
    coin,
    dayMs: variant === 'deadline' ? dayMs + DAY_MS : dayMs,
    hourEt: variant === 'window' ? 10 : TWIN_HOUR,
    strikes: variant === 'threshold' ? bStrikes.map((k) => Number((k + step / 2).toFixed(6))) : bStrikes,
  };
  const a = cryptoDaily(t.a, optsA);
  const b = cryptoDaily(t.b, optsB);
  const events = [a, b];
  const name = COINS[coin].name;
  // venue_b's ladder is venue_a's without its two end strikes (shifted by half a step for the
  // threshold trap): venue_a market i + 1 faces venue_b market i.
  const pairs: DraftPair[] = [];
  const facing = (label: DraftPair['label'], why: string, trapKind?: TrapKind): void => {
    b.markets.forEach((mb, i) => {
      const ma = a.markets[i + 1];
      if (ma) pairs.push({ a: ma, b: mb, label, why, ...(trapKind ? { trapKind } : {}) });
    });
  };
  if (variant === 'same') {
    facing(
      'same',
      `${name} above the same strike at the same instant (4 PM ET); venue_a reads the CF Benchmarks index, venue_b the Binance close`,
    );
    const mid = Math.floor(bStrikes.length / 2);
    const k = bStrikes[mid] ?? strikes[0] ?? spot;
    const below = cryptoDaily(
      { ...t.b, seq: t.b.seq + 1, rng: t.b.rng.fork('below') },
      { coin, dayMs, hourEt: TWIN_HOUR, strikes: [k], below: true },
    );
    events.push(below);
    const ma = a.markets[mid + 1];
    const mb = below.markets[0];
    if (ma && mb)
      pairs.push({
        a: ma,
        b: mb,
        label: 'complement',
        why: `venue_b asks whether ${name} is below the strike venue_a asks it to be above, same instant`,
      });
  } else if (variant === 'threshold') {
    facing('different', `${name} at the same instant but the strikes differ by half a ladder step`, 'threshold');
  } else {
    facing(
      'different',
      variant === 'window'
        ? `${name} at the same strike and day but venue_a reads 4 PM ET and venue_b 10 AM ET`
        : `${name} at the same strike and hour but on consecutive days`,
      variant,
    );
  }
  return { kind: `crypto_${variant}`, events, pairs };
}

interface IndicatorTwinSpec {
  a: IndicatorSpec;
  b: IndicatorSpec;
  label: DraftPair['label'];
  trap?: TrapKind;
  why: string;
  shift?: number;
}

const INDICATOR_TWINS: readonly IndicatorTwinSpec[] = [
  {
    a: E.CPI_YOY,
    b: E.CPI_YOY,
    label: 'same',
    why: 'CPI-U year-over-year for the same month above the same threshold, both from the BLS release',
  },
  {
    a: E.UNEMPLOYMENT,
    b: E.UNEMPLOYMENT,
    label: 'same',
    why: 'U-3 unemployment for the same month above the same rate',
  },
  {
    a: E.FED_RATE,
    b: E.FED_RATE,
    label: 'same',
    why: 'upper bound of the fed funds target after the same FOMC meeting above the same level',
  },
  { a: F.SP500, b: F.SP500, label: 'same', why: 'S&P 500 close on the same day above the same level' },
  {
    a: HC.MEASLES,
    b: HC.MEASLES,
    label: 'same',
    why: 'CDC-confirmed US measles cases for the same year above the same count',
  },
  {
    a: P.APPROVAL,
    b: P.APPROVAL,
    label: 'same',
    why: 'RealClearPolling approval average for the same week above the same level',
  },
  {
    a: E.CPI_YOY,
    b: E.CORE_CPI_YOY,
    label: 'different',
    trap: 'event_definition',
    why: 'headline CPI-U on venue_a, core CPI (ex food and energy) on venue_b',
  },
  {
    a: E.CPI_YOY,
    b: E.TRUFLATION_YOY,
    label: 'different',
    trap: 'price_source',
    why: 'BLS CPI-U on venue_a, the Truflation index on venue_b',
  },
  {
    a: E.GAS_AAA,
    b: E.GAS_EIA,
    label: 'different',
    trap: 'price_source',
    why: 'AAA national average on venue_a, the EIA weekly retail series on venue_b',
  },
  {
    a: HC.GLOBAL_TEMP,
    b: HC.GLOBAL_TEMP_C3S,
    label: 'different',
    trap: 'price_source',
    why: 'NOAA NCEI anomaly on venue_a, Copernicus ERA5 on venue_b',
  },
  {
    a: E.UNEMPLOYMENT,
    b: E.UNEMPLOYMENT,
    label: 'different',
    trap: 'threshold',
    shift: 0.05,
    why: 'same month, strikes offset by 0.05 percentage points',
  },
  {
    a: F.SP500,
    b: F.SP500,
    label: 'different',
    trap: 'deadline',
    shift: 0,
    why: 'S&P 500 close above the same level, two trading days apart',
  },
];

/**
 * A deadline trap puts venue_b two periods on, on venue_a's next slot: the plan must reserve that
 * slot so no venue_a event lands on the period venue_b's trap asks about.
 */
export function twinReservesNextSlot(kind: string, pick: number): boolean {
  return kind === 'indicator' && INDICATOR_TWINS[pick % INDICATOR_TWINS.length]?.trap === 'deadline';
}

/**
 * The family whose slot counter a twin group must draw from, so venue_a's twin event never repeats
 * one of venue_a's own events (and venue_b's copy uses an even slot its own events never use).
 */
export function twinFamilyId(kind: string, pick: number): string {
  if (kind === 'indicator') {
    const spec = (INDICATOR_TWINS[pick % INDICATOR_TWINS.length] ?? (INDICATOR_TWINS[0] as IndicatorTwinSpec)).a;
    return spec.group ?? spec.id;
  }
  if (kind === 'happening')
    return (HAPPENING_TWINS[pick % HAPPENING_TWINS.length] ?? (HAPPENING_TWINS[0] as HappeningTwinSpec)).spec.id;
  if (kind === 'choice') return (CHOICE_TWINS[pick % CHOICE_TWINS.length] ?? P.ELECTION_WINNER).id;
  return 'twin_crypto';
}

/** Numeric ladders on both venues: same, complement ("below"), or a labelled trap. */
export function indicatorTwin(t: TwinCtx, pick: number): TwinGroup {
  const spec = INDICATOR_TWINS[pick % INDICATOR_TWINS.length] ?? (INDICATOR_TWINS[0] as IndicatorTwinSpec);
  const offset = periodOffset(spec.a, t.a.slot);
  const a = indicatorLadder(t.a, spec.a, { offset });
  const strikes = a.markets.map((m) => m.strike?.floor ?? 0);
  const bStrikes = strikes
    .slice(1, Math.max(2, strikes.length - 1))
    .map((k) => Number((k + (spec.trap === 'threshold' ? (spec.shift ?? 0) : 0)).toFixed(6)));
  // Two periods on: venue_b's own events use odd slots, and the plan reserved venue_a's next slot.
  const bOffset = spec.trap === 'deadline' ? periodOffset(spec.a, t.a.slot + 2) : offset;
  const b = indicatorLadder(t.b, spec.b, { offset: bOffset, strikes: bStrikes });
  const byIndex = (e: EventDraft, shift: number) => (m: MarketDraft) => String(e.markets.indexOf(m) + shift);
  const pairs = pairBy(a, b, byIndex(a, -1), byIndex(b, 0), spec.label, spec.why, spec.trap);
  const events = [a, b];
  if (spec.label === 'same' && pick % 2 === 0) {
    const k = bStrikes[0] ?? strikes[0] ?? 0;
    const below = indicatorLadder({ ...t.b, seq: t.b.seq + 1, rng: t.b.rng.fork('below') }, spec.b, {
      offset,
      strikes: [k],
      below: true,
    });
    events.push(below);
    const ma = a.markets[1];
    const mb = below.markets[0];
    if (ma && mb)
      pairs.push({
        a: ma,
        b: mb,
        label: 'complement',
        why: `venue_b asks "below" the level venue_a asks "above" (${spec.why})`,
      });
  }
  return { kind: `indicator_${spec.trap ?? spec.label}`, events, pairs };
}

interface HappeningTwinSpec {
  spec: HappeningSpec;
  trap?: 'deadline' | 'event_definition';
  condition?: string;
  why: string;
}

const HAPPENING_TWINS: readonly HappeningTwinSpec[] = [
  { spec: C.HAPPENINGS_COMPANIES[1] as HappeningSpec, why: 'the same IPO by the same deadline' },
  { spec: G.HAPPENINGS_GEO[0] as HappeningSpec, why: 'the same ceasefire by the same deadline' },
  { spec: G.HAPPENINGS_GEO[2] as HappeningSpec, why: 'the same leader leaving office by the same deadline' },
  { spec: C.HAPPENINGS_TECH[0] as HappeningSpec, why: 'the same model release by the same deadline' },
  { spec: HC.HAPPENINGS_HEALTH[0] as HappeningSpec, why: 'the same FDA approval by the same deadline' },
  { spec: E.HAPPENINGS_MACRO[2] as HappeningSpec, why: 'the same tariff action by the same deadline' },
  {
    spec: C.HAPPENINGS_COMPANIES[0] as HappeningSpec,
    trap: 'deadline',
    why: "the same CEO departure, but each venue_b deadline is one month after venue_a's",
  },
  {
    spec: G.HAPPENINGS_GEO[1] as HappeningSpec,
    trap: 'deadline',
    why: 'the same city capture, deadlines one month apart',
  },
  {
    spec: C.HAPPENINGS_COMPANIES[1] as HappeningSpec,
    trap: 'event_definition',
    condition: '{s} publicly files a registration statement (Form S-1) for an initial public offering',
    why: 'venue_a needs shares to start trading; venue_b only a public S-1 filing',
  },
  {
    spec: G.HAPPENINGS_GEO[0] as HappeningSpec,
    trap: 'event_definition',
    condition: '{s} sign a permanent peace agreement',
    why: 'venue_a asks for a ceasefire; venue_b for a signed permanent peace agreement',
  },
];

/** Date ladders on both venues over one subject. */
export function happeningTwin(t: TwinCtx, pick: number): TwinGroup {
  const tw = HAPPENING_TWINS[pick % HAPPENING_TWINS.length] ?? (HAPPENING_TWINS[0] as HappeningTwinSpec);
  const span = evenSpan(tw.spec.subjects.length);
  const subject = tw.spec.subjects[t.a.slot % span] ?? 'X';
  const n = Math.max(2, Math.min(6, t.a.size));
  // The round a venue_a event at this slot would use: its deadlines are this slot's alone.
  const round = Math.floor(t.a.slot / span);
  const first = addMonths(t.a.asOfMs, 1 + (t.a.slot % 3));
  const deadlines = Array.from({ length: n }, (_, i) => deadlineDay(addMonths(first, i * 2), round));
  const a = happening(t.a, tw.spec, { subject, deadlines });
  const bDeadlines = tw.trap === 'deadline' ? deadlines.map((d) => deadlineDay(addMonths(d, 1), round)) : deadlines;
  const b = happening(t.b, tw.spec, {
    subject,
    deadlines: bDeadlines,
    ...(tw.condition ? { condition: tw.condition } : {}),
  });
  const occurred = a.markets.find((m) => m.occurredMs !== undefined)?.occurredMs;
  if (tw.trap === undefined) {
    // Twins share fate: if the event happened, it happened on both venues.
    for (const m of b.markets) {
      if (occurred !== undefined && occurred < m.deadlineMs) m.occurredMs = occurred;
      else delete m.occurredMs;
    }
  }
  const pairs = pairBy(
    a,
    b,
    indexKey(a),
    indexKey(b),
    tw.trap ? 'different' : 'same',
    `${subject}: ${tw.why}`,
    tw.trap,
  );
  return { kind: `happening_${tw.trap ?? 'same'}`, events: [a, b], pairs };
}

const CHOICE_TWINS: readonly ChoiceSpec[] = [P.ELECTION_WINNER, P.FOREIGN_ELECTION, E.FED_DECISION, C.TOP_AI_MODEL];

/** Categorical bundles with the same outcomes on both venues. */
export function choiceTwin(t: TwinCtx, pick: number): TwinGroup {
  const spec = CHOICE_TWINS[pick % CHOICE_TWINS.length] ?? P.ELECTION_WINNER;
  const a = choice(t.a, spec, spec.id === 'fed_decision' ? { outcomes: [...spec.outcomes] } : {});
  const outcomes = a.markets.map((m) => m.sub);
  const b = choice(t.b, spec, { contest: a.entity ?? '', outcomes, augmented: false });
  const bySub = (m: MarketDraft): string => m.sub;
  const pairs = pairBy(a, b, bySub, bySub, 'same', `${a.entity}: the same outcome of the same contest`);
  // The two venues price one reality: give venue_b venue_a's fair probabilities.
  for (const p of pairs) p.b.prob = p.a.prob;
  return { kind: `choice_${spec.id}`, events: [a, b], pairs };
}
