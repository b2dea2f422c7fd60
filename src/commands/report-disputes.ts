/**
 * `pmref report disputes` (issue 16, item 4): a backtest of the Resolution Clarity Grade against a real
 * outcome, venue_b's UMA dispute history. A grade that says how cleanly a market settles should see fewer
 * disputes at A than at C; this report counts, per grade, score band, factor rating, rule and cap, how many
 * markets had a UMA history and how many of them were disputed, counts always beside rates, with the caveats
 * that bound what such small numbers can say.
 *
 * Two inputs: the store (markets as ingested, grade from the stored rcg), or native venue files graded in place
 * (the whole recorded set, including markets the pipeline keeps out of scope). The counting is pure
 * (`disputeReport`); only the two readers touch files or the store.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FactorRating, Grade, Market, Rcg, RcgFactorName, ResolutionHistory } from '../domain/index.ts';
import { FACTOR_WEIGHTS, judgeResolution, venueBInput } from '../editorial/resolution/index.ts';
import { venueBResolutionHistory } from '../venues/index.ts';

/** One venue_b market with a UMA history and its grade: the unit every table counts once. */
export interface DisputeCase {
  /** venue_b conditionId. */
  market_id: string;
  question: string | null;
  /** The market's event (native or canonical id), to show how disputes cluster; null when unknown. */
  event: string | null;
  /** Where the counted record came from: the file name, or `store`. */
  origin: string;
  history: ResolutionHistory;
  rcg: Rcg;
}

/** Markets, disputed markets among them, and the rate (null when there are no markets). */
export interface RateCell {
  markets: number;
  disputed: number;
  rate: number | null;
}

/** A disputed market with what decided its grade, for the note to explain. */
export interface DisputedMarket {
  market_id: string;
  question: string | null;
  event: string | null;
  origin: string;
  grade: Grade;
  score: number;
  statuses: string[];
  /** Applied factors, most points lost first (`factor rating [rule] -lost/weight`), then caps. */
  deciding: string[];
}

/** One recorded window (a file, or the store): its counts, overall and by grade. */
export interface DisputeWindow extends RateCell {
  origin: string;
  by_grade: Record<Grade, RateCell>;
}

export interface DisputeReport {
  venue: 'venue_b';
  input: 'store' | 'files';
  /** Markets with a UMA history (at least one proposal or dispute) and a grade. */
  markets: number;
  disputed: number;
  rate: number | null;
  /** Distinct events holding the disputed markets (disputes cluster: markets in one event share a fate). */
  disputed_events: number;
  /** Markets with a UMA history but no grade yet (store only): left out of every table. */
  ungraded: number;
  by_grade: Record<Grade, RateCell>;
  by_score_band: Array<RateCell & { band: string }>;
  by_factor: Array<RateCell & { factor: RcgFactorName; rating: FactorRating }>;
  by_rule: Array<RateCell & { factor: RcgFactorName; rule: string; rating: FactorRating }>;
  by_cap: Array<RateCell & { cap: string }>;
  /**
   * One-sided Fisher exact test that C markets are disputed more often than A and B together: the chance of
   * at least this many C disputes if the grade were unrelated to disputes. Null when a side is empty. It
   * assumes independent markets, which clustered disputes are not: read it as an optimistic bound.
   */
  c_versus_ab_p: number | null;
  disputed_markets: DisputedMarket[];
  /** Disputed markets graded A or B: each is a finding to explain. */
  findings: DisputedMarket[];
  /** Per origin (file or store): the recorded window the counts come from, by grade (a stratified view). */
  windows: DisputeWindow[];
  caveats: string[];
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Score bands: the grade thresholds (55, 80) split further, so a trend inside a grade shows. */
const SCORE_BANDS: ReadonlyArray<{ band: string; min: number }> = [
  { band: '90-100', min: 90 },
  { band: '80-89', min: 80 },
  { band: '70-79', min: 70 },
  { band: '55-69', min: 55 },
  { band: '40-54', min: 40 },
  { band: '0-39', min: 0 },
];

/** A market belongs to the backtest when UMA reported a proposal or a dispute (a dispute presupposes one). */
export function hasUmaHistory(h: ResolutionHistory | null | undefined): h is ResolutionHistory {
  return h !== null && h !== undefined && (h.proposals >= 1 || h.disputes >= 1);
}

function cell(): RateCell {
  return { markets: 0, disputed: 0, rate: null };
}

function count(c: RateCell, disputed: boolean): void {
  c.markets++;
  if (disputed) c.disputed++;
}

/** The value of `key` in `map`, made by `make` on first use. */
function slot<T>(map: Map<string, T>, key: string, make: () => T): T {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}

const byGradeCells = (): Record<Grade, RateCell> => ({ A: cell(), B: cell(), C: cell() });

function withRate<T extends RateCell>(c: T): T {
  // Four decimals: more would pretend a precision these counts do not have.
  c.rate = c.markets === 0 ? null : Math.round((10_000 * c.disputed) / c.markets) / 10_000;
  return c;
}

/** P(X >= a) for X hypergeometric: n draws from N items of which k are marked. */
function hypergeometricTail(a: number, n: number, k: number, total: number): number {
  const lf = [0];
  for (let i = 1; i <= total; i++) lf.push((lf[i - 1] ?? 0) + Math.log(i));
  const logChoose = (x: number, y: number) => (lf[x] ?? 0) - (lf[y] ?? 0) - (lf[x - y] ?? 0);
  let p = 0;
  for (let x = a; x <= Math.min(n, k); x++)
    p += Math.exp(logChoose(k, x) + logChoose(total - k, n - x) - logChoose(total, n));
  return Math.min(1, p);
}

function decidingOf(rcg: Rcg): string[] {
  const applied = rcg.factors.filter((f) => f.rating !== 'not_applicable');
  const lost = (f: (typeof applied)[number]) => FACTOR_WEIGHTS[f.factor] - f.points;
  const lines = [...applied]
    .sort((a, b) => lost(b) - lost(a))
    .map((f) => `${f.factor} ${f.rating} [${f.rule}] -${Math.round(lost(f))}/${FACTOR_WEIGHTS[f.factor]}`);
  return [...lines, ...rcg.caps.map((c) => `cap ${c}`)];
}

const CAVEATS = [
  'Small numbers: every rate is printed beside its counts; a rate over fewer than about 30 markets or 5 disputes is an anecdote, not a measurement.',
  'Disputes cluster: markets of one event share their rules text and their fate, so they are not independent observations, and the Fisher p-value is optimistic.',
  'Recorded windows: each venue file is one snapshot taken when it was recorded; a history is what UMA had reported by then, so later proposals and disputes are unseen and open markets may still be disputed.',
  'One snapshot per market: a market recorded in several files is counted once, from the record with the longest UMA history.',
  'Selection: the recorded files were chosen by topic, not sampled; files mode grades every venue_b record in them (markets the pipeline keeps out of scope included), store mode only the in-scope markets it stored.',
  'Grades are computed by the current rubric over the text as recorded, which may include clarifications the venue added after a dispute; a dispute is a challenge to a proposed outcome, not proof the outcome was wrong.',
];

/**
 * Counts disputes against grades over the cases (pure).
 * @example disputeReport(cases, 'files', 0).by_grade.C // { markets: 295, disputed: 19, rate: 0.0644 }
 */
export function disputeReport(
  cases: readonly DisputeCase[],
  input: 'store' | 'files',
  ungraded: number,
): DisputeReport {
  const byGrade = byGradeCells();
  const bands = new Map(SCORE_BANDS.map((b) => [b.band, { band: b.band, ...cell() }]));
  const byFactor = new Map<string, RateCell & { factor: RcgFactorName; rating: FactorRating }>();
  const byRule = new Map<string, RateCell & { factor: RcgFactorName; rule: string; rating: FactorRating }>();
  const byCap = new Map<string, RateCell & { cap: string }>();
  const windows = new Map<string, DisputeWindow>();
  const disputedMarkets: DisputedMarket[] = [];
  const all = cell();
  for (const c of cases) {
    const disputed = c.history.disputes >= 1;
    count(all, disputed);
    count(byGrade[c.rcg.grade], disputed);
    const band = SCORE_BANDS.find((b) => c.rcg.score >= b.min)?.band ?? '0-39';
    count(
      slot(bands, band, () => ({ band, ...cell() })),
      disputed,
    );
    for (const { factor, rating, rule } of c.rcg.factors) {
      const fk = `${factor}\u0000${rating}`;
      count(
        slot(byFactor, fk, () => ({ factor, rating, ...cell() })),
        disputed,
      );
      count(
        slot(byRule, `${fk}\u0000${rule}`, () => ({ factor, rule, rating, ...cell() })),
        disputed,
      );
    }
    for (const cap of c.rcg.caps.length === 0 ? ['(no cap)'] : c.rcg.caps)
      count(
        slot(byCap, cap, () => ({ cap, ...cell() })),
        disputed,
      );
    const w = slot(windows, c.origin, () => ({ origin: c.origin, ...cell(), by_grade: byGradeCells() }));
    count(w, disputed);
    count(w.by_grade[c.rcg.grade], disputed);
    if (disputed) {
      disputedMarkets.push({
        market_id: c.market_id,
        question: c.question,
        event: c.event,
        origin: c.origin,
        grade: c.rcg.grade,
        score: c.rcg.score,
        statuses: c.history.statuses,
        deciding: decidingOf(c.rcg),
      });
    }
  }
  const factorOrder = Object.keys(FACTOR_WEIGHTS);
  const ratingOrder = ['pass', 'partial', 'fail', 'not_applicable'];
  const byFactorThenRating = (
    a: { factor: string; rating: string; rule?: string },
    b: { factor: string; rating: string; rule?: string },
  ) =>
    factorOrder.indexOf(a.factor) - factorOrder.indexOf(b.factor) ||
    ratingOrder.indexOf(a.rating) - ratingOrder.indexOf(b.rating) ||
    (a.rule ?? '').localeCompare(b.rule ?? '');
  const ab = byGrade.A.markets + byGrade.B.markets;
  const gradeOrder = (g: Grade) => ['A', 'B', 'C'].indexOf(g);
  disputedMarkets.sort((a, b) => gradeOrder(a.grade) - gradeOrder(b.grade) || b.score - a.score);
  return {
    venue: 'venue_b',
    input,
    markets: all.markets,
    disputed: all.disputed,
    rate: withRate(all).rate,
    disputed_events: new Set(disputedMarkets.map((d) => d.event ?? d.market_id)).size,
    ungraded,
    by_grade: { A: withRate(byGrade.A), B: withRate(byGrade.B), C: withRate(byGrade.C) },
    by_score_band: [...bands.values()].map(withRate),
    by_factor: [...byFactor.values()].sort(byFactorThenRating).map(withRate),
    by_rule: [...byRule.values()].sort(byFactorThenRating).map(withRate),
    by_cap: [...byCap.values()].sort((a, b) => b.markets - a.markets || a.cap.localeCompare(b.cap)).map(withRate),
    c_versus_ab_p:
      byGrade.C.markets === 0 || ab === 0 || all.disputed === 0
        ? null
        : hypergeometricTail(byGrade.C.disputed, byGrade.C.markets, all.disputed, all.markets),
    disputed_markets: disputedMarkets,
    findings: disputedMarkets.filter((d) => d.grade !== 'C'),
    windows: [...windows.values()]
      .sort((a, b) => a.origin.localeCompare(b.origin))
      .map((w) => ({
        ...withRate(w),
        by_grade: { A: withRate(w.by_grade.A), B: withRate(w.by_grade.B), C: withRate(w.by_grade.C) },
      })),
    caveats: CAVEATS,
  };
}

/** The stored venue_b markets with a UMA history; those without a grade yet are only counted. */
export function disputeCasesFromMarkets(markets: readonly Market[]): { cases: DisputeCase[]; ungraded: number } {
  const cases: DisputeCase[] = [];
  let ungraded = 0;
  for (const m of markets) {
    if (m.platform !== 'venue_b' || !hasUmaHistory(m.resolution_history)) continue;
    if (m.rcg === null) {
      ungraded++;
      continue;
    }
    cases.push({
      market_id: m.platform_market_id,
      question: m.question_raw,
      event: m.event_id,
      origin: 'store',
      history: m.resolution_history,
      rcg: m.rcg,
    });
  }
  return { cases, ungraded };
}

/** The JSON files a path names: the file itself, or every `.json` file under a folder (sorted). */
function jsonFilesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const full = join(path, name);
      return statSync(full).isDirectory() ? jsonFilesOf(full) : name.endsWith('.json') ? [full] : [];
    });
}

/**
 * Every venue_b Gamma market record (a `conditionId` and a `description`) in a parsed file, with the Gamma
 * event it is nested in (events carry a `slug` and a `markets` list), so the grade reads the event text as the
 * pipeline does.
 */
function gammaMarketsOf(o: unknown, parent: Rec | null, out: Array<{ market: Rec; event: Rec | null }>): void {
  if (Array.isArray(o)) {
    for (const x of o) gammaMarketsOf(x, parent, out);
    return;
  }
  if (!isRec(o)) return;
  if (typeof o.conditionId === 'string' && 'description' in o) out.push({ market: o, event: parent });
  const next = 'slug' in o && Array.isArray(o.markets) ? o : parent;
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) gammaMarketsOf(v, next, out);
}

/**
 * Grades native venue_b records in place and keeps those with a UMA history. A market recorded in several
 * files (or twice in one) is counted once, from the record with the longest history (UMA histories only
 * grow, so that is the latest snapshot); ties keep the first record read.
 */
export function disputeCasesFromFiles(paths: readonly string[]): { cases: DisputeCase[]; files: string[] } {
  const files = paths.flatMap(jsonFilesOf);
  const best = new Map<string, { market: Rec; event: Rec | null; origin: string; history: ResolutionHistory }>();
  for (const file of files) {
    const found: Array<{ market: Rec; event: Rec | null }> = [];
    gammaMarketsOf(JSON.parse(readFileSync(file, 'utf8')) as unknown, null, found);
    for (const { market, event } of found) {
      const id = market.conditionId as string;
      // The event a market is nested in stands in for the `events` list Gamma's /markets pages carry.
      const rec = event !== null && !Array.isArray(market.events) ? { ...market, events: [event] } : market;
      const { facts } = venueBInput(rec);
      const history = venueBResolutionHistory(facts.uma_resolution_statuses, facts.uma_resolution_status);
      if (!hasUmaHistory(history)) continue;
      const prev = best.get(id);
      if (prev && prev.history.statuses.length >= history.statuses.length) continue;
      best.set(id, { market: rec, event, origin: basename(file), history });
    }
  }
  const cases = [...best.entries()].map(([id, b]): DisputeCase => {
    const input = venueBInput(b.market);
    const nested = Array.isArray(b.market.events) && isRec(b.market.events[0]) ? b.market.events[0] : null;
    const eventId = (b.event ?? nested)?.id;
    return {
      market_id: id,
      question: input.market.question_raw,
      event: typeof eventId === 'string' || typeof eventId === 'number' ? String(eventId) : null,
      origin: b.origin,
      history: b.history,
      rcg: judgeResolution(input.market, input.facts).rcg,
    };
  });
  return { cases, files };
}

/** A percentage from the counts (not the rounded `rate`, which would round twice). */
const pct = (c: RateCell) => (c.markets === 0 ? '-' : `${((100 * c.disputed) / c.markets).toFixed(1)}%`);

function rows<T extends RateCell>(title: string, head: string, items: readonly T[], label: (t: T) => string): string[] {
  const w = Math.max(head.length, ...items.map((i) => label(i).length));
  const n = (x: number, width: number) => String(x).padStart(width);
  return [
    title,
    `  ${head.padEnd(w)}  markets  disputed    rate`,
    ...items.map((i) => `  ${label(i).padEnd(w)}  ${n(i.markets, 7)}  ${n(i.disputed, 8)}  ${pct(i).padStart(6)}`),
  ];
}

function disputedLines(list: readonly DisputedMarket[]): string[] {
  return list.flatMap((d) => [
    `  ${d.grade} ${d.score}  ${d.market_id}  ${d.question ?? '(no question)'}`,
    `      ${d.statuses.join(' > ')}  (event ${d.event ?? '?'}, ${d.origin})`,
    ...d.deciding.map((x) => `      ${x}`),
  ]);
}

/** The report for a person: tables with counts beside every rate, the disputed markets, the caveats. */
export function formatDisputeReport(r: DisputeReport): string {
  const grades = (['A', 'B', 'C'] as const).map((g) => ({ grade: g, ...r.by_grade[g] }));
  const lines = [
    `Grade versus disputes: venue_b UMA histories (input: ${r.input})`,
    `${r.markets} markets with a UMA history (at least one proposal or dispute), ${r.disputed} disputed (${pct(r)}), in ${r.disputed_events} events` +
      (r.ungraded > 0 ? `; ${r.ungraded} more not graded yet, left out` : ''),
    '',
    ...rows('By grade', 'grade', grades, (g) => g.grade),
    `  C versus A+B, one-sided Fisher exact p = ${r.c_versus_ab_p === null ? '-' : r.c_versus_ab_p.toPrecision(2)} (assumes independent markets; see caveats)`,
    '',
    ...rows('By score band', 'score', r.by_score_band, (b) => b.band),
    '',
    ...rows('By factor x rating', 'factor rating', r.by_factor, (f) => `${f.factor} ${f.rating}`),
    '',
    ...rows('By rule x rating', 'rule rating', r.by_rule, (f) => `${f.rule} ${f.rating}`),
    '',
    ...rows('By cap', 'cap', r.by_cap, (c) => c.cap),
    '',
    `Disputed markets (${r.disputed_markets.length}), factors by points lost`,
    ...disputedLines(r.disputed_markets),
    '',
    `Findings: disputed markets graded A or B (${r.findings.length})`,
    ...(r.findings.length === 0
      ? ['  none']
      : r.findings.map((f) => `  ${f.grade} ${f.score}  ${f.market_id}  ${f.question ?? ''}`)),
    '',
    'Recorded windows (one snapshot per file; store: as last ingested), disputed/markets by grade',
    ...r.windows.map(
      (w) =>
        `  ${w.origin}: ${w.disputed}/${w.markets}  (` +
        (['A', 'B', 'C'] as const).map((g) => `${g} ${w.by_grade[g].disputed}/${w.by_grade[g].markets}`).join(', ') +
        ')',
    ),
    '',
    'Caveats',
    ...r.caveats.map((c) => `  - ${c}`),
  ];
  return `${lines.join('\n')}\n`;
}
