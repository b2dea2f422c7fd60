/**
 * The canon of one event: normalized question, entity tags, bundle type, resolution references,
 * claim keys and question_ids, ladder distribution, primary market, and the editorial overrides,
 * each field with its provenance. Pure: `now` is passed in, nothing is read.
 */
import type {
  BundleType,
  Event,
  FieldProvenance,
  FieldProvenanceEntry,
  Market,
  VenueFacts,
} from '../../domain/index.ts';
import { questionIdFor } from '../../domain/index.ts';
import {
  type BundleChild,
  bundleTypeOf,
  ladderDistributionOf,
  resolutionReferenceOf,
  underlyingReferenceOf,
} from './bundle.ts';
import { type ClaimKeyResult, claimKeyOf } from './claim-key.ts';
import type { EventOverride, Overrides } from './overrides.ts';
import { type MarkSummary, primaryMarketOf } from './primary.ts';
import { REGISTRY } from './registry.ts';
import { claimKeyOfRecord } from './relation.ts';
import { foldText } from './text.ts';

export interface CanonEventInput {
  event: Event;
  markets: ReadonlyArray<{ market: Market; facts: VenueFacts }>;
  marks: ReadonlyMap<string, MarkSummary>;
  overrides: Overrides;
  /**
   * ISO time of the run. No canon rule depends on it today (so the same input gives the same
   * output, and `updated_at` is left to the pipeline, which knows whether anything changed).
   */
  now: string;
}

const derived = (rule: string, note?: string): FieldProvenanceEntry =>
  note ? { source: 'derived', rule, note } : { source: 'derived', rule };
const editorial = (rule: string, note: string): FieldProvenanceEntry => ({ source: 'service_editorial', rule, note });

const QUESTION_START_RE = /^(will|who|what|which|when|where|how|is|are|does|do|can|did|has|have)\b/i;

/**
 * Normalized event question: Unicode NFC, straight quotes and dashes, single spaces, a question
 * mark on questions. Diacritics stay (this text is served); matching folds them elsewhere.
 */
export function normalizeQuestion(q: string): string {
  let t = q
    .normalize('NFC')
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .replace(/\s+([?.!,])/g, '$1');
  if (QUESTION_START_RE.test(t) && !t.endsWith('?')) t = `${t.replace(/[.!]+$/, '')}?`;
  return t;
}

/** Entity tags of a text: the slug of every registry entity named in it (price sources excluded). */
export function entityTagsOf(text: string): string[] {
  const tags = new Set<string>();
  for (const m of REGISTRY.mentions(foldText(text))) {
    const e = REGISTRY.byId.get(m.id);
    if (e && e.type !== 'price_source' && e.type !== 'data_source') tags.add(e.id.slice(e.id.indexOf(':') + 1));
  }
  return [...tags];
}

/** What the fields of an event that read its markets' quotes are computed from. */
interface QuoteInputs {
  /** The event given to canon (its lock on the primary market). */
  event: Event;
  /** The event's markets after canon, in event order. */
  markets: readonly Market[];
  children: readonly BundleChild[];
  bundle: BundleType;
  eventOverride: EventOverride | undefined;
  marks: ReadonlyMap<string, MarkSummary>;
}

/**
 * The only canon fields that read the quotes, with their provenance, are set by these two: the ladder
 * distribution (`applyLadder`) and the primary market (`applyPrimary`: an override lock wins, then a lock
 * already stored, then the documented rule). Shared by `canonEvent` and `repriceEvent`, so both set them alike.
 */
function applyLadder(next: Event, efp: FieldProvenance, q: QuoteInputs): void {
  // Only this event's markets: the marks map holds every market of the run.
  const prices = new Map(
    q.children.map((c) => [c.market.market_id, q.marks.get(c.market.market_id)?.last_price ?? null] as const),
  );
  const ladder = ladderDistributionOf(q.children, q.bundle, prices);
  next.ladder_distribution = ladder.distribution;
  next.ladder_distribution_reason = ladder.reason;
  efp.ladder_distribution = derived('canon.ladder_distribution', ladder.reason ?? undefined);
  efp.ladder_distribution_reason = derived('canon.ladder_distribution');
}

function applyPrimary(next: Event, efp: FieldProvenance, q: QuoteInputs): void {
  const { event, markets, eventOverride } = q;
  const byNative = new Map(markets.map((m) => [m.platform_market_id, m.market_id] as const));
  const overridePrimary = eventOverride?.primary_market ? byNative.get(eventOverride.primary_market) : undefined;
  const ids = new Set(markets.map((m) => m.market_id));
  if (eventOverride && overridePrimary) {
    next.primary_market_id = overridePrimary;
    next.primary_market_locked = eventOverride.lock === true;
    efp.primary_market_id = editorial(`override:${eventOverride.id}`, eventOverride.why);
    efp.primary_market_locked = editorial(`override:${eventOverride.id}`, eventOverride.why);
  } else if (event.primary_market_locked && event.primary_market_id && ids.has(event.primary_market_id)) {
    efp.primary_market_id = efp.primary_market_id ?? editorial('canon.primary_market.locked', 'locked before this run');
  } else {
    next.primary_market_id = primaryMarketOf(markets, q.marks);
    next.primary_market_locked = false;
    efp.primary_market_id = derived(
      'canon.primary_market',
      'highest 24h volume among open markets; ties by liquidity, then market_id',
    );
    efp.primary_market_locked = derived('canon.primary_market');
  }
}

export interface RepriceInput {
  /** The event canon was given when `derived` was made (its lock on the primary market). */
  event: Event;
  /** What `canonEvent` gave for that input: the event and its markets, in event order. */
  derived: { event: Event; markets: readonly Market[] };
  /** Each market's venue facts, parallel to `derived.markets`. */
  facts: readonly VenueFacts[];
  /** The quotes to price it at. */
  marks: ReadonlyMap<string, MarkSummary>;
  overrides: Overrides;
}

/**
 * `canonEvent`'s output for the same event and markets at other quotes, from its output at earlier ones
 * (issue 18: an hourly refresh where only prices moved). Quotes reach only the event's ladder distribution
 * and primary market (`applyLadder`, `applyPrimary`); the markets and every other event field are what canon gave before. The
 * claims and bundle type are read back from the records (`claim_key`, `bundle_type`). Null when the records do
 * not carry them readably, or do not match the facts: the caller derives the event instead.
 * @example repriceEvent({ event, derived: canonEvent(input), facts, marks: movedMarks, overrides }).event.primary_market_id
 */
export function repriceEvent(input: RepriceInput): { event: Event; markets: Market[] } | null {
  const { derived: before, facts } = input;
  const bundle = before.event.bundle_type;
  if (bundle === null || facts.length !== before.markets.length) return null;
  const children: BundleChild[] = [];
  for (let i = 0; i < before.markets.length; i++) {
    const market = before.markets[i] as Market;
    const key = claimKeyOfRecord(market.claim_key);
    const normalized = market.claim_key?.normalized;
    if (market.claim_key !== null && (key === null || typeof normalized !== 'string')) return null;
    const claim: ClaimKeyResult =
      key === null
        ? { status: 'unkeyed', reason: market.question_id_reason ?? '' }
        : { status: 'keyed', key, normalized: String(normalized) };
    children.push({ market, facts: facts[i] as VenueFacts, claim });
  }
  const venue = input.event.venue ?? before.markets[0]?.platform ?? 'venue_a';
  const eventOverride = input.event.platform_event_id
    ? input.overrides.events.get(`${venue}:${input.event.platform_event_id}`)
    : undefined;
  const next: Event = { ...before.event };
  const efp: FieldProvenance = { ...before.event.field_provenance };
  const quotes = { event: input.event, markets: before.markets, children, bundle, eventOverride, marks: input.marks };
  applyLadder(next, efp, quotes);
  applyPrimary(next, efp, quotes);
  next.field_provenance = efp;
  return { event: next, markets: [...before.markets] };
}

/**
 * Fills the canon fields of one event and its markets (see the module comment). The primary market
 * follows the rule in `primaryMarketOf` unless an override locks it or the stored event is already
 * locked; overrides add notes, tags, category and source-of-record corrections with provenance
 * `service_editorial`.
 */
export function canonEvent(input: CanonEventInput): { event: Event; markets: Market[] } {
  const { event, overrides } = input;
  const venue = event.venue ?? input.markets[0]?.market.platform ?? 'venue_a';
  const children: BundleChild[] = input.markets.map(({ market, facts }) => ({
    market,
    facts,
    claim: claimKeyOf(market, facts),
  }));
  const bundle = bundleTypeOf(children);
  const reference = resolutionReferenceOf(children, bundle);
  const eventOverride = event.platform_event_id
    ? overrides.events.get(`${venue}:${event.platform_event_id}`)
    : undefined;

  const markets: Market[] = children.map(({ market, claim }) => {
    const fp: FieldProvenance = { ...market.field_provenance };
    const under = underlyingReferenceOf(reference, market, bundle);
    const tags = new Set(entityTagsOf(`${market.question_raw ?? ''} ${market.group_item_title ?? ''}`));
    const out: Market = { ...market, underlying_reference: under.value };
    if (under.source) fp.underlying_reference = { source: under.source, rule: 'canon.underlying_reference' };
    if (claim.status === 'keyed') {
      const k = claim.key;
      Object.assign(out, {
        threshold: k.threshold,
        direction: k.direction,
        settlement_style: k.settlement_style,
        question_id: questionIdFor(claim.normalized),
        question_id_reason: null,
        claim_key: { ...k, normalized: claim.normalized },
      });
      for (const f of ['threshold', 'direction', 'settlement_style', 'question_id', 'claim_key'] as const)
        fp[f] = derived(`canon.${f}`);
    } else {
      Object.assign(out, { question_id: null, question_id_reason: claim.reason, claim_key: null });
      fp.question_id = derived('canon.question_id', claim.reason);
      fp.question_id_reason = derived('canon.question_id');
    }
    fp.tags = derived('canon.entity_tags');
    const mo = overrides.markets.get(`${market.platform}:${market.platform_market_id}`);
    if (mo) {
      if (mo.analyst_notes) {
        out.analyst_notes = mo.analyst_notes;
        fp.analyst_notes = editorial(`override:${mo.id}`, mo.why);
      }
      if (mo.source_of_record) {
        out.source_of_record = mo.source_of_record;
        fp.source_of_record = editorial(`override:${mo.id}`, mo.why);
      }
      if (mo.tags) {
        for (const t of mo.tags) tags.add(t);
        fp.tags = editorial(`override:${mo.id}`, mo.why);
      }
    }
    out.tags = [...tags].sort();
    out.field_provenance = fp;
    return out;
  });

  const efp: FieldProvenance = { ...event.field_provenance };
  const eventTags = new Set(entityTagsOf(event.question));
  for (const m of markets) for (const t of m.tags) eventTags.add(t);
  const next: Event = {
    ...event,
    question: normalizeQuestion(event.question),
    bundle_type: bundle,
    resolution_reference: reference,
    event_type: markets.every((m) => m.contract_type === 'binary') ? 'BINARY' : 'MIXED',
  };
  efp.question = derived('canon.question');
  efp.bundle_type = derived('canon.bundle_type');
  efp.resolution_reference = derived('canon.resolution_reference');
  efp.event_type = derived('canon.event_type');
  const quotes = { event, markets, children, bundle, eventOverride, marks: input.marks };
  applyLadder(next, efp, quotes);
  efp.tags = derived('canon.entity_tags');
  applyPrimary(next, efp, quotes);
  if (eventOverride) {
    if (eventOverride.editorial_notes) {
      next.editorial_notes = eventOverride.editorial_notes;
      efp.editorial_notes = editorial(`override:${eventOverride.id}`, eventOverride.why);
    }
    if (eventOverride.category) {
      next.category = eventOverride.category;
      efp.category = editorial(`override:${eventOverride.id}`, eventOverride.why);
    }
    if (eventOverride.tags) {
      for (const t of eventOverride.tags) eventTags.add(t);
      efp.tags = editorial(`override:${eventOverride.id}`, eventOverride.why);
    }
  }
  next.tags = [...eventTags].sort();
  next.field_provenance = efp;
  return { event: next, markets };
}
