/**
 * `get_stats` for agents (issue 17): "how common is X?" answered as a count and a share, not as a cube to add up.
 * The statistics are the query service's (`statsData`, precomputed per generation); this only sums the cells a
 * question selects. The share's population is the markets of the same venue and category (the filters that say
 * *which* markets), and the count adds grade and commitment subtype (the filters that say *what kind*), so
 * "how common is it that a venue_b market commits to no source" is
 * `{venue: venue_b, source_commitment_subtype: none}` → markets / venue_b markets. A market whose subtype was
 * never derived (null) is counted in the population but never as `none`: "no source" is a finding, null is not.
 */
import { z } from 'zod';
import { type Stats, StatsCellSchema, StatsSchema } from '../domain/index.ts';

export interface StatsFilter {
  venue?: string | undefined;
  category?: string | undefined;
  grade?: string | undefined;
  source_commitment_subtype?: string | undefined;
  cells?: boolean | undefined;
}

export const StatsSelectionSchema = z
  .object({
    filter: z.record(z.string(), z.string()).describe('The filters applied.'),
    markets: z.number().int().describe('Markets matching every filter.'),
    out_of: z.number().int().describe('Markets of the same venue and category (all markets without those filters).'),
    share: z.number().min(0).max(1).nullable().describe('markets / out_of, 4 decimals; null when out_of is 0.'),
    sentence: z.string().describe('The answer in words.'),
  })
  .describe('The count a question selects, and its share of its population.');
export type StatsSelection = z.infer<typeof StatsSelectionSchema>;

export const AgentStatsSchema = StatsSchema.omit({ cells: true })
  .extend({
    selection: StatsSelectionSchema.nullable().describe('Present when a filter was given.'),
    cells: z
      .array(StatsCellSchema)
      .optional()
      .describe('The venue × grade × subtype × category cells, matching the filters; only when cells=true.'),
    notice: z.object({ reason: z.string(), try: z.array(z.string()) }).nullable(),
  })
  .describe('Catalog statistics with the selected count and share.');
export type AgentStats = z.infer<typeof AgentStatsSchema>;

type Cell = Stats['cells'][number];

/** Sums the cells the filter selects and words the answer. */
export function selectStats(stats: Stats, f: StatsFilter): AgentStats {
  const { cells, ...rest } = stats;
  const filter: Record<string, string> = {};
  for (const k of ['venue', 'category', 'grade', 'source_commitment_subtype'] as const) {
    const v = f[k];
    if (v !== undefined) filter[k] = v;
  }
  const inPopulation = (c: Cell) =>
    (f.venue === undefined || c.venue === f.venue) && (f.category === undefined || c.category === f.category);
  const matches = (c: Cell) =>
    inPopulation(c) &&
    (f.grade === undefined || c.grade === f.grade) &&
    (f.source_commitment_subtype === undefined || c.source_commitment_subtype === f.source_commitment_subtype);
  const selected = cells.filter(matches);
  let selection: StatsSelection | null = null;
  let notice: AgentStats['notice'] = null;
  if (Object.keys(filter).length > 0) {
    const markets = selected.reduce((n, c) => n + c.markets, 0);
    const outOf = cells.filter(inPopulation).reduce((n, c) => n + c.markets, 0);
    const share = outOf === 0 ? null : Math.round((markets / outOf) * 10_000) / 10_000;
    const population = [f.venue, f.category].filter((x) => x !== undefined).join(' ') || 'all';
    const kind = [
      f.grade ? `grade ${f.grade}` : '',
      f.source_commitment_subtype ? `commitment ${f.source_commitment_subtype}` : '',
    ]
      .filter((x) => x !== '')
      .join(' and ');
    selection = {
      filter,
      markets,
      out_of: outOf,
      share,
      sentence:
        share === null
          ? `No ${population} markets are served, so the share is undefined.`
          : `${markets} of ${outOf} ${population} markets${kind ? ` have ${kind}` : ''} (${(share * 100).toFixed(1)}%).`,
    };
    if (outOf === 0) {
      notice = {
        reason: `No served market has ${[f.venue ? `venue=${f.venue}` : '', f.category ? `category=${f.category}` : ''].filter((x) => x).join(' and ')}.`,
        try: [
          `venues: ${Object.keys(stats.by_venue).join(', ') || 'none yet'}`,
          `categories: ${Object.keys(stats.by_category).join(', ') || 'none yet'}`,
        ],
      };
    }
  }
  if (stats.markets === 0) {
    notice = {
      reason: 'The catalog serves no market yet: the first ingest has not published.',
      try: ['Ask again after the first pipeline run (GET /v1/status).'],
    };
  }
  return { ...rest, selection, ...(f.cells ? { cells: selected } : {}), notice };
}
