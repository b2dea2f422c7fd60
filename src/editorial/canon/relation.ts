/**
 * Near-equivalent cross-venue links (issue 16). Two markets whose claim keys differ, and so never share a
 * question_id, are `related` when they have the same subject and the same measured thing and differ only
 * in a few typed parts of the key: what settles them (`resolves_on`), a deadline at most a month apart
 * (`horizon`), a strike within 2% on the same side (`threshold`), a named source (`source`), what else counts
 * (`scope`), what the subject's death does (`death_rule`).
 *
 * Precision first: the relation is read from the parsed claim-key parts only, by relaxing exactly those
 * typed parts. Subject, direction, unit and settlement style must be equal, and the measured thing must be
 * equal after a small closed vocabulary (the verbs of leaving an office are one verb; "the next presidential
 * election" reads as the one registry election it can mean). No text similarity is used: two phrases either
 * read the same under that vocabulary or the pair is not related.
 */
import type { LinkDifference, LinkDifferenceType, Market } from '../../domain/index.ts';
import type { ClaimKey, ThresholdOp } from './claim-key.ts';
import { REGISTRY, type Registry } from './registry.ts';
import { numText } from './text.ts';

/** Deadlines at most this many days apart may be related (a month: "before Jan 1" vs "by Dec 31", not a year). */
export const HORIZON_TOLERANCE_DAYS = 31;
/** Strikes on the same side at most this far apart, relative to the larger, may be related (2%: $100k and $102k are near, a rate ladder's neighbouring rungs 4.0% and 4.1% are not). */
export const THRESHOLD_TOLERANCE = 0.02;
/** At most this many typed differences (besides `wording`): more is a different question, not a near one. */
export const MAX_DIFFERENCES = 3;
/** "The next presidential election" is read as a registry election held at most this long before the deadline. */
const NEXT_ELECTION_WINDOW_DAYS = 456;

/** Verbs of leaving a position: one measured thing however the venue words it ("leave office", "out", "removed"). */
const LEAVE_WORDS = new Set(['leave', 'out', 'removed', 'remove', 'resign', 'ousted', 'exit', 'depart', 'step']);
/** Words the vocabulary reads (so a rules text that does not repeat them is not a definitional difference). */
const READ_WORDS = new Set([...LEAVE_WORDS, 'office', 'down', 'win', 'next', 'presidential', 'election']);

/** The claim key parts a relation is read from, canonicalized. */
export interface ClaimReading {
  subject: string;
  /** The measured thing: the metric, with phrase metrics canonicalized by the vocabulary. */
  measure: string;
  /** The metric as keyed, for the `wording` difference. */
  wording: string;
  horizon: string;
  direction: string;
  op: ThresholdOp | null;
  threshold: number | null;
  cap: number | null;
  unit: string | null;
  style: string;
  /** The office a leaving claim names, when it names one. */
  office: string | null;
  /** Definition qualifiers by difference type (sorted values). */
  typed: Map<LinkDifferenceType, string[]>;
  /** Definition qualifiers no difference type covers: they must be equal on both sides. */
  fixed: string[];
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumOrNull = (v: unknown): v is number | null => v === null || typeof v === 'number';
const OPS = new Set<string>(['gt', 'ge', 'lt', 'le', 'between']);

/** The ClaimKey a market record carries (`claim_key`, as canonEvent stores it), or null when absent or malformed. */
export function claimKeyOfRecord(rec: Market['claim_key']): ClaimKey | null {
  if (!rec) return null;
  const { subject, metric, horizon, direction, op, threshold, cap, unit, settlement_style, definition } = rec;
  if (!(subject === null || isString(subject)) || !isString(metric) || !isString(horizon)) return null;
  if (!isString(direction) || !isString(settlement_style)) return null;
  if (!(op === null || (isString(op) && OPS.has(op))) || !isNumOrNull(threshold) || !isNumOrNull(cap)) return null;
  if (!(unit === null || isString(unit)) || !Array.isArray(definition) || !definition.every(isString)) return null;
  return {
    subject,
    metric,
    horizon,
    direction: direction as ClaimKey['direction'],
    op: op as ThresholdOp | null,
    threshold,
    cap,
    unit,
    settlement_style: settlement_style as ClaimKey['settlement_style'],
    definition,
  };
}

function daysBetween(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

/**
 * "win next presidential election" with a `by:` deadline reads as the one registry election whose name has
 * those words and which is held before the deadline, within the window a venue keeps such a market open
 * (through the inauguration and the term's start). Two candidates, or none, leave the phrase as it is.
 */
function readNextElection(
  tokens: string[],
  horizon: string,
  registry: Registry,
): { tokens: string[]; horizon: string } | null {
  const deadline = /^by:(\d{4}-\d{2}-\d{2})$/.exec(horizon)?.[1];
  const at = tokens.indexOf('next');
  if (!deadline || at < 0) return null;
  const end = tokens.indexOf('election', at + 1);
  if (end < 0 || end - at > 3) return null;
  const kind = tokens.slice(at + 1, end);
  if (kind.some((t) => t.startsWith('@'))) return null;
  const candidates = [...registry.byId.values()].filter((e) => {
    if (e.type !== 'election' || !e.date) return false;
    const words = new Set(e.name.toLowerCase().split(/\s+/));
    if (!words.has('election') || !kind.every((k) => words.has(k))) return false;
    return e.date < deadline && daysBetween(e.date, deadline) <= NEXT_ELECTION_WINDOW_DAYS;
  });
  const only = candidates[0];
  if (candidates.length !== 1 || !only) return null;
  return { tokens: [...tokens.slice(0, at), `@${only.id}`, ...tokens.slice(end + 1)], horizon: `event:${only.id}` };
}

function typeOfDefinition(d: string, registry: Registry): LinkDifferenceType | null {
  if (d.startsWith('resolves_on:') || d.startsWith('ipo:')) return 'resolves_on';
  if (d.startsWith('death:')) return 'death_rule';
  if (d === 'announcement_counts' || d === 'any_length' || d.startsWith('contact:')) return 'scope';
  const e = registry.byId.get(d);
  if (e && (e.type === 'price_source' || e.type === 'data_source')) return 'source';
  return null;
}

/**
 * The canonical reading of a claim key, or null when it cannot be related to anything (no subject).
 * @example readClaim(key)?.measure // "@person:ali-khamenei LEAVE"
 */
export function readClaim(key: ClaimKey, registry: Registry = REGISTRY): ClaimReading | null {
  if (!key.subject) return null;
  let horizon = key.horizon;
  let measure = key.metric;
  let office: string | null = null;
  if (key.metric.startsWith('phrase:')) {
    let tokens = key.metric.slice('phrase:'.length).split(' ');
    const read = readNextElection(tokens, horizon, registry);
    if (read) ({ tokens, horizon } = read);
    if (tokens.some((t) => LEAVE_WORDS.has(t))) {
      // Leaving a position: one verb; the office it names is kept aside (one side may leave it implied),
      // and a country the office belongs to adds nothing.
      const offices = tokens.filter((t) => t.startsWith('@office:')).map((t) => t.slice(1));
      office = offices.length === 1 ? (offices[0] ?? null) : offices.length > 1 ? offices.sort().join('+') : null;
      const officeCountries = new Set(offices.map((o) => registry.byId.get(o)?.country).filter(isString));
      const out: string[] = [];
      for (const t of tokens) {
        if (LEAVE_WORDS.has(t)) {
          if (out.at(-1) !== 'LEAVE') out.push('LEAVE');
        } else if (t === 'office' || t === 'down' || t.startsWith('@office:')) {
        } else if (t.startsWith('@country:') && officeCountries.has(t.slice(1))) {
        } else out.push(t);
      }
      tokens = out;
    }
    measure = `phrase:${tokens.join(' ')}`;
  }
  const typed = new Map<LinkDifferenceType, string[]>();
  const fixed: string[] = [];
  for (const d of key.definition) {
    if (d.startsWith('omits:')) {
      // Question words the rules do not repeat: those the vocabulary reads say nothing; any other is a term.
      const rest = d
        .slice('omits:'.length)
        .split('+')
        .filter((w) => !READ_WORDS.has(w));
      if (rest.length > 0) fixed.push(`omits:${rest.join('+')}`);
      continue;
    }
    const type = typeOfDefinition(d, registry);
    if (type) typed.set(type, [...(typed.get(type) ?? []), d]);
    else fixed.push(d);
  }
  return {
    subject: key.subject,
    measure,
    wording: key.metric,
    horizon,
    direction: key.direction,
    op: key.op,
    threshold: key.threshold,
    cap: key.cap,
    unit: key.unit,
    style: key.settlement_style,
    office,
    typed,
    fixed: fixed.sort(),
  };
}

/** The bucket two readings must share to be compared at all (keeps linking linear in practice). */
export function bucketOf(r: ClaimReading): string {
  return [r.subject, r.measure, r.direction, r.unit ?? '-', r.style].join('|');
}

function boundaryText(r: ClaimReading): string | null {
  if (r.op === null || r.threshold === null) return null;
  const value = r.op === 'between' ? `${numText(r.threshold)}..${numText(r.cap ?? Number.NaN)}` : numText(r.threshold);
  return `${r.op} ${value}${r.unit ? ` ${r.unit}` : ''}`;
}

const side = (op: ThresholdOp | null) => (op === 'gt' || op === 'ge' ? 'up' : op === 'lt' || op === 'le' ? 'down' : op);

/**
 * The typed differences of a venue_a reading `a` and a venue_b reading `b` when they are related, else null.
 * Equal keys are not this function's business (they share a question_id).
 * @example relatedDifferences(readClaim(kalshiVance), readClaim(polyVance))
 *   // [{ type: 'resolves_on', venue_a: 'inauguration', venue_b: 'election_call' }, { type: 'wording', … }]
 */
export function relatedDifferences(a: ClaimReading, b: ClaimReading): LinkDifference[] | null {
  if (bucketOf(a) !== bucketOf(b)) return null;
  if (a.fixed.join(',') !== b.fixed.join(',')) return null;
  if (a.office !== null && b.office !== null && a.office !== b.office) return null;
  const diffs: LinkDifference[] = [];

  if (a.horizon !== b.horizon) {
    const da = /^by:(\d{4}-\d{2}-\d{2})$/.exec(a.horizon)?.[1];
    const db = /^by:(\d{4}-\d{2}-\d{2})$/.exec(b.horizon)?.[1];
    // Only cumulative deadlines nest (Yes by the earlier one is Yes by the later); windows, dates and
    // meetings a day apart measure different things.
    if (!da || !db || daysBetween(da, db) > HORIZON_TOLERANCE_DAYS) return null;
    diffs.push({ type: 'horizon', venue_a: a.horizon, venue_b: b.horizon });
  }

  const ta = boundaryText(a);
  const tb = boundaryText(b);
  if (ta !== tb) {
    if (ta === null || tb === null || a.threshold === null || b.threshold === null) return null;
    // Adjacent brackets are disjoint, and opposite sides are complements' business: only one side's strikes nest.
    if (a.op === 'between' || b.op === 'between' || side(a.op) !== side(b.op)) return null;
    const scale = Math.max(Math.abs(a.threshold), Math.abs(b.threshold));
    if (scale > 0 && Math.abs(a.threshold - b.threshold) / scale > THRESHOLD_TOLERANCE) return null;
    diffs.push({ type: 'threshold', venue_a: ta, venue_b: tb });
  }

  for (const type of ['resolves_on', 'source', 'scope', 'death_rule'] as const) {
    const va = (a.typed.get(type) ?? []).sort().join(', ') || null;
    const vb = (b.typed.get(type) ?? []).sort().join(', ') || null;
    if (va !== vb) diffs.push({ type, venue_a: strip(type, va), venue_b: strip(type, vb) });
  }
  if (diffs.length > MAX_DIFFERENCES) return null;
  // With no typed difference the keys differ only in words the vocabulary reads as one: `wording` says which
  // (or, when even the metric is equal, only in question words the rules do not repeat: an empty list).
  if (a.wording !== b.wording) diffs.push({ type: 'wording', venue_a: a.wording, venue_b: b.wording });
  return diffs;
}

/** "resolves_on:inauguration" reads "inauguration" under its type; other values keep their id. */
function strip(type: LinkDifferenceType, v: string | null): string | null {
  if (v === null) return null;
  if (type === 'resolves_on') return v.replace(/resolves_on:/g, '');
  if (type === 'death_rule') return v.replace(/death:/g, '');
  return v;
}
