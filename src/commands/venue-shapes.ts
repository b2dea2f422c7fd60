import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { VENUES } from '../domain/index.ts';
import { extractShapeManifest, VENUE_SHAPE_SPECS, type VenueShapeManifest } from '../venues/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

/**
 * Reads each venue's OpenAPI document from a fixtures folder (`<dir>/reference/<file>`, its provenance from
 * `<dir>/SOURCES.md`) and returns the shape manifests. The documents are YAML (venue_a) or JSON (venue_b);
 * YAML is a superset of JSON, so one parser reads both.
 */
export async function readVenueShapeManifests(
  fixturesDir: string,
  extractedAt: (venue: keyof typeof VENUE_SHAPE_SPECS) => string,
): Promise<VenueShapeManifest[]> {
  const sourcesMd = await readFile(join(fixturesDir, 'SOURCES.md'), 'utf8');
  const out: VenueShapeManifest[] = [];
  for (const venue of VENUES) {
    const spec = VENUE_SHAPE_SPECS[venue];
    const text = await readFile(join(fixturesDir, 'reference', spec.file), 'utf8');
    out.push(extractShapeManifest(spec, parseYaml(text), sourcesMd, extractedAt(venue)));
  }
  return out;
}

/** The manifest file as committed: two-space JSON with a final newline (each field type on its own line). */
export function manifestText(manifest: VenueShapeManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** `pmref venue-shapes`: writes data/venue-shapes/<venue>.json from the venues' published OpenAPI documents. */
export const venueShapesCommand: Command = {
  name: 'venue-shapes',
  summary: "extract the venues' response shapes from their OpenAPI documents (for the drift watch)",
  usage: `
Usage: pmref venue-shapes --from DIR [--out DIR] [--date YYYY-MM-DD]

Reads DIR/reference/kalshi_trade_api_v2_openapi.yaml (venue_a) and DIR/reference/polymarket_gamma_openapi.json
(venue_b), with their origin from DIR/SOURCES.md, and writes venue_a.json and venue_b.json: per response
record the field names, JSON types and required fields. The drift watch checks every pull against them.

Options:
  --from DIR    the venue fixtures folder, e.g. ../shared/fixtures/venues (required)
  --out DIR     where to write (default data/venue-shapes)
  --date DATE   the extraction date to record (default today, UTC)
`,
  async run(args) {
    const { values } = parseFlags(args, {
      from: { type: 'string' },
      out: { type: 'string' },
      date: { type: 'string' },
    });
    if (values.from === undefined || values.from === '') throw new UsageError('--from DIR is required');
    const date = values.date ?? new Date().toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UsageError(`--date must be YYYY-MM-DD, got '${date}'`);
    const out = values.out ?? join('data', 'venue-shapes');
    const manifests = await readVenueShapeManifests(values.from, () => date);
    await mkdir(out, { recursive: true });
    for (const m of manifests) {
      await writeFile(join(out, `${m.venue}.json`), manifestText(m));
      process.stdout.write(
        `${m.venue}: ${m.document.title} ${m.document.version} → ${join(out, `${m.venue}.json`)} (${Object.keys(m.endpoints).length} endpoints, ${Object.keys(m.records).length} records)\n`,
      );
    }
    return 0;
  },
};
