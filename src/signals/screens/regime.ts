/**
 * A screen regime is a declarative rule file in `data/screens/` (issue 10): version, scope, permitted
 * categories, minimum time to resolution, required fields, keyword and category rules, venue scope.
 * This schema is the file format; a bad file fails at load, naming the file and the field.
 */
import { z } from 'zod';
import cftc from '../../../data/screens/cftc-40-11.json' with { type: 'json' };
import ciro from '../../../data/screens/ciro-26-0076.json' with { type: 'json' };
import { CategorySchema, ScreenStatusSchema, VenueSchema } from '../../domain/index.ts';

export const ScreenRuleSchema = z
  .object({
    id: z.string().min(1),
    section: z.string().min(1),
    match: z
      .object({
        categories: z.array(CategorySchema).optional(),
        keywords: z.array(z.string().min(2)).optional(),
      })
      .refine(
        (m) => (m.categories?.length ?? 0) + (m.keywords?.length ?? 0) > 0,
        'a rule must match categories or keywords',
      ),
    outcome: ScreenStatusSchema.exclude(['eligible']),
    reason: z.string().regex(/^[a-z0-9_]+$/, 'reason codes are snake_case'),
    cluster: z.string().optional(),
  })
  .strict();
export type ScreenRule = z.infer<typeof ScreenRuleSchema>;

export const RegimeSchema = z
  .object({
    regime: z.string().regex(/^[a-z0-9-]+$/),
    regime_name: z.string(),
    screen_version: z.string(),
    jurisdiction: z.string(),
    status: z.enum(['live', 'draft']),
    scope: z.object({
      description: z.string(),
      venues: z.array(VenueSchema).min(1),
      market_statuses: z.array(z.enum(['open', 'closed', 'resolved', 'amended'])).min(1),
    }),
    min_days_to_resolution: z.number().min(0),
    min_maturity_basis: z.string(),
    required_fields: z.array(z.enum(['resolve_date', 'resolution_source'])),
    permitted_categories: z.array(
      z.object({ bucket: z.string(), label: z.string(), categories: z.array(CategorySchema).min(1) }).strict(),
    ),
    rules: z.array(ScreenRuleSchema),
    review_clusters: z.array(z.object({ key: z.string(), label: z.string() }).strict()),
    sections: z.array(z.object({ id: z.string(), title: z.string(), text: z.string() }).strict()),
    primary_source: z.object({ label: z.string(), url: z.string().url() }),
    disclaimer: z.string(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const clusters = new Set(r.review_clusters.map((c) => c.key));
    for (const rule of r.rules) {
      if (rule.outcome === 'review' && rule.cluster !== undefined && !clusters.has(rule.cluster)) {
        ctx.addIssue({ code: 'custom', message: `rule ${rule.id} names unknown review cluster ${rule.cluster}` });
      }
    }
  });
export type Regime = z.infer<typeof RegimeSchema>;

/** Parses one regime file; throws naming the file and every bad field. */
export function parseRegime(json: unknown, file: string): Regime {
  const parsed = RegimeSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`screen regime ${file} is invalid:\n${lines.join('\n')}`);
}

/** The regimes pmref ships, validated at module load. */
export const REGIMES: readonly Regime[] = [
  parseRegime(ciro, 'data/screens/ciro-26-0076.json'),
  parseRegime(cftc, 'data/screens/cftc-40-11.json'),
];
