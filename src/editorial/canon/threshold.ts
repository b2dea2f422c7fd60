/**
 * Thresholds of claims: venue_a structured strike fields first, then the question text, with
 * units normalized (%, bps, $; k/M/B/T multiplied out) and venue_a's "one cent below" strikes
 * snapped to the round number they stand for.
 */
import type { VenueFacts } from '../../domain/index.ts';
import { numText, parseAmount } from './text.ts';

export type ThresholdOp = 'gt' | 'ge' | 'lt' | 'le' | 'between';

const NUM =
  '\\$?\\s?(\\d[\\d,]*(?:\\.\\d+)?)\\s?(bps|basis points|%|thousand|million|billion|trillion|mn|bn|tn|k|m|b|t)?(?![a-z])';
const ABOVE_RE = new RegExp(
  `(above|over|greater than|more than|higher than|exceeds?|at least|>=?|↑)\\s*${NUM}|${NUM}\\s*(\\+|or more|or higher|or above|or greater)`,
  'i',
);
const BELOW_RE = new RegExp(
  `(below|under|less than|lower than|fewer than|at most|<=?|↓)\\s*${NUM}|${NUM}\\s*(or less|or fewer|or lower|or below)`,
  'i',
);
const BETWEEN_RE = new RegExp(`between\\s*${NUM}\\s*(?:and|-)\\s*${NUM}|${NUM}\\s*-\\s*${NUM}(?![\\d:])`, 'i');
export const TOUCH_NUM_RE = new RegExp(
  `(?:reach|reaches|hit|hits|climb to|rise to|surpass|dip to|dips to|fall to|falls to|drop to|drops to|sink to|crash to)\\s*${NUM}`,
  'i',
);
export function unitOf(scale: string | undefined, dollar: boolean, metricUnit: string | undefined): string | null {
  const s = (scale ?? '').toLowerCase();
  if (s === '%') return '%';
  if (s === 'bps' || s === 'basis points') return 'bps';
  if (dollar) return '$';
  return metricUnit ?? null;
}

export interface Threshold {
  op: ThresholdOp;
  value: number;
  cap: number | null;
  unit: string | null;
  start: number;
  end: number;
}

export function amount(
  m: RegExpExecArray,
  numIdx: number,
): { value: number | null; scale: string | undefined; dollar: boolean } {
  const raw = m[numIdx];
  const scale = m[numIdx + 1];
  const isScaleWord = scale !== undefined && !['%', 'bps', 'basis points'].includes(scale.toLowerCase());
  return {
    value: raw === undefined ? null : parseAmount(raw, isScaleWord ? scale : undefined),
    scale,
    dollar: m[0].includes('$'),
  };
}

/** Text threshold: "above $124,000", "250k or more", "<$1B", "between 3% and 4%", "$500-750b". */
export function textThreshold(text: string, metricUnit: string | undefined): Threshold | null {
  const found: Threshold[] = [];
  let m = BETWEEN_RE.exec(text);
  if (m) {
    const lo = m[1] !== undefined ? amount(m, 1) : amount(m, 5);
    const hi = m[1] !== undefined ? amount(m, 3) : amount(m, 7);
    if (lo.value !== null && hi.value !== null) {
      // "$500-750b": the scale written once applies to both ends.
      const loV =
        m[1] === undefined && m[6] === undefined && m[8] ? (parseAmount(m[5] ?? '', m[8]) ?? lo.value) : lo.value;
      found.push({
        op: 'between',
        value: loV,
        cap: hi.value,
        unit: unitOf(hi.scale ?? lo.scale, hi.dollar || lo.dollar, metricUnit),
        start: m.index,
        end: m.index + m[0].length,
      });
    }
  }
  for (const [re, opOf] of [
    [
      ABOVE_RE,
      (w: string) => (/least|>=|\+|more|higher|above|greater/i.test(w) && !/^(above|over|>)$/i.test(w) ? 'ge' : 'gt'),
    ],
    [BELOW_RE, (w: string) => (/most|<=|or less|or fewer|or lower|or below/i.test(w) ? 'le' : 'lt')],
  ] as const) {
    m = re.exec(text);
    if (!m) continue;
    const prefixWord = m[1];
    const a = prefixWord !== undefined ? amount(m, 2) : amount(m, 4);
    const word = prefixWord ?? m[6] ?? '';
    if (a.value === null) continue;
    found.push({
      op: opOf(word) as ThresholdOp,
      value: a.value,
      cap: null,
      unit: unitOf(a.scale, a.dollar, metricUnit),
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  found.sort((a, b) => a.start - b.start);
  return found[0] ?? null;
}

function decimals(n: number): number {
  const t = numText(n);
  const dot = t.indexOf('.');
  return dot < 0 ? 0 : t.length - dot - 1;
}

/** 49999.99 → 50000, 0.6249 → 0.625: a strike one last-digit below a rounder number. */
export function snapStrike(v: number): number {
  const d = decimals(v);
  const t = numText(v);
  if (!(d >= 2 && t.endsWith('99')) && !(d >= 4 && t.endsWith('9'))) return v;
  const up = Number((v + 10 ** -d).toFixed(d));
  return decimals(up) < d ? up : v;
}

export function structuredThreshold(facts: VenueFacts): { op: ThresholdOp; value: number; cap: number | null } | null {
  const st = facts.strike_type;
  const floor = facts.floor_strike;
  const cap = facts.cap_strike;
  if (st === 'greater' && floor !== null) return { op: 'gt', value: floor, cap: null };
  if (st === 'greater_or_equal' && floor !== null) return { op: 'ge', value: floor, cap: null };
  if (st === 'less' && cap !== null) return { op: 'lt', value: cap, cap: null };
  if (st === 'less_or_equal' && cap !== null) return { op: 'le', value: cap, cap: null };
  if (st === 'between' && floor !== null && cap !== null) return { op: 'between', value: floor, cap };
  return null;
}
