import { z } from 'zod';

/**
 * Venue facts the editorial layer needs that the canonical Market record does not carry
 * (strike structure, venue source fields, oracle state). Produced by venue normalization,
 * consumed by the pure editorial functions; not served.
 */
export const VenueFactsSchema = z
  .object({
    /** venue_a `strike_type` (greater, greater_or_equal, less, less_or_equal, between, custom, structured…). */
    strike_type: z.string().nullable(),
    floor_strike: z.number().nullable(),
    cap_strike: z.number().nullable(),
    custom_strike: z.record(z.string(), z.unknown()).nullable(),
    /** venue_a expected/latest expiration; venue_b endDate. */
    expiration_time: z.string().nullable(),
    series_ticker: z.string().nullable(),
    series_title: z.string().nullable(),
    /** venue_a series `settlement_sources`. */
    settlement_sources: z.array(z.object({ name: z.string().nullable(), url: z.string().nullable() })),
    /** venue_b market or event `resolutionSource` (often empty). */
    resolution_source_field: z.string().nullable(),
    event_title: z.string().nullable(),
    /** venue_b event description (the shared resolution text of a bundle). */
    event_description: z.string().nullable(),
    /** venue_a event `mutually_exclusive`. */
    mutually_exclusive: z.boolean().nullable(),
    neg_risk: z.boolean().nullable(),
    neg_risk_augmented: z.boolean().nullable(),
    /** venue_b decoded `umaResolutionStatuses` history, oldest first. */
    uma_resolution_statuses: z.array(z.string()),
    uma_resolution_status: z.string().nullable(),
    resolved_by: z.string().nullable(),
    automatically_resolved: z.boolean().nullable(),
    /** venue_b decoded `outcomes`. */
    outcomes: z.array(z.string()).nullable(),
    /** venue_a `early_close_condition`. */
    early_close_condition: z.string().nullable(),
    /** Venue tags (venue_b event tag labels, venue_a series tags). */
    venue_tags: z.array(z.string()),
  })
  .describe('Venue facts used by the editorial layer.');
export type VenueFacts = z.infer<typeof VenueFactsSchema>;

/** Facts with nothing known, for canonical records that arrive without venue detail. */
export function emptyVenueFacts(): VenueFacts {
  return {
    strike_type: null,
    floor_strike: null,
    cap_strike: null,
    custom_strike: null,
    expiration_time: null,
    series_ticker: null,
    series_title: null,
    settlement_sources: [],
    resolution_source_field: null,
    event_title: null,
    event_description: null,
    mutually_exclusive: null,
    neg_risk: null,
    neg_risk_augmented: null,
    uma_resolution_statuses: [],
    uma_resolution_status: null,
    resolved_by: null,
    automatically_resolved: null,
    outcomes: null,
    early_close_condition: null,
    venue_tags: [],
  };
}
