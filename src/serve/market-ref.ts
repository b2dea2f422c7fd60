/**
 * Market id resolution (served-shapes §5): service id, then venue-native id (ticker or condition id), then, for
 * a URL, its last two non-empty path segments, last first. A URL is only parsed, never fetched (no SSRF).
 * pmref goes further: venue_a URLs carry lowercase tickers, so a segment that misses exactly is retried
 * uppercased, and a bare ticker is too.
 */

/** Candidate native ids of a reference, in the order they are tried after the exact lookups. */
export function refCandidates(ref: string): string[] {
  const out: string[] = [];
  if (/[/?#]/.test(ref)) {
    const path = ref.split(/[?#]/, 1)[0] ?? '';
    const segments = path
      .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
      .split('/')
      .filter((s) => s.length > 0)
      .map((s) => safeDecode(s));
    for (const seg of segments.slice(-2).reverse()) out.push(seg, seg.toUpperCase());
  } else {
    out.push(ref.toUpperCase());
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Resolves a market reference against the id maps; undefined when nothing matches. */
export function resolveMarketRef<T>(
  ref: string,
  byId: ReadonlyMap<string, T>,
  byNative: ReadonlyMap<string, T>,
): T | undefined {
  const trimmed = ref.trim();
  const direct = byId.get(trimmed) ?? byNative.get(trimmed);
  if (direct !== undefined) return direct;
  for (const candidate of refCandidates(trimmed)) {
    const hit = byId.get(candidate) ?? byNative.get(candidate);
    if (hit !== undefined) return hit;
  }
  return undefined;
}
