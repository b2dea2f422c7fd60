/**
 * The curated macro calendar (`data/calendar/macro.json`): FOMC decisions, CPI, Employment Situation,
 * GDP and PPI release dates, each with the agency schedule page that states it. Validated at load so a
 * bad edit to the data file stops the pipeline with a message instead of binding wrong dates.
 */
import { z } from 'zod';
import macroCalendarJson from '../../data/calendar/macro.json' with { type: 'json' };

export const MACRO_TYPES = ['fomc', 'cpi', 'jobs', 'gdp', 'ppi'] as const;
export const MacroTypeSchema = z.enum(MACRO_TYPES);
export type MacroType = z.infer<typeof MacroTypeSchema>;

/** Hosts whose pages are authoritative for the dates of each macro type. */
const AUTHORITATIVE_HOSTS: Record<MacroType, string> = {
  fomc: 'www.federalreserve.gov',
  cpi: 'www.bls.gov',
  jobs: 'www.bls.gov',
  ppi: 'www.bls.gov',
  gdp: 'www.bea.gov',
};

export const MacroCalendarEntrySchema = z
  .object({
    date: z.iso.date(),
    type: MacroTypeSchema,
    label: z.string().min(1),
    source_url: z.url({ protocol: /^https$/ }),
    note: z.string().optional().describe('Why the date differs from the usual pattern (e.g. a rescheduled release).'),
  })
  .strict()
  .refine((e) => new URL(e.source_url).host === AUTHORITATIVE_HOSTS[e.type], {
    message: 'source_url must be on the agency site that publishes this release',
    path: ['source_url'],
  });
export type MacroCalendarEntry = z.infer<typeof MacroCalendarEntrySchema>;

export const MacroCalendarSchema = z
  .object({
    description: z.string(),
    coverage: z.partialRecord(MacroTypeSchema, z.string()),
    entries: z.array(MacroCalendarEntrySchema).min(1),
  })
  .strict()
  .refine(
    (c) => new Set(c.entries.map((e) => `${e.date}|${e.type}`)).size === c.entries.length,
    'entries must be unique on (date, type)',
  );
export type MacroCalendar = z.infer<typeof MacroCalendarSchema>;

/** Parses a calendar document; throws a zod error naming the bad entry. */
export function parseMacroCalendar(doc: unknown): MacroCalendar {
  return MacroCalendarSchema.parse(doc);
}

let cached: MacroCalendar | undefined;

/** The checked-in macro calendar, parsed once. */
export function macroCalendar(): MacroCalendar {
  cached ??= parseMacroCalendar(macroCalendarJson);
  return cached;
}
