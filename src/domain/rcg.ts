import { z } from 'zod';
import { GradeSchema } from './vocab.ts';

export const RCG_FACTORS = [
  'trigger_objectivity',
  'contested_reality',
  'source_clarity',
  'arbiter_incentive',
  'source_conflict_rule',
  'temporal_precision',
  'source_mutability',
] as const;
export const RcgFactorNameSchema = z.enum(RCG_FACTORS);
export type RcgFactorName = z.infer<typeof RcgFactorNameSchema>;

export const RCG_CAPS = [
  'commitment_committed_secondhand',
  'commitment_uncommitted_illustrative',
  'commitment_uncommitted_placeholder',
  'commitment_none',
  'multi_source_no_conflict_rule',
  'discretionary_trigger_no_source',
  'permissionless_oracle_discretionary_trigger',
  'adversarial_ground_truth',
  'exchange_notice_source_conflict',
] as const;
export const RcgCapSchema = z.enum(RCG_CAPS);
export type RcgCap = z.infer<typeof RcgCapSchema>;

export const FactorRatingSchema = z.enum(['pass', 'partial', 'fail', 'not_applicable']);
export type FactorRating = z.infer<typeof FactorRatingSchema>;

/** The text span or venue field that decided a factor. Offsets index into the named field's text. */
export const EvidenceSchema = z
  .object({
    field: z
      .string()
      .describe('The record field the evidence comes from, e.g. resolution_rules_raw or arbitration_model.'),
    quote: z.string().nullable().describe('The exact text span, verbatim; null when the evidence is a field value.'),
    start: z.number().int().nullable(),
    end: z.number().int().nullable(),
    value: z.unknown().optional().describe('The venue field value, when the evidence is a field.'),
  })
  .describe('What decided a factor: a quoted span with offsets, or a venue field.');
export type Evidence = z.infer<typeof EvidenceSchema>;

export const RcgFactorSchema = z.object({
  factor: RcgFactorNameSchema,
  weight: z.number(),
  rating: FactorRatingSchema,
  points: z.number().describe('Points earned (0 when not applicable, and then excluded from the denominator).'),
  rule: z.string().describe('Id of the rule that decided the rating (see METHODOLOGY.md).'),
  evidence: z.array(EvidenceSchema),
});
export type RcgFactor = z.infer<typeof RcgFactorSchema>;

/** The full grade as computed and stored. Served as `rcg: {grade, score, caps, applied_factors}` (+ `factors` on market detail). */
export const RcgSchema = z
  .object({
    grade: GradeSchema,
    score: z.number().int().min(0).max(100),
    caps: z.array(RcgCapSchema),
    applied_factors: z.number().int().min(0).max(7),
    rubric_version: z.string(),
    factors: z.array(RcgFactorSchema),
  })
  .describe('Resolution Clarity Grade with every factor, its rule and evidence.');
export type Rcg = z.infer<typeof RcgSchema>;
