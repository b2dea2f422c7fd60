/**
 * `pmref canon FILE... [--json]`: claim keys, question_ids (or why there is none) and the
 * cross-venue links they make, for venue-native or canonical market records in any fixture shape.
 * Native records go through the canon module's minimal mapping (`nativeRecordsOf`) until the venue
 * normalizer is wired here.
 */
import { readFile } from 'node:fs/promises';
import { questionIdFor } from '../domain/index.ts';
import { claimKeyOf, crossVenueLinks, nativeRecordsOf } from '../editorial/canon/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

const usage = `
Usage: pmref canon FILE... [--json]

Reads venue-native (venue_a events/markets, venue_b Gamma events/markets) or canonical market
records from each FILE (one record, a list, or any recorded fixture shape) and prints each market's
claim key, its question_id or the reason it has none, and the cross-venue links: same and complement
(a shared question_id) and related (different keys that differ only in typed parts, listed).

Options:
  --json   print {"markets": [{venue, native_id, question_id, reason?, claim_key}],
           "links": [[venue_a id, venue_b id, "same"|"complement"|"related", differences?]]}
           (a venue_b market is named by its conditionId; differences, on related links only, are
           [{type, venue_a, venue_b}] with type resolves_on|horizon|threshold|source|scope|death_rule|wording)
`;

interface Row {
  venue: string;
  native_id: string;
  question_id: string | null;
  reason?: string;
  claim_key: string | null;
}

export const canonCommand: Command = {
  name: 'canon',
  summary: 'Print claim keys, question_ids and cross-venue links for market records',
  usage,
  async run(args) {
    const { values, positionals } = parseFlags(args, { json: { type: 'boolean', default: false } }, true);
    if (positionals.length === 0) throw new UsageError('give at least one FILE');
    const now = new Date().toISOString();
    const seen = new Map<string, ReturnType<typeof nativeRecordsOf>[number]>();
    for (const file of positionals) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new UsageError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
      for (const r of nativeRecordsOf(parsed, now)) seen.set(`${r.market.platform}:${r.market.platform_market_id}`, r);
    }
    const rows: Row[] = [];
    const markets = [...seen.values()].map((r) => {
      const claim = claimKeyOf(r.market, r.facts);
      if (claim.status === 'keyed') {
        const qid = questionIdFor(claim.normalized);
        rows.push({
          venue: r.market.platform,
          native_id: r.market.platform_market_id,
          question_id: qid,
          claim_key: claim.normalized,
        });
        return {
          ...r.market,
          question_id: qid,
          direction: claim.key.direction,
          claim_key: { ...claim.key, normalized: claim.normalized },
        };
      }
      rows.push({
        venue: r.market.platform,
        native_id: r.market.platform_market_id,
        question_id: null,
        reason: claim.reason,
        claim_key: null,
      });
      return r.market;
    });
    const links = crossVenueLinks(markets).map((l) =>
      l.differences
        ? ([l.a.platform_market_id, l.b.platform_market_id, l.kind, l.differences] as const)
        : ([l.a.platform_market_id, l.b.platform_market_id, l.kind] as const),
    );
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ markets: rows, links })}\n`);
      return 0;
    }
    for (const r of rows) {
      process.stdout.write(
        `${r.venue}  ${r.native_id}\n  ${r.question_id ? `${r.question_id}  ${r.claim_key}` : `no question_id: ${r.reason}`}\n`,
      );
    }
    const keyed = rows.filter((r) => r.question_id).length;
    const count = (k: string) => links.filter((l) => l[2] === k).length;
    process.stdout.write(
      `\n${rows.length} markets, ${keyed} keyed, ${links.length} cross-venue links (same ${count('same')}, complement ${count('complement')}, related ${count('related')})\n`,
    );
    for (const [a, b, kind, differences] of links) {
      process.stdout.write(`  ${kind.padEnd(10)} ${a}  <->  ${b}\n`);
      for (const d of differences ?? []) {
        process.stdout.write(
          `      ${d.type}: venue_a ${d.venue_a ?? '(unstated)'} | venue_b ${d.venue_b ?? '(unstated)'}\n`,
        );
      }
    }
    return 0;
  },
};
