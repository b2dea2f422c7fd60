/**
 * The authority registry (data/registry/authorities.json): who is an authority for a quantity,
 * who only republishes it, and which news outlets exist. Validated with zod at module load and
 * compiled once into two matchers (names in prose, URL hosts) so grading stays well under 1 ms.
 */
import { z } from 'zod';
import registryJson from '../../../data/registry/authorities.json' with { type: 'json' };
import { SourceTypeSchema } from '../../domain/index.ts';

export const SourceRoleSchema = z.enum(['authority', 'aggregator', 'outlet']);
export type SourceRole = z.infer<typeof SourceRoleSchema>;
export const MutabilitySchema = z.enum(['fixed', 'revisable', 'editable']);
export type Mutability = z.infer<typeof MutabilitySchema>;

const EntrySchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  role: SourceRoleSchema,
  kind: z.string().min(1),
  source_type: SourceTypeSchema,
  aliases: z.array(z.string().min(2)),
  acronyms: z.array(z.string().min(2)),
  domains: z.array(z.string().min(3)),
  url: z.string().nullable(),
  mutability: MutabilitySchema,
  /** The entry stands for several distinct organisations: each alias is its own source. */
  group: z.boolean(),
  /**
   * An aggregator-role entry that publishes its own measurement (a war map, a leaderboard, a rating, a
   * billionaires index, a poll average with its methodology) rather than relaying an issuer's numbers:
   * committing to it is `named` (METHODOLOGY.md § Source standing). Absent means false.
   */
  originates: z.boolean().default(false),
});
export type RegistryEntry = z.infer<typeof EntrySchema>;

const RegistrySchema = z.object({
  version: z.string(),
  note: z.string(),
  entries: z.array(EntrySchema).min(1),
  oracle_adapters: z.object({
    note: z.string(),
    managed_whitelist: z.array(z.string()),
    permissionless: z.array(z.string()),
  }),
});

/** The validated registry (throws at import if the data file is malformed). */
export const REGISTRY = RegistrySchema.parse(registryJson);

const ENTRY_BY_ALIAS = new Map<string, RegistryEntry>();
const ENTRY_BY_LOWER_NAME = new Map<string, RegistryEntry>();
const ENTRY_BY_DOMAIN = new Map<string, RegistryEntry>();
const PATH_DOMAINS: Array<[string, RegistryEntry]> = [];
for (const e of REGISTRY.entries) {
  for (const a of [...e.aliases, ...e.acronyms]) {
    if (!ENTRY_BY_ALIAS.has(a)) ENTRY_BY_ALIAS.set(a, e);
    ENTRY_BY_LOWER_NAME.set(a.toLowerCase(), e);
  }
  ENTRY_BY_LOWER_NAME.set(e.name.toLowerCase(), e);
  for (const d of e.domains) {
    if (d.includes('/')) PATH_DOMAINS.push([d, e]);
    else ENTRY_BY_DOMAIN.set(d, e);
  }
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * One case-sensitive alternation of every alias, longest first, on word boundaries. Measured faster
 * than a word-start scan with prefix buckets (V8 compiles the alternation into a trie-like matcher).
 */
const ALIAS_RE = new RegExp(
  `(?<![A-Za-z0-9])(?:${[...ENTRY_BY_ALIAS.keys()]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map(escapeRegExp)
    .join('|')})(?![A-Za-z0-9])`,
  'g',
);

/** The venues' own sites: a link there is not a resolution source (venue_a uses kalshi.com as a placeholder URL). */
const VENUE_HOSTS = ['kalshi.com', 'polymarket.com'];

/** A registry name found in text. */
export interface Mention {
  entry: RegistryEntry;
  alias: string;
  start: number;
  end: number;
}

/** Every registry alias occurring in text, in order (non-overlapping, longest alias wins, case-sensitive, on word boundaries). */
export function findMentions(text: string): Mention[] {
  const out: Mention[] = [];
  ALIAS_RE.lastIndex = 0;
  for (let m = ALIAS_RE.exec(text); m !== null; m = ALIAS_RE.exec(text)) {
    const entry = ENTRY_BY_ALIAS.get(m[0]);
    if (entry) out.push({ entry, alias: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Lower-cased host of a URL without `www.`, or null when it does not parse. */
export function hostOf(url: string): string | null {
  const m = /^(?:https?:\/\/)?([^/?#\s:]+)/i.exec(url.trim());
  return m?.[1] ? m[1].toLowerCase().replace(/^www\./, '') : null;
}

/** True when the URL points at a venue's own site (not a resolution source). */
export function isVenueUrl(url: string): boolean {
  const host = hostOf(url);
  return host !== null && VENUE_HOSTS.some((v) => host === v || host.endsWith(`.${v}`));
}

/** The registry entry whose domain serves this URL (longest host suffix wins), or null. */
export function entryForUrl(url: string): RegistryEntry | null {
  const host = hostOf(url);
  if (host === null) return null;
  const hostAndPath = url
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .toLowerCase();
  for (const [d, e] of PATH_DOMAINS) if (hostAndPath.startsWith(d)) return e;
  let h = host;
  for (;;) {
    const e = ENTRY_BY_DOMAIN.get(h);
    if (e) return e;
    const dot = h.indexOf('.');
    if (dot < 0) return null;
    h = h.slice(dot + 1);
  }
}

/** The registry entry named exactly by a venue source-list name (case-insensitive), or null. */
export function entryForName(name: string): RegistryEntry | null {
  const n = name.trim().toLowerCase();
  return ENTRY_BY_LOWER_NAME.get(n) ?? ENTRY_BY_LOWER_NAME.get(n.replace(/^the /, '')) ?? null;
}

/** Which proposer set a venue_b UMA adapter address (`resolvedBy`) belongs to, or null when unknown. */
export function adapterProposer(address: string | null): 'managed_whitelist' | 'permissionless' | null {
  if (address === null || address === '') return null;
  const a = address.toLowerCase();
  if (REGISTRY.oracle_adapters.managed_whitelist.includes(a)) return 'managed_whitelist';
  if (REGISTRY.oracle_adapters.permissionless.includes(a)) return 'permissionless';
  return null;
}
