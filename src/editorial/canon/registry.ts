/**
 * The entity registry (data/registry/entities.json): central banks and policy rates, statistics
 * series, indices, coins, companies and tickers, countries, people, offices, elections and
 * competitions. Claim keys name subjects by registry id, so "Fed", "FOMC" and "Federal Reserve"
 * are one subject and "Ali Khamenei" and "Mojtaba Khamenei" are two.
 *
 * Validated with zod at module load: a bad registry stops the process with the entry named.
 */
import { z } from 'zod';
import registryJson from '../../../data/registry/entities.json' with { type: 'json' };
import { foldText } from './text.ts';

export const ENTITY_TYPES = [
  'central_bank',
  'policy_rate',
  'statistic',
  'index',
  'commodity',
  'coin',
  'company',
  'country',
  'organization',
  'party',
  'person',
  'office',
  'election',
  'competition',
  'price_source',
  'data_source',
] as const;

const EntitySchema = z
  .object({
    id: z.string().regex(/^[a-z_]+:[a-z0-9-]+$/),
    type: z.enum(ENTITY_TYPES),
    name: z.string().min(1),
    aliases: z.array(z.string().min(1)),
    of: z.string().optional(),
    country: z.string().optional(),
    ticker: z.string().optional(),
    source: z.string().optional(),
    continuous: z.boolean().optional(),
    unit: z.string().optional(),
    date: z.iso.date().optional(),
  })
  .strict();
export type Entity = z.infer<typeof EntitySchema>;

const RegistrySchema = z.object({ version: z.literal(1), entities: z.array(z.unknown()) }).strict();

/** A found mention: where it is in the folded text and which entity (or ambiguity) it names. */
export interface Mention {
  start: number;
  end: number;
  /** Entity id, or `ambiguous:<surname>` when a surname names several registry people. */
  id: string;
  text: string;
}

export interface Registry {
  readonly byId: ReadonlyMap<string, Entity>;
  /** Every mention in `text` (already folded with `foldText`), leftmost-longest, non-overlapping. */
  mentions(text: string): Mention[];
  /** Registry people whose surname is `surname` (lower case), for disambiguation. */
  peopleWithSurname(surname: string): readonly Entity[];
}

const WORD_RE = /[\p{L}\p{N}]+/gu;

function surnameOf(name: string): string | null {
  const parts = foldText(name)
    .replace(/\b(jr|sr|ii|iii)\.?$/i, '')
    .trim()
    .split(/\s+/);
  return parts.length >= 2 ? (parts[parts.length - 1] ?? '').toLowerCase() : null;
}

/**
 * Builds the registry from its JSON. Throws naming the bad entry.
 * Aliases of three characters or fewer ("US", "Fed", "BTC", "Xi") match case-sensitively so
 * that the pronoun "us" never becomes a country; longer aliases match case-insensitively.
 * A person's surname alone matches only when the registry lists it as an alias; a surname
 * shared by several listed people ("Khamenei") becomes an `ambiguous:` mention instead.
 */
export function buildRegistry(json: unknown): Registry {
  const top = RegistrySchema.parse(json);
  const byId = new Map<string, Entity>();
  const aliasTo = new Map<string, string>(); // folded alias (lower case unless short) -> id
  top.entities.forEach((raw, i) => {
    const parsed = EntitySchema.safeParse(raw);
    const label = (raw as { id?: unknown })?.id;
    if (!parsed.success) {
      throw new Error(`entity registry: entry #${i} (${String(label)}) is invalid: ${parsed.error.message}`);
    }
    const e = parsed.data;
    if (byId.has(e.id)) throw new Error(`entity registry: entry #${i} duplicates id ${e.id}`);
    byId.set(e.id, e);
  });
  const surnames = new Map<string, Entity[]>();
  for (const e of byId.values()) {
    if (e.type !== 'person') continue;
    const s = surnameOf(e.name);
    if (s) surnames.set(s, [...(surnames.get(s) ?? []), e]);
  }
  for (const e of byId.values()) {
    for (const alias of [e.name, ...e.aliases]) {
      const folded = foldText(alias);
      const key = folded.length <= 3 ? folded : folded.toLowerCase();
      const prior = aliasTo.get(key);
      if (prior && prior !== e.id) {
        // The same alias on two entries: the explicit alias wins over the entry name, else first wins.
        if (e.aliases.includes(alias)) aliasTo.set(key, e.id);
        continue;
      }
      aliasTo.set(key, e.id);
    }
  }
  // Surnames shared by several listed people and not claimed explicitly are ambiguous.
  for (const [s, people] of surnames) {
    if (people.length > 1 && !aliasTo.has(s)) aliasTo.set(s, `ambiguous:${s}`);
  }
  // Mentions are found by walking word n-grams against the alias map (punctuation-insensitive,
  // so "S&P 500" and "S P 500" match alike): far cheaper than one regex over 600 aliases.
  const shortKeys = new Map<string, string>();
  const longKeys = new Map<string, string>();
  const prefixes = new Set<string>();
  let maxWords = 1;
  for (const [alias, id] of aliasTo) {
    const words = alias.match(WORD_RE) ?? [];
    if (words.length === 0) continue;
    const key = words.join(' ');
    if (key.length <= 3) shortKeys.set(key, id);
    else longKeys.set(key.toLowerCase(), id);
    maxWords = Math.max(maxWords, words.length);
    for (let n = 1; n < words.length; n++) prefixes.add(words.slice(0, n).join(' ').toLowerCase());
  }

  function mentions(text: string): Mention[] {
    const words = [...text.matchAll(WORD_RE)];
    const out: Mention[] = [];
    let i = 0;
    while (i < words.length) {
      let best: { n: number; id: string } | null = null;
      let key = '';
      for (let n = 1; n <= maxWords && i + n <= words.length; n++) {
        key = n === 1 ? (words[i]?.[0] ?? '') : `${key} ${words[i + n - 1]?.[0] ?? ''}`;
        const lower = key.toLowerCase();
        const id = key.length <= 3 ? shortKeys.get(key) : longKeys.get(lower);
        if (id) best = { n, id };
        if (!prefixes.has(lower)) break;
      }
      if (best) {
        const first = words[i];
        const last = words[i + best.n - 1];
        if (first && last) {
          const start = first.index;
          const end = last.index + last[0].length;
          out.push({ start, end, id: best.id, text: text.slice(start, end) });
        }
        i += best.n;
      } else i++;
    }
    return out;
  }

  return {
    byId,
    mentions,
    peopleWithSurname: (s) => surnames.get(s.toLowerCase()) ?? [],
  };
}

/** The checked-in registry, validated at module load. */
export const REGISTRY: Registry = buildRegistry(registryJson);
