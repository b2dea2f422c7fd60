/**
 * `pmref report grades`: the grade, commitment-subtype and source-status distribution per venue and per
 * category over the store (issue 5). `pmref report disputes`: the grade against venue_b's UMA disputes
 * (issue 16, report-disputes.ts). A table for a person, `--json` for a machine.
 */

import { loadConfig } from '../config.ts';
import type { Event, Market } from '../domain/index.ts';
import { openStore, type Store } from '../store/index.ts';
import {
  type DisputeCase,
  disputeCasesFromFiles,
  disputeCasesFromMarkets,
  disputeReport,
  formatDisputeReport,
} from './report-disputes.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

type Counts = Record<string, number>;
export interface GradeReport {
  markets: number;
  by_venue: Record<string, { markets: number; grade: Counts; commitment: Counts; source_status: Counts }>;
  by_category: Record<string, { markets: number; grade: Counts; commitment: Counts; source_status: Counts }>;
}

function bump(c: Counts, k: string): void {
  c[k] = (c[k] ?? 0) + 1;
}

/** Builds the distribution report over markets, keyed by venue and by their event's category. */
export function gradeReport(markets: readonly Market[], events: readonly Event[]): GradeReport {
  const category = new Map(events.map((e) => [e.event_id, e.category]));
  const report: GradeReport = { markets: markets.length, by_venue: {}, by_category: {} };
  const slot = (group: GradeReport['by_venue'], key: string) => {
    group[key] ??= { markets: 0, grade: {}, commitment: {}, source_status: {} };
    return group[key];
  };
  for (const m of markets) {
    for (const s of [
      slot(report.by_venue, m.platform),
      slot(report.by_category, (m.event_id && category.get(m.event_id)) || 'none'),
    ]) {
      s.markets++;
      bump(s.grade, m.rcg?.grade ?? 'pending');
      bump(s.commitment, m.source_commitment_subtype ?? 'unclassified');
      bump(s.source_status, m.source_status ?? 'unknown');
    }
  }
  return report;
}

function pct(n: number, of: number): string {
  return of === 0 ? '0%' : `${((100 * n) / of).toFixed(1)}%`;
}

function table(title: string, group: GradeReport['by_venue']): string {
  const lines = [`${title}`];
  for (const [key, s] of Object.entries(group).sort()) {
    const fmt = (c: Counts) =>
      Object.entries(c)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n} (${pct(n, s.markets)})`)
        .join(', ');
    lines.push(
      `  ${key} — ${s.markets} markets`,
      `    grade:         ${fmt(s.grade)}`,
      `    commitment:    ${fmt(s.commitment)}`,
      `    source_status: ${fmt(s.source_status)}`,
    );
  }
  return lines.join('\n');
}

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig().PMREF_DB_URL);
  try {
    await store.migrate();
    return await fn(store);
  } finally {
    await store.close();
  }
}

function print(json: boolean, report: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : text());
}

export const reportCommand: Command = {
  name: 'report',
  summary: 'reports: `report grades` (grade, commitment, source status) and `report disputes` (grade vs UMA disputes)',
  usage: `
Usage: pmref report grades [--json]
       pmref report disputes [--files FILE|DIR ...] [--json]

grades    The distribution of Resolution Clarity Grades, source-commitment subtypes and source statuses
          per venue and per category over every market in the store named by PMREF_DB_URL.

disputes  The grade backtested against venue_b's UMA dispute history: of the markets with a UMA history
          (at least one proposal or dispute), how many were disputed, by grade, by score band, by factor
          rating, by rule and by cap, counts beside every rate; the disputed markets with the factors that
          decided their grade (those graded A or B are findings); the recorded windows and the caveats.
          Input: by default the store (venue_b markets with a resolution_history, grade from the stored
          rcg). With --files (or FILE arguments after 'disputes'), native venue_b files or folders of them
          are graded in place instead, markets the pipeline keeps out of scope included, e.g.
            pmref report disputes --files ../shared/fixtures/venues/venue_b

  --json    the report as JSON, for machines
  --files   venue files or folders (every .json inside) to grade in place; may be repeated
`,
  async run(args) {
    const { values, positionals } = parseFlags(
      args,
      { json: { type: 'boolean' }, files: { type: 'string', multiple: true } },
      true,
    );
    const [name, ...rest] = positionals;
    const json = values.json === true;
    if (name === 'grades') {
      if (rest.length > 0 || values.files) throw new UsageError("'pmref report grades' takes no files");
      const report = await withStore(async (s) => gradeReport(await s.listMarkets(), await s.listEvents()));
      print(
        json,
        report,
        () =>
          `${report.markets} markets\n\n${table('By venue', report.by_venue)}\n\n${table('By category', report.by_category)}\n`,
      );
      return 0;
    }
    if (name === 'disputes') {
      const paths = [...(values.files ?? []), ...rest];
      let cases: DisputeCase[];
      let ungraded = 0;
      if (paths.length > 0) {
        try {
          cases = disputeCasesFromFiles(paths).cases;
        } catch (err) {
          process.stderr.write(`pmref report disputes: ${err instanceof Error ? err.message : String(err)}\n`);
          return 2;
        }
      } else {
        ({ cases, ungraded } = await withStore(async (s) =>
          disputeCasesFromMarkets(await s.listMarkets({ venue: 'venue_b' })),
        ));
      }
      const report = disputeReport(cases, paths.length > 0 ? 'files' : 'store', ungraded);
      print(json, report, () => formatDisputeReport(report));
      return 0;
    }
    throw new UsageError("name a report: 'pmref report grades' or 'pmref report disputes'");
  },
};
