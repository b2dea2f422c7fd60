/**
 * The record JSON Schemas (draft 2020-12) served at `/schemas/<name>.json` and written by
 * `pmref schemas`. Generated from the zod schemas of this folder, never written by hand.
 *
 * Generated in zod's `input` mode: objects stay open unless the zod schema is `.strict()`, because
 * served records gain serve-time fields and the spec (§9) tells clients to ignore unknown fields.
 */
import { type ZodType, z } from 'zod';
import { CatalystSchema } from './catalyst.ts';
import { ChangeSchema } from './change.ts';
import { EventSchema } from './event.ts';
import { MarkSchema } from './mark.ts';
import { MarketSchema } from './market.ts';
import { ResolutionLogEntrySchema } from './resolution-log.ts';
import { SignalBulletinSchema } from './signal.ts';

export const RECORD_SCHEMA_NAMES = [
  'events',
  'markets',
  'marks',
  'resolution_log',
  'catalysts',
  'signals',
  'changes',
] as const;
export type RecordSchemaName = (typeof RECORD_SCHEMA_NAMES)[number];

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const RECORDS: Record<RecordSchemaName, { schema: ZodType; title: string; description: string }> = {
  events: {
    schema: EventSchema,
    title: 'Event',
    description: 'One canonical tradable question on one venue, with its markets linked by event_id (spec §2.1).',
  },
  markets: {
    schema: MarketSchema,
    title: 'Market',
    description:
      'One market on one venue: resolution terms, committed sources, Resolution Clarity Grade and cross-venue twins (spec §2.2).',
  },
  marks: {
    schema: MarkSchema,
    title: 'Mark',
    description: 'Daily price and liquidity snapshot of one market, unique on market_id + snapshot_date (spec §2.3).',
  },
  resolution_log: {
    schema: ResolutionLogEntrySchema,
    title: 'Resolution log entry',
    description: 'One entry of the append-only lifecycle log of a market; never updated or deleted (spec §2.4).',
  },
  catalysts: {
    schema: CatalystSchema,
    title: 'Catalyst',
    description: 'A dated catalyst (data release, decision, earnings) with its authoritative source (spec §2.5).',
  },
  signals: {
    schema: SignalBulletinSchema,
    title: 'Signal bulletin',
    description: 'One detected, explained market move, with the numbers that triggered it and their provenance.',
  },
  changes: {
    schema: ChangeSchema,
    title: 'Change',
    description:
      'One entry of the sequenced change feed (GET /v1/changes, /v1/changes/stream): dense seq, kind, subject, before/after.',
  },
};

/**
 * One JSON Schema per record, each with `$schema`, `$id` (`${baseUrl}/schemas/<name>.json`), title and
 * description. Pure: the same base URL gives the same objects.
 * @example recordJsonSchemas('https://pmref.example').markets.$id // 'https://pmref.example/schemas/markets.json'
 */
export function recordJsonSchemas(baseUrl: string): Record<RecordSchemaName, Record<string, unknown>> {
  const base = baseUrl.replace(/\/+$/, '');
  const out = {} as Record<RecordSchemaName, Record<string, unknown>>;
  for (const name of RECORD_SCHEMA_NAMES) {
    const { schema, title, description } = RECORDS[name];
    const {
      $schema: _dialect,
      description: _own,
      ...body
    } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'throw',
    }) as Record<string, unknown>;
    out[name] = { $schema: JSON_SCHEMA_DIALECT, $id: `${base}/schemas/${name}.json`, title, description, ...body };
  }
  return out;
}
