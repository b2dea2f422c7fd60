/**
 * Editorial overrides (data/editorial/overrides.json): a checked-in file that can lock an event's
 * primary market, add editorial notes, analyst notes and tags, set a category, or correct a market's
 * source of record. Applied in the pipeline with provenance `service_editorial`; validated at load,
 * and a bad entry fails loudly, naming the entry.
 */
import { z } from 'zod';
import overridesJson from '../../../data/editorial/overrides.json' with { type: 'json' };
import { CategorySchema, VenueSchema } from '../../domain/index.ts';

const TagSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'tags are lower-case kebab words');

const EventOverrideSchema = z
  .object({
    id: z.string().min(1),
    why: z.string().min(1),
    target: z.object({ venue: VenueSchema, event: z.string().min(1) }).strict(),
    primary_market: z
      .string()
      .min(1)
      .optional()
      .describe('Native market id (ticker or condition id) to quote as primary.'),
    lock: z.boolean().optional().describe('Keep primary_market_id instead of recomputing it.'),
    editorial_notes: z.string().min(1).optional(),
    tags: z.array(TagSchema).optional(),
    category: CategorySchema.optional(),
  })
  .strict()
  .refine((o) => o.lock !== true || o.primary_market !== undefined, { message: 'lock needs primary_market' })
  .refine((o) => o.primary_market || o.editorial_notes || o.tags || o.category || o.lock !== undefined, {
    message: 'an event override must change something',
  });

const MarketOverrideSchema = z
  .object({
    id: z.string().min(1),
    why: z.string().min(1),
    target: z.object({ venue: VenueSchema, market: z.string().min(1) }).strict(),
    analyst_notes: z.string().min(1).optional(),
    tags: z.array(TagSchema).optional(),
    source_of_record: z.string().min(1).optional(),
  })
  .strict()
  .refine((o) => o.analyst_notes || o.tags || o.source_of_record, {
    message: 'a market override must change something',
  });

export type EventOverride = z.infer<typeof EventOverrideSchema>;
export type MarketOverride = z.infer<typeof MarketOverrideSchema>;

/** Parsed overrides, indexed by `venue:native_id`. */
export interface Overrides {
  readonly events: ReadonlyMap<string, EventOverride>;
  readonly markets: ReadonlyMap<string, MarketOverride>;
}

export const NO_OVERRIDES: Overrides = { events: new Map(), markets: new Map() };

const FileSchema = z.object({ version: z.literal(1), overrides: z.array(z.unknown()) }).strict();

/**
 * Validates the overrides file. Throws on the first bad entry with its index and id, e.g.
 * `overrides entry #2 (id "fed-lock"): lock needs primary_market`.
 */
export function parseOverrides(json: unknown): Overrides {
  const top = FileSchema.safeParse(json);
  if (!top.success) throw new Error(`overrides file is invalid: ${z.prettifyError(top.error)}`);
  const events = new Map<string, EventOverride>();
  const markets = new Map<string, MarketOverride>();
  const ids = new Set<string>();
  top.data.overrides.forEach((raw, i) => {
    const id = typeof raw === 'object' && raw !== null && 'id' in raw ? String((raw as { id: unknown }).id) : '?';
    const name = `overrides entry #${i} (id "${id}")`;
    const target =
      typeof raw === 'object' && raw !== null ? (raw as { target?: Record<string, unknown> }).target : undefined;
    const isMarket = target !== undefined && typeof target === 'object' && target !== null && 'market' in target;
    const parsed = isMarket ? MarketOverrideSchema.safeParse(raw) : EventOverrideSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`${name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
    if (ids.has(parsed.data.id)) throw new Error(`${name}: duplicate id`);
    ids.add(parsed.data.id);
    if ('market' in parsed.data.target) {
      const key = `${parsed.data.target.venue}:${parsed.data.target.market}`;
      if (markets.has(key)) throw new Error(`${name}: a second override for market ${key}`);
      markets.set(key, parsed.data as MarketOverride);
    } else {
      const key = `${parsed.data.target.venue}:${parsed.data.target.event}`;
      if (events.has(key)) throw new Error(`${name}: a second override for event ${key}`);
      events.set(key, parsed.data as EventOverride);
    }
  });
  return { events, markets };
}

/** The checked-in overrides (data/editorial/overrides.json), validated at module load. */
export const CHECKED_IN_OVERRIDES: Overrides = parseOverrides(overridesJson);
