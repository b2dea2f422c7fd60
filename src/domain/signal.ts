import { z } from 'zod';
import { SignalCategoryTagSchema, SignalKindSchema, VenueSchema } from './vocab.ts';

export const SignalNumberSchema = z.object({
  name: z.string().describe('What the number is, e.g. price_gap.'),
  value: z.number().nullable(),
  unit: z.string().nullable(),
  provenance: z.enum(['direct', 'mediated', 'derived', 'editorial']),
  source: z.string().nullable().describe('Where it was read: a market id, a spot row, a mark date.'),
});

/** One signal bulletin (served-shapes §8, issue 9). Stored once per slug; never rewritten. */
export const SignalBulletinSchema = z
  .object({
    $schema: z.string(),
    record_id: z.string(),
    record_slug: z.string(),
    schema_version: z.string(),
    provenance_version: z.string(),
    published_at: z.iso.datetime({ offset: true }),
    headline: z.string(),
    category_tag: SignalCategoryTagSchema,
    secondary_tags: z.array(z.string()),
    detection_path: SignalKindSchema,
    pre_news_classification: z.enum(['pre_news', 'concurrent', 'lagging']),
    target_event_id: z.string(),
    target_event_slug: z.string(),
    event_question: z.string(),
    linked_event_ids: z.array(z.string()),
    venues: z.array(VenueSchema),
    primary_market: z.object({
      market_id: z.string(),
      platform: VenueSchema,
      platform_market_id: z.string(),
      question_raw: z.string().nullable(),
      current_price: z.number().nullable(),
      grade: z.string().nullable(),
    }),
    related_markets: z.array(
      z.object({
        market_id: z.string(),
        platform: VenueSchema,
        question_raw: z.string().nullable(),
        current_price: z.number().nullable(),
        grade: z.string().nullable(),
      }),
    ),
    bullets: z.array(z.string()).min(3).max(5),
    atomic_claims: z.array(z.object({ type: z.string(), text: z.string(), field_provenance: z.string().optional() })),
    numbers: z.array(SignalNumberSchema).describe('The numbers that triggered the bulletin, with their provenance.'),
    sources: z.array(z.object({ label: z.string(), url: z.string() })).min(1),
    license: z.string(),
  })
  .describe('A signal bulletin: one detected, explained market move.');
export type SignalBulletin = z.infer<typeof SignalBulletinSchema>;
