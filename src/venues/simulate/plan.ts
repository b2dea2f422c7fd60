/**
 * Plans the universe: twin groups first (they claim their slots on both venues), then each
 * venue's remaining events drawn from the family registry by weight, then market counts trimmed
 * or grown to the target exactly. Pure and seeded: same seed, same plan.
 */
import type { Venue } from '../../domain/index.ts';
import type { FamilyCtx, World } from './builders.ts';
import { clampProb } from './builders.ts';
import { COIN_IDS, COINS } from './families/crypto-coins.ts';
import { FAMILIES, type FamilyDef } from './families/index.ts';
import type { CoinId, DraftPair, EventDraft } from './model.ts';
import { hash32, Rng } from './prng.ts';
import {
  choiceTwin,
  cryptoTwin,
  happeningTwin,
  indicatorTwin,
  type TwinCtx,
  type TwinGroup,
  twinFamilyId,
  twinReservesNextSlot,
} from './twins.ts';

/** Full-scale targets (issue 4): about 3,860 events and 39,200 markets, about half per venue. */
export const TARGETS = {
  venue_a: { events: 1900, markets: 18_700 },
  venue_b: { events: 1960, markets: 20_500 },
  twinShareOfEvents: 0.06,
} as const;

export interface UniversePlan {
  world: World;
  events: EventDraft[];
  pairs: DraftPair[];
}

const PARITY: Record<Venue, number> = { venue_a: 0, venue_b: 1 };

/**
 * The first twin groups, fixed so that even a small universe holds every label and trap kind
 * (indicator picks index INDICATOR_TWINS, happening picks HAPPENING_TWINS, choice picks CHOICE_TWINS).
 */
const SCHEDULE: ReadonlyArray<readonly [string, number]> = [
  ['crypto_same', 0],
  ['indicator', 6],
  ['happening', 0],
  ['crypto_window', 0],
  ['indicator', 7],
  ['choice', 0],
  ['crypto_threshold', 0],
  ['happening', 6],
  ['indicator', 0],
  ['crypto_deadline', 0],
  ['happening', 8],
  ['indicator', 10],
  ['indicator', 8],
  ['choice', 2],
];

/** Builds the whole draft universe for a seed, as-of day and scale (1 = full size). */
export function planUniverse(seed: number, asOfMs: number, scale: number): UniversePlan {
  const root = new Rng(`pmref-sim:${seed}`);
  const spot = {} as Record<CoinId, number>;
  const spotRng = root.fork('spot');
  for (const c of COIN_IDS) spot[c] = roundSig(COINS[c].base * Math.exp(0.08 * spotRng.normal()), 6);
  const world: World = { spot };
  const counters = new Map<string, number>();
  const nextSeq = (venue: Venue, family: string): number => {
    const k = `${venue}/${family}`;
    const n = counters.get(k) ?? 0;
    counters.set(k, n + 1);
    return n;
  };
  const ctxFor = (venue: Venue, family: string, seq: number, size: number, slot: number, tag = ''): FamilyCtx => ({
    rng: root.fork(`${venue}/${family}/${seq}${tag}`),
    venue,
    asOfMs,
    size,
    seq,
    slot,
    world,
  });

  // 1. Twin groups.
  const groups: TwinGroup[] = [];
  const twinRng = root.fork('twins');
  const nGroups = Math.max(
    4,
    Math.round(((TARGETS.venue_a.events + TARGETS.venue_b.events) * scale * TARGETS.twinShareOfEvents) / 2),
  );
  for (let g = 0; g < nGroups; g++) {
    const fixed = SCHEDULE[g];
    const kind =
      fixed?.[0] ??
      twinRng.weighted<string>([
        ['crypto_same', 14],
        ['crypto_window', 4],
        ['crypto_deadline', 4],
        ['crypto_threshold', 4],
        ['indicator', 30],
        ['happening', 28],
        ['choice', 16],
      ]);
    const pick = fixed?.[1] ?? twinRng.int(0, 1000);
    const size = twinRng.int(6, 14);
    const familyId = twinFamilyId(kind.startsWith('crypto') ? 'crypto' : kind, pick);
    const seqA = nextSeq('venue_a', familyId);
    if (twinReservesNextSlot(kind, pick)) nextSeq('venue_a', familyId);
    const t: TwinCtx = {
      a: ctxFor('venue_a', familyId, seqA, size, 2 * seqA, '/twin'),
      b: ctxFor('venue_b', familyId, seqA, size, 2 * seqA, '/twin'),
    };
    let group: TwinGroup;
    if (kind.startsWith('crypto_'))
      group = cryptoTwin(t, kind.slice(7) as 'same' | 'window' | 'deadline' | 'threshold');
    else if (kind === 'indicator') group = indicatorTwin(t, pick);
    else if (kind === 'happening') group = happeningTwin(t, pick);
    else group = choiceTwin(t, pick);
    if (group.pairs.length > 0) groups.push(group);
  }
  const pairs = groups.flatMap((g) => g.pairs);
  linkPairs(pairs, root.fork('links'));
  const twinEvents = groups.flatMap((g) => g.events);
  const twinSet = new Set(twinEvents);

  // 2. Each venue's other events.
  const events: EventDraft[] = [...twinEvents];
  for (const venue of ['venue_a', 'venue_b'] as const) {
    const target = TARGETS[venue];
    const eventTarget = Math.round(target.events * scale);
    const marketTarget = Math.round(target.markets * scale);
    const mine = twinEvents.filter((e) => e.venue === venue);
    const fams = FAMILIES.filter((f) => (venue === 'venue_a' ? f.weightA : f.weightB) > 0);
    const famRng = root.fork(`${venue}/families`);
    const planned: Array<{ fam: FamilyDef; size: number }> = [];
    const used = new Map<string, number>();
    for (const f of fams) used.set(f.id, counters.get(`${venue}/${f.id}`) ?? 0);
    for (let i = mine.length; i < eventTarget; i++) {
      const open = fams.filter((f) => (used.get(f.id) ?? 0) < f.capacity);
      if (open.length === 0) throw new Error(`the family registry cannot hold ${eventTarget} ${venue} events`);
      const fam = famRng.weighted(open.map((f) => [f, venue === 'venue_a' ? f.weightA : f.weightB] as const));
      used.set(fam.id, (used.get(fam.id) ?? 0) + 1);
      planned.push({ fam, size: fam.size(famRng) });
    }
    const twinMarkets = mine.reduce((s, e) => s + e.markets.length, 0);
    const sized = planned.reduce((s, p) => s + p.size, 0);
    const factor = Math.max(0.3, ((marketTarget - twinMarkets) / Math.max(1, sized)) * 1.02);
    const built: Array<{ fam: FamilyDef; seq: number; size: number; draft: EventDraft }> = [];
    for (const p of planned) {
      const size = p.size === 1 ? 1 : Math.max(2, Math.round(p.size * factor));
      const seq = nextSeq(venue, p.fam.id);
      const draft = p.fam.build(ctxFor(venue, p.fam.id, seq, size, 2 * seq + PARITY[venue]));
      built.push({ fam: p.fam, seq, size, draft });
    }
    // 3. Hit the market target exactly: grow ladders, or trim them from the ends.
    let total = twinMarkets + built.reduce((s, b) => s + b.draft.markets.length, 0);
    const ladders = built.filter((b) => b.draft.bundle === 'strike_ladder' && b.draft.markets.length >= 4);
    let guard = 0;
    while (total < marketTarget && ladders.length > 0 && guard++ < 50_000) {
      const b = ladders[guard % ladders.length];
      if (!b) break;
      const before = b.draft.markets.length;
      b.size += 1;
      b.draft = b.fam.build(ctxFor(venue, b.fam.id, b.seq, b.size, 2 * b.seq + PARITY[venue]));
      total += b.draft.markets.length - before;
    }
    const trimmable = built.filter(
      (b) => b.draft.bundle === 'strike_ladder' || b.draft.bundle === 'date_ladder' || b.draft.bundle === 'categorical',
    );
    guard = 0;
    while (total > marketTarget && guard++ < 200_000) {
      const b = trimmable[guard % Math.max(1, trimmable.length)];
      if (!b) break;
      if (b.draft.markets.length > 2) {
        b.draft.markets.pop();
        total--;
      }
    }
    for (const b of built) if (!twinSet.has(b.draft)) events.push(b.draft);
  }
  // A stable, shuffled-looking order (venues do not list twins together).
  events.sort(
    (x, y) =>
      hash32(x.eventTicker + x.venue) - hash32(y.eventTicker + y.venue) || (x.eventTicker < y.eventTicker ? -1 : 1),
  );
  return { world, events, pairs };
}

/** Twins price one reality: venue_b follows venue_a with a 2–4 point gap, a few much wider (divergence). */
function linkPairs(pairs: DraftPair[], rng: Rng): void {
  for (const p of pairs) {
    if (p.label === 'different') continue;
    const wide = rng.chance(0.05);
    const gap = (wide ? rng.float(0.12, 0.22) : rng.float(0.005, 0.04)) * (rng.chance(0.5) ? 1 : -1);
    const mode = p.label === 'same' ? 'same' : 'complement';
    const base = mode === 'same' ? p.a.prob : 1 - p.a.prob;
    p.b.prob = clampProb(base + gap);
    p.b.link = { to: p.a, mode, gap };
  }
}

function roundSig(x: number, digits: number): number {
  if (x === 0) return 0;
  const p = 10 ** (digits - Math.ceil(Math.log10(Math.abs(x))));
  return Math.round(x * p) / p;
}
