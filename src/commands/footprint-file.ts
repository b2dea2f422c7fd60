/**
 * bench/footprint.json (issue 18): what a store of marks costs, each figure with how it was measured. The file
 * holds several runs side by side, keyed by a label (`before`: the store built by the code before issue 18;
 * later labels: after the store rewrite, after a year of history…), so that a new measurement never loses an
 * earlier one: writing a run merges its figures into that label by key and leaves every other label as it was.
 *
 * Some figures are measured by the lead outside this command (they need a whole `npm start`): they have slots
 * here, filled from a small JSON file (`--lead FILE`) or left null with a note saying who measures them.
 */

export type FigureValue = number | string | Record<string, unknown> | null;

/** One measured figure and how it was measured. */
export interface Figure {
  value: FigureValue;
  unit?: string;
  /** How the figure was measured, in words (what was timed or summed, over what). */
  how: string;
  /** The command that measured it. */
  command?: string | null;
  /** When it was measured (ISO). */
  at?: string | null;
  /** The machine's load average (1, 5, 15 min) when it was measured: figures move with it on a shared machine. */
  load_average?: number[] | null;
  /** The store it was measured on, when that matters (marks and markets then). */
  dataset?: { markets: number; marks: number } | null;
  goal?: string;
  note?: string;
  [extra: string]: unknown;
}

export interface FootprintRun {
  /** The store measured (a database URL). */
  store?: string;
  /** What the store is (where it came from, what was done to it): `--note`. */
  note?: string;
  dataset?: Record<string, unknown>;
  machine?: Record<string, unknown>;
  updated_at: string;
  figures: Record<string, Figure>;
}

export interface FootprintFile {
  about: string;
  runs: Record<string, FootprintRun>;
}

export const FOOTPRINT_ABOUT =
  'What a store of marks costs (issue 18). runs: one entry per measured store, keyed by label; each figure says ' +
  'how it was measured (how, command, at, load_average). Written by `pmref bench --footprint` (bench/README.md, ' +
  'Footprint), which merges into its label by figure key and keeps every other label (the `before` run is the ' +
  'store built by the code before issue 18). Figures with value null are measured separately (see their note).';

/** Figures the lead measures outside `pmref bench --footprint`: their units and how they are measured. */
export const LEAD_SLOTS: Readonly<Record<string, { unit: string; how: string; note?: string }>> = {
  npm_start_peak_rss_mb: {
    unit: 'MB',
    how: 'peak RSS of `npm start` on a fresh store (simulated universe, no network) over the first ingest and the history catch-up, sampled from /proc/PID/status every 0.3 s',
  },
  npm_start_steady_rss_mb: {
    unit: 'MB',
    how: 'RSS of `npm start` 40 s after the history catch-up has published and the read model has swapped',
  },
  first_start_first_200_s: {
    unit: 's',
    how: 'seconds from `npm start` on a fresh store (simulated universe, no network) to the first 200 on /v1/events',
  },
  restart_first_200_s: {
    unit: 's',
    how: 'seconds from `npm start` on the store of a finished first start to the first 200 on /v1/events',
  },
  refresh_cpu_s: {
    unit: 's',
    how: 'CPU seconds (user + system) of one hourly refresh run on the full simulated universe',
    note: 'measured by `pmref bench --refresh` (with full_run_cpu_s and refresh_ratio), or merged with --lead FILE',
  },
};

const LEAD_NOTE = 'measured by the lead outside `pmref bench --footprint`; merge it with --lead FILE';

/**
 * A lead figure from the `--lead` input: a number (or null), or an object with at least `value`. Throws on
 * anything else, naming the key, so that a typo does not land in the file silently.
 */
export function leadFigure(key: string, input: unknown, source: string): Figure {
  const slot = LEAD_SLOTS[key];
  const base: Figure = { value: null, ...(slot ? { unit: slot.unit } : {}), how: slot?.how ?? 'measured by the lead' };
  if (input === null || typeof input === 'number') {
    return { ...base, value: input, note: `measured by the lead; merged from ${source}` };
  }
  if (typeof input === 'object' && !Array.isArray(input) && 'value' in input) {
    const fig = input as Record<string, unknown>;
    const value = fig.value;
    if (value !== null && typeof value !== 'number')
      throw new Error(`--lead ${source}: ${key}.value must be a number or null`);
    return { ...base, note: `measured by the lead; merged from ${source}`, ...fig, value } as Figure;
  }
  throw new Error(`--lead ${source}: ${key} must be a number, null or an object with a value`);
}

/**
 * Merges one run into the file: `figures` replace the same keys under `label`; the label's other figures and
 * every other label stay; `lead` figures replace their keys; a lead slot still missing is added as null.
 * Pure: returns a new file.
 */
export function mergeFootprint(
  existing: FootprintFile | null,
  label: string,
  run: Omit<FootprintRun, 'figures' | 'updated_at'> & { figures: Record<string, Figure> },
  lead: Record<string, Figure>,
  at: string,
): FootprintFile {
  const runs: Record<string, FootprintRun> = { ...(existing?.runs ?? {}) };
  const prev = runs[label];
  const figures: Record<string, Figure> = { ...(prev?.figures ?? {}), ...run.figures, ...lead };
  for (const [key, slot] of Object.entries(LEAD_SLOTS)) {
    if (figures[key] === undefined)
      figures[key] = { value: null, unit: slot.unit, how: slot.how, note: slot.note ?? LEAD_NOTE };
  }
  const store = run.store ?? prev?.store;
  const note = run.note ?? prev?.note;
  const dataset = run.dataset ?? prev?.dataset;
  const machine = run.machine ?? prev?.machine;
  runs[label] = {
    ...(store === undefined ? {} : { store }),
    ...(note === undefined ? {} : { note }),
    ...(dataset === undefined ? {} : { dataset }),
    ...(machine === undefined ? {} : { machine }),
    updated_at: at,
    figures,
  };
  return { about: FOOTPRINT_ABOUT, runs };
}

/** Reads the footprint file's JSON text (null text: no file yet). Throws when it is not a footprint file. */
export function parseFootprint(text: string | null): FootprintFile | null {
  if (text === null) return null;
  const parsed = JSON.parse(text) as Partial<FootprintFile>;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.runs !== 'object' || parsed.runs === null)
    throw new Error('not a footprint file (no "runs" object)');
  return { about: parsed.about ?? FOOTPRINT_ABOUT, runs: parsed.runs };
}

/** The repository formatter's line width (biome.json): an array that fits in it is written on one line. */
const LINE_WIDTH = 120;

/**
 * The file's text: JSON.stringify with two spaces, number arrays (load averages, values) kept on one line as the
 * repository's formatter (biome) writes them, and an array of such arrays (values per process) on one line where it
 * fits the line width, so that a written file passes `npm run lint` unchanged.
 */
export function footprintJson(file: FootprintFile): string {
  const text = JSON.stringify(file, null, 2)
    .replace(
      /\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g,
      (_, items: string) => `[${items.split(/,\s*/).join(', ')}]`,
    )
    .replace(
      /^( *)(.*)\[\n((?: *\[[^[\]\n]*\],?\n)+) *\](,?)$/gm,
      (whole, indent: string, head: string, rows: string, comma: string) => {
        const line = `${indent}${head}[${rows
          .trim()
          .split(/,?\n\s*/)
          .map((row) => row.replace(/,$/, ''))
          .join(', ')}]${comma}`;
        return line.length <= LINE_WIDTH ? line : whole;
      },
    );
  return `${text}\n`;
}

/** Nearest-rank percentile of `values` (q in 0..1); NaN for no values. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
