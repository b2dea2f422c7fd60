import { z } from 'zod';
import { MarketIdSchema } from './market.ts';
import { LogEventTypeSchema, LogSourceSchema, OccurredBasisSchema, VenueSchema } from './vocab.ts';

/** Append-only lifecycle entry (spec §2.4), canonical form. */
export const ResolutionLogEntrySchema = z
  .object({
    log_id: z.number().int(),
    market_id: MarketIdSchema,
    event_type: LogEventTypeSchema,
    occurred_basis: OccurredBasisSchema.nullable(),
    occurred_at: z.iso.datetime({ offset: true }),
    recorded_at: z.iso.datetime({ offset: true }),
    from_value: z.string().nullable(),
    to_value: z.string().nullable(),
    diff: z.record(z.string(), z.unknown()).nullable(),
    source: LogSourceSchema,
    source_ref: z.string().nullable(),
    actor: z.string().nullable(),
  })
  .describe('One append-only lifecycle log entry (spec §2.4).');
export type ResolutionLogEntry = z.infer<typeof ResolutionLogEntrySchema>;
export type NewResolutionLogEntry = Omit<ResolutionLogEntry, 'log_id'>;

/** Served entry in the event detail response (spec §2.4, served-shapes §4). */
export const ServedLogEntrySchema = z.object({
  market_id: MarketIdSchema,
  platform: VenueSchema,
  event_type: LogEventTypeSchema,
  outcome: z.string().nullable().describe('YES, NO, PENDING or closed'),
  resolved_at: z.iso.datetime({ offset: true }).nullable(),
  deadline_at: z.iso.datetime({ offset: true }).optional(),
  occurred_basis: OccurredBasisSchema.nullable(),
  final_price: z.number().nullable(),
  recorded_at: z.string(),
  source: LogSourceSchema,
  source_ref: z.string().nullable(),
});
export type ServedLogEntry = z.infer<typeof ServedLogEntrySchema>;
