/**
 * Cross-venue questions (issue 17, item 3), built once per generation from the markets' `also_on` links: one
 * row per linked venue_a × venue_b pair, with both legs, the relation, the divergence and the differences; and
 * per pair the side-by-side body with a word diff of the two rule texts. The read model calls `QuestionLegs.add`
 * for each served market and `buildQuestionIndex` once; the query service filters and pages the sorted rows.
 *
 * Pairs come from `also_on` as the pipeline stored it (the canon layer decides links; this file never re-links),
 * counted once from the venue_a side and kept only when both markets are served.
 */
import {
  CATEGORIES,
  type Category,
  type Event,
  type LinkDifference,
  type LinkRelation,
  type Market,
  type MarketFeeTerms,
  type Notice,
  pairIdFor,
  type QuestionComparison,
  type QuestionLeg,
  type QuestionPage,
  type QuestionSummary,
  type ServedMarket,
} from '../domain/index.ts';
import { type AskDepth, netSpread } from '../signals/net-spread.ts';
import { Body, type ByteArena, etagFor, objectWithArray, prettyAt } from './json-bytes.ts';
import type { Raw } from './params.ts';
import { diffWords } from './word-diff.ts';

export const RELATIONS = ['same', 'complement', 'related'] as const satisfies readonly LinkRelation[];
export const QUESTIONS_DEFAULT_LIMIT = 50;
export const QUESTIONS_MAX_LIMIT = 100;

/** What one linked market contributes to its pairs. */
interface LinkedMarket {
  leg: QuestionLeg;
  questionId: string | null;
  rules: string | null;
  /** Top-of-book ask sizes of the latest mark, when the read model passes them. */
  depth: AskDepth | null;
  /** The market's own fee terms (null: its venue's schedule as it stands). */
  fees: MarketFeeTerms | null;
  links: Array<{ marketId: string; relation: LinkRelation; differences: LinkDifference[] }>;
}

/** Collects the served markets that carry cross-venue links while the read model reads its markets. */
export class QuestionLegs {
  readonly byId = new Map<string, LinkedMarket>();

  add(market: Market, served: ServedMarket, event: Event | undefined, depth: AskDepth | null = null): void {
    if (!market.also_on || market.also_on.length === 0) return;
    this.byId.set(market.market_id, {
      leg: {
        venue: market.platform,
        market_id: market.market_id,
        platform_market_id: market.platform_market_id,
        event_id: market.event_id,
        event_slug: event?.slug ?? null,
        category: (event?.category as Category | undefined) ?? null,
        question: market.question_raw,
        subject: market.group_item_title,
        direction: market.direction,
        price: served.last_price,
        price_as_of: served.price_as_of,
        status: served.status,
        grade: served.rcg.grade,
        score: served.rcg.score,
        arbiter: market.arbitration_model,
        source_of_record: market.source_of_record,
        url: `/v1/markets/${market.market_id}`,
      },
      questionId: market.question_id,
      rules: market.resolution_rules_raw,
      depth,
      fees: market.fee_terms ?? null,
      // Records stored before issue 16 carry no relation; they were all same or complement (market.ts).
      links: market.also_on.map((t) => ({
        marketId: t.market_id,
        relation: t.relation ?? 'same',
        differences: t.differences ?? [],
      })),
    });
  }
}

/** One served pair: its list row (object and bytes at depth 2) and its side-by-side body. */
export interface QuestionEntry {
  summary: QuestionSummary;
  /** The row pretty-printed for depth 2 (inside the `questions` array). */
  item: string;
  /** `GET /v1/questions/{id}`. */
  detail: Body;
}

export interface QuestionIndex {
  /** Largest divergence first, pairs without one last, then by id. */
  list: QuestionEntry[];
  /** By pair id; a question_id shared by several pairs also names the first of them (see QuestionPairIdSchema). */
  byId: Map<string, QuestionEntry>;
}

/** What the divergence of a pair needs of each leg. */
export interface PricedLeg {
  price: number | null;
  status: QuestionLeg['status'];
}

/**
 * The divergence of a pair in percentage points, complement-adjusted, with a note when null or not a spread.
 * Only two open markets are compared: a closed or resolved leg's last price is not a quote any more (a resolved
 * market at 1 beside an open one at 0.01 is not a 99-point gap anyone can trade), so the divergence is null and
 * the note says which leg stopped trading.
 * @example divergenceOf('complement', { price: 0.3, status: 'open' }, { price: 0.6, status: 'open' }).points // 10
 */
export function divergenceOf(
  relation: LinkRelation,
  a: PricedLeg,
  b: PricedLeg,
): { points: number | null; note: string | null } {
  const pa = a.price;
  const pb = b.price;
  if (pa === null || pb === null) {
    const missing = pa === null && pb === null ? 'either leg' : pa === null ? 'the venue_a leg' : 'the venue_b leg';
    return { points: null, note: `No price on ${missing} (no mark yet): divergence unknown.` };
  }
  if (a.status !== 'open' || b.status !== 'open') {
    const stopped = [
      ...(a.status !== 'open' ? [`the venue_a leg is ${a.status}`] : []),
      ...(b.status !== 'open' ? [`the venue_b leg is ${b.status}`] : []),
    ].join(' and ');
    return { points: null, note: `Not compared: ${stopped}; divergence compares two open markets only.` };
  }
  const other = relation === 'complement' ? 1 - pb : pb;
  const points = Math.round(Math.abs(pa - other) * 1000) / 10;
  if (relation === 'complement') {
    return { points, note: "Complement: venue_a's YES price against venue_b's NO price (1 − p_b)." };
  }
  if (relation === 'related') {
    return {
      points,
      note: 'Related, not the same bet: the questions differ (see differences), so a gap is not a spread.',
    };
  }
  return { points, note: null };
}

/** The spread fields of a row: gross and net of both venues' taker fees (net-spread.ts); null where no spread. */
export function spreadOf(
  relation: LinkRelation,
  points: number | null,
  a: { price: number | null; depth?: AskDepth | null; fees?: MarketFeeTerms | null },
  b: { price: number | null; depth?: AskDepth | null; fees?: MarketFeeTerms | null },
): Pick<
  QuestionSummary,
  'spread_gross_points' | 'spread_net_points' | 'spread_fees' | 'spread_size_contracts' | 'depth_ok' | 'spread_note'
> {
  if (points === null || relation === 'related' || a.price === null || b.price === null) {
    return {
      spread_gross_points: null,
      spread_net_points: null,
      spread_fees: null,
      spread_size_contracts: null,
      depth_ok: null,
      spread_note: null,
    };
  }
  const s = netSpread({
    priceA: a.price,
    priceB: b.price,
    complement: relation === 'complement',
    depthA: a.depth ?? null,
    depthB: b.depth ?? null,
    feesA: a.fees ?? null,
    feesB: b.fees ?? null,
  });
  const pts = (x: number) => Math.round(x * 10000) / 100;
  const usd = (x: number) => Math.round(x * 10000) / 10000;
  return {
    spread_gross_points: pts(s.gross),
    spread_net_points: s.net === null ? null : pts(s.net),
    spread_fees: {
      venue_a: s.fees.venue_a === null ? null : usd(s.fees.venue_a),
      venue_b: s.fees.venue_b === null ? null : usd(s.fees.venue_b),
    },
    spread_size_contracts: s.size_contracts,
    depth_ok: s.depth_ok,
    spread_note:
      s.fees_unknown.length === 0
        ? null
        : `No net figure: the ${s.fees_unknown.join(' and ')} market says it charges a taker fee pmref cannot price from what the venue sent (see the market's fee_terms).`,
  };
}

function byDivergence(a: QuestionEntry, b: QuestionEntry): number {
  const da = a.summary.divergence_points;
  const db = b.summary.divergence_points;
  if (da !== db) {
    if (da === null) return 1;
    if (db === null) return -1;
    return db - da;
  }
  return a.summary.id < b.summary.id ? -1 : a.summary.id > b.summary.id ? 1 : 0;
}

interface Pair {
  a: LinkedMarket;
  b: LinkedMarket;
  relation: LinkRelation;
  differences: LinkDifference[];
}

/** Builds every served pair's row and side-by-side body. Pure apart from writing bodies into `arena`. */
export function buildQuestionIndex(
  legs: QuestionLegs,
  ctx: { generation: number; notice: Notice; arena?: ByteArena },
): QuestionIndex {
  const pairs: Pair[] = [];
  for (const a of legs.byId.values()) {
    if (a.leg.venue !== 'venue_a') continue;
    for (const link of a.links) {
      const b = legs.byId.get(link.marketId);
      if (b?.leg.venue !== 'venue_b') continue;
      pairs.push({ a, b, relation: link.relation, differences: link.differences });
    }
  }
  // Pairs per question_id: one is served under the question_id; several each get an SVCP- id (QuestionPairIdSchema).
  const perQuestion = new Map<string, Pair[]>();
  for (const p of pairs) {
    if (p.relation === 'related' || !p.a.questionId) continue;
    const list = perQuestion.get(p.a.questionId);
    if (list) list.push(p);
    else perQuestion.set(p.a.questionId, [p]);
  }
  const idOf = (p: Pair): string => {
    if (p.relation === 'related' || !p.a.questionId) return pairIdFor('related', p.a.leg.market_id, p.b.leg.market_id);
    return (perQuestion.get(p.a.questionId)?.length ?? 0) > 1
      ? pairIdFor('pair', p.a.leg.market_id, p.b.leg.market_id)
      : p.a.questionId;
  };
  const list: QuestionEntry[] = [];
  const byId = new Map<string, QuestionEntry>();
  for (const p of pairs) {
    const id = idOf(p);
    const { points, note } = divergenceOf(p.relation, p.a.leg, p.b.leg);
    const summary: QuestionSummary = {
      id,
      question_id: p.relation === 'related' ? null : p.a.questionId,
      relation: p.relation,
      category: p.a.leg.category ?? p.b.leg.category,
      divergence_points: points,
      divergence_note: note,
      differences: p.differences,
      ...spreadOf(
        p.relation,
        points,
        { ...p.a.leg, depth: p.a.depth, fees: p.a.fees },
        { ...p.b.leg, depth: p.b.depth, fees: p.b.fees },
      ),
      venue_a: p.a.leg,
      venue_b: p.b.leg,
      url: `/v1/questions/${id}`,
    };
    const siblings = p.a.questionId && p.relation !== 'related' ? (perQuestion.get(p.a.questionId) ?? []) : [];
    const comparison: QuestionComparison = {
      ...summary,
      rules: { venue_a: p.a.rules, venue_b: p.b.rules },
      rules_diff: p.a.rules !== null && p.b.rules !== null ? diffWords(p.a.rules, p.b.rules) : null,
      other_pairs: siblings.length > 1 ? siblings.map(idOf).filter((x) => x !== id) : [],
    };
    const text = JSON.stringify({ ...comparison, _notice: ctx.notice }, null, 2);
    const detail = new Body(ctx.arena ? ctx.arena.put(text) : text, etagFor(ctx.generation, `q:${id}`), !!ctx.arena);
    const entry: QuestionEntry = { summary, item: prettyAt(summary, 2), detail };
    list.push(entry);
    byId.set(id, entry);
  }
  list.sort(byDivergence);
  aliasSharedQuestionIds(list, byId);
  return { list, byId };
}

/**
 * A question_id shared by several pairs names one of them: a `same` pair before a `complement` one, then the
 * lowest venue_a and venue_b market ids (on the simulated universe a venue_b "above" and "below" market often
 * share the venue_a market's question_id).
 */
function aliasSharedQuestionIds(list: readonly QuestionEntry[], byId: Map<string, QuestionEntry>): void {
  const first = new Map<string, QuestionEntry>();
  const rank = (x: QuestionEntry) =>
    `${x.summary.relation === 'same' ? 0 : 1}|${x.summary.venue_a.market_id}|${x.summary.venue_b.market_id}`;
  for (const e of list) {
    const q = e.summary.question_id;
    if (q === null || e.summary.id === q) continue;
    const seen = first.get(q);
    if (!seen || rank(e) < rank(seen)) first.set(q, e);
  }
  for (const [q, e] of first) byId.set(q, e);
}

/** Rebuilds the index from pack contents: the rows and their stored side-by-side bodies. */
export function questionIndexFrom(rows: ReadonlyArray<{ summary: QuestionSummary; detail: Body }>): QuestionIndex {
  const list = rows.map((r) => ({ summary: r.summary, item: prettyAt(r.summary, 2), detail: r.detail }));
  const byId = new Map(list.map((e) => [e.summary.id, e]));
  aliasSharedQuestionIds(list, byId);
  return { list, byId };
}

/** `/v1/questions` parameters as given (REST query strings, MCP numbers). */
export interface QuestionQuery {
  category?: Raw;
  min_divergence?: Raw;
  relation?: Raw;
  limit?: Raw;
  offset?: Raw;
}

/** A parameter value the list cannot take: the route answers 400 with this message and hint. */
export class QuestionQueryError extends Error {
  override readonly name = 'QuestionQueryError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** Validated parameters. `category`/`relation` are lowercased but not checked: unknown values give a notice. */
export interface ParsedQuestionQuery {
  category: string | undefined;
  relation: string | undefined;
  minDivergence: number | undefined;
  limit: number;
  limitNotice: string | undefined;
  offset: number;
}

function text(raw: Raw): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const s = String(raw).trim();
  return s === '' ? undefined : s;
}

function number(raw: Raw): number | undefined {
  const s = text(raw);
  if (s === undefined) return undefined;
  // Number('') and Number('0x10') are numbers; only plain decimals are accepted.
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s) ? Number(s) : Number.NaN;
}

/**
 * Checks the numbers (a malformed or out-of-range number is a 400: unlike an unknown category, there is no
 * reading of it worth answering) and normalizes the rest. Error messages never quote the value back.
 */
export function parseQuestionQuery(query: QuestionQuery): ParsedQuestionQuery {
  const min = number(query.min_divergence);
  if (min !== undefined && !(Number.isFinite(min) && min >= 0)) {
    throw new QuestionQueryError(
      'min_divergence must be a number of percentage points, 0 or more',
      'e.g. min_divergence=5 for pairs at least 5 points apart.',
    );
  }
  const limit = number(query.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new QuestionQueryError(
      `limit must be a whole number from 1 to ${QUESTIONS_MAX_LIMIT}`,
      `Omit it for ${QUESTIONS_DEFAULT_LIMIT}; page with offset.`,
    );
  }
  const offset = number(query.offset);
  if (offset !== undefined && !(Number.isInteger(offset) && offset >= 0)) {
    throw new QuestionQueryError('offset must be a whole number, 0 or more', 'Omit it to start at the first pair.');
  }
  const capped = limit !== undefined && limit > QUESTIONS_MAX_LIMIT;
  return {
    category: text(query.category)?.toLowerCase(),
    relation: text(query.relation)?.toLowerCase(),
    minDivergence: min,
    limit: capped ? QUESTIONS_MAX_LIMIT : (limit ?? QUESTIONS_DEFAULT_LIMIT),
    limitNotice: capped
      ? `limit is over the maximum ${QUESTIONS_MAX_LIMIT}; capped at ${QUESTIONS_MAX_LIMIT}.`
      : undefined,
    offset: offset ?? 0,
  };
}

/** The cache key of a parsed query (equal queries share one assembled body per generation). */
export function questionQueryKey(p: ParsedQuestionQuery): string {
  return `questions|${p.category ?? ''}|${p.relation ?? ''}|${p.minDivergence ?? ''}|${p.limit}|${p.offset}|${p.limitNotice ? 1 : 0}`;
}

interface Matched {
  matches: QuestionEntry[];
  notice: QuestionPage['notice'];
}

/** Filters the sorted rows; an unknown value or an empty answer comes with a notice saying why and what to try. */
function match(index: QuestionIndex, p: ParsedQuestionQuery): Matched {
  const unknown: string[] = [];
  const tries: string[] = [];
  if (p.category !== undefined && !(CATEGORIES as readonly string[]).includes(p.category)) {
    unknown.push(`category is not one of ${CATEGORIES.join(', ')}.`);
    tries.push(...CATEGORIES.map((c) => `category=${c}`));
  }
  if (p.relation !== undefined && !(RELATIONS as readonly string[]).includes(p.relation)) {
    unknown.push(`relation is not one of ${RELATIONS.join(', ')}.`);
    tries.push(...RELATIONS.map((r) => `relation=${r}`));
  }
  if (unknown.length > 0) return { matches: [], notice: { reason: unknown.join(' '), try: tries } };
  const matches = index.list.filter(
    (e) =>
      (p.category === undefined ||
        e.summary.venue_a.category === p.category ||
        e.summary.venue_b.category === p.category) &&
      (p.relation === undefined || e.summary.relation === p.relation) &&
      (p.minDivergence === undefined ||
        (e.summary.divergence_points !== null && e.summary.divergence_points >= p.minDivergence)),
  );
  if (index.list.length === 0) {
    return {
      matches,
      notice: {
        reason: 'No markets are linked across venues in this generation of the data.',
        try: ['/v1/events', '/v1/stats'],
      },
    };
  }
  if (matches.length === 0) {
    const loosen = [
      ...(p.minDivergence !== undefined ? ['a lower min_divergence, or none'] : []),
      ...(p.category !== undefined ? ['another category, or none'] : []),
      ...(p.relation !== undefined ? ['another relation, or none'] : []),
    ];
    return {
      matches,
      notice: { reason: `No cross-venue pair matches these filters (${index.list.length} pairs in all).`, try: loosen },
    };
  }
  if (p.offset >= matches.length) {
    return {
      matches,
      notice: { reason: `offset is past the last of the ${matches.length} matching pairs.`, try: ['offset=0'] },
    };
  }
  return { matches, notice: null };
}

/** The page as plain data (MCP, A2A, HTML pages). */
export function findQuestionsIn(index: QuestionIndex, p: ParsedQuestionQuery): QuestionPage {
  const { matches, notice } = match(index, p);
  const page = matches.slice(p.offset, p.offset + p.limit);
  return {
    total: matches.length,
    count: page.length,
    limit: p.limit,
    offset: p.offset,
    notice,
    ...(p.limitNotice ? { limit_notice: p.limitNotice } : {}),
    questions: page.map((e) => e.summary),
  };
}

/** `GET /v1/questions`: the page assembled from the precomputed row bytes. */
export function questionListBody(
  index: QuestionIndex,
  p: ParsedQuestionQuery,
  ctx: { generation: number; notice: Notice },
): Body {
  const { matches, notice } = match(index, p);
  const page = matches.slice(p.offset, p.offset + p.limit);
  const head = {
    total: matches.length,
    count: page.length,
    limit: p.limit,
    offset: p.offset,
    notice,
    ...(p.limitNotice ? { limit_notice: p.limitNotice } : {}),
    _notice: ctx.notice,
  };
  return new Body(
    objectWithArray(
      head,
      'questions',
      page.map((e) => e.item),
    ),
    etagFor(ctx.generation, questionQueryKey(p)),
  );
}

/** A pair by id (case-insensitive), or null. */
export function questionEntry(index: QuestionIndex, id: string): QuestionEntry | null {
  return index.byId.get(id.toUpperCase()) ?? null;
}

/** The side-by-side view as plain data (the REST body without `_notice`). */
export function questionComparison(index: QuestionIndex, id: string): QuestionComparison | null {
  const entry = questionEntry(index, id);
  if (!entry) return null;
  const { _notice: _n, ...comparison } = entry.detail.value<QuestionComparison & { _notice: unknown }>();
  return comparison;
}
