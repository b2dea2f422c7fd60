/**
 * Horizons of claims: the deadline, day, instant, window or meeting a market's question is about,
 * normalized to US Eastern time (both venues state their times in ET).
 *
 * Precompiled patterns cover the forms the venues use; chrono-node is the fallback for the rest,
 * so it runs only on the few questions the patterns miss.
 *
 * Normalized forms:
 * - `by:YYYY-MM-DD`  happens at any time up to the end of that ET day ("before Jan 1, 2027",
 *   "by December 31, 2026", "in 2026" are all `by:2026-12-31`);
 * - `on:YYYY-MM-DD`  happens on that ET day;
 * - `in:YYYY-MM`     happens within that calendar month;
 * - `at:YYYY-MM-DDTHH:MM`  a value observed at that ET instant (terminal price questions);
 * - `window:YYYY-MM-DDTHH:MM/HH:MM`  an ET interval (up/down questions);
 * - `meeting:YYYY-MM`  the decision of a scheduled central-bank meeting in that month.
 */
import * as chrono from 'chrono-node';

export interface Horizon {
  value: string;
  /** Span of the horizon phrase in the text it was read from (to strip it from the claim phrase). */
  start: number;
  end: number;
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MON =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const TIME = '(\\d{1,2})(?::(\\d{2}))?\\s*(am|pm)';
const TZ = '(?:\\s*(et|est|edt|utc|gmt))?';
// The preposition is read backwards from a date match: a leading optional group would make the
// engine retry it at every character of long rules texts.
const PREP_TAIL_RE =
  /(before|by|on|until|through|till|as of|by the end of|end of|in|during|after|following|prior to)\s*(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s*)?$/i;

const WINDOW_RE = new RegExp(`${MON}\\s+(\\d{1,2}),?(?:\\s+(\\d{4}))?,?\\s*${TIME}\\s*-\\s*${TIME}${TZ}`, 'i');
const ISO_RE = /()(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?/i;
const MONTH_DAY_RE = new RegExp(
  `()${MON}\\s+(\\d{1,2})(?!\\d)(?:st|nd|rd|th)?(?:,?\\s*(\\d{4}))?(?:,?\\s*(?:at\\s*)?${TIME}${TZ})?`,
  'i',
);
const MONTH_YEAR_RE = new RegExp(`()${MON}\\s+(\\d{4})`, 'i');
const MONTH_ONLY_RE = new RegExp(`(before|by|in|during|end of)\\s+${MON}(?![a-z])(?!\\s+\\d)`, 'i');
const YEAR_RE = /(before|by|in|during|through|until|end of|by the end of|by end of)\s+(20\d{2})(?!\d)/i;
const TERM_RE =
  /(during|before the end of|before)\s+(?:(?:president\s+)?trump'?s?|his|the president'?s?)\s+(?:second\s+)?(?:term|presidency)(?:\s+ends)?/i;
const MEETING_AFTER_RE = /^\s*(?:fomc\s+|fed\s+|policy\s+)?meeting/i;
const THIS_YEAR_RE = /\b(?:this|the) year\b|\bby (?:the )?end of (?:the )?year\b/i;
const END_OF_QUARTER_RE = /\b(?:at |by )?(?:the )?end of (?:the|this) quarter\b/i;
const NEXT_MINUTES_RE = /in (?:the )?next (\d+) ?(?:mins?|minutes)/i;
const MONTH_KEY_RE = /^([a-z]{3})/;

function monthOf(s: string | undefined): number | null {
  const m = MONTH_KEY_RE.exec((s ?? '').toLowerCase());
  return m ? (MONTHS[m[1] ?? ''] ?? null) : null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** US Eastern offset from UTC in hours at a UTC instant (DST: 2nd Sunday of March to 1st Sunday of November). */
export function easternOffsetHours(utc: Date): number {
  const y = utc.getUTCFullYear();
  const march1 = new Date(Date.UTC(y, 2, 1)).getUTCDay();
  const dstStart = Date.UTC(y, 2, 1 + ((7 - march1) % 7) + 7, 7); // 2:00 EST = 07:00 UTC
  const nov1 = new Date(Date.UTC(y, 10, 1)).getUTCDay();
  const dstEnd = Date.UTC(y, 10, 1 + ((7 - nov1) % 7), 6); // 2:00 EDT = 06:00 UTC
  const t = utc.getTime();
  return t >= dstStart && t < dstEnd ? -4 : -5;
}

/** The ET calendar date and time of a UTC instant. */
export function toEastern(utc: Date): { y: number; m: number; d: number; hh: number; mm: number } {
  const shifted = new Date(utc.getTime() + easternOffsetHours(utc) * 3600_000);
  return {
    y: shifted.getUTCFullYear(),
    m: shifted.getUTCMonth() + 1,
    d: shifted.getUTCDate(),
    hh: shifted.getUTCHours(),
    mm: shifted.getUTCMinutes(),
  };
}

/** A wall-clock time written in `tz` (ET unless it says UTC/GMT), as ET. */
function inEastern(y: number, m: number, d: number, hh: number, mm: number, tz: string | undefined) {
  if (tz && /^(utc|gmt)$/i.test(tz)) return toEastern(new Date(Date.UTC(y, m - 1, d, hh, mm)));
  return { y, m, d, hh, mm };
}

function dayBefore(y: number, m: number, d: number): string {
  const t = new Date(Date.UTC(y, m - 1, d) - 86400_000);
  return ymd(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

function lastDayOf(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function hour24(h: number, ampm: string | undefined): number {
  const p = (ampm ?? '').toLowerCase();
  if (p === 'pm' && h < 12) return h + 12;
  if (p === 'am' && h === 12) return 0;
  return h;
}

/** Year for a month/day written without one: the year of the reference time, or the previous one when that lands well after it. */
function inferYear(m: number, d: number, ref: Date | null): number | null {
  if (!ref) return null;
  const r = toEastern(ref);
  const candidate = Date.UTC(r.y, m - 1, d);
  const refDay = Date.UTC(r.y, r.m - 1, r.d);
  return candidate - refDay > 45 * 86400_000 ? r.y - 1 : r.y;
}

function deadline(prep: string, y: number, m: number, d: number): string {
  const p = prep.toLowerCase();
  if (p === 'before' || p === 'prior to') return `by:${dayBefore(y, m, d)}`;
  if (p === 'on' || p === '' || p === 'in' || p === 'during') return `on:${ymd(y, m, d)}`;
  if (p === 'after' || p === 'following') return `after:${ymd(y, m, d)}`;
  return `by:${ymd(y, m, d)}`;
}

/** A date match with the preposition before it: `m[1]` set to the preposition, `m.index` moved back to it. */
function withPrep(m: RegExpExecArray | null, text: string): RegExpExecArray | null {
  if (!m) return null;
  const before = text.slice(Math.max(0, m.index - 40), m.index);
  const tail = PREP_TAIL_RE.exec(before);
  if (tail) {
    m[1] = tail[1] ?? '';
    m.index -= tail[0].length;
    m[0] = text.slice(m.index, m.index + tail[0].length + m[0].length);
  } else m[1] = '';
  return m;
}

interface Candidate extends Horizon {
  /** Pattern priority among candidates that start at the same place. */
  rank: number;
}

/**
 * Reads the first horizon in `text` (folded), resolving yearless dates against `ref` (the
 * market's close time). Returns null when no horizon is found or a date has no knowable year.
 * `useChrono` false skips the chrono-node fallback (used for long rules texts, where it is slow).
 * @example horizonOf('Will X happen before Jan 1, 2027?', null)?.value // 'by:2026-12-31'
 */
export function horizonOf(text: string, ref: Date | null, useChrono = true): Horizon | null {
  const cands: Candidate[] = [];
  const push = (value: string | null, start: number, end: number, rank: number) => {
    if (value) cands.push({ value, start, end, rank });
  };
  let m = WINDOW_RE.exec(text);
  if (m) {
    const mo = monthOf(m[1]);
    const d = Number(m[2]);
    const y = m[3] ? Number(m[3]) : mo ? inferYear(mo, d, ref) : null;
    if (mo && y) {
      const a = inEastern(y, mo, d, hour24(Number(m[4]), m[6]), Number(m[5] ?? 0), m[10]);
      const b = inEastern(y, mo, d, hour24(Number(m[7]), m[9]), Number(m[8] ?? 0), m[10]);
      push(
        `window:${ymd(a.y, a.m, a.d)}T${pad(a.hh)}:${pad(a.mm)}/${pad(b.hh)}:${pad(b.mm)}`,
        m.index,
        m.index + m[0].length,
        0,
      );
    }
  }
  m = withPrep(ISO_RE.exec(text), text);
  if (m) {
    const prep = m[1] ?? '';
    const [y, mo, d] = [Number(m[2]), Number(m[3]), Number(m[4])];
    if (m[5] !== undefined && m[7] !== undefined && m[7].toUpperCase() === 'Z') {
      const et = toEastern(new Date(Date.UTC(y, mo - 1, d, Number(m[5]), Number(m[6]))));
      // venue_a writes deadlines as the instant trading stops (10:00 ET); "before" that instant means by the previous day.
      const v =
        prep.toLowerCase() === 'before' && et.hh <= 12
          ? `by:${dayBefore(et.y, et.m, et.d)}`
          : deadline(prep || 'by', et.y, et.m, et.d);
      push(v, m.index, m.index + m[0].length, 1);
    } else {
      push(deadline(prep, y, mo, d), m.index, m.index + m[0].length, 1);
    }
  }
  m = withPrep(MONTH_DAY_RE.exec(text), text);
  if (m) {
    const prep = m[1] ?? '';
    const mo = monthOf(m[2]);
    const d = Number(m[3]);
    const y = m[4] ? Number(m[4]) : mo ? inferYear(mo, d, ref) : null;
    if (mo && y && d >= 1 && d <= 31) {
      let v: string;
      const after = text.slice(m.index + m[0].length);
      if (MEETING_AFTER_RE.test(after)) v = `meeting:${y}-${pad(mo)}`;
      else if (m[5] !== undefined && !/^(by|before|until|through|end of)$/i.test(prep)) {
        const t = inEastern(y, mo, d, hour24(Number(m[5]), m[7]), Number(m[6] ?? 0), m[8]);
        v = `at:${ymd(t.y, t.m, t.d)}T${pad(t.hh)}:${pad(t.mm)}`;
      } else v = deadline(prep, y, mo, d);
      push(
        v,
        m.index,
        m.index + m[0].length + (v.startsWith('meeting') ? (MEETING_AFTER_RE.exec(after)?.[0].length ?? 0) : 0),
        2,
      );
    }
  }
  m = withPrep(MONTH_YEAR_RE.exec(text), text);
  if (m) {
    const prep = (m[1] ?? '').toLowerCase();
    const mo = monthOf(m[2]);
    const y = Number(m[3]);
    if (mo) {
      const after = text.slice(m.index + m[0].length);
      const meet = MEETING_AFTER_RE.exec(after);
      let v: string;
      if (meet) v = `meeting:${y}-${pad(mo)}`;
      else if (prep === 'before') v = `by:${dayBefore(y, mo, 1)}`;
      else if (prep === 'by' || prep === 'end of' || prep === 'through') v = `by:${ymd(y, mo, lastDayOf(y, mo))}`;
      else v = `in:${y}-${pad(mo)}`;
      push(v, m.index, m.index + m[0].length + (meet?.[0].length ?? 0), 3);
    }
  }
  m = MONTH_ONLY_RE.exec(text);
  if (m && ref) {
    const prep = (m[1] ?? '').toLowerCase();
    const mo = monthOf(m[2]);
    const y = mo ? inferYear(mo, 1, ref) : null;
    if (mo && y) {
      const v =
        prep === 'before'
          ? `by:${dayBefore(y, mo, 1)}`
          : prep === 'by' || prep === 'end of'
            ? `by:${ymd(y, mo, lastDayOf(y, mo))}`
            : `in:${y}-${pad(mo)}`;
      push(v, m.index, m.index + m[0].length, 4);
    }
  }
  m = YEAR_RE.exec(text);
  if (m) {
    const prep = (m[1] ?? '').toLowerCase();
    const y = Number(m[2]);
    push(prep === 'before' ? `by:${y - 1}-12-31` : `by:${y}-12-31`, m.index, m.index + m[0].length, 5);
  }
  m = TERM_RE.exec(text);
  if (m) push('by:2029-01-19', m.index, m.index + m[0].length, 6);
  m = END_OF_QUARTER_RE.exec(text);
  if (m && ref) {
    const r = toEastern(ref);
    const qEnd = Math.ceil(r.m / 3) * 3;
    push(`by:${ymd(r.y, qEnd, lastDayOf(r.y, qEnd))}`, m.index, m.index + m[0].length, 6);
  }
  m = THIS_YEAR_RE.exec(text);
  if (m && ref) push(`by:${toEastern(ref).y}-12-31`, m.index, m.index + m[0].length, 6);
  m = NEXT_MINUTES_RE.exec(text);
  if (m && ref) {
    const et = toEastern(ref);
    const startMin = et.hh * 60 + et.mm - Number(m[1]);
    if (startMin >= 0) {
      push(
        `window:${ymd(et.y, et.m, et.d)}T${pad(Math.floor(startMin / 60))}:${pad(startMin % 60)}/${pad(et.hh)}:${pad(et.mm)}`,
        m.index,
        m.index + m[0].length,
        7,
      );
    }
  }
  if (cands.length === 0) return useChrono ? chronoHorizon(text, ref) : null;
  // The leftmost phrase wins; among phrases overlapping it, the most specific pattern (lowest rank).
  cands.sort((a, b) => a.start - b.start || a.rank - b.rank);
  const leftmost = cands[0];
  if (!leftmost) return null;
  const best = cands
    .filter((c) => c.start < leftmost.end && c.end > leftmost.start)
    .reduce((x, y) => (y.rank < x.rank ? y : x), leftmost);
  return { value: best.value, start: Math.min(best.start, leftmost.start), end: Math.max(best.end, leftmost.end) };
}

// The precompiled patterns read every numeric date form; chrono-node is only asked about relative wording.
const CHRONO_HINT_RE =
  /\b(today|tomorrow|tonight|next week|this week|friday|monday|tuesday|wednesday|thursday|saturday|sunday)\b/i;
/\d|today|tomorrow|tonight|week|month|year|friday|monday|tuesday|wednesday|thursday|saturday|sunday/i;
const PREP_BEFORE_RE = /(before|by|until|through|on|in)\s*$/i;

/** Fallback for date forms the patterns do not know ("by Friday", "tomorrow"): only with a reference time. */
function chronoHorizon(text: string, ref: Date | null): Horizon | null {
  if (!ref || !CHRONO_HINT_RE.test(text)) return null;
  const results = chrono.parse(text, ref, { forwardDate: true });
  for (const r of results) {
    if (!r.start.isCertain('day') && !r.start.isCertain('weekday')) continue;
    const when = r.start.date();
    const et = toEastern(when);
    const prep = PREP_BEFORE_RE.exec(text.slice(0, r.index))?.[1] ?? 'by';
    const start = r.index - (PREP_BEFORE_RE.exec(text.slice(0, r.index))?.[0].length ?? 0);
    return { value: deadline(prep, et.y, et.m, et.d), start, end: r.index + r.text.length };
  }
  return null;
}
