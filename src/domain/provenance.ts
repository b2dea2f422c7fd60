import { z } from 'zod';
import { ProvenanceSourceSchema } from './vocab.ts';

/** One field's provenance (spec §2.1 `field_provenance` values). `rule` and `note` are pmref additions. */
export const FieldProvenanceEntrySchema = z
  .object({
    source: ProvenanceSourceSchema,
    rule: z.string().optional().describe('The editorial rule id that set the field, when one did.'),
    note: z.string().optional().describe('Why the field holds what it holds (e.g. the reason a value is null).'),
  })
  .describe('Where one field value came from.');
export type FieldProvenanceEntry = z.infer<typeof FieldProvenanceEntrySchema>;

export const FieldProvenanceSchema = z
  .record(z.string(), FieldProvenanceEntrySchema)
  .describe('Keys are field names; values say where the field came from.');
export type FieldProvenance = z.infer<typeof FieldProvenanceSchema>;
