/**
 * Lenient parameter rules (served-shapes §3, §6, §7, §8): out-of-range numbers clamp and say so in a notice;
 * nothing here rejects a request. Values arrive as query strings (REST) or numbers (MCP tool arguments).
 */
export type Raw = string | number | undefined | null;

export interface Clamped {
  value: number;
  notice?: string;
}

function toNumber(raw: Raw): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const n = typeof raw === 'number' ? raw : Number(raw);
  return Number.isFinite(n) ? n : null;
}

/**
 * An integer parameter: missing, non-numeric or 0 becomes `fallback`; otherwise floored and clamped to
 * [min, max], with a notice naming the bound when it clamped.
 */
export function clampInt(name: string, raw: Raw, fallback: number, min: number, max: number): Clamped {
  const n = toNumber(raw);
  if (n === null) {
    return raw === undefined || raw === null || raw === ''
      ? { value: fallback }
      : { value: fallback, notice: `${name} "${String(raw)}" is not a number; used the default ${fallback}.` };
  }
  const int = Math.floor(n);
  if (int === 0 && fallback !== 0) return { value: fallback };
  if (int > max) return { value: max, notice: `${name} ${int} is over the maximum ${max}; capped at ${max}.` };
  if (int < min) return { value: min, notice: `${name} ${int} is under the minimum ${min}; raised to ${min}.` };
  return { value: int };
}

/** `offset`: floored at 0, no maximum. */
export function clampOffset(raw: Raw): Clamped {
  const n = toNumber(raw);
  if (n === null) {
    return raw === undefined || raw === null || raw === ''
      ? { value: 0 }
      : { value: 0, notice: `offset "${String(raw)}" is not a number; used 0.` };
  }
  if (n < 0) return { value: 0, notice: `offset ${n} is negative; used 0.` };
  return { value: Math.floor(n) };
}

/** `min_mult` (served-shapes §6): non-numeric or 0 becomes 2; below 1 becomes 1. */
export function clampMinMult(raw: Raw): Clamped {
  const n = toNumber(raw);
  if (n === null || n === 0) {
    return raw === undefined || raw === null || raw === '' || n === 0
      ? { value: 2 }
      : { value: 2, notice: `min_mult "${String(raw)}" is not a number; used the default 2.` };
  }
  if (n < 1) return { value: 1, notice: `min_mult ${n} is under the minimum 1; raised to 1.` };
  return { value: n };
}

/** A string parameter as given (first value when repeated), or undefined. */
export function str(raw: unknown): string | undefined {
  if (Array.isArray(raw)) return str(raw[0]);
  if (raw === undefined || raw === null) return undefined;
  const s = String(raw);
  return s === '' ? undefined : s;
}
