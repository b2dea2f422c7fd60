import { z } from 'zod';

/** A calendar catalyst (spec §2.5; served-shapes §7). */
export const CatalystSchema = z
  .object({
    date: z.iso.date(),
    type: z.string().describe('e.g. fomc, cpi, jobs, gdp, ppi, earnings:NVDA, election, decision'),
    label: z.string(),
    source_url: z.string().describe('Authoritative source for the date.'),
    origin: z.enum(['calendar', 'venue']).describe('Curated calendar file, or derived from venue data.'),
    event_ids: z.array(z.string()).describe('Events this catalyst is bound to.'),
  })
  .describe('A dated catalyst with its authoritative source.');
export type Catalyst = z.infer<typeof CatalystSchema>;
