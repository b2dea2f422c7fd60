import { z } from 'zod';
import { MarketIdSchema } from './market.ts';
import { FieldProvenanceSchema } from './provenance.ts';
import { BundleTypeSchema, CategorySchema, VenueSchema } from './vocab.ts';

const dateTime = () => z.iso.datetime({ offset: true });

export const EVENT_ID_PATTERN = /^SVC-EVT-[0-9A-Z]{10}$/;
export const EventIdSchema = z.string().regex(EVENT_ID_PATTERN).describe('Service event id, SVC-EVT-…');

export const CatalystDateSchema = z
  .object({
    date: z.iso.date(),
    label: z.string(),
    type: z.string().optional().describe('e.g. fomc, cpi, jobs, gdp, ppi, corporate_earnings, earnings:NVDA'),
    source_url: z.string().optional().describe('Deep link to the authoritative source.'),
  })
  .strict();
export type CatalystDate = z.infer<typeof CatalystDateSchema>;

/** Normalized distribution over a ladder's strikes (pmref fills the shape the spec leaves unshown). */
export const LadderDistributionSchema = z
  .object({
    kind: z.enum(['strike_ladder', 'date_ladder', 'categorical']),
    points: z.array(z.object({ market_id: MarketIdSchema, label: z.string(), probability: z.number() })),
    raw_sum: z.number().describe('Sum of the unnormalized prices before normalization.'),
  })
  .nullable();
export type LadderDistribution = z.infer<typeof LadderDistributionSchema>;

/** The canonical Event record (spec §2.1), as stored. */
export const EventSchema = z
  .object({
    event_id: EventIdSchema,
    slug: z.string().min(1),
    question: z.string(),
    category: CategorySchema,
    tags: z.array(z.string()),
    primary_market_id: MarketIdSchema.nullable(),
    primary_market_locked: z.boolean(),
    catalyst_dates: z.array(CatalystDateSchema),
    published: z.boolean(),
    editorial_notes: z.string().nullable(),
    venue: VenueSchema.nullable(),
    bundle_type: BundleTypeSchema.nullable(),
    resolution_reference: z.string().nullable(),
    created_at: dateTime(),
    updated_at: dateTime(),
    field_provenance: FieldProvenanceSchema,
    // Derived / extra served fields, stored for the read model:
    platform_event_id: z.string().nullable().describe("The venue's own event id or ticker."),
    event_type: z.string().describe('BINARY for binary bundles.'),
    ladder_distribution: LadderDistributionSchema,
    ladder_distribution_reason: z.string().nullable(),
    catalyst_types: z.array(z.string()),
  })
  .describe('One canonical tradable question on one venue (spec §2.1).');
export type Event = z.infer<typeof EventSchema>;
