/**
 * Resolution-text templates. Every commitment class of rcg-model.md and the pass and fail
 * pattern of every RCG factor is written here once, in each venue's own voice (venue_a: "If …,
 * then the market resolves to Yes." plus a secondary paragraph; venue_b: "This market will resolve
 * to "Yes" if …" with the source paragraph last), modelled on the recorded fixtures.
 */
import type { Venue } from '../../domain/index.ts';
import type { Commitment, SourcePlan, SourceRef, TextProfile } from './model.ts';
import type { Rng } from './prng.ts';

export const OUTLETS: readonly SourceRef[] = [
  { name: 'the Associated Press', url: 'https://apnews.com' },
  { name: 'Reuters', url: 'https://www.reuters.com' },
  { name: 'Bloomberg', url: 'https://www.bloomberg.com' },
  { name: 'The New York Times', url: 'https://www.nytimes.com' },
  { name: 'Fox News', url: 'https://www.foxnews.com' },
  { name: 'NBC News', url: 'https://www.nbcnews.com' },
];

/**
 * Draws a text profile with the calibration of venue-notes.md: nearly every venue_a series names
 * an authority (about 2% "for example" placeholders, no "none"); about 92% of venue_b markets
 * resolve on placeholder language. `eventLike` families (announcements, deals) may carry
 * discretionary triggers; numeric families never do.
 */
export function drawProfile(rng: Rng, venue: Venue, opts: { eventLike: boolean; fixed?: Commitment }): TextProfile {
  const commitment: Commitment =
    opts.fixed ??
    (venue === 'venue_a'
      ? rng.weighted<Commitment>([
          ['named', 90],
          ['ordered_fallback', 3],
          ['quorum', 2],
          ['secondhand', 2],
          ['illustrative', 2],
          ['primary_fallback', 1],
        ])
      : rng.weighted<Commitment>([
          ['consensus', 36],
          ['primary_fallback', 47],
          ['menu', 12],
          ['named', 2],
          ['secondhand', 1],
          ['illustrative', 0.8],
          ['ordered_fallback', 0.4],
          ['quorum', 0.4],
          ['none', 0.9],
        ]));
  const discretionaryRate = venue === 'venue_a' ? 0.04 : 0.18;
  return {
    commitment,
    trigger: opts.eventLike && rng.chance(discretionaryRate) ? 'discretionary' : 'objective',
    timing: rng.chance(venue === 'venue_a' ? 0.05 : 0.2) ? 'vague' : 'precise',
    mutability: rng.weighted<TextProfile['mutability']>([
      ['none', 80],
      ['snapshot', 14],
      ['editable', 6],
    ]),
    proposer:
      venue === 'venue_a'
        ? 'silent'
        : rng.weighted<TextProfile['proposer']>([
            ['silent', 86],
            ['permissionless', 8],
            ['managed', 6],
          ]),
  };
}

function list(names: string[], joiner: 'or' | 'and'): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')}, ${joiner} ${names[names.length - 1]}`;
}

/** "official information from X", unless the prose already says so. */
function official(plan: SourcePlan): string {
  const p = prose(plan);
  return /^(the )?official /i.test(p) ? p : `official information from ${p}`;
}

function prose(plan: SourcePlan): string {
  // "Nikkei Inc." must not end a sentence as "Nikkei Inc..".
  return (plan.prose ?? plan.authority.name).replace(/\.$/, '');
}

export interface SourceClause {
  /** Sentence(s) to place in rules_secondary / the description's source paragraph ('' for none). */
  sentence: string;
  /** venue_a series settlement_sources. */
  seriesSources: SourceRef[];
  /** venue_b `resolutionSource` field (usually empty, as in the recorded data). */
  resolutionSource: string;
}

/** The source language for one commitment class, written the way `venue` writes it. */
export function sourceClause(
  rng: Rng,
  venue: Venue,
  commitment: Commitment,
  plan: SourcePlan,
  eventLike = false,
): SourceClause {
  const auth = plan.authority;
  const outlet = OUTLETS[Math.floor(rng.next() * OUTLETS.length)] ?? {
    name: 'Reuters',
    url: 'https://www.reuters.com',
  };
  // Event questions republish through a single outlet; numbers through a data aggregator.
  const agg =
    plan.aggregator ?? (eventLike ? outlet : { name: 'Trading Economics', url: 'https://tradingeconomics.com' });
  const ill = plan.illustrative ?? { name: 'Google Finance', url: 'https://www.google.com/finance' };
  const fb = plan.fallback ?? agg;
  const outlets = rng.sample(OUTLETS, 3);
  const outletNames = outlets.map((o) => o.name);
  const a = venue === 'venue_a';
  const rs = (s: string): string => (!a && rng.chance(0.18) ? s : '');
  switch (commitment) {
    case 'named':
      return {
        sentence: a
          ? rng.pick([
              `The Source Agency is ${prose(plan)}.`,
              `Resolution is based on ${/^(the )?official /i.test(prose(plan)) ? '' : 'information published by '}${prose(plan)} (${auth.url}).`,
              `The Source Agency is ${prose(plan)} (${auth.url}).`,
            ])
          : rng.pick([
              `The resolution source for this market will be ${prose(plan)} (${auth.url}).`,
              `The resolution source for this market is ${official(plan)}, specifically ${auth.url}.`,
            ]),
        seriesSources: [auth],
        resolutionSource: rs(auth.url),
      };
    case 'secondhand':
      return {
        sentence: a
          ? eventLike && !plan.aggregator
            ? `Resolution will be based solely on reporting by ${agg.name} (${agg.url}).`
            : `The Underlying will be the value reported by ${agg.name} (${agg.url}); no other source will be consulted.`
          : eventLike && !plan.aggregator
            ? `The resolution source for this market will be reporting by ${agg.name}.`
            : `The resolution source for this market will be ${agg.name}'s reporting found at ${agg.url}.`,
        seriesSources: [agg],
        resolutionSource: rs(agg.url),
      };
    case 'illustrative':
      return {
        sentence: a
          ? `The Source Agency is a reputable source of market data, for example, ${ill.name}.`
          : `This market will resolve according to a reputable data source, for example ${ill.name} (${ill.url}).`,
        seriesSources: [ill],
        resolutionSource: '',
      };
    case 'consensus':
      return {
        sentence: a
          ? 'Resolution will be based on a consensus of credible reporting.'
          : 'The resolution source for this market will be a consensus of credible reporting.',
        seriesSources: [],
        resolutionSource: '',
      };
    case 'primary_fallback':
      return {
        sentence: a
          ? `The primary source is ${prose(plan)}; however, a consensus of credible reporting may also be used.`
          : rng.pick([
              `The primary resolution source for this market will be ${official(plan)}, however a consensus of credible reporting may also be used.`,
              `This market's primary resolution source will be ${prose(plan)}, however a consensus of credible reporting will also be used.`,
            ]),
        seriesSources: [auth],
        resolutionSource: '',
      };
    case 'menu':
      return {
        sentence: a
          ? `Resolution will be based on reporting from ${list(outletNames, 'or')}.`
          : `The resolution source for this market will be reporting from ${list(outletNames, 'or')}.`,
        seriesSources: outlets,
        resolutionSource: '',
      };
    case 'ordered_fallback':
      return {
        sentence: a
          ? eventLike
            ? `The Source Agency is ${prose(plan)}. If ${prose(plan)} has not confirmed the outcome by the expiration date, reporting by ${fb.name} will be used instead.`
            : `The Source Agency is ${prose(plan)}. If ${prose(plan)} has not published the figure by the expiration date, the value published by ${fb.name} will be used instead.`
          : `The resolution source will be ${prose(plan)}. If ${prose(plan)} is unavailable at resolution time, ${fb.name} will be used.`,
        seriesSources: [auth, fb],
        resolutionSource: rs(auth.url),
      };
    case 'quorum':
      return {
        sentence: a
          ? `The market will be determined once at least two of the following Source Agencies have reported the outcome: ${list(outletNames, 'and')}.`
          : `This market will resolve once ${list(outletNames, 'and')} have all reported the same outcome.`,
        seriesSources: outlets,
        resolutionSource: '',
      };
    case 'none':
      return { sentence: '', seriesSources: [], resolutionSource: '' };
  }
}

/** Rewrites an objective condition into the discretionary wording the trigger-objectivity factor fails. */
export function discretionize(rng: Rng, condition: string): string {
  return rng.pick([
    `credible reports indicate that ${condition}`,
    `${condition}, or substantially equivalent progress is made`,
    `${condition} in a meaningful way, as judged by the resolver`,
    `${condition} to a significant extent`,
  ]);
}

/** The source-mutability sentence: a first-published snapshot rule (pass) or a live editable page (fail). */
export function mutabilitySentence(rng: Rng, profile: TextProfile, sourceName: string, eventLike = false): string {
  if (profile.mutability === 'snapshot' && eventLike)
    return 'The outcome will be determined from the announcement as first published; later corrections or retractions will not be considered.';
  if (profile.mutability === 'snapshot')
    return rng.pick([
      'Only the figure as first published will be considered; subsequent revisions will not be taken into account.',
      `The value first released by ${sourceName} will be used, regardless of any later revision.`,
    ]);
  if (profile.mutability === 'editable')
    return eventLike
      ? 'The relevant Wikipedia page, as displayed when the market is resolved, may be used to confirm the outcome.'
      : `Resolution will be based on ${sourceName} as it appears when checked at resolution time.`;
  return '';
}

/** venue_b only: who may propose the outcome (arbiter-incentive factor). */
export function proposerSentence(profile: TextProfile): string {
  switch (profile.proposer) {
    case 'permissionless':
      return 'Any address may propose an outcome for this market to the UMA Optimistic Oracle by posting the required bond; disputed proposals are decided by a vote of UMA token holders.';
    case 'managed':
      return 'Outcome proposals for this market are restricted to the managed proposer set approved by the venue.';
    case 'automatic':
      return 'This market is settled automatically from the stated price feed; no outcome proposal is required.';
    case 'silent':
      return '';
  }
}

export interface RuleParts {
  /** The condition, e.g. "the upper bound of the target federal funds rate is above 4.25%". */
  condition: string;
  /** Timing phrase appended to the condition, e.g. "on Mar 18, 2026" (may be ''). */
  when: string;
  /** Extra clarifying sentences (venue-specific wording already applied). */
  extras: string[];
  /** venue_b: an optional framing paragraph placed before the resolution sentence. */
  preface?: string;
}

/** Composes venue_a rules_primary / rules_secondary, or the venue_b description, from parts. */
export function compose(
  venue: Venue,
  parts: RuleParts,
  clause: SourceClause,
  tail: string[],
): { rules: string; rules2: string } {
  const when = parts.when ? ` ${parts.when}` : '';
  const extra = [...parts.extras, clause.sentence, ...tail].filter((s) => s !== '');
  if (venue === 'venue_a') {
    return { rules: `If ${parts.condition}${when}, then the market resolves to Yes.`, rules2: extra.join(' ') };
  }
  const head = `This market will resolve to "Yes" if ${parts.condition}${when}. Otherwise, this market will resolve to "No".`;
  const paras = [parts.preface ?? '', head, ...extra].filter((s) => s !== '');
  return { rules: paras.join('\n\n'), rules2: '' };
}
