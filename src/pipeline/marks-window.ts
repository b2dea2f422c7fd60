/**
 * The signal window a run leaves, kept for the next (issue 18). The signal detectors read every mark of the last
 * eight days (about 300,000 on the full universe); an hourly refresh read the seven earlier days from the store each
 * time (1.3–2.1 s of its CPU), though only a run writes marks and the next run starts from what this one published.
 * So the incremental memo keeps the figures the last run read and wrote, and the next run takes its earlier days from
 * them instead of the store, under the memo's own rule: only while the store's last published run is the one that
 * recorded them (incremental.ts `usableState`).
 *
 * Packed in columns (typed arrays, the texts each once): 300,000 marks take about 15 MB, where as objects they took
 * about 60, for the hour between runs; a pipeline thread hands the memo to its successor by structured clone, so the
 * window is plain data, read by the functions here. Pure.
 */
import type { MarkFigures } from '../domain/index.ts';

/** The numeric figures of a mark, in the order they sit in `MarksWindow.numbers`. */
const NUMBER_FIELDS = [
  'yes_last_price',
  'implied_probability',
  'volume_24h_usd',
  'yes_ask_size_usd',
  'no_ask_size_usd',
] as const;
const WIDTH = NUMBER_FIELDS.length;
/** `stale` codes. */
const STALE_NULL = 2;

export interface MarksWindow {
  /** The first and last snapshot dates the window covers (YYYY-MM-DD, inclusive): every stored mark between them. */
  from: string;
  through: string;
  /** The distinct texts, each once; the columns index them. */
  marketIds: string[];
  dates: string[];
  methods: (string | null)[];
  /** Per mark, in listing order (snapshot_date, then market_id). */
  market: Uint32Array;
  date: Uint16Array;
  method: Uint8Array;
  /** 0 false, 1 true, 2 null. */
  stale: Uint8Array;
  /** WIDTH numbers per mark (NUMBER_FIELDS; NaN for null: no figure is NaN). */
  numbers: Float64Array;
}

/** An index of texts that keeps each once. */
function interner(list: (string | null)[]) {
  const at = new Map<string | null, number>();
  return (text: string | null): number => {
    let i = at.get(text);
    if (i === undefined) {
      i = list.length;
      list.push(text);
      at.set(text, i);
    }
    return i;
  };
}

/**
 * The window of `marks` (every stored mark dated `from` to `through`, in listing order), or null when a mark holds a
 * figure the columns cannot give back exactly (a figure that is not a number or null, a flag that is not a boolean
 * or null: rows stored with overflow may): the next run then reads the store.
 */
export function packWindow(marks: readonly MarkFigures[], from: string, through: string): MarksWindow | null {
  const marketIds: string[] = [];
  const dates: string[] = [];
  const methods: (string | null)[] = [];
  const marketAt = interner(marketIds as (string | null)[]);
  const dateAt = interner(dates as (string | null)[]);
  const methodAt = interner(methods);
  const n = marks.length;
  const market = new Uint32Array(n);
  const date = new Uint16Array(n);
  const method = new Uint8Array(n);
  const stale = new Uint8Array(n);
  const numbers = new Float64Array(n * WIDTH);
  for (let i = 0; i < n; i++) {
    const m = marks[i] as MarkFigures;
    if (m.snapshot_date < from || m.snapshot_date > through) return null;
    market[i] = marketAt(m.market_id);
    date[i] = dateAt(m.snapshot_date);
    const flag = m.stale_flag as boolean | null;
    if (typeof flag !== 'boolean' && flag !== null) return null;
    stale[i] = flag === null ? STALE_NULL : flag ? 1 : 0;
    const kind = m.mark_method as string | null;
    if (typeof kind !== 'string' && kind !== null) return null;
    method[i] = methodAt(kind);
    if (methods.length > 255 || dates.length > 65_535) return null;
    for (let f = 0; f < WIDTH; f++) {
      const value = m[NUMBER_FIELDS[f] as (typeof NUMBER_FIELDS)[number]] as number | null;
      // A stored -0 or non-finite number reads back otherwise (0, null): such a window would not be the store's.
      if (value === null) numbers[i * WIDTH + f] = Number.NaN;
      else if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))
        numbers[i * WIDTH + f] = value;
      else return null;
    }
  }
  return { from, through, marketIds, dates, methods, market, date, method, stale, numbers };
}

/** The window's marks dated `from` (inclusive) to `until` (exclusive), in listing order, as `MarkFigures`. */
export function windowFigures(w: MarksWindow, from: string, until: string): MarkFigures[] {
  const out: MarkFigures[] = [];
  const n = w.market.length;
  for (let i = 0; i < n; i++) {
    const snapshotDate = w.dates[w.date[i] as number] as string;
    if (snapshotDate < from || snapshotDate >= until) continue;
    const at = i * WIDTH;
    const figure = (f: number): number | null => {
      const value = w.numbers[at + f] as number;
      return Number.isNaN(value) ? null : value;
    };
    const stale = w.stale[i];
    out.push({
      market_id: w.marketIds[w.market[i] as number] as string,
      snapshot_date: snapshotDate,
      yes_last_price: figure(0),
      implied_probability: figure(1),
      volume_24h_usd: figure(2),
      yes_ask_size_usd: figure(3),
      no_ask_size_usd: figure(4),
      mark_method: w.methods[w.method[i] as number] as MarkFigures['mark_method'],
      stale_flag: (stale === STALE_NULL ? null : stale === 1) as boolean,
    });
  }
  return out;
}

/**
 * Whether the window holds every stored mark dated `from` to the day before `until`, given that no run published
 * since the window's: days after `through` then hold no mark (only a run writes marks).
 */
export function windowCovers(w: MarksWindow, from: string, until: string): boolean {
  return from >= w.from && until >= w.through;
}
