/**
 * `pmref report grades`: the grade, commitment-subtype and source-status distribution per venue and per
 * category over the store (issue 5). A table for a person, `--json` for a machine.
 */

import { loadConfig } from '../config.ts';
import type { Event, Market } from '../domain/index.ts';
import { openStore } from '../store/index.ts';
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

export const reportCommand: Command = {
  name: 'report',
  summary: 'reports over the store: `report grades` (grade, commitment and source-status distribution)',
  usage: `
Usage: pmref report grades [--json]

Prints the distribution of Resolution Clarity Grades, source-commitment subtypes and source statuses
per venue and per category over every market in the store named by PMREF_DB_URL.
`,
  async run(args) {
    const { values, positionals } = parseFlags(args, { json: { type: 'boolean' } }, true);
    if (positionals[0] !== 'grades' || positionals.length !== 1)
      throw new UsageError("name a report: 'pmref report grades'");
    const config = loadConfig();
    const store = await openStore(config.PMREF_DB_URL);
    try {
      await store.migrate();
      const report = gradeReport(await store.listMarkets(), await store.listEvents());
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else
        process.stdout.write(
          `${report.markets} markets\n\n${table('By venue', report.by_venue)}\n\n${table('By category', report.by_category)}\n`,
        );
      return 0;
    } finally {
      await store.close();
    }
  },
};
