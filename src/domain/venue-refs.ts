import { z } from 'zod';

/**
 * A market's venue identifiers beyond `platform_market_id` and `platform_event_id` (issue 20, item 4): what a
 * client may hold instead of the ticker or condition id — a venue_b market slug (the last part of its page URL),
 * its CLOB token ids (what order books and trades are keyed by), Gamma's question id and numeric market id, and
 * the venue_a series ticker (the first part of its page URL). `GET /v1/resolve` indexes every one of them.
 *
 * Meant as the `venue_refs` field of the Market record, filled by the venue normalizers from the fields the venue
 * sends (venue_b `slug`, `clobTokenIds`, `questionID`, `id`; venue_a event `series_ticker`). Every key is
 * optional: a key the venue did not send is absent.
 */
export const MarketVenueRefsSchema = z
  .object({
    series_ticker: z
      .string()
      .min(1)
      .optional()
      .describe('venue_a: the series ticker of the market’s event (event `series_ticker`).'),
    market_slug: z.string().min(1).optional().describe('venue_b: the market slug (Gamma `slug`).'),
    token_ids: z
      .array(z.string().min(1))
      .optional()
      .describe('venue_b: the CLOB token ids, in outcome order (Gamma `clobTokenIds`, decoded).'),
    venue_question_id: z.string().min(1).optional().describe('venue_b: Gamma `questionID` (0x and 64 hex digits).'),
    venue_market_id: z.string().min(1).optional().describe('venue_b: the numeric Gamma market id (Gamma `id`).'),
  })
  .strict()
  .describe('A market’s venue identifiers beyond its ticker or condition id.');
export type MarketVenueRefs = z.infer<typeof MarketVenueRefsSchema>;
