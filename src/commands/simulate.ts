import { resolve } from 'node:path';
import { generateUniverse } from '../venues/simulate/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

function positiveInt(name: string, value: string | undefined, fallback: number | undefined): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required`);
    return fallback;
  }
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got '${value}'`);
  return Number(value);
}

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** `pmref simulate`: writes the deterministic simulated universe (issue 4) into a folder. */
export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'generate the simulated venue universe (both venues, history, truth sidecar)',
  usage: `
Usage: pmref simulate --out DIR --seed N [--days D] [--as-of YYYY-MM-DD] [--scale F]

Writes about 3,860 events and 39,200 markets in venue_a's and venue_b's own response shapes
(two snapshot days, D days of hourly prices and daily candles, spot prices), the cross-venue
truth sidecar truth.json and manifest.json into DIR. The same seed, days and as-of date give
byte-identical files. Everything in DIR is labelled data_source "simulated".

Options:
  --out DIR          output folder (created; its snapshots/, history/, truth.json and manifest.json are replaced)
  --seed N           integer seed
  --days D           days of history (default 14)
  --as-of DATE       the as-of snapshot date (default: today's UTC date)
  --scale F          fraction of the full universe, 0 < F <= 1 (default 1; tests use less)
`,
  async run(args) {
    const { values } = parseFlags(args, {
      out: { type: 'string' },
      seed: { type: 'string' },
      days: { type: 'string' },
      'as-of': { type: 'string' },
      scale: { type: 'string' },
    });
    if (values.out === undefined) throw new UsageError('--out is required');
    const seed = positiveInt('seed', values.seed, undefined);
    const days = positiveInt('days', values.days, 14);
    if (days < 2 || days > 90) throw new UsageError(`--days must be from 2 to 90, got ${days}`);
    const asOf = values['as-of'];
    if (asOf !== undefined && !isCalendarDay(asOf))
      throw new UsageError(`--as-of must be a date YYYY-MM-DD, got '${asOf}'`);
    const scale = values.scale === undefined ? 1 : Number(values.scale);
    if (!(scale > 0 && scale <= 1)) throw new UsageError(`--scale must be in (0, 1], got '${values.scale}'`);
    const outDir = resolve(values.out);
    const started = performance.now();
    const manifest = await generateUniverse({
      outDir,
      seed,
      days,
      scale,
      ...(asOf === undefined ? {} : { asOf }),
      onProgress: (p) => {
        if (p.stage !== 'done') process.stderr.write(`simulate: ${p.stage} ${p.done}/${p.total}\n`);
      },
    });
    const c = manifest.counts;
    process.stdout.write(
      `wrote the SIMULATED universe to ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${c.events} events / ${c.markets} markets (venue_a ${c.venue_a.events}/${c.venue_a.markets}, venue_b ${c.venue_b.events}/${c.venue_b.markets}); ` +
        `truth: ${c.twins} twins, ${c.complements} complements, ${c.traps} traps; snapshots ${manifest.snapshots.join(', ')}\n`,
    );
    return 0;
  },
};
