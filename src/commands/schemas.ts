import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { RECORD_SCHEMA_NAMES, recordJsonSchemas } from '../domain/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

/** `pmref schemas`: writes the six record JSON Schemas (draft 2020-12) the site serves at /schemas/. */
export const schemasCommand: Command = {
  name: 'schemas',
  summary: 'write the record JSON Schemas (draft 2020-12) to a folder',
  usage: `
Usage: pmref schemas --out DIR [--base-url URL]

Writes events.json, markets.json, marks.json, resolution_log.json, catalysts.json and signals.json
to DIR (created if missing). Each schema's $id is URL/schemas/<name>.json, where URL is --base-url,
else PMREF_BASE_URL, else http://HOST:PORT.

Options:
  --out DIR         folder to write to (required)
  --base-url URL    public origin used in each $id
`,
  async run(args) {
    const { values } = parseFlags(args, { out: { type: 'string' }, 'base-url': { type: 'string' } });
    if (values.out === undefined || values.out === '') throw new UsageError('--out DIR is required');
    const baseUrl = values['base-url'] ?? defaultBaseUrl();
    try {
      new URL(baseUrl);
    } catch {
      throw new UsageError(`--base-url must be an absolute URL, got '${baseUrl}'`);
    }
    const schemas = recordJsonSchemas(baseUrl);
    await mkdir(values.out, { recursive: true });
    for (const name of RECORD_SCHEMA_NAMES) {
      await writeFile(join(values.out, `${name}.json`), `${JSON.stringify(schemas[name], null, 2)}\n`);
    }
    process.stdout.write(`wrote ${RECORD_SCHEMA_NAMES.length} schemas to ${values.out}\n`);
    return 0;
  },
};

function defaultBaseUrl(): string {
  const config = loadConfig();
  return config.PMREF_BASE_URL ?? `http://${config.HOST}:${config.PORT}`;
}
