/**
 * Dates and numbers written the way each venue writes them. Everything is computed from epoch
 * milliseconds by hand (no Intl, no toLocaleString) so that output never depends on the host locale.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `YYYY-MM-DD` → epoch ms at 00:00 UTC. Throws on anything else. */
export function parseDay(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new Error(`expected YYYY-MM-DD, got '${day}'`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(ms) || isoDay(ms) !== day) throw new Error(`not a calendar date: '${day}'`);
  return ms;
}

/** `YYYY-MM-DD` of an instant (UTC). */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `2026-03-05T22:00:00Z` (whole seconds, as venue_a writes close times). */
export function isoZ(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** `2026-03-05T22:00:00.123456Z`-style microsecond stamps, as venue updated-times look. */
export function isoMicro(ms: number, micros: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/** Full English month name of an instant (UTC). */
export function monthName(ms: number): string {
  return MONTHS[new Date(ms).getUTCMonth()] ?? 'January';
}

/** `Mar 5, 2026` (venue_a rules). */
export function shortDate(ms: number): string {
  const d = new Date(ms);
  return `${monthName(ms).slice(0, 3)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** `March 5, 2026` (venue_b descriptions). */
export function longDate(ms: number): string {
  const d = new Date(ms);
  return `${monthName(ms)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** `March 5` (venue_b questions). */
export function monthDay(ms: number): string {
  return `${monthName(ms)} ${new Date(ms).getUTCDate()}`;
}

/** `26MAR05` (venue_a event tickers). */
export function tickerDate(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear()).slice(2)}${monthName(ms).slice(0, 3).toUpperCase()}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** `26MAR` (venue_a monthly event tickers). */
export function tickerMonth(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear()).slice(2)}${monthName(ms).slice(0, 3).toUpperCase()}`;
}

/** Calendar year of an instant (UTC). */
export function year(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

/** Is US Eastern time on daylight saving at this instant (2nd Sunday of March to 1st Sunday of November)? */
export function isEasternDst(ms: number): boolean {
  const y = new Date(ms).getUTCFullYear();
  const mar1 = new Date(Date.UTC(y, 2, 1)).getUTCDay();
  const start = Date.UTC(y, 2, 1 + ((7 - mar1) % 7) + 7, 7);
  const nov1 = new Date(Date.UTC(y, 10, 1)).getUTCDay();
  const end = Date.UTC(y, 10, 1 + ((7 - nov1) % 7), 6);
  return ms >= start && ms < end;
}

/** The UTC instant of `hourEt`:00 US Eastern on the calendar day of `dayMs`. */
export function easternTime(dayMs: number, hourEt: number): number {
  const guess = dayMs - (dayMs % DAY_MS) + (hourEt + 5) * HOUR_MS;
  return isEasternDst(guess) ? guess - HOUR_MS : guess;
}

/** `EST` / `EDT` for that instant. */
export function easternZone(ms: number): string {
  return isEasternDst(ms) ? 'EDT' : 'EST';
}

/** `5PM` / `12PM` style hour label (venue_b). */
export function hourLabel(hourEt: number): string {
  const h = hourEt % 12 === 0 ? 12 : hourEt % 12;
  return `${h}${hourEt < 12 ? 'AM' : 'PM'}`;
}

/** `5:00 PM` style hour label (venue_a). */
export function clockLabel(hourEt: number): string {
  const h = hourEt % 12 === 0 ? 12 : hourEt % 12;
  return `${h}:00 ${hourEt < 12 ? 'AM' : 'PM'}`;
}

/** Last calendar day of the month containing `ms`, at 00:00 UTC. */
export function endOfMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0);
}

/** First day of the month `k` months after the month of `ms`. */
export function addMonths(ms: number, k: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1);
}

/** `96,000` — thousands separators, up to `decimals` places, trailing zeros kept. */
export function groupDigits(value: number, decimals = 0): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole = '0', frac] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/** `$96,000` or `$2.35` depending on magnitude. */
export function money(value: number): string {
  if (value >= 1000) return `$${groupDigits(value, Number.isInteger(value) ? 0 : 2)}`;
  if (value >= 10) return `$${Number.isInteger(value) ? String(value) : value.toFixed(2)}`;
  return `$${value < 1 ? value.toFixed(4).replace(/0+$/, '').replace(/\.$/, '') : value.toFixed(2)}`;
}

/** Fixed-decimal rendering with trailing zeros trimmed: 4.250 → `4.25`, 3 → `3`. */
export function trimNum(value: number, decimals = 4): string {
  return value
    .toFixed(decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** URL/slug form of a title: lower-case ASCII words joined by hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[$%,.'’?:()]/g, '')
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/g, '');
}
