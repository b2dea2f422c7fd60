/** Small readers for loosely typed venue fields (strings that hold numbers, placeholder dates…). */

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** venue_a nests markets with `0001-01-01T00:00:00Z` in created/updated times: "unknown", not year 1. */
const PLACEHOLDER_DATE = /^0001-01-01/;

/**
 * A venue timestamp as canonical ISO 8601 UTC, or null for empty, placeholder or unreadable values.
 * Accepts ISO strings (any fraction length), `2026-02-06 07:06:43+00` (Gamma closedTime), epoch seconds/ms.
 */
export function isoOrNull(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const ms = v < 1e11 ? v * 1000 : v;
    return new Date(ms).toISOString();
  }
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (s === '' || PLACEHOLDER_DATE.test(s)) return null;
  let norm = s.replace(' ', 'T');
  if (/[+-]\d\d$/.test(norm)) norm = `${norm}:00`;
  const ms = Date.parse(norm);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString();
}

/** A number from a number or a numeric string (`"0.0100"`, `"60191.00"`); null otherwise. */
export function numOrNull(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A trimmed non-empty string, or null. */
export function strOrNull(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s === '' ? null : s;
}

/** Native ids arrive as strings or numbers (Gamma ids); both become strings. */
export function idOrNull(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return strOrNull(v);
}

export type DecodedList = { ok: true; value: unknown[] | null } | { ok: false; error: string };

/**
 * Gamma sends `outcomes`, `outcomePrices`, `clobTokenIds`, `umaResolutionStatuses` as JSON text
 * (`"[\"Yes\", \"No\"]"`); arrays are tolerated too. Missing → `{ok: true, value: null}`.
 */
export function decodeJsonList(v: unknown): DecodedList {
  if (v === undefined || v === null || v === '') return { ok: true, value: null };
  if (Array.isArray(v)) return { ok: true, value: v };
  if (typeof v !== 'string') return { ok: false, error: `expected a JSON list, got ${typeof v}` };
  try {
    const parsed: unknown = JSON.parse(v);
    if (Array.isArray(parsed)) return { ok: true, value: parsed };
    return { ok: false, error: 'JSON text is not a list' };
  } catch {
    return { ok: false, error: `not JSON: ${JSON.stringify(v.slice(0, 30))}` };
  }
}

/** Lowercase ASCII slug of a title. */
export function slugify(text: string, max = 80): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s.slice(0, max).replace(/-+$/, '');
}

export function bump(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** Rounds money-like values to cents of a cent so float noise does not leak into marks. */
export function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
