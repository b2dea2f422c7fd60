/**
 * Source commitment (rcg-model.md "Source commitment"): does the market commit to one concrete
 * authority, to a secondhand source, or only gesture at sources? Rules run in a fixed order and the
 * first that fires decides; each carries a stable rule id (METHODOLOGY.md) and its evidence.
 */
import type {
  CommitmentSubtype,
  Evidence,
  SourceCommitment,
  SourceMechanism,
  SourceStatus,
  SourceType,
} from '../../domain/index.ts';
import { type Candidate, distinctSources, type PlaceholderHit, type SourceScan } from './sources.ts';
import { findIn, quoteEvidence, type Span } from './text.ts';

export interface Commitment {
  source_commitment: SourceCommitment;
  source_commitment_subtype: CommitmentSubtype;
  source_mechanism: SourceMechanism | null;
  source_of_record: string | null;
  source_type: SourceType | null;
  source_status: SourceStatus;
  resolution_source: string | null;
  source_citation: string | null;
  /** Whether the citation is the venue's own link (venue field or rules text) rather than a registry fill. */
  citation_from_venue: boolean;
  source_hedge_text: string | null;
  /** The committed (or illustrated) source, when there is one. */
  record: Candidate | null;
  /** Distinct sources that genuinely compete for the answer (co-equal placeholders count as one). */
  competing: number;
  /**
   * How competing sources are reconciled: precedence/quorum stated, an authority outranking outlets, a
   * declared primary with an optional fallback, or nothing.
   */
  conflict_rule: 'precedence' | 'quorum' | 'authority_outranks' | 'primary_declared' | null;
  rule: string;
  evidence: Evidence[];
}

const QUORUM =
  /\b(?:all (?:three|two|four|five)\b|all of (?:the|these) (?:sources|outlets|networks|Source Agencies)|both (?:sources|outlets|networks)|at least (?:two|three|2|3) (?:of (?:the|these) )?(?:Source Agencies|sources|outlets|networks|of)|each of (?:the|these) (?:sources|outlets|networks)|must (?:all|both) (?:call|report|agree|confirm)|(?:unanimous|agreement) (?:of|among|between)|achieve consensus in calling)/i;
const QUORUM_GATE = /\b(?:all|both|at least|each of|must|unanimous|agreement|achieve)\b/i;
const PRECEDENCE_GATE = /\b(?:if|secondary|primar(?:y|ily)|alternative|fall|otherwise|event)\b/i;
const PRECEDENCE =
  /\b(?:secondary (?:resolution )?source|primary source[^.]{0,120}?alternative sources?|alternative sources? (?:are|is|will be) used only|(?:will be )?primarily used[^.]{0,200}?\bif\b|if (?:the )?[^.;]{0,120}?\b(?:is|are|becomes?) (?:rendered )?(?:permanently |temporarily )?(?:unavailable|not available|no longer available|not published)|in the event (?:that )?[^.;]{0,120}?\bunavailable|fall(?:s)? back (?:to|on)|otherwise,? (?:the )?(?:resolution source|market) will (?:use|rely on))/i;

const PER_LEG = /\bresolution source for (?!this market\b)(?:the )?[^,.;]{2,60}? (?:is|will be)\b/i;

/** `source_status` is a pure function of the commitment classification (rcg-model.md). */
export function sourceStatusOf(c: SourceCommitment): SourceStatus {
  switch (c) {
    case 'named':
      return 'platform_named';
    case 'uncommitted':
      return 'no_committed_source';
    case 'none':
      return 'no_source_stated';
  }
}

/** Evidence for a source candidate: its quoted span in the rules, or the venue field item. */
export function candidateEvidence(scan: SourceScan, c: Candidate): Evidence {
  if (c.start !== null && c.end !== null)
    return quoteEvidence(c.field, { quote: scan.doc.text.slice(c.start, c.end), start: c.start, end: c.end });
  return { field: c.field, quote: null, start: null, end: null, value: { name: c.name, url: c.url } };
}

const recordName = (c: Candidate) => c.name ?? c.url;

interface Decision {
  subtype: CommitmentSubtype;
  mechanism: SourceMechanism | null;
  record: Candidate | null;
  record_text: string | null;
  type: SourceType | null;
  hedge: Span | null;
  conflict_rule: Commitment['conflict_rule'];
  rule: string;
  evidence: Evidence[];
  /** The fallback clause beside a committed source, recorded as its hedge text. */
  fallback: Span | null;
  /** Sources listed but not individually visible (venue_a "Source Agencies"), counted as competing. */
  listed: number;
}

/** How a placeholder sits beside the concrete sources: a conditional or optional fallback, or a co-equal path. */
type FallbackKind = 'conditional' | 'optional' | 'coequal';
/** Words that make a placeholder a fallback to the source already named rather than a co-equal path. */
const FALLBACK_CUE =
  /\b(?:however|but|although|though|alternatively|otherwise|secondary|backup|fall ?back|in addition|additionally)\b|;|\b(?:may|might|can|could|will)\s+(?:also\s+)?be\s+(?:used|considered|consulted|referenced|relied)\b|\balso\b/i;
const COEQUAL_JOIN = /^[^;]{0,100}?(?:^|[\s,)])(?:and|or|and\/or|as well as|along with)\s+(?:on\s+|from\s+|by\s+)?$/i;
const DECLARED_PRIMARY = /\bprimary (?:resolution )?source\b|\bprimarily\b/i;

/** Standing cues that make a non-authority the originating publisher of its own product. */
const ORIGINATING_CUES = new Set([
  'standing.registry_originating',
  'standing.own_product',
  'standing.published_methodology',
]);

/** A source is authority-like when the registry says so or a standing cue shows it originates its number. */
const authorityLike = (c: Candidate) => c.role === 'authority' || c.originates;

/** Classifies the commitment of a scanned market; see METHODOLOGY.md § Commitment rules for the order. */
export function classifyCommitment(scan: SourceScan, registryUrlOf: (c: Candidate) => string | null): Commitment {
  const { doc } = scan;
  const unhedged = scan.candidates.filter((c) => !c.hedged);
  const precedence = findInStatements(scan, PRECEDENCE, PRECEDENCE_GATE);
  const precedenceSeen = precedence !== null;
  // Under an ordered fallback the text sets the order, so prose sources (in text order) lead.
  const concrete = distinctSources(
    precedenceSeen
      ? [...unhedged.filter((c) => c.origin === 'prose'), ...unhedged.filter((c) => c.origin !== 'prose')]
      : unhedged,
  );
  const hedged = scan.candidates.filter((c) => c.hedged);
  const kinds = scan.placeholders.map((p) => ({ p, kind: fallbackKind(scan, p, concrete) }));
  const coequal: PlaceholderHit[] = kinds.filter((k) => k.kind === 'coequal').map((k) => k.p);
  const fallback = kinds.find((k) => k.kind !== 'coequal') ?? null;
  const authorities = concrete.filter(authorityLike);
  const quorum = findInStatements(scan, QUORUM, QUORUM_GATE);
  const ev = (s: Span) => quoteEvidence(doc.field, s);
  const first = <T>(xs: readonly T[]): T | null => xs[0] ?? null;
  // venue_a "Source Agencies" with no series list on the record: a list of several sources we cannot see.
  const unlistedAgencies = scan.source_agency_ref !== null && !concrete.some((c) => c.origin === 'venue_field');

  let d: Decision;
  const firstPlaceholder = first(coequal) ?? (concrete.length === 0 ? (fallback?.p ?? null) : null);
  if (concrete.length === 0) {
    if (firstPlaceholder) {
      d = decision('uncommitted_placeholder', 'commit.placeholder_consensus', firstPlaceholder.span, [
        ev(firstPlaceholder.span),
      ]);
      d.type = 'media_consensus';
      // "major media outlets including The New York Times, People Magazine, Vogue": a listed menu, several sources.
      const members = distinctSources(hedged).length;
      if (members > 0) {
        d.listed = members + 1;
        d.evidence.push(...hedged.slice(0, 3).map((c) => candidateEvidence(scan, c)));
      }
    } else if (hedged[0]) {
      const h = hedged[0];
      d = decision('uncommitted_illustrative', 'commit.illustrative_hedge', h.hedge, [candidateEvidence(scan, h)]);
      d.record = h;
      d.type = h.source_type;
    } else if (scan.source_agency_ref) {
      d = decision('uncommitted_placeholder', 'commit.placeholder_unlisted_source_agencies', scan.source_agency_ref, [
        ev(scan.source_agency_ref),
      ]);
      d.type = 'media_consensus';
      d.listed = 2;
      d.conflict_rule = quorum ? 'quorum' : null;
      if (quorum) d.evidence.push(ev(quorum));
    } else {
      d = decision('none', 'commit.none', null, []);
    }
  } else if (quorum && concrete.length >= 2) {
    d = decision('named', 'commit.quorum', null, [ev(quorum), ...concrete.map((c) => candidateEvidence(scan, c))]);
    d.mechanism = 'quorum';
    d.conflict_rule = 'quorum';
    d.record = concrete[0] ?? null;
    d.record_text = quorumRecord(scan, concrete);
    d.type = concrete.every((c) => c.role === 'outlet' || c.kind === 'electoral_body')
      ? 'media_consensus'
      : (authorities[0]?.source_type ?? 'media_consensus');
  } else if (firstPlaceholder) {
    d = decision('uncommitted_placeholder', 'commit.placeholder_coequal', clauseOf(scan, firstPlaceholder.span), [
      ev(firstPlaceholder.span),
      ...concrete.slice(0, 3).map((c) => candidateEvidence(scan, c)),
    ]);
    d.type = 'media_consensus';
  } else if (authorities.length > 0) {
    // The source the text declares ("The resolution source will be …") leads; otherwise the first authority.
    const declared = authorities.find((c) => c.start !== null && inDeclaration(scan, c.start));
    const primary = precedence ? (concrete[0] ?? null) : (declared ?? authorities[0] ?? null);
    const lead = primary ?? authorities[0] ?? null;
    const originating = lead?.standing && ORIGINATING_CUES.has(lead.standing.rule);
    d = decision('named', originating ? 'commit.originating_publisher' : 'commit.single_authority', null, []);
    d.evidence.push(...(lead ? [candidateEvidence(scan, lead)] : []), ...standingEvidence(scan, lead));
    d.record = lead;
    d.type = lead?.source_type ?? null;
    if (precedence && concrete.length >= 2) {
      d.rule = 'commit.precedence';
      d.mechanism = 'precedence';
      d.conflict_rule = 'precedence';
      d.evidence.push(ev(precedence));
    } else if (concrete.length > authorities.length) {
      d.rule = 'commit.authority_in_menu';
      d.conflict_rule = 'authority_outranks';
      d.evidence.push(...concrete.filter((c) => c !== lead).map((c) => candidateEvidence(scan, c)));
      if (fallback) {
        // The authority leads the menu and a placeholder backs it: the order is the mechanism, the menu the conflict rule.
        d.mechanism = 'precedence';
        d.fallback = clauseOf(scan, fallback.p.span);
        d.evidence.push(ev(fallback.p.span));
      }
    } else if (fallback) {
      withFallback(scan, d, fallback, lead, 'commit.primary_with_fallback');
    }
  } else if (scan.source_agency_ref && !concrete.some((c) => c.origin === 'venue_field') && !precedence) {
    // "published by Source Agencies, or … on his social media accounts": the unlisted agencies plus alternatives form a menu.
    d = decision('uncommitted_placeholder', 'commit.placeholder_menu', scan.source_agency_ref, [
      ev(scan.source_agency_ref),
      ...concrete.map((c) => candidateEvidence(scan, c)),
    ]);
    d.type = 'media_consensus';
    d.listed = concrete.length + 2;
  } else if (concrete.length === 1 || (precedence && concrete.length >= 2)) {
    const only = concrete[0] ?? null;
    const rule = concrete.length > 1 ? 'commit.secondhand_precedence' : 'commit.single_secondhand';
    d = decision('committed_secondhand', rule, null, only ? [candidateEvidence(scan, only)] : []);
    d.record = only;
    d.type = only?.role === 'outlet' ? 'other' : (only?.source_type ?? 'other');
    if (concrete.length > 1 && precedence) {
      d.mechanism = 'precedence';
      d.conflict_rule = 'precedence';
      d.evidence.push(ev(precedence));
    } else if (fallback) {
      withFallback(scan, d, fallback, only, 'commit.secondhand_with_fallback');
    }
  } else {
    d = decision(
      'uncommitted_placeholder',
      'commit.placeholder_menu',
      null,
      concrete.map((c) => candidateEvidence(scan, c)),
    );
    d.hedge = menuSpan(scan, concrete);
    d.type = 'media_consensus';
  }
  if (d.listed === 0 && unlistedAgencies && d.subtype === 'uncommitted_placeholder') d.listed = 2;
  return finish(scan, d, concrete, coequal.length > 0 || fallback !== null, registryUrlOf);
}

/**
 * A named (or secondhand) source with a placeholder fallback: the source commits, the fallback is
 * recorded (mechanism `precedence`, hedge text = the fallback clause) and the conflict factor judges
 * it: a fallback only when the source is unavailable is a stated precedence; an optional fallback
 * ("however, a consensus of credible reporting may also be used") is a declared primary at best
 * (partial) and, when the text does not even call the source primary, two paths with no rule (fail).
 */
function withFallback(
  scan: SourceScan,
  d: Decision,
  fb: { p: PlaceholderHit; kind: FallbackKind },
  lead: Candidate | null,
  rule: string,
): void {
  // A primary that is itself an originating publisher keeps that rule id; the fallback is recorded all the same.
  if (d.rule !== 'commit.originating_publisher') d.rule = rule;
  d.mechanism = 'precedence';
  d.fallback = clauseOf(scan, fb.p.span);
  d.evidence.push(quoteEvidence(scan.doc.field, fb.p.span));
  if (fb.kind === 'conditional') d.conflict_rule = 'precedence';
  else {
    const at = lead?.start ?? fb.p.span.start;
    const s = scan.statements.find((x) => at >= x.start && at < x.end);
    d.conflict_rule = s && DECLARED_PRIMARY.test(s.text) ? 'primary_declared' : null;
  }
}

/** Conditional, optional or co-equal: decided by the stated condition and the words around the placeholder. */
function fallbackKind(scan: SourceScan, p: PlaceholderHit, concrete: readonly Candidate[]): FallbackKind {
  if (p.conditional) return 'conditional';
  const text = scan.doc.text;
  const sentence = scan.sentences.find((x) => p.span.start >= x.start && p.span.start < x.end);
  if (!sentence) return 'coequal';
  const before = concrete.filter(
    (c) => c.origin === 'prose' && c.end !== null && c.end <= p.span.start && (c.start ?? -1) >= sentence.start,
  );
  const tail = text.slice(p.span.end, sentence.end);
  if (before.length === 0) {
    // In a sentence of its own: a fallback when it says so ("… may also be used"), else a declared co-equal path.
    return FALLBACK_CUE.test(text.slice(sentence.start, p.span.start)) || FALLBACK_CUE.test(tail)
      ? 'optional'
      : 'coequal';
  }
  const last = before[before.length - 1];
  const between = text.slice(last?.end ?? sentence.start, p.span.start);
  // "X (https://…) or a consensus of credible reporting": one menu, even when the menu is called primary.
  if (COEQUAL_JOIN.test(between) && !FALLBACK_CUE.test(between)) return 'coequal';
  if (FALLBACK_CUE.test(between) || FALLBACK_CUE.test(tail)) return 'optional';
  return DECLARED_PRIMARY.test(text.slice(sentence.start, p.span.start)) ? 'optional' : 'coequal';
}

/** Evidence of the standing cue that made the lead source an originating publisher or an official body. */
function standingEvidence(scan: SourceScan, c: Candidate | null): Evidence[] {
  const cue = c?.standing;
  if (!cue) return [];
  return cue.span
    ? [quoteEvidence(scan.doc.field, cue.span)]
    : [{ field: 'registry', quote: null, start: null, end: null, value: { rule: cue.rule, name: c.name, url: c.url } }];
}

function decision(subtype: CommitmentSubtype, rule: string, hedge: Span | null, evidence: Evidence[]): Decision {
  return {
    subtype,
    mechanism: subtype === 'named' || subtype === 'committed_secondhand' ? 'single_authority' : null,
    record: null,
    record_text: null,
    type: null,
    hedge,
    conflict_rule: null,
    rule,
    evidence,
    fallback: null,
    listed: 0,
  };
}

function finish(
  scan: SourceScan,
  d: Decision,
  concrete: Candidate[],
  placeholderCompetes: boolean,
  registryUrlOf: (c: Candidate) => string | null,
): Commitment {
  const commitment: SourceCommitment =
    d.subtype === 'named' || d.subtype === 'committed_secondhand'
      ? 'named'
      : d.subtype === 'none'
        ? 'none'
        : 'uncommitted';
  const committed = commitment === 'named';
  const record = d.record;
  const venueUrl = record?.url ?? null;
  const citation =
    committed || d.subtype === 'uncommitted_illustrative'
      ? (venueUrl ?? (record ? registryUrlOf(record) : null))
      : null;
  const sourceOfRecord = committed ? (d.record_text ?? (record ? recordName(record) : null)) : null;
  const hedgeText = d.hedge?.quote ?? null;
  // "The resolution source for GTA VI is …" / "The resolution source for Bitcoin is …": one source per leg, none compete.
  const legs = scan.statements.filter((s) => PER_LEG.test(s.text)).length;
  // A placeholder beside named sources (co-equal or fallback) competes once; unlisted Source Agencies count as a list.
  const competing = legs >= 2 ? 1 : concrete.length + (placeholderCompetes && concrete.length > 0 ? 1 : 0) + d.listed;
  return {
    source_commitment: commitment,
    source_commitment_subtype: d.subtype,
    source_mechanism: committed ? d.mechanism : null,
    source_of_record: sourceOfRecord,
    source_type: d.type,
    source_status: sourceStatusOf(commitment),
    resolution_source: sourceOfRecord ?? hedgeText,
    source_citation: citation,
    citation_from_venue: venueUrl !== null && citation === venueUrl,
    source_hedge_text: committed ? (d.fallback?.quote ?? null) : hedgeText,
    record,
    competing,
    conflict_rule: d.conflict_rule,
    rule: d.rule,
    evidence: d.evidence,
  };
}

/** First match of `re` in a source statement; `gate` is a cheap pre-test that must pass first. */
function findInStatements(scan: SourceScan, re: RegExp, gate: RegExp): Span | null {
  for (const s of scan.statements) {
    if (!gate.test(s.text)) continue;
    const hit = findIn(scan.doc.text, re, s.start, s.end);
    if (hit) return hit;
  }
  return null;
}

/** The verbatim stretch of text from the first to the last quorum member named in one sentence. */
function quorumRecord(scan: SourceScan, concrete: Candidate[]): string | null {
  const prose = concrete.filter((c) => c.origin === 'prose' && c.start !== null && c.end !== null);
  for (const s of scan.statements) {
    const inS = prose.filter((c) => (c.start ?? -1) >= s.start && (c.end ?? -1) <= s.end);
    const a = inS[0];
    const b = inS[inS.length - 1];
    if (inS.length >= 2 && a && b && a.start !== null && b.end !== null) return scan.doc.text.slice(a.start, b.end);
  }
  const names = concrete.map(recordName).filter((n): n is string => n !== null);
  return names.length > 0 ? names.join(', ') : null;
}

/** The menu as the venue wrote it: the stretch naming its sources when they sit in one sentence, else the names. */
function menuSpan(scan: SourceScan, concrete: Candidate[]): Span | null {
  const prose = concrete.filter((c) => c.origin === 'prose' && c.start !== null && c.end !== null);
  const a = prose[0];
  const b = prose[prose.length - 1];
  const sa = a?.start ?? -1;
  const sentence = scan.sentences.find((s) => sa >= s.start && sa < s.end);
  if (a && b && b.end !== null && sentence && b.end <= sentence.end && b.end > sa)
    return { quote: scan.doc.text.slice(sa, b.end), start: sa, end: b.end };
  const names = concrete.map(recordName).filter((n): n is string => n !== null);
  return names.length > 0 ? { quote: names.join(', '), start: -1, end: -1 } : scan.source_agency_ref;
}

/** The clause that holds a placeholder: from the "however"/comma that opens it to the end of its sentence. */
function clauseOf(scan: SourceScan, span: Span): Span {
  const s = scan.sentences.find((x) => span.start >= x.start && span.start < x.end);
  if (!s) return span;
  const before = scan.doc.text.slice(s.start, span.start);
  const however = Math.max(before.lastIndexOf('however'), before.lastIndexOf('However'));
  const opener =
    however >= 0 && before.length - however <= 40
      ? however
      : Math.max(before.lastIndexOf(', '), before.lastIndexOf('; '));
  let start = opener >= 0 ? s.start + opener : span.start;
  while (start < span.start && /[\s,;]/.test(scan.doc.text.charAt(start))) start++;
  let end = s.end;
  while (end > span.end && /[.\s]/.test(scan.doc.text.charAt(end - 1))) end--;
  return { quote: scan.doc.text.slice(start, end), start, end };
}

const DECLARATION = /\b(?:resolution|settlement) source\b|\bsource of truth\b/i;
function inDeclaration(scan: SourceScan, at: number): boolean {
  const s = scan.statements.find((x) => at >= x.start && at < x.end);
  return s !== undefined && DECLARATION.test(s.text);
}
