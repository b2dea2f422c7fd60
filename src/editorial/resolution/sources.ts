/**
 * Finds the resolution sources of a market: the venue's structured source fields, every URL in
 * the rules text, and authorities named in the prose of source statements. Only a name or URL that
 * occurs verbatim in the venue's own text or fields may become a source.
 */
import type { Market, ResolutionSource, SourceType, VenueFacts } from '../../domain/index.ts';
import {
  entryForName,
  entryForUrl,
  findMentions,
  isVenueUrl,
  type Mutability,
  type RegistryEntry,
  type SourceRole,
} from './registry.ts';
import { originatingCue, type StandingCue } from './standing.ts';
import { type Doc, type Sentence, type Span, sentenceAt, splitSentences } from './text.ts';

/** One concrete source candidate, from a venue field or from the prose. */
export interface Candidate {
  /** Verbatim name as the venue wrote it (null for a bare venue URL). */
  name: string | null;
  url: string | null;
  role: SourceRole | 'unknown';
  kind: string;
  source_type: SourceType;
  mutability: Mutability;
  entry_id: string | null;
  /** The registry entry stands for several organisations (compare by name, not by entry). */
  group: boolean;
  origin: 'venue_field' | 'prose';
  /** Evidence location: the doc field for prose, or the venue field name. */
  field: string;
  start: number | null;
  end: number | null;
  /** Introduced by an illustrative hedge ("for example", "such as", "e.g.", "like"). */
  hedged: boolean;
  /** The hedge phrase that introduced it, when hedged. */
  hedge: Span | null;
  /** Publishes its own measurement (a map, index, leaderboard, rating): registry attribute `originates`. */
  originates: boolean;
  /** The cue that made a non-authority the origin of its number (standing.ts), or null. */
  standing: StandingCue | null;
}

/** "A consensus of credible reporting" and friends: gestures at sources without naming one. */
export interface PlaceholderHit {
  span: Span;
  /** Only a fallback under a stated condition ("if X is unavailable, another credible source…"). */
  conditional: boolean;
}

export interface SourceScan {
  doc: Doc;
  sentences: Sentence[];
  statements: Sentence[];
  candidates: Candidate[];
  placeholders: PlaceholderHit[];
  /** venue_a rules that point at the contract's "Source Agencies" list. */
  source_agency_ref: Span | null;
}

const SOURCE_CUE =
  /\b(?:resolution source|source agenc(?:y|ies)|primary source|secondary source|sources? of truth|resol(?:ve[sd]?|ution is|ution will be) (?:based on|according to|per|using|by reference to)|according to|as (?:reported|published|announced|indicated|stated|determined|displayed|shown|listed|measured|calculated) (?:by|on|in)|reported by|published (?:by|on)|data (?:from|published|provided)|information from|official (?:information|announcements?|statements?|data|results?|records?|sources?|channels|website|video|feed|box score|game book)|primarily used|will be used|settle[sd]? (?:based on|according to|using)|settlement (?:value|price|source)|determined by|confirmed by|based on (?:the )?(?:official|data|information|figures|reports?|results|first)|the price used|(?:on|at|from) https?:\/\/|(?:column|table|leaderboard|page|website|site|data stream) (?:on|at)\b|\bchart\b|appears? on|posted on|listed (?:on|under|in)|(?:available|found) (?:at|here)|can be found|for example|for instance|such as|including but not limited to|a source like)\b/i;
const URL_RE = /https?:\/\/[^\s)"'<>\]]+/g;
const PLACEHOLDER_RE =
  /\b(?:(?:an? )?(?:overwhelming )?consensus of (?:credible|major|reputable|news|media|mainstream)[\w -]{0,25}?(?:reporting|reports|sources|outlets|media)|(?:multiple |other |another )?credible (?:[a-z]+ ){0,2}?(?:reporting|sources?|media|outlets|reports|resolution source)|major (?:news|media) (?:outlets|organizations|sources)|reputable (?:news )?(?:sources|outlets)|widely reported|most liquid (?:price )?source(?: available)?|publicly available (?:information|sources))\b/gi;
const PLACEHOLDER_TEST = new RegExp(PLACEHOLDER_RE.source, 'i');
const CONDITIONAL_BEFORE =
  /\b(?:if|in the event|should)\b[^.;]*?\b(?:unavailable|not available|no longer available|not (?:be )?(?:published|released|updated|available)|cannot be reached|no final data|does not (?:publish|release|report|update)|fails to|permanently|is down|offline|does not update correctly|no (?:information|data|figures?|values?|results?)\b[^.;]{0,60}?\b(?:is |are )?(?:provided|published|released|available))\b[^.;]*$/i;
/** An illustrative hedge right before a source name, possibly heading a short list ("like Google or Coinbase"). */
const HEDGE_RE =
  /(?:\b(?:[Ff]or example|[Ff]or instance|[Ss]uch as|[Ii]ncluding but not limited to|(?:sources|outlets|media|reporting|websites|sites) including|[Aa] source like|[Ss]ources like|[Ll]ike)\b|\b[Ee]\.g\.)[,:]?\s*(?:(?:the\s+)?[A-Z][\w.&'’-]*(?:\s(?:of\s|the\s|&\s)?[A-Z][\w.&'’-]*)*,?\s+(?:(?:or|and)\s+)?){0,3}$/;
/** A venue source-list name that opens with a hedge ("For example, Google Finance"): the source is only illustrated. */
const FIELD_HEDGE =
  /^\s*(?:for example|for instance|e\.g\.|such as|like|including but not limited to|including|examples? include)[,:]?\s+/i;
const IMAGE_URL = /\.(?:jpe?g|png|gif|webp|svg|avif)(?:[?#].*)?$/i;
/** Template rows a venue fills with its own URL ("artist 1", "team 2", "player"): not a source. */
const TEMPLATE_ROW =
  /^(?:[a-z][a-z ]*\d*|(?:[Aa]rtist|[Pp]layer|[Tt]eam|[Pp]erson|[Cc]andidate|[Cc]ompany|[Ss]ource|[Nn]ame|[Oo]ption|[Oo]utcome|[Ee]ntity)\s*\d*)$/;
const MIRROR_BEFORE =
  /(?:\(\s*|\b(?:available|found|accessible|published|shown|listed) (?:at|on|here)[:\s]*|\bat\s+|\bon\s+|\bvia\s+|\bhere[:\s]*)$/i;
const RULEBOOK_AFTER =
  /^[\w\s'’-]{0,30}?\b(?:criteria|rules|rulebook|regulations|tiebreakers?|tie-break(?:ers?)?|definitions?|bylaws)\b/i;
const SEE_BEFORE = /\bsee:?\s*\(?\s*$|\(see:?\s*$/i;
const OFFICIAL_BODY =
  /\bofficial (?:information|announcements?|statements?|data|results?|records?|websites?|channels|sources|reports?|figures|communications?|video feed|feed)\s+(?:(?:released|published|issued|provided) )?(?:form|from|of|by|on)\s+((?:[^,;.()\n]|\.(?=[A-Za-z])|(?<=\b(?:U\.S|U\.K|U\.N|St|Inc|Corp|Co|Ltd|Jr))\.)+?)(?=\s*(?:[,;(\n]|(?<!\b(?:U\.S|U\.K|U\.N|St|Inc|Corp|Co|Ltd|Jr))\.(?!\w)|$|\bhowever\b|\bwith\b|\band an?\b|\bor an?\b|\bwill\b|\bincluding\b))/g;
const POSSESSIVE_OFFICIAL =
  /\b([A-Z][\w&.-]*(?: [A-Z][\w&.-]*){0,3})['’]s (?:own )?official (?:[\w-]+ ){0,4}?(?:list|website|page|announcements?|statements?|results?|data|records?|channels?|feed|report|blog|accounts?|press releases?)\b/g;
const REPORTED_BY_PROPER =
  /\b(?:as|information|data|figures|statements?|announcements?) (?:reported|published|announced|released|stated|issued) by ((?:the )?[A-Z][\w&.'’-]*(?: (?:of |the |and )?[A-Z][\w&.'’-]*){0,5})/g;
/** A publisher named by its own product ("the Economist Intelligence Unit's Democracy Index"): standing.ts makes it originating. */
const PUBLISHER_PRODUCT =
  /\b((?:the )?[A-Z][\w&.'’-]*(?: (?:of |the |and )?[A-Z][\w&.'’-]*){0,5})['’]s (?:[A-Z][\w-]* ){0,3}(?:Index|Map|Leaderboard|Rankings?|Ratings?)\b/g;
const PARTY_SOURCES = /\bconsensus of (official [A-Z][\w]*(?: [A-Z][\w]*)? (?:Party )?sources)/g;
const PRIMARY_RECORD =
  /\b(?:(?:official )?(?:video|audio|footage|livestream|live stream|broadcast|transcripts?|video feed|recording)s? of (?:the )?[^,;.()\n]{3,80}?)(?=\s*(?:[,;.(\n]|$|\bwill\b|\bhowever\b|\bis\b))/gi;
const ISSUER_MATERIALS =
  /\b(?:(?:the )?(?:company|issuer)['’]s (?:official )?(?:earnings (?:release|report|call|materials)|quarterly (?:report|results)|investor relations (?:website|page)|press releases?|shareholder letter|financial statements|filings?)|(?:official )?earnings (?:release|press release|materials|documents)|investor relations (?:website|page)|Form 10-[KQ]|10-[KQ] filing|Form 8-K|Form S-1|shareholder letter)\b/g;
const SETTLEMENT_PRICE =
  /\b(?:(?:official )?(?:daily |final )?settlement (?:price|value)s? (?:of|for|on) [^,;.()\n]{3,80}|(?:the )?(?:primary |listing )?exchange['’]s official (?:listing page|closing price|settlement price)|official (?:closing|settlement|opening) price)/gi;
const SOURCE_AGENCY_RE = /\bSource Agenc(?:y|ies)\b/;
const ISSUER_CUE =
  /\b(?:Inc|Corp|Corporation|Company|company|Games|Interactive|Technologies|Labs|Motors|Holdings|OpenAI|Tesla|Apple|Microsoft|Nvidia|Google|Meta|Amazon|SpaceX|Anthropic|xAI|Rockstar)\b/;

/** The text the rules read: the venue's full rules, else the description, else the event description. */
export function docOf(market: Market, facts: VenueFacts): Doc {
  if (market.resolution_rules_raw && market.resolution_rules_raw.trim() !== '')
    return { field: 'resolution_rules_raw', text: market.resolution_rules_raw };
  if (market.description_raw && market.description_raw.trim() !== '')
    return { field: 'description_raw', text: market.description_raw };
  return { field: 'description_raw', text: facts.event_description ?? '' };
}

function fromEntry(
  entry: RegistryEntry | null,
  name: string | null,
  url: string | null,
  origin: Candidate['origin'],
  field: string,
  start: number | null,
  end: number | null,
): Candidate {
  return {
    name,
    url,
    role: entry?.role ?? 'unknown',
    kind: entry?.kind ?? 'unrecognized',
    source_type: entry?.source_type ?? 'other',
    mutability: entry?.mutability ?? 'editable',
    entry_id: entry?.id ?? null,
    group: entry?.group ?? false,
    origin,
    field,
    start,
    end,
    hedged: false,
    hedge: null,
    originates: entry?.originates ?? false,
    standing: null,
  };
}

/**
 * Venue-listed sources, read as evidence beside the rules text: the record's platform_api list (venue_a
 * series `settlement_sources`, venue_b `resolutionSource`) plus any venue fact the list lacks. A row
 * whose name opens with a hedge ("For example, Google Finance") only illustrates its source; a row
 * that pairs the venue's own URL with a template name ("artist 1") is not a source, but a real name
 * with a placeholder URL ("Complex" → kalshi.com) is a source without a link.
 */
function venueCandidates(market: Market, facts: VenueFacts): Candidate[] {
  const listed = market.resolution_source_list?.filter((s) => s.provenance !== 'service_editorial') ?? [];
  const fromFacts = [
    ...facts.settlement_sources.map((s) => ({ name: s.name, url: s.url })),
    ...(facts.resolution_source_field ? [{ name: null, url: facts.resolution_source_field }] : []),
  ];
  const rows: Array<{ name: string | null; url: string | null }> = [...listed];
  for (const f of fromFacts)
    if (!rows.some((r) => (r.url ?? null) === (f.url ?? null) && (r.name ?? null) === (f.name ?? null))) rows.push(f);
  const field = 'resolution_source_list';
  const out: Candidate[] = [];
  for (const s of rows) {
    let url = s.url?.trim() || null;
    const raw = s.name?.trim() || null;
    const hedge = raw !== null ? FIELD_HEDGE.exec(raw) : null;
    const name = hedge && raw !== null ? raw.slice(hedge[0].length).trim() || null : raw;
    // An image link ("…/shutterstock-606897284.jpg") in a source field illustrates the market, it is not a source.
    if (url !== null && IMAGE_URL.test(url)) url = null;
    if (url === null && name === null) continue;
    if (url !== null && isVenueUrl(url)) {
      // venue_a lists template rows ("artist 1" → https://kalshi.com/): no source there.
      if (name === null || (entryForName(name) === null && TEMPLATE_ROW.test(name))) continue;
      url = null;
    }
    const entry = (name ? entryForName(name) : null) ?? (url ? entryForUrl(url) : null);
    const c = fromEntry(entry, name, url, 'venue_field', field, null, null);
    if (hedge && raw !== null) {
      c.hedged = true;
      c.hedge = { quote: raw, start: -1, end: -1 };
    }
    out.push(c);
  }
  return out;
}

/** Scans the rules text and venue fields for every source candidate and placeholder. */
export function scanSources(market: Market, facts: VenueFacts): SourceScan {
  const doc = docOf(market, facts);
  const text = doc.text;
  const sentences = splitSentences(text);
  // A bare URL in a sentence with no source language is background ("…on November 18 (https://…)"), not a source.
  const statements = sentences.filter((s) => SOURCE_CUE.test(s.text) || PLACEHOLDER_TEST.test(s.text));
  const lower = text.toLowerCase();
  const has = (...words: string[]) => words.some((w) => lower.includes(w));
  const mask = new Uint8Array(text.length + 1);
  for (const st of statements) mask.fill(1, st.start, st.end);
  const inStatement = (at: number) => mask[at] === 1;
  const candidates: Candidate[] = venueCandidates(market, facts);
  const prose: Candidate[] = [];

  for (const m of findMentions(text)) {
    if (!inStatement(m.start)) continue;
    // "according to the official FIFA World Cup tiebreak criteria" names a rulebook, not a source.
    if (RULEBOOK_AFTER.test(text.slice(m.end, m.end + 40))) continue;
    prose.push(fromEntry(m.entry, m.alias, null, 'prose', doc.field, m.start, m.end));
  }
  // Cheap keyword gates first: most rules texts contain none of these phrases.
  const bodyRes = [
    ...(has('official') ? [OFFICIAL_BODY, POSSESSIVE_OFFICIAL] : []),
    ...(has('consensus of official') ? [PARTY_SOURCES] : []),
    ...(has(' by ') ? [REPORTED_BY_PROPER] : []),
    ...(has('index', 'map', 'leaderboard', 'ranking', 'rating') ? [PUBLISHER_PRODUCT] : []),
  ];
  for (const re of bodyRes) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const phrase = m[1] ?? '';
      const start = m.index + m[0].indexOf(phrase);
      if (phrase.trim().length < 2 || /\b(?:consensus|credible)\b|^https?:/i.test(phrase)) continue;
      if (prose.some((c) => c.start !== null && c.start >= start && c.start < start + phrase.length)) continue;
      const c = fromEntry(null, phrase, null, 'prose', doc.field, start, start + phrase.length);
      // A product's publisher is judged by its standing (applyStanding), not assumed an official body.
      if (re === PUBLISHER_PRODUCT) {
        if (inStatement(start)) prose.push(c);
        continue;
      }
      prose.push({
        ...c,
        role: 'authority',
        kind: 'official_body',
        source_type: ISSUER_CUE.test(phrase) ? 'issuer_announcement' : 'other',
        mutability: 'fixed',
      });
    }
  }
  const phraseRules = [
    ...(has('earnings', 'investor', 'form ', '10-', 'shareholder', 'filing', 'press release')
      ? [[ISSUER_MATERIALS, 'issuer_materials', 'issuer_announcement'] as const]
      : []),
    ...(has('settlement', 'closing price', 'opening price')
      ? [[SETTLEMENT_PRICE, 'exchange_settlement', 'regulated_data_vendor'] as const]
      : []),
    ...(has('video', 'audio', 'footage', 'livestream', 'live stream', 'broadcast', 'transcript', 'recording')
      ? [[PRIMARY_RECORD, 'primary_record', 'scheduled_event'] as const]
      : []),
  ];
  for (const [re, kind, type] of phraseRules) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (!inStatement(m.index)) continue;
      const start = m.index;
      const end = m.index + m[0].length;
      // A named exchange inside "settlement price of … on NYMEX" already stands for it.
      if (kind !== 'primary_record' && prose.some((c) => c.start !== null && c.start >= start && c.start < end))
        continue;
      const c = fromEntry(null, m[0], null, 'prose', doc.field, start, end);
      prose.push({ ...c, role: 'authority', kind, source_type: type, mutability: 'fixed' });
    }
  }
  // "the official closing price" defines the quantity; it is not a second source when an exchange is named
  // or when the text declares its resolution source explicitly ("The resolution source for this market is Yahoo Finance").
  const declared = statements.some(
    (st) =>
      /\bresolution source\b/i.test(st.text) &&
      prose.some((c) => c.kind !== 'exchange_settlement' && (c.start ?? -1) >= st.start && (c.start ?? -1) < st.end),
  );
  if (declared || prose.some((c) => c.kind === 'exchange') || candidates.some((c) => c.kind === 'exchange'))
    for (let i = prose.length - 1; i >= 0; i--) if (prose[i]?.kind === 'exchange_settlement') prose.splice(i, 1);
  prose.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  attachUrls(text, doc.field, sentences, statements, prose);
  for (const c of prose) markHedge(text, sentences, c);
  candidates.push(...prose);
  for (const c of candidates) if (!c.hedged) applyStanding(text, statements, c);

  const placeholders: PlaceholderHit[] = [];
  PLACEHOLDER_RE.lastIndex = 0;
  const mayHold = has(
    'credible',
    'consensus',
    'reputable',
    'major news',
    'major media',
    'widely reported',
    'most liquid',
    'publicly available',
  );
  for (let m = mayHold ? PLACEHOLDER_RE.exec(text) : null; m !== null; m = PLACEHOLDER_RE.exec(text)) {
    const s = sentenceAt(sentences, m.index);
    const before = s ? text.slice(s.start, m.index) : '';
    placeholders.push({
      span: { quote: m[0], start: m.index, end: m.index + m[0].length },
      conditional: CONDITIONAL_BEFORE.test(before),
    });
  }
  const sa = SOURCE_AGENCY_RE.exec(text);
  return {
    doc,
    sentences,
    statements,
    candidates,
    placeholders,
    source_agency_ref: sa ? { quote: sa[0], start: sa.index, end: sa.index + sa[0].length } : null,
  };
}

/** URLs in source statements: the link of the source just named before them, or a source of their own. */
function attachUrls(
  text: string,
  field: string,
  sentences: Sentence[],
  statements: Sentence[],
  prose: Candidate[],
): void {
  URL_RE.lastIndex = 0;
  for (let m = URL_RE.exec(text); m !== null; m = URL_RE.exec(text)) {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    const at = m.index;
    if (isVenueUrl(url)) continue;
    // "(see https://…)" cites background, not a resolution source.
    if (SEE_BEFORE.test(text.slice(Math.max(0, at - 16), at))) continue;
    const entry = entryForUrl(url);
    const s = sentenceAt(sentences, at);
    const same = prose.filter((c) => c.start !== null && s !== null && c.start >= s.start && c.start < at);
    const byEntry = entry ? same.findLast((c) => c.entry_id === entry.id) : undefined;
    const last = same[same.length - 1];
    const lead = text.slice(Math.max(s?.start ?? 0, at - 40), at);
    const target =
      byEntry ??
      (last && last.url === null && at - (last.end ?? at) <= 160 && MIRROR_BEFORE.test(lead) ? last : undefined);
    if (target) {
      if (target.url === null) target.url = url;
      continue;
    }
    if (!statements.some((st) => at >= st.start && at < st.end)) continue;
    prose.push(fromEntry(entry, null, url, 'prose', field, at, at + url.length));
  }
}

/** Upgrades a non-authority whose standing cue says it originates its number (standing.ts). */
function applyStanding(text: string, statements: readonly Sentence[], c: Candidate): void {
  const cue = originatingCue(text, statements, c);
  if (cue === null) return;
  c.standing = cue;
  c.originates = true;
  if (c.role !== 'unknown') return;
  // An unregistered official or governing body: an authority of its own record.
  c.role = 'authority';
  c.kind =
    cue.rule === 'standing.governing_body_host'
      ? 'sports_body'
      : cue.rule === 'standing.own_market_pair'
        ? 'exchange'
        : cue.rule === 'standing.official_name' || cue.rule === 'standing.government_host'
          ? 'official_body'
          : 'publisher_product';
  c.mutability = cue.rule === 'standing.governing_body_host' ? 'fixed' : 'revisable';
}

function markHedge(text: string, sentences: Sentence[], c: Candidate): void {
  if (c.start === null) return;
  const s = sentenceAt(sentences, c.start);
  const from = Math.max(s?.start ?? 0, c.start - 60);
  const lead = text.slice(from, c.start);
  const m = HEDGE_RE.exec(lead);
  if (m) {
    c.hedged = true;
    c.hedge = { quote: text.slice(from + m.index, c.end ?? c.start), start: from + m.index, end: c.end ?? c.start };
  }
}

/** Two candidates stand for the same source (same registry entry, same host-less name, or same URL). */
export function sameSource(a: Candidate, b: Candidate): boolean {
  if (a.entry_id !== null && a.entry_id === b.entry_id) {
    // A group entry (e.g. "broadcast networks") holds distinct organisations: Fox News is not NBC.
    if (!a.group || a.name === null || b.name === null || a.origin !== b.origin) return true;
    return a.name.toLowerCase() === b.name.toLowerCase();
  }
  if (a.url !== null && a.url === b.url) return true;
  return a.name !== null && b.name !== null && a.name.toLowerCase() === b.name.toLowerCase();
}

/** Candidates with duplicates (same source) removed, first occurrence kept. */
export function distinctSources(cs: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of cs) {
    const i = out.findIndex((o) => sameSource(o, c));
    const kept = i >= 0 ? out[i] : undefined;
    if (kept === undefined) out.push(c);
    // A later mention of the same source may carry its link ("the ISW map (https://…)"): keep the link.
    else if ((kept.url === null && c.url !== null) || (kept.name === null && c.name !== null))
      out[i] = { ...kept, url: kept.url ?? c.url, name: kept.name ?? c.name };
  }
  return out;
}

/** The served `resolution_source_list`: venue-listed sources first (platform_api), then prose finds (service_editorial). */
export function sourceListOf(scan: SourceScan): ResolutionSource[] {
  const kept: Candidate[] = [];
  const out: ResolutionSource[] = [];
  for (const c of scan.candidates) {
    const i = kept.findIndex((k) => sameSource(k, c) && k.origin === c.origin);
    const prev = i >= 0 ? out[i] : undefined;
    if (prev) {
      if (prev.url === null && c.url !== null) prev.url = c.url;
      if (prev.name === null && c.name !== null) prev.name = c.name;
      continue;
    }
    kept.push(c);
    out.push({
      name: c.name,
      url: c.url,
      provenance: c.origin === 'venue_field' ? 'platform_api' : 'service_editorial',
    });
  }
  return out;
}
