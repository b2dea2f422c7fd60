/**
 * Plain-word meanings of the codes pmref serves (issue 17): grades, RCG factors and the rule ids that rate
 * them, caps, commitment subtypes, link relations, and the fixed eligibility-screen reason codes. Agents read
 * them through the `glossary` tool and the concise market view; each entry is one or two sentences.
 *
 * The lists are typed against the domain's own vocabularies (a `Record` over `RCG_CAPS`, `RCG_FACTORS`,
 * `COMMITMENT_SUBTYPES`), so a new cap or subtype does not compile without its entry. Factor rule ids, cap
 * ceilings, factor weights and screen reason codes live in editorial/ and signals/ code and data, which this
 * leaf room may not import: test/agents/glossary.test.ts reads them from there and fails when an id the code
 * can emit has no entry here, when an entry names an id the code no longer emits, or when a stated ceiling or
 * weight differs from the code's.
 */
import type { LinkDifferenceType, LinkRelation } from './market.ts';
import type { RcgCap, RcgFactorName } from './rcg.ts';
import type { CommitmentSubtype, Grade } from './vocab.ts';

/** The three grades and what each promises. */
export const GRADE_MEANINGS: Readonly<Record<Grade, string>> = {
  A: 'Settles on a concrete named authority with an objective trigger: score 80 or more and no cap below A.',
  B: 'Settles cleanly in the main but has a gap (a hedged, lagging or editable source, or a contested fact): score 55–79, or capped at B.',
  C: 'Vague, contested or without a committed source: score 54 or less, or capped at C. Price it as partly a bet on how the arbiter reads the rules.',
};

/** Each factor's question and weight (the weights sum to 100; pass earns the weight, partial half, fail none). */
export const FACTOR_MEANINGS: Readonly<Record<RcgFactorName, { weight: number; meaning: string }>> = {
  trigger_objectivity: {
    weight: 28,
    meaning:
      'Is the Yes condition a measurement (a number, an official act, a recorded occurrence) or a judgement call?',
  },
  contested_reality: {
    weight: 22,
    meaning:
      'Is the fact controlled or disputed by an interested party who shapes the record (war maps, regime claims)?',
  },
  source_clarity: {
    weight: 18,
    meaning: 'Does the market commit to one authoritative named source, with a usable link?',
  },
  arbiter_incentive: {
    weight: 12,
    meaning:
      'Who decides the outcome: regulated exchange staff, a managed oracle, or a permissionless token-vote oracle?',
  },
  source_conflict_rule: {
    weight: 8,
    meaning:
      'When two or more sources compete, do the rules say which wins? Not applicable with a single source (then excluded from the score).',
  },
  temporal_precision: {
    weight: 7,
    meaning:
      'Is there a precise controlling time (a time of day with a zone, or a dated release) aligned with the source?',
  },
  source_mutability: {
    weight: 5,
    meaning: 'Can the source be revised or edited after the fact, and do the rules fix which version counts?',
  },
};

/**
 * The rule ids a factor rating can carry (`rcg.factors[].rule`), with what made it fire. Kept in the order of
 * METHODOLOGY.md, which gives an example of each.
 */
export const RULE_MEANINGS: Readonly<Record<string, string>> = {
  'trigger.numeric_threshold':
    'Pass: the Yes condition is a number crossing a stated threshold (or the venue gives a numeric strike).',
  'trigger.official_act':
    'Pass: the Yes condition is an official act or recorded outcome (wins, is elected, signs, announces, resigns).',
  'trigger.recorded_occurrence':
    'Pass: a speech or presence verb (says, visits, meets) and the rules name the record that shows it (video, transcript, official readout).',
  'trigger.discretionary_with_anchor':
    'Partial: a judgement word ("significant", "substantially", "deemed") sits beside a measurable anchor.',
  'trigger.unrecorded_occurrence':
    'Partial: a speech or presence verb with no named record, so whether it happened is a matter of reports.',
  'trigger.unanchored_occurrence': 'Partial: the Yes condition has neither a measurable anchor nor a judgement word.',
  'trigger.discretionary':
    'Fail: the Yes condition needs judgement, not measurement ("wearing a suit", "widely considered").',
  'contested.adversarial_source': 'Fail: the source is a war map or state media of a party to the conflict.',
  'contested.territorial_control': 'Fail: the fact is territorial control, which the parties contest and shape.',
  'contested.interested_party':
    'Partial: the fact is shaped by claims of an interested party (strikes, regime statements, disputed results, self-reported figures).',
  'contested.neutral_record': 'Pass: no interested party controls the record of the fact.',
  'clarity.named_authority_linked': 'Pass: committed to a named authority, and the venue gives its link.',
  'clarity.named_authority_unlinked': 'Partial: committed to a named authority, but the venue gives no link to it.',
  'clarity.secondhand_source':
    'Partial: committed to one source that republishes numbers whose authority is elsewhere.',
  'clarity.illustrative_candidate': 'Partial: a source is named only as an example ("for example, Google Finance").',
  'clarity.no_committed_source':
    'Fail: no committed source: a placeholder such as "a consensus of credible reporting", or no source at all.',
  'arbiter.regulated_staff': 'Pass: the outcome is determined by the staff of a CFTC-regulated exchange (venue_a).',
  'arbiter.automated_settlement':
    'Pass: the venue settles automatically from a feed (reserved; no venue fact sets it yet).',
  'arbiter.managed_oracle': 'Partial: an optimistic oracle whose proposers are a managed whitelist.',
  'arbiter.permissionless_oracle':
    'Fail: anyone who posts a bond may propose the outcome, and disputes go to a token-holder vote (permissionless oracle).',
  'conflict.single_source': 'Not applicable: fewer than two sources compete, so no tie-break is needed.',
  'conflict.precedence_stated': 'Pass: the rules give an ordered fallback ("if X is unavailable, Y").',
  'conflict.quorum_stated': 'Pass: the rules give an agreement rule ("if all three sources have called the race").',
  'conflict.authority_outranks_menu':
    'Partial: an authority is listed among outlets; its precedence is implied, not stated.',
  'conflict.primary_declared_fallback':
    'Partial: a primary source plus an optional fallback ("may also be used"): an order, but no rule for when the fallback applies.',
  'conflict.no_rule': 'Fail: several sources are named with no rule for when they disagree.',
  'time.precise_timestamp': 'Pass: the rules give a time of day with a zone ("11:59 PM ET").',
  'time.dated_release': 'Pass: the rules name a dated release, report, meeting or scheduled game.',
  'time.live_page_unaligned':
    'Partial: the deadline is precise but the source is a live page that updates on its own schedule, with no snapshot rule.',
  'time.date_only': 'Partial: a date without a time of day.',
  'time.venue_close_only': "Partial: no date in the text; only the venue's close time.",
  'time.no_timestamp': 'Fail: no date anywhere and no close time.',
  'mutability.fixed_record':
    'Pass: the source of record is published once and not revised (filings, settlement prices, box scores).',
  'mutability.first_release_rule': 'Pass: the source is revisable, but the rules say the first release counts.',
  'mutability.revisable_no_rule':
    'Partial: the source is revisable (statistics, news) and the rules do not say which version counts.',
  'mutability.editable_with_snapshot':
    'Partial: the source is a live, editable page, but the rules fix a snapshot ("at check time").',
  'mutability.reporting_revisable': 'Partial: placeholder reporting with no rule fixing which report counts.',
  'mutability.reporting_with_snapshot': 'Partial: placeholder reporting, with a snapshot rule ("as first reported").',
  'mutability.editable_no_snapshot': 'Fail: the source can be edited after the fact and no snapshot rule is stated.',
  'mutability.no_source': 'Fail: there is no source at all, so nothing fixes the record.',
  past_close:
    'Status rule: the venue last reported the market open, but its close time has passed, so pmref serves it closed (derived) until the venue reports the outcome.',
};

/** Each cap: the grade it can at best give, and when it applies. Caps only ever lower a grade. */
export const CAP_MEANINGS: Readonly<Record<RcgCap, { ceiling: Grade; meaning: string }>> = {
  commitment_committed_secondhand: {
    ceiling: 'C',
    meaning:
      'The one committed source republishes numbers whose authority is elsewhere (an aggregator, tracker or feed).',
  },
  commitment_uncommitted_illustrative: {
    ceiling: 'B',
    meaning: 'The source is named only as an example ("for example, …"): the arbiter may use another.',
  },
  commitment_uncommitted_placeholder: {
    ceiling: 'C',
    meaning: 'The market settles on a placeholder such as "a consensus of credible reporting", not a named source.',
  },
  commitment_none: { ceiling: 'C', meaning: 'The rules name no resolution source at all.' },
  multi_source_no_conflict_rule: {
    ceiling: 'C',
    meaning: 'Several sources are named and the rules do not say which wins when they disagree.',
  },
  discretionary_trigger_no_source: {
    ceiling: 'C',
    meaning: 'The Yes condition is a judgement call and no source is committed to settle it.',
  },
  permissionless_oracle_discretionary_trigger: {
    ceiling: 'C',
    meaning: 'A judgement call in the Yes condition is decided by a permissionless token-vote oracle.',
  },
  adversarial_ground_truth: {
    ceiling: 'B',
    meaning: 'The fact itself is contested by a party that shapes the record (war maps, territorial control).',
  },
  exchange_notice_source_conflict: {
    ceiling: 'C',
    meaning: 'A venue notice inside the rules ("Clarification: …") names a source other than the committed one.',
  },
};

/** `resolution.source_commitment_subtype`: how firmly the market commits to its resolution source. */
export const COMMITMENT_SUBTYPE_MEANINGS: Readonly<Record<CommitmentSubtype, string>> = {
  named:
    'Committed to a concrete authority or originating publisher (source_of_record), alone, with an ordered fallback, or by a quorum rule.',
  committed_secondhand:
    'Committed to one concrete source that republishes numbers whose authority is elsewhere (a price feed, tracker or wiki); caps the grade at C.',
  uncommitted_illustrative:
    'A source appears only as an example ("for example, Google Finance"), so nothing binds the arbiter to it; caps the grade at B.',
  uncommitted_placeholder:
    'The market settles on a placeholder ("a consensus of credible reporting") or an unlisted set of agencies; caps the grade at C.',
  none: 'The rules contain no source language at all; caps the grade at C.',
};

/**
 * Eligibility-screen reason codes set by the screening funnel itself (src/signals/screens/evaluate.ts), whatever
 * the regime; each regime file adds its own rule reasons (`data/screens/*.json`), explained in
 * `SCREEN_RULE_REASON_MEANINGS`.
 */
export const SCREEN_FUNNEL_REASON_MEANINGS: Readonly<Record<string, string>> = {
  venue_out_of_scope: "Not eligible: the market's venue is outside the regime's scope.",
  no_resolution_date:
    'Not eligible: the regime requires a resolution date and the market has neither resolve_at nor close_at.',
  no_committed_source: 'Not eligible: the regime requires a committed resolution source and source_of_record is null.',
  under_min_maturity: "Not eligible: the market resolves sooner than the regime's minimum time to resolution.",
  category_not_permitted: "Not eligible: the market's category is not among the regime's permitted categories.",
};

/** Reason codes of the regimes' own rules (`rules[].reason` in `data/screens/*.json`). */
export const SCREEN_RULE_REASON_MEANINGS: Readonly<Record<string, string>> = {
  cftc_40_11_terrorism:
    'The contract references terrorism, one of the activities 17 CFR 40.11(a)(1) bars from listing.',
  cftc_40_11_assassination: 'The contract references assassination, an activity 17 CFR 40.11(a)(1) bars from listing.',
  cftc_40_11_war: 'The contract references war or armed conflict (40.11(a)(1)): held for review.',
  cftc_40_11_gaming: 'The contract references gaming or betting (40.11(a)(1)): held for review.',
  cftc_40_11_unlawful_activity:
    'The contract references activity unlawful under State or Federal law (40.11(a)(1)): held for review.',
  cftc_40_11_similar_activity:
    'A geopolitics contract that may be similar to an enumerated activity (40.11(a)(2)): held for review.',
  political_nature_s3:
    'The outcome turns on elections, political office or another event of a political nature (section 3): not offered, or reviewed when the language is incidental.',
  category_interpretation_s1:
    'The underlying interest needs a category interpretation under section 1 (crypto, companies, commodities, mentions, weather, government action): held for review.',
  category_not_enumerated_s1:
    'The underlying interest is not enumerated in section 1 (technology, health): held for review.',
};

/** `also_on[].relation` and `/v1/questions` relations: how a market on the other venue relates to this one. */
export const RELATION_MEANINGS: Readonly<Record<LinkRelation, string>> = {
  same: 'The same question on the other venue, same side: both share one question_id, so their prices are directly comparable.',
  complement:
    'The same question_id on the other side of one boundary (above vs below): one YES price should be near 1 minus the other.',
  related:
    'A near-equivalent question with its own question_id: same subject and measured quantity, differing only in the listed differences. A price gap is not a spread.',
};

/** `differences[].type` of a related pair: the typed parts in which two near-equivalent questions differ. */
export const DIFFERENCE_MEANINGS: Readonly<Record<LinkDifferenceType, string>> = {
  resolves_on:
    'What event settles it differs (an election call vs the inauguration, an IPO filing vs the first trade).',
  horizon: 'The deadlines differ (cumulative deadlines at most 31 days apart).',
  threshold: 'The strikes differ slightly (same side, within 2%).',
  source: 'The named price or data source differs.',
  scope: 'What else counts differs (an announced intention, any length of time, phone contact).',
  death_rule: 'What the death of the subject does to the market differs.',
  wording: 'The measured-thing phrases differ but read as one by the documented vocabulary.',
};
