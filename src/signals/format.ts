/**
 * Number formatting for bulletin text. Written by hand (no Intl, no toLocaleString) so the same
 * bulletin reads the same on every host: templates must be deterministic.
 */

/** 0.625 → `62.5%`; the extremes read `<0.1%` and `>99.9%` rather than a rounded 0 or 100. */
export function pct(p: number): string {
  if (p > 0 && p < 0.0005) return '<0.1%';
  if (p < 1 && p > 0.9995) return '>99.9%';
  return `${(p * 100).toFixed(1)}%`;
}

/** 0.075 → `7.5 pts` (probability points). */
export function pts(delta: number): string {
  return `${(Math.abs(delta) * 100).toFixed(1)} pts`;
}

/** Signed probability-point change: +0.12 → `+12.0 pts`. */
export function signedPts(delta: number): string {
  return `${delta >= 0 ? '+' : '−'}${pts(delta)}`;
}

/** 1234567.8 → `$1,234,568`; below 100, two decimals: 0.4567 → `$0.46`. */
export function usd(value: number): string {
  if (Math.abs(value) < 100) return `$${value.toFixed(2)}`;
  const whole = Math.round(value).toString();
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** 3.456 → `3.46×`. */
export function mult(x: number): string {
  return `${x.toFixed(2)}×`;
}

/** Rounds to `digits` decimals, for the numbers[] values (stable, JSON-friendly). */
export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Lower-case, hyphen-separated slug fragment of at most `max` characters. */
export function slugPart(text: string, max = 60): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
}

/** A question shortened for a headline. */
export function shortQuestion(text: string | null, max = 90): string {
  const t = (text ?? '').trim().replace(/\s+/g, ' ');
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}
