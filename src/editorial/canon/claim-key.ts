/**
 * Claim keys: what a market is a bet on, in a form two venues' wordings reduce to when, and only
 * when, they pay on the same thing. question_id = `SVCX-` + 10 hex of the normalized key.
 *
 * Order of evidence: venue_a structured strike fields first, then the question text, then the
 * rules text (for the horizon when the question has none, and for the definition qualifiers that
 * split look-alike claims: death clauses, "announced intention" clauses, in-person vs phone
 * contact, inauguration vs election call, price sources). Anything incomplete or uncertain is
 * `unkeyed` with a reason: a false link is worse than a missing one.
 */
import type { Direction, Market, SettlementStyle, VenueFacts } from '../../domain/index.ts';
import { questionIdFor } from '../../domain/index.ts';
import { definitionOf, resolvingClause as resolvingClauseOf } from './definition.ts';
import { horizonOf, toEastern } from './horizon.ts';
import { type Mention, REGISTRY, type Registry } from './registry.ts';
import { foldText, numText, phraseTokens, slugOf } from './text.ts';
import {
  amount,
  snapStrike,
  structuredThreshold,
  type ThresholdOp,
  TOUCH_NUM_RE,
  textThreshold,
  unitOf,
} from './threshold.ts';

export type { ThresholdOp } from './threshold.ts';

/** The normalized claim behind a question_id (served as the market's `claim_key`). */
export interface ClaimKey {
  subject: string | null;
  metric: string;
  horizon: string;
  direction: Direction;
  op: ThresholdOp | null;
  threshold: number | null;
  cap: number | null;
  unit: string | null;
  settlement_style: SettlementStyle;
  definition: string[];
}

export type ClaimKeyResult =
  | { status: 'keyed'; key: ClaimKey; normalized: string }
  | { status: 'unkeyed'; reason: string };

const unkeyed = (reason: string): ClaimKeyResult => ({ status: 'unkeyed', reason });

const TOUCH_UP_RE = /\b(reach|reaches|hit|hits|climb to|rise to|surpass|all[- ]time high)\b/i;
const TOUCH_DOWN_RE = /\b(dip to|dips to|fall to|falls to|drop to|drops to|sink to|crash to)\b/i;
const RELATIVE_RE = /\bup or down\b|\bprice (up|down)\b|\bhigher or lower\b/i;
const RATE_CHANGE_RE =
  /(cut|decrease|lower|reduce|raise|increase|hike)s?\s+(?:(?:the\s+)?(?:interest\s+)?rates?\s+)?by\s+(\d+)\s*(\+)?\s*(bps|basis points)/i;
const NO_CHANGE_RE = /\bno change\b/i;
const NEGATION_RE = /\b(not|no|never|fail to|fails to)\b/i;
const WH_RE = /^(who|which|what|where|when|how)\b/i;
const WHO_WILL_RE = /^(?:who|which [\p{L} ]{1,40}?) will (.+)$/iu;
const AUX_START_RE = /^(will|is|are|was|were|does|do|did|has|have|can|could|would|should)\b/i;
const COMBO_RE = /^(yes|no) [^,]+,(yes|no) /i;
const MARKET_CAP_RE = /\b(market cap|fdv|dominance)\b/i;
const UPPER_BOUND_RE = /upper bound/i;
const HOURLY_RE = /\b1[- ]?h(?:our)?\b[^.]{0,20}candle|\b1H\b/i;

const EVENT_PHRASE_RE =
  /\b20\d\d(?:[-–]\d\d)?\s+(?:[\p{L}'.-]+\s+){0,5}?(?:election|elections|primary|primaries|nomination|referendum|runoff|championship|finals?|cup|playoffs|tournament|series|open|grand prix|olympics|mvp|awards?)\b/iu;
const NEXT_ROLE_RE =
  /\bthe next (?:[\p{L}'.-]+\s+){0,6}?(?:of|for|from)\s+(?:the\s+)?[\p{Lu}][\p{L}'.-]*(?:\s+[\p{Lu}][\p{L}'.-]*)*|\bthe next (?:pope|james bond|supreme leader|speaker of the house|fed chair)\b/iu;
const ISO_IN_TEXT_RE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Entity types that are measured quantities (the metric of a threshold claim). */
const METRIC_TYPES = new Set(['coin', 'index', 'statistic', 'policy_rate', 'commodity']);

function etDate(d: Date): string {
  const et = toEastern(d);
  return `${et.y}-${String(et.m).padStart(2, '0')}-${String(et.d).padStart(2, '0')}`;
}

/** The per-child outcome name: venue_b group_item_title, venue_a custom_strike value. */
function childNameOf(market: Market, facts: VenueFacts): string | null {
  const cs = facts.custom_strike;
  if (cs) {
    const vals = Object.values(cs).filter((v): v is string => typeof v === 'string' && !/^[0-9a-f-]{36}$/.test(v));
    if (vals.length === 1 && vals[0]) return vals[0];
  }
  const g = market.group_item_title?.trim();
  return g ? g : null;
}

/** Resolves `ambiguous:<surname>` mentions from full names in the rules; null when still ambiguous. */
function disambiguate(mentions: Mention[], rules: string, registry: Registry): Mention[] | string {
  const out: Mention[] = [];
  for (const m of mentions) {
    if (!m.id.startsWith('ambiguous:')) {
      out.push(m);
      continue;
    }
    const surname = m.id.slice('ambiguous:'.length);
    const named = registry
      .peopleWithSurname(surname)
      .filter((p) => registry.mentions(rules).some((r) => r.id === p.id));
    const only = named[0];
    if (named.length !== 1 || !only)
      return `ambiguous surname '${m.text}': the rules name ${named.length} of the people it can mean`;
    out.push({ ...m, id: only.id });
  }
  return out;
}

/** Claim tokens of `text` with entity mentions as `@id` and the given spans blanked. */
function claimPhrase(text: string, mentions: readonly Mention[], cut: ReadonlyArray<[number, number]>): string[] {
  const tokens: string[] = [];
  let pos = 0;
  const blank = (s: number, e: number) => {
    let t = text.slice(s, e);
    for (const [cs, ce] of cut) {
      const a = Math.max(cs, s);
      const b = Math.min(ce, e);
      if (a < b) t = t.slice(0, a - s) + ' '.repeat(b - a) + t.slice(b - s);
    }
    return t;
  };
  for (const m of mentions) {
    if (cut.some(([cs, ce]) => m.start >= cs && m.end <= ce)) continue;
    tokens.push(...phraseTokens(blank(pos, m.start)));
    // An outcome name outside the registry reads as its words, so a venue that labels the outcome
    // and one that only writes it in the question give the same phrase.
    if (m.id.startsWith('name:')) tokens.push(...phraseTokens(m.text));
    else tokens.push(`@${m.id}`);
    pos = m.end;
  }
  tokens.push(...phraseTokens(blank(pos, text.length)));
  return tokens;
}

function boundaryOf(key: ClaimKey, continuous: boolean): string {
  if (key.threshold === null || key.op === null) return '-';
  const t = numText(key.threshold);
  if (key.op === 'between') return `${t}..${numText(key.cap ?? Number.NaN)}`;
  if (continuous) return t;
  // Discrete quantities: "> X" pairs with "<= X", ">= X" with "< X".
  return key.op === 'gt' || key.op === 'le' ? `${t}]` : `[${t}`;
}

/** The direction class shared by complements: above and below at one boundary are one claim. */
function directionClass(key: ClaimKey): string {
  if (key.direction === 'above' || key.direction === 'below') return 'above|below';
  if (key.direction === 'reach') return key.op === 'lt' || key.op === 'le' ? 'reach-down' : 'reach-up';
  return key.direction;
}

/** The normalized key string hashed into question_id. Complements (above/below) normalize alike. */
export function normalizeClaimKey(key: ClaimKey, registry: Registry = REGISTRY): string {
  const metricEntity = registry.byId.get(key.metric.split('#')[0] ?? '');
  const continuous = metricEntity?.continuous ?? false;
  return [
    'v1',
    `sub=${key.subject ?? '-'}`,
    `met=${key.metric}`,
    `hor=${key.horizon}`,
    `dir=${directionClass(key)}`,
    `b=${boundaryOf(key, continuous)}`,
    `u=${key.unit ?? '-'}`,
    `st=${key.settlement_style}`,
    `def=${key.definition.join(',')}`,
  ].join('|');
}

/**
 * The claim key of one market, or the reason it has none.
 * @example claimKeyOf(kalshiFedT325, facts) // keyed: cb:fed, rate:fed-funds#upper_bound, meeting:2026-04, above 3.25 %
 */
export function claimKeyOf(market: Market, facts: VenueFacts, registry: Registry = REGISTRY): ClaimKeyResult {
  const rawQ = market.question_raw?.trim();
  if (!rawQ) return unkeyed('no question text');
  let q = foldText(rawQ);
  if (COMBO_RE.test(q) || facts.series_ticker?.startsWith('KXMVE')) return unkeyed('multi-leg combination market');
  const child = childNameOf(market, facts);
  if (WH_RE.test(q)) {
    if (!child) return unkeyed('multiple-choice question with no outcome named for this market');
    // "Who will win X?" for the child "Dakota Ellis" is the claim "Will Dakota Ellis win X?".
    const who = WHO_WILL_RE.exec(q);
    q = who ? `Will ${foldText(child)} ${who[1]}` : `${q} :: ${foldText(child)}`;
  } else if (
    child &&
    !AUX_START_RE.test(q) &&
    !q.toLowerCase().includes(foldText(child).toLowerCase()) &&
    !horizonOf(child, null)
  ) {
    // A headline title with the outcome in the child label ("Fed decision at the April 2026 FOMC
    // meeting?" + "Cut >25bps") reads as the headline with the outcome appended.
    q = `${q.replace(/\?\s*$/, '')}: ${foldText(child)}?`;
  }
  const rulesText = foldText(market.resolution_rules_raw ?? market.description_raw ?? facts.event_description ?? '');
  const refIso = market.close_at ?? market.resolve_at ?? facts.expiration_time;
  const ref = refIso ? new Date(refIso) : null;

  // Entities: registry first; an unregistered outcome name becomes a `name:` entity.
  let mentions = registry.mentions(q);
  if (child && !/\d/.test(child)) {
    const fc = foldText(child);
    const at = q.toLowerCase().indexOf(fc.toLowerCase());
    if (
      at >= 0 &&
      !mentions.some((m) => m.start <= at && m.end >= at + fc.length) &&
      /^\p{Lu}/u.test(fc) &&
      fc.split(' ').length >= 2
    ) {
      mentions = [
        ...mentions.filter((m) => m.end <= at || m.start >= at + fc.length),
        { start: at, end: at + fc.length, id: `name:${slugOf(fc)}`, text: fc },
      ];
      mentions.sort((a, b) => a.start - b.start);
    }
  }
  const resolved = disambiguate(mentions, `${rulesText} ${foldText(market.description_raw ?? '')}`, registry);
  if (typeof resolved === 'string') return unkeyed(resolved);
  mentions = resolved;
  const entities = mentions.map((m) => registry.byId.get(m.id));
  const bank = entities.find((e) => e?.type === 'central_bank');
  // "The Fed cuts rates by 25 bps": a central bank named with a rate move measures its policy rate.
  const metricEntity =
    entities.find((e) => e && METRIC_TYPES.has(e.type)) ??
    (bank && (RATE_CHANGE_RE.test(q) || NO_CHANGE_RE.test(q))
      ? [...registry.byId.values()].find((e) => e.type === 'policy_rate' && e.of === bank.id)
      : undefined);
  const eventEntity = entities.find((e) => e && (e.type === 'election' || e.type === 'competition'));

  // Horizon: a resolving event (election, competition) fixes its own; else the question; else the rules.
  let horizon: string | null = eventEntity ? `event:${eventEntity.id}` : null;
  const cut: Array<[number, number]> = [];
  const qh = horizonOf(q, ref);
  if (qh) cut.push([qh.start, qh.end]);
  const head = rulesText.slice(0, 600);
  const rulesDeadline = horizonOf(head, ref, false)?.value ?? null;
  if (!horizon && qh && !(ISO_IN_TEXT_RE.test(q.slice(qh.start, qh.end)) && rulesText)) {
    horizon = qh.value;
    // The rules are the contract: a coarse "this year" yields to a different deadline they state.
    if (rulesDeadline?.startsWith('by:') && horizon.startsWith('by:') && rulesDeadline !== horizon)
      horizon = rulesDeadline;
  }
  if (!horizon) {
    // An event the question names fixes its own time ("the 2026 Ohio governor election", "the next
    // Pope"), bounded by the deadline of the rules or, when they state none, the close date.
    const named = EVENT_PHRASE_RE.exec(q) ?? NEXT_ROLE_RE.exec(q);
    if (named) {
      const bound = rulesDeadline?.startsWith('by:') ? rulesDeadline : ref ? `by:${etDate(ref)}` : null;
      horizon = `event:${slugOf(named[0])}${bound ? `|${bound}` : ''}`;
    }
  }
  if (!horizon) {
    // The rules' first sentences name the resolving event or the deadline when the question does not.
    const ruleEvent = registry
      .mentions(head)
      .map((m) => registry.byId.get(m.id))
      .find((e) => e && (e.type === 'election' || e.type === 'competition'));
    horizon = ruleEvent ? `event:${ruleEvent.id}` : (rulesDeadline ?? qh?.value ?? null);
  }
  if (!horizon) return unkeyed('no horizon: no date, window, meeting or scheduled event in the question or rules');

  // Threshold: structured strike fields first, then text.
  const rateChange = RATE_CHANGE_RE.exec(q);
  const noChange = NO_CHANGE_RE.exec(q);
  const structured = structuredThreshold(facts);
  const touchUp = TOUCH_UP_RE.test(q);
  const touchDown = TOUCH_DOWN_RE.test(q);
  const relative = RELATIVE_RE.exec(q);
  let metric: string;
  let op: ThresholdOp | null = null;
  let threshold: number | null = null;
  let cap: number | null = null;
  let unit: string | null = null;
  let direction: Direction = 'occurrence';
  let style: SettlementStyle = 'occurrence';
  const subjectEntity = entities.find(
    (e) => e && e.type !== 'price_source' && e.type !== 'data_source' && !METRIC_TYPES.has(e.type),
  );

  if ((rateChange || noChange) && metricEntity?.type === 'policy_rate') {
    const m = rateChange;
    const bps = m ? Number(m[2]) * (/cut|decrease|lower|reduce/i.test(m[1] ?? '') ? -1 : 1) : 0;
    metric = `${metricEntity.id}#change`;
    unit = 'bps';
    if (m?.[3] === '+') {
      op = bps < 0 ? 'le' : 'ge';
      direction = bps < 0 ? 'below' : 'above';
      threshold = bps;
    } else {
      op = 'between';
      direction = 'between';
      threshold = bps;
      cap = bps;
    }
    style = 'terminal';
    if (m) cut.push([m.index, m.index + m[0].length]);
  } else if (relative) {
    if (!metricEntity) return unkeyed('up/down question without a registry price series');
    metric = `${metricEntity.id}#price`;
    direction = relative[1]?.toLowerCase() === 'down' ? 'below' : 'above';
    op = direction === 'below' ? 'lt' : 'gt';
    style = 'relative';
    // "Bitcoin Up or Down - February 20, 9PM ET" names the start of a one-hour candle.
    const hourly = /^at:(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(horizon);
    if (hourly && HOURLY_RE.test(rulesText)) {
      horizon = `window:${hourly[1]}T${hourly[2]}:${hourly[3]}/${String((Number(hourly[2]) + 1) % 24).padStart(2, '0')}:${hourly[3]}`;
    }
    if (!horizon.startsWith('window:')) return unkeyed('up/down question without a time window');
  } else {
    // Dates are not thresholds: read numbers with the horizon phrase blanked out.
    const qn = qh ? q.slice(0, qh.start) + ' '.repeat(qh.end - qh.start) + q.slice(qh.end) : q;
    const textT = structured ? null : textThreshold(qn, metricEntity?.unit);
    const touchT = TOUCH_NUM_RE.exec(qn);
    if (structured) {
      ({ op, value: threshold, cap } = { op: structured.op, value: structured.value, cap: structured.cap });
      unit = metricEntity?.unit ?? textThreshold(qn, undefined)?.unit ?? null;
      const tt = textThreshold(qn, undefined);
      if (tt) cut.push([tt.start, tt.end]);
    } else if (textT) {
      ({ op, value: threshold, cap, unit } = textT);
      cut.push([textT.start, textT.end]);
    } else if (touchT && (touchUp || touchDown)) {
      const a = amount(touchT, 1);
      threshold = a.value;
      unit = unitOf(a.scale, a.dollar, metricEntity?.unit);
      op = touchDown ? 'le' : 'ge';
      cut.push([touchT.index, touchT.index + touchT[0].length]);
    }
    if (threshold !== null) {
      if (touchUp || touchDown) {
        direction = 'reach';
        style = 'touch';
        if (op === 'gt') op = 'ge';
        if (op === 'lt') op = 'le';
      } else {
        direction = op === 'between' ? 'between' : op === 'gt' || op === 'ge' ? 'above' : 'below';
        style = 'terminal';
      }
      if (metricEntity) {
        const kind =
          metricEntity.type === 'policy_rate'
            ? UPPER_BOUND_RE.test(q)
              ? 'upper_bound'
              : 'level'
            : MARKET_CAP_RE.test(q)
              ? 'market_cap'
              : 'value';
        metric = `${metricEntity.id}#${kind}`;
      } else {
        const phrase = claimPhrase(q, mentions, cut);
        if (phrase.length < 2) return unkeyed('threshold question whose measured quantity is not recognized');
        metric = `phrase:${phrase.join(' ')}`;
      }
    } else {
      if (NEGATION_RE.test(q.replace(/\bno change\b/i, '')))
        return unkeyed('negated question: linked only through its positive twin');
      const phrase = claimPhrase(q, mentions, cut);
      const content = phrase.filter((t) => !t.startsWith('@'));
      if (phrase.length < 2 || (content.length < 1 && mentions.length < 2))
        return unkeyed('question too short to define a claim');
      metric = `phrase:${phrase.join(' ')}`;
    }
  }
  if (threshold !== null && !Number.isFinite(threshold)) return unkeyed('threshold could not be read');
  if (threshold !== null && op === 'gt') {
    // venue_a writes "$50,000 or above" as greater than 49,999.99: snap to the round strike, inclusive.
    const snapped = snapStrike(threshold);
    if (snapped !== threshold) {
      threshold = snapped;
      op = 'ge';
    }
  }
  const key: ClaimKey = {
    subject:
      metricEntity?.type === 'policy_rate'
        ? (metricEntity.of ?? null)
        : (subjectEntity?.id ?? metricEntity?.id ?? null),
    metric,
    horizon,
    direction,
    op,
    threshold,
    cap,
    unit,
    settlement_style: style,
    definition: definitionOf(q, rulesText, facts, registry, style, metricEntity?.source),
  };
  if (metric.startsWith('phrase:') && rulesText) {
    // The rules must pay on what the question names: a question word the resolving clause never
    // uses ("ceasefire" where the clause asks for a signed peace agreement) is part of the claim.
    const clause = new Set(phraseTokens(resolvingClauseOf(rulesText)));
    const omitted = [...new Set(metric.slice('phrase:'.length).split(' '))].filter(
      (t) => !t.startsWith('@') && t.length > 2 && !/\d/.test(t) && !clause.has(t),
    );
    if (omitted.length > 0) key.definition = [...key.definition, `omits:${omitted.sort().join('+')}`].sort();
  }
  return { status: 'keyed', key, normalized: normalizeClaimKey(key, registry) };
}

/** question_id of a keyed result. */
export function questionIdOf(result: ClaimKeyResult): string | null {
  return result.status === 'keyed' ? questionIdFor(result.normalized) : null;
}
