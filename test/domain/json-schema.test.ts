/**
 * `pmref schemas --out DIR` writes seven draft 2020-12 record schemas that Ajv compiles, that real
 * example records satisfy, and that reject broken records.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { schemasCommand } from '../../src/commands/schemas.ts';
import {
  CatalystSchema,
  ChangeSchema,
  EventSchema,
  MarketSchema,
  MarkSchema,
  RECORD_SCHEMA_NAMES,
  type RecordSchemaName,
  ResolutionLogEntrySchema,
  recordJsonSchemas,
  SignalBulletinSchema,
} from '../../src/domain/index.ts';
import { makeCatalyst, makeEvent, makeLogEntry, makeMark, makeMarket, makeSignal } from '../store/records.ts';

// ajv-formats is CommonJS: the default import is module.exports, whose `.default` is the plugin.
const addFormats = addFormatsModule.default;

const BASE = 'https://pmref.example';

/** Real example records, one or more per schema, as the store holds them. */
/** A change-feed entry about market 0 of the seed records. */
function change(seq: number, kind: string, generation: number, publishedAt: string, detail: Record<string, unknown>) {
  const { market_id, event_id } = makeMarket(0);
  return { seq, kind, market_id, event_id, signal_slug: null, generation, published_at: publishedAt, detail };
}

const EXAMPLES: Record<RecordSchemaName, unknown[]> = {
  events: [makeEvent(0), makeEvent(1, { venue: null, bundle_type: null, primary_market_id: null })],
  markets: [
    makeMarket(0),
    makeMarket(1, { rcg: null, also_on: null, resolution_source_list: null, eligibility_screens: null }),
  ],
  marks: [
    { mark_id: 1, ...makeMark(0) },
    {
      mark_id: 2,
      ...makeMark(1, '2026-03-03', { mark_method: 'imputed_carry_forward', stale_flag: true, yes_bid: null }),
    },
  ],
  resolution_log: [
    { log_id: 1, ...makeLogEntry(0) },
    { log_id: 2, ...makeLogEntry(0, { event_type: 'resolved', occurred_basis: null, diff: { outcome: 'YES' } }) },
  ],
  catalysts: [makeCatalyst(), makeCatalyst({ type: 'earnings:NVDA', origin: 'venue', event_ids: [] })],
  signals: [makeSignal()],
  changes: [
    change(1, 'market_added', 1, '2026-03-02T10:00:00.000Z', {
      platform: 'venue_a',
      status: 'open',
      to: { grade: 'B', score: 71 },
    }),
    change(2, 'link_changed', 2, '2026-03-02T11:00:00.000Z', {
      from: { question_id: null, also_on: [] },
      to: { question_id: 'SVCX-0A1B2C3D4E', also_on: [{ market_id: makeMarket(1).market_id, relation: 'same' }] },
    }),
    change(3, 'lifecycle', 2, '2026-03-02T11:00:00.000Z', {
      event_type: 'status_change',
      log_id: 7,
      occurred_at: '2026-03-02T11:00:00.000Z',
      from: 'open',
      to: 'closed',
    }),
  ],
};

/** One broken copy of an example per schema, each breaking a different rule. */
const BROKEN: Record<RecordSchemaName, unknown> = {
  events: { ...makeEvent(0), category: 'sports' },
  markets: { ...makeMarket(0), market_id: 'SVC-MKT-lowercase!' },
  marks: { mark_id: 1, ...makeMark(0), yes_bid: 1.5 },
  resolution_log: { log_id: 1, ...makeLogEntry(0), occurred_at: 'yesterday' },
  catalysts: (({ source_url: _dropped, ...rest }) => rest)(makeCatalyst()),
  signals: { ...makeSignal(), bullets: ['only one'] },
  changes: {
    seq: 0,
    kind: 'market_removed',
    market_id: null,
    event_id: null,
    signal_slug: null,
    generation: 1,
    published_at: 'now',
    detail: {},
  },
};

const ZOD = {
  events: EventSchema,
  markets: MarketSchema,
  marks: MarkSchema,
  resolution_log: ResolutionLogEntrySchema,
  catalysts: CatalystSchema,
  signals: SignalBulletinSchema,
  changes: ChangeSchema,
} as const;

describe('record JSON Schemas', () => {
  let dir: string;
  let files: Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pmref-schemas-'));
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await schemasCommand.run(['--out', dir, '--base-url', `${BASE}/`])).toBe(0);
    } finally {
      write.mockRestore();
    }
    files = Object.fromEntries(
      readdirSync(dir).map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>]),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes exactly the seven files, equal to recordJsonSchemas(baseUrl)', () => {
    expect(Object.keys(files).sort()).toEqual(RECORD_SCHEMA_NAMES.map((n) => `${n}.json`).sort());
    const direct = recordJsonSchemas(BASE);
    for (const name of RECORD_SCHEMA_NAMES) expect(files[`${name}.json`]).toEqual(direct[name]);
  });

  it('each carries $schema 2020-12, its own $id, a title and a description', () => {
    for (const name of RECORD_SCHEMA_NAMES) {
      const schema = files[`${name}.json`] ?? {};
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(`${BASE}/schemas/${name}.json`);
      expect(typeof schema.title).toBe('string');
      expect(typeof schema.description).toBe('string');
      expect(schema.type).toBe('object');
    }
  });

  it('the example records are themselves valid domain records', () => {
    for (const name of RECORD_SCHEMA_NAMES) {
      for (const example of EXAMPLES[name]) expect(ZOD[name].parse(example)).toEqual(example);
    }
  });

  describe.each(RECORD_SCHEMA_NAMES)('%s.json', (name) => {
    const compile = () => {
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      return ajv.compile(files[`${name}.json`] ?? {});
    };

    it('compiles under Ajv 2020-12 in strict mode', () => {
      expect(compile).not.toThrow();
    });

    it('accepts the example records', () => {
      const validate = compile();
      for (const example of EXAMPLES[name]) {
        const ok = validate(example);
        expect(ok, JSON.stringify(validate.errors, null, 2)).toBe(true);
      }
    });

    it('rejects a broken record', () => {
      const validate = compile();
      expect(validate(BROKEN[name])).toBe(false);
      expect(validate.errors?.length ?? 0).toBeGreaterThan(0);
    });

    it('accepts unknown extra fields (clients ignore them; spec §9)', () => {
      const validate = compile();
      const [example] = EXAMPLES[name];
      expect(validate({ ...(example as object), _provenance: { attribution: 'pmref' } })).toBe(true);
    });
  });

  it('the command refuses to run without --out', async () => {
    await expect(schemasCommand.run([])).rejects.toThrow(/--out/);
    await expect(schemasCommand.run(['--out', dir, '--base-url', 'not a url'])).rejects.toThrow(/--base-url/);
  });
});
