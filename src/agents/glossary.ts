/**
 * The `glossary` tool's data (issue 17): every code pmref serves, each in one or two sentences. Grades, factors,
 * rule ids, caps, commitment subtypes, relations and difference types come from src/domain/glossary.ts; the
 * screen regimes and the reason codes of their rules are read from the regime files themselves (`REGIMES`), so a
 * regime added under data/screens/ appears here with no edit (test/agents/glossary.test.ts fails when one of its
 * reason codes has no meaning written).
 */
import { z } from 'zod';
import {
  CAP_MEANINGS,
  COMMITMENT_SUBTYPE_MEANINGS,
  DIFFERENCE_MEANINGS,
  FACTOR_MEANINGS,
  GRADE_MEANINGS,
  RELATION_MEANINGS,
  RULE_MEANINGS,
  SCREEN_FUNNEL_REASON_MEANINGS,
  SCREEN_RULE_REASON_MEANINGS,
} from '../domain/index.ts';
import { REGIMES, type Regime } from '../signals/screens/index.ts';

export const GLOSSARY_KINDS = [
  'grade',
  'factor',
  'rule',
  'cap',
  'commitment_subtype',
  'relation',
  'difference',
  'regime',
  'reason_code',
] as const;
export type GlossaryKind = (typeof GLOSSARY_KINDS)[number];

export const GlossaryEntrySchema = z
  .object({
    term: z.string().describe('The code as served, e.g. clarity.no_committed_source or commitment_none.'),
    kind: z.enum(GLOSSARY_KINDS),
    meaning: z.string().describe('What it means, in one or two sentences.'),
    ceiling: z.string().optional().describe('Caps: the best grade the cap allows.'),
    weight: z.number().optional().describe('Factors: the weight out of 100.'),
    regimes: z.array(z.string()).optional().describe('Reason codes: the regimes that can give it.'),
    url: z
      .string()
      .optional()
      .describe(
        'Regimes: the primary source of the rule set. A screen says whether a market fits it, not whether the market is good.',
      ),
  })
  .strict();
export type GlossaryEntry = z.infer<typeof GlossaryEntrySchema>;

export const GlossaryAnswerSchema = z
  .object({
    count: z.number().int(),
    entries: z.array(GlossaryEntrySchema),
    notice: z
      .object({ reason: z.string(), try: z.array(z.string()) })
      .nullable()
      .describe('Why nothing matched, and what to try.'),
  })
  .describe('Glossary entries matching the term or kind.');
export type GlossaryAnswer = z.infer<typeof GlossaryAnswerSchema>;

/** The reason codes a regime's screening can give: the funnel's own, then its rules' (each once). */
function reasonEntries(regimes: readonly Regime[]): GlossaryEntry[] {
  const byCode = new Map<string, Set<string>>();
  const add = (code: string, regime: string) => {
    let set = byCode.get(code);
    if (!set) {
      set = new Set();
      byCode.set(code, set);
    }
    set.add(regime);
  };
  for (const r of regimes) for (const code of Object.keys(SCREEN_FUNNEL_REASON_MEANINGS)) add(code, r.regime);
  for (const r of regimes) for (const rule of r.rules) add(rule.reason, r.regime);
  return [...byCode].map(([code, set]) => ({
    term: code,
    kind: 'reason_code' as const,
    meaning:
      SCREEN_FUNNEL_REASON_MEANINGS[code] ??
      SCREEN_RULE_REASON_MEANINGS[code] ??
      `A screen rule of ${[...set].join(', ')} matched (see /screens/).`,
    regimes: [...set],
  }));
}

/** Builds the glossary over a set of screen regimes (the shipped ones by default). */
export function buildGlossary(regimes: readonly Regime[] = REGIMES): GlossaryEntry[] {
  const entries: GlossaryEntry[] = [];
  for (const [term, meaning] of Object.entries(GRADE_MEANINGS)) entries.push({ term, kind: 'grade', meaning });
  entries.push({
    term: 'pending',
    kind: 'grade',
    meaning: 'Not graded yet: the market has not been through the editorial stage.',
  });
  for (const [term, f] of Object.entries(FACTOR_MEANINGS))
    entries.push({ term, kind: 'factor', meaning: f.meaning, weight: f.weight });
  for (const [term, meaning] of Object.entries(RULE_MEANINGS)) entries.push({ term, kind: 'rule', meaning });
  for (const [term, c] of Object.entries(CAP_MEANINGS))
    entries.push({ term, kind: 'cap', meaning: `${c.meaning} Caps the grade at ${c.ceiling}.`, ceiling: c.ceiling });
  for (const [term, meaning] of Object.entries(COMMITMENT_SUBTYPE_MEANINGS))
    entries.push({ term, kind: 'commitment_subtype', meaning });
  for (const [term, meaning] of Object.entries(RELATION_MEANINGS)) entries.push({ term, kind: 'relation', meaning });
  for (const [term, meaning] of Object.entries(DIFFERENCE_MEANINGS))
    entries.push({ term, kind: 'difference', meaning });
  for (const r of regimes) {
    entries.push({
      term: r.regime,
      kind: 'regime',
      meaning: `${r.regime_name} (${r.jurisdiction}, ${r.status}): ${r.scope.description}`,
      url: r.primary_source.url,
    });
  }
  entries.push(...reasonEntries(regimes));
  return entries;
}

export const GLOSSARY: readonly GlossaryEntry[] = buildGlossary();

/** What people type for a code: any case, spaces or hyphens for underscores, backticks and quotes around it. */
function normalize(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[`"'“”‘’]/g, '')
    .replace(/[\s-]+/g, '_');
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, sub));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Looks terms up: an exact code first; else every code containing the words; else every entry whose meaning
 * contains them. Nothing found is an answer too: it says so and names the nearest codes.
 * @example lookupGlossary({ term: 'commitment_none' }).entries[0]?.ceiling // 'C'
 */
export function lookupGlossary(
  query: { term?: string | undefined; kind?: GlossaryKind | undefined },
  glossary: readonly GlossaryEntry[] = GLOSSARY,
): GlossaryAnswer {
  const pool = query.kind ? glossary.filter((e) => e.kind === query.kind) : glossary;
  const term = query.term === undefined ? '' : normalize(query.term);
  if (term === '') return { count: pool.length, entries: [...pool], notice: null };
  const exact = pool.filter((e) => e.term.toLowerCase() === term);
  const inTerm = exact.length > 0 ? exact : pool.filter((e) => e.term.toLowerCase().includes(term));
  const words = term.split('_').filter((w) => w.length > 2);
  const found =
    inTerm.length > 0
      ? inTerm
      : words.length > 0
        ? pool.filter((e) => words.every((w) => e.meaning.toLowerCase().includes(w)))
        : [];
  if (found.length > 0) return { count: found.length, entries: found, notice: null };
  const nearest = [...pool]
    .map((e) => ({ term: e.term, d: editDistance(term, e.term.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || (a.term < b.term ? -1 : 1))
    .slice(0, 3)
    .map((e) => e.term);
  return {
    count: 0,
    entries: [],
    notice: {
      reason: `No glossary code${query.kind ? ` of kind ${query.kind}` : ''} is or contains "${query.term}", and no meaning mentions it.`,
      try: [
        ...nearest.map((t) => `term=${t}`),
        `kind=${query.kind ?? 'cap'} (or no arguments) to list codes; kinds: ${GLOSSARY_KINDS.join(', ')}`,
      ],
    },
  };
}
