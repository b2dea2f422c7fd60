/**
 * The `q` matcher served before issue 17, kept as the baseline the search query set measures against
 * (test/serve/search-quality.test.ts): whitespace-split, first 6 tokens, each a case-insensitive substring of
 * the event's question and tags (`EventEntry.searchText`). Not used to serve.
 */
const MAX_Q_TOKENS = 6;

/** Whether the old token-AND search matched an event's search text. */
export function baselineMatches(searchText: string, q: string): boolean {
  const tokens = q
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .slice(0, MAX_Q_TOKENS)
    .map((t) => t.toLowerCase());
  return tokens.every((t) => searchText.includes(t));
}
