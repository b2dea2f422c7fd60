/**
 * Cross-venue divergence: twins on the two venues (same question_id) whose prices on the latest
 * snapshot date differ by more than DIVERGENCE.minGap. Complements (one `above`, one `below` at the
 * same key) are compared on the same side: p against 1 − p. The gap must also hold net of both venues' taker
 * fees at the stated size (net-spread.ts): a divergence that vanishes net of fees is not a signal.
 */
import type { FeeSchedule, Market, MarkFigures, SignalBulletin, Venue } from '../../domain/index.ts';
import { makeBulletin } from '../bulletin.ts';
import { markOn, markPrice, publishableEvent, type SignalContext } from '../context.ts';
import { pct, pts, round, shortQuestion } from '../format.ts';
import { netSpread, SPREAD_SIZE_CONTRACTS } from '../net-spread.ts';
import { marketSource } from '../sources.ts';

export const DIVERGENCE = {
  /** Gap in probability points (0.05 = 5 points) that must be exceeded. */
  minGap: 0.05,
} as const;

interface Side {
  market: Market;
  price: number;
  markDate: string;
  stale: boolean;
  mark: MarkFigures;
}

/** True when two twins state opposite sides of the same claim. */
function complements(a: Market, b: Market): boolean {
  return (a.direction === 'above' && b.direction === 'below') || (a.direction === 'below' && b.direction === 'above');
}

function sideOf(ctx: SignalContext, market: Market): Side | null {
  if (market.status !== 'open') return null;
  const mark = markOn(ctx, market.market_id, ctx.latestDate);
  const price = markPrice(mark);
  // A carried-forward mark repeats an old price; a stale one is still the venue's latest quote (noted below).
  if (!mark || price === null || mark.mark_method === 'imputed_carry_forward') return null;
  return { market, price, markDate: mark.snapshot_date, stale: mark.stale_flag, mark };
}

/** How the top of book bears on the stated size, as a clause. */
function depthText(depthOk: boolean | null): string {
  if (depthOk === null) return ' (top-of-book depth unknown)';
  return depthOk ? ' (the size fits at the best asks)' : ' (the size does not fit at the best ask of at least one leg)';
}

/**
 * One bulletin per question_id whose widest cross-venue pair diverges, gross and net of fees. `schedules`
 * replaces data/fees/ (a zero-fee schedule gives the gross-only count the measurements compare against).
 */
export function detectCrossVenueDivergence(
  ctx: SignalContext,
  opts: { schedules?: Readonly<Record<Venue, FeeSchedule>> } = {},
): SignalBulletin[] {
  const byQuestion = new Map<string, Market[]>();
  for (const m of ctx.markets) {
    if (!m.question_id) continue;
    const list = byQuestion.get(m.question_id) ?? [];
    list.push(m);
    byQuestion.set(m.question_id, list);
  }
  // Only a question listed on both venues can diverge: the others (nearly all of them) are left out before the
  // questions are sorted and their markets' marks read (issue 18).
  const onBoth = [...byQuestion].filter(
    ([, twins]) => twins.some((m) => m.platform === 'venue_a') && twins.some((m) => m.platform === 'venue_b'),
  );
  const out: SignalBulletin[] = [];
  for (const [questionId, twins] of onBoth.sort(([a], [b]) => a.localeCompare(b))) {
    const sides = twins
      .map((m) => sideOf(ctx, m))
      .filter((s): s is Side => s !== null)
      .sort((x, y) => x.market.market_id.localeCompare(y.market.market_id));
    let best: { a: Side; b: Side; bSame: number; gap: number } | null = null;
    for (const a of sides.filter((s) => s.market.platform === 'venue_a')) {
      for (const b of sides.filter((s) => s.market.platform === 'venue_b')) {
        const bSame = complements(a.market, b.market) ? 1 - b.price : b.price;
        const gap = Math.abs(a.price - bSame);
        if (!best || gap > best.gap + 1e-12) best = { a, b, bSame, gap };
      }
    }
    if (!best || best.gap <= DIVERGENCE.minGap + 1e-12) continue;
    const { a, b, bSame, gap } = best;
    const complement = complements(a.market, b.market);
    const spread = netSpread({
      priceA: a.price,
      priceB: b.price,
      complement,
      depthA: a.mark,
      depthB: b.mark,
      feesA: a.market.fee_terms ?? null,
      feesB: b.market.fee_terms ?? null,
      ...(opts.schedules ? { schedules: opts.schedules } : {}),
    });
    // A leg whose fee cannot be priced (fee_terms.taker_multiplier null) gives no net figure: not shown to survive.
    const { net } = spread;
    const feeA = spread.fees.venue_a;
    const feeB = spread.fees.venue_b;
    if (net === null || feeA === null || feeB === null || net <= 1e-12) continue;
    const eventA = publishableEvent(ctx, a.market);
    const eventB = publishableEvent(ctx, b.market);
    const target = eventA ?? eventB;
    if (!target) continue;
    const gradeA = a.market.rcg?.grade ?? 'ungraded';
    const gradeB = b.market.rcg?.grade ?? 'ungraded';
    const gradeText = (g: string) => (g === 'ungraded' ? 'not yet graded' : `grade ${g}`);
    const higher = a.price > bSame ? 'venue_a' : 'venue_b';
    const bullets = [
      `venue_a prices the question at ${pct(a.price)} (${gradeText(gradeA)}); venue_b at ${pct(bSame)} (${gradeText(gradeB)})${complement ? `, read from its complementary ${b.market.direction} market at ${pct(b.price)}` : ''}.`,
      `The gap is ${pts(gap)}, above the ${pts(DIVERGENCE.minGap)} divergence threshold; ${higher} is the higher. Net of both venues' taker fees at ${SPREAD_SIZE_CONTRACTS} contracts it is ${pts(net)}${depthText(spread.depth_ok)}.`,
      `Both markets share question_id ${questionId}; prices are the ${ctx.latestDate} daily marks.`,
    ];
    const stale = [a, b].filter((s) => s.stale).map((s) => s.market.platform);
    if (stale.length > 0) {
      bullets.push(
        `The ${stale.join(' and ')} quote is flagged stale (its source was last updated over 4 hours before the snapshot).`,
      );
    }
    if (gradeA !== gradeB) {
      bullets.push(`The grades differ (${gradeA} vs ${gradeB}): the venues may not resolve the question the same way.`);
    }
    out.push(
      makeBulletin({
        kind: 'cross_venue_divergence',
        categoryTag: 'CROSS_VENUE_DIVERGENCE',
        target: questionId,
        event: target,
        linkedEvents: [eventA, eventB].filter((e): e is NonNullable<typeof e> => e !== undefined),
        primary: { market: target === eventA ? a.market : b.market, price: target === eventA ? a.price : b.price },
        related: [target === eventA ? { market: b.market, price: b.price } : { market: a.market, price: a.price }],
        headline: `${pts(gap)} cross-venue gap: ${pct(a.price)} on venue_a vs ${pct(bSame)} on venue_b — ${shortQuestion(a.market.question_raw ?? target.question)}`,
        bullets,
        numbers: [
          {
            name: 'venue_a_price',
            value: round(a.price),
            unit: 'probability',
            provenance: 'direct',
            source: `${a.market.market_id}@${a.markDate}`,
          },
          {
            name: 'venue_b_price',
            value: round(b.price),
            unit: 'probability',
            provenance: 'direct',
            source: `${b.market.market_id}@${b.markDate}`,
          },
          {
            name: 'venue_b_price_same_side',
            value: round(bSame),
            unit: 'probability',
            provenance: complement ? 'derived' : 'direct',
            source: complement ? `1 - ${b.market.market_id}` : `${b.market.market_id}@${b.markDate}`,
          },
          {
            name: 'price_gap',
            value: round(gap),
            unit: 'probability_points',
            provenance: 'derived',
            source: 'abs(venue_a_price - venue_b_price_same_side)',
          },
          {
            name: 'spread_gross',
            value: round(spread.gross),
            unit: 'usd_per_contract',
            provenance: 'derived',
            source: 'abs(venue_a_price - venue_b_price_same_side)',
          },
          {
            name: 'fee_venue_a',
            value: round(feeA),
            unit: 'usd_per_contract',
            provenance: 'derived',
            source:
              "data/fees/venue_a.json: ceil_to_cent(0.07 × multiplier × C × P × (1 − P)) / C; multiplier: the series' fee_multiplier (fee_terms), else 1",
          },
          {
            name: 'fee_venue_b',
            value: round(feeB),
            unit: 'usd_per_contract',
            provenance: 'derived',
            source: 'data/fees/venue_b.json: taker_rate × P × (1 − P); 0 where the market says feesEnabled false',
          },
          {
            name: 'spread_net',
            value: round(net),
            unit: 'usd_per_contract',
            provenance: 'derived',
            source: 'spread_gross - fee_venue_a - fee_venue_b',
          },
          {
            name: 'spread_size',
            value: spread.size_contracts,
            unit: 'contracts',
            provenance: 'editorial',
            source: 'METHODOLOGY.md#spreads-net-of-fees',
          },
          {
            name: 'depth_ok',
            value: spread.depth_ok === null ? null : spread.depth_ok ? 1 : 0,
            unit: 'boolean',
            provenance: 'derived',
            source: 'top-of-book ask sizes of both legs',
          },
          {
            name: 'gap_threshold',
            value: DIVERGENCE.minGap,
            unit: 'probability_points',
            provenance: 'editorial',
            source: 'METHODOLOGY.md#signals',
          },
        ],
        sources: [marketSource(a.market), marketSource(b.market)],
        secondaryTags: [target.category, questionId, `grade_${gradeA}`, `grade_${gradeB}`],
        now: ctx.now,
        today: ctx.today,
      }),
    );
  }
  return out;
}
