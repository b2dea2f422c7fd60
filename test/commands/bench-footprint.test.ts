// The history generator writes exactly N contiguous days of valid marks per market, back from each market's oldest mark, the same for the same seed, never touching a stored mark; bench/footprint.json merges a run into its label by key and keeps every other label.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { daysBefore, historyProgressLine, writeHistory } from '../../src/commands/bench-history.ts';
import {
  type FootprintFile,
  footprintJson,
  LEAD_SLOTS,
  leadFigure,
  mergeFootprint,
  parseFootprint,
  percentile,
} from '../../src/commands/footprint-file.ts';
import { type Mark, MarkSchema } from '../../src/domain/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { allMarkets, seedMarks, seedStore, TODAY, YESTERDAY } from '../serve/seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'pmref-footprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAYS = 30;
const withoutId = ({ mark_id: _id, ...rest }: Mark) => rest;

function byMarket(marks: readonly Mark[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of marks) out.set(m.market_id, [...(out.get(m.market_id) ?? []), m.snapshot_date]);
  return out;
}

async function generated(seed: number): Promise<{ store: Store; before: Mark[] }> {
  const store = await seedStore();
  const before = await store.listMarks();
  // A small batch and group so that several transactions and groups are exercised.
  await writeHistory(store, { days: DAYS, seed, batchMarks: 25, groupMarkets: 3 });
  return { store, before };
}

describe('writeHistory', () => {
  it('writes N contiguous days per market, back from its oldest mark, as valid history marks', async () => {
    const { store, before } = await generated(7);
    const oldestBefore = new Map<string, string>();
    for (const m of before) if (!oldestBefore.has(m.market_id)) oldestBefore.set(m.market_id, m.snapshot_date);
    const after = await store.listMarks();
    expect(after).toHaveLength(before.length + allMarkets.length * DAYS);

    const beforeIds = new Set(before.map((m) => m.mark_id));
    const added = after.filter((m) => !beforeIds.has(m.mark_id));
    const dates = byMarket(added);
    expect([...dates.keys()].sort()).toEqual(allMarkets.map((m) => m.market_id).sort());
    for (const market of allMarkets) {
      // A market without any mark (the unpublished one) is walked back from the store's oldest date.
      const end = oldestBefore.get(market.market_id) ?? YESTERDAY;
      const expected = Array.from({ length: DAYS }, (_, i) => daysBefore(end, DAYS - i));
      expect(dates.get(market.market_id), market.market_id).toEqual(expected);
    }
    expect(oldestBefore.get(allMarkets[3]?.market_id ?? '')).toBe(TODAY); // one market starts a day later

    for (const mark of added) {
      expect(() => MarkSchema.parse(mark), JSON.stringify(mark)).not.toThrow();
      expect(mark).toMatchObject({ mark_method: 'venue_snapshot', raw_payload: null, stale_flag: false });
      expect(mark.field_provenance.snapshot_at).toEqual({
        source: 'platform_api',
        note: 'venue price history (daily)',
      });
      expect(mark.yes_last_price).toBeGreaterThan(0);
      expect(mark.yes_last_price).toBeLessThan(1);
    }
    // venue_a history carries a book and volume; venue_b history does not (the venues' own limitation).
    const venueOf = new Map(allMarkets.map((m) => [m.market_id, m.platform]));
    const a = added.find((m) => venueOf.get(m.market_id) === 'venue_a');
    const b = added.find((m) => venueOf.get(m.market_id) === 'venue_b');
    expect(a?.yes_bid).toEqual(expect.any(Number));
    expect(a?.volume_24h_usd).toEqual(expect.any(Number));
    expect(b?.yes_bid).toBeNull();
    expect(b?.field_provenance.volume_24h_usd).toEqual({ source: 'null_by_venue_limitation' });

    // Stored marks are untouched: same ids, same records.
    expect(after.filter((m) => beforeIds.has(m.mark_id))).toEqual(before);
    await store.close();
  });

  it('is deterministic for a seed, and another seed walks elsewhere', async () => {
    const one = await generated(7);
    const two = await generated(7);
    const other = await generated(8);
    const [x, y, z] = await Promise.all([one.store.listMarks(), two.store.listMarks(), other.store.listMarks()]);
    expect(y.map(withoutId)).toEqual(x.map(withoutId));
    const prices = (marks: Mark[]) => marks.map((m) => m.yes_last_price);
    expect(prices(z)).not.toEqual(prices(x));
    expect(z.map((m) => `${m.market_id}|${m.snapshot_date}`)).toEqual(
      x.map((m) => `${m.market_id}|${m.snapshot_date}`),
    );
    await Promise.all([one.store.close(), two.store.close(), other.store.close()]);
  });

  it('reports progress per transaction up to the total, and a second run extends further back', async () => {
    const store = await seedStore();
    const seen: Array<{ marks: number; total: number }> = [];
    let clock = 0;
    const result = await writeHistory(store, {
      days: 5,
      seed: 1,
      batchMarks: 16,
      groupMarkets: 8,
      now: () => (clock += 1000),
      onProgress: (p) => seen.push({ marks: p.marks, total: p.total }),
    });
    const total = allMarkets.length * 5;
    expect(seen.map((p) => p.total)).toEqual(seen.map(() => total));
    expect(seen.at(-1)?.marks).toBe(total);
    expect(seen.map((p) => p.marks)).toEqual([...seen.map((p) => p.marks)].sort((p, q) => p - q));
    expect(result).toMatchObject({ markets: allMarkets.length, marks: total, days: 5, transactions: seen.length });
    expect(result.from).toBe(daysBefore(YESTERDAY, 5));
    // Each market goes on from its own oldest mark: the one that started a day later stays a day later.
    const second = await writeHistory(store, { days: 2, seed: 1 });
    expect(second).toMatchObject({ from: daysBefore(YESTERDAY, 7), to: daysBefore(YESTERDAY, 5) });
    expect((await store.counts()).marks).toBe(seedMarks().length + total + allMarkets.length * 2);
    await store.close();
  });

  it('refuses a store without marks', async () => {
    const store = await seedStore();
    const empty = await openStore('sqlite::memory:');
    await empty.migrate();
    await expect(writeHistory(empty, { days: 3, seed: 1 })).rejects.toThrow('the store holds no marks');
    await Promise.all([store.close(), empty.close()]);
  });

  it('says how far it is and how long is left', () => {
    expect(historyProgressLine({ marks: 1_000_000, total: 4_000_000, elapsedMs: 20_000 })).toBe(
      'history: 1,000,000 / 4,000,000 marks (25.0%), 50,000 marks/s, 1m 0s left',
    );
  });
});

const figure = (value: number, how = 'measured') => ({ value, unit: 'bytes', how });

describe('footprint file', () => {
  it('merges a run into its label by key and keeps the other labels', () => {
    const first = mergeFootprint(
      null,
      'before',
      { store: 'sqlite:base', figures: { store_file_bytes: figure(100), pack_bytes: figure(10) } },
      { npm_start_peak_rss_mb: leadFigure('npm_start_peak_rss_mb', 4094, 'lead.json') },
      '2026-11-25T00:00:00.000Z',
    );
    const second = mergeFootprint(
      first,
      'after',
      { store: 'sqlite:new', figures: { store_file_bytes: figure(50) } },
      {},
      '2026-11-26T00:00:00.000Z',
    );
    const third = mergeFootprint(
      second,
      'after',
      { figures: { marks_rows: figure(7) } },
      {},
      '2026-11-27T00:00:00.000Z',
    );
    expect(Object.keys(third.runs)).toEqual(['before', 'after']);
    expect(third.runs.before).toEqual(first.runs.before);
    expect(third.runs.after?.store).toBe('sqlite:new');
    expect(third.runs.after?.updated_at).toBe('2026-11-27T00:00:00.000Z');
    expect(third.runs.after?.figures.store_file_bytes?.value).toBe(50);
    expect(third.runs.after?.figures.marks_rows?.value).toBe(7);
    expect(first.runs.before?.figures.npm_start_peak_rss_mb).toMatchObject({
      value: 4094,
      unit: 'MB',
      how: LEAD_SLOTS.npm_start_peak_rss_mb?.how,
    });
    // Lead slots nobody filled are present, null, with a note saying who measures them.
    for (const slot of Object.keys(LEAD_SLOTS)) {
      expect(third.runs.after?.figures[slot]?.value, slot).toBeNull();
      expect(third.runs.after?.figures[slot]?.note, slot).toMatch(/--lead FILE/);
    }
    // A newer figure replaces its key; a lead figure given later replaces the null slot.
    const fourth = mergeFootprint(
      third,
      'after',
      { figures: { store_file_bytes: figure(60) } },
      { restart_first_200_s: leadFigure('restart_first_200_s', { value: 4.2, how: 'curl loop' }, 'l.json') },
      '2026-11-28T00:00:00.000Z',
    );
    expect(fourth.runs.after?.figures.store_file_bytes?.value).toBe(60);
    expect(fourth.runs.after?.figures.restart_first_200_s).toMatchObject({ value: 4.2, how: 'curl loop', unit: 's' });
    expect(parseFootprint(footprintJson(fourth))).toEqual(fourth);
  });

  it('keeps a run note and writes number arrays on one line, as the formatter does', () => {
    const file = mergeFootprint(
      null,
      'base',
      { note: 'a copy of the baseline store', figures: { x: { ...figure(1), load_average: [1.5, 2, 0.25] } } },
      {},
      '2026-11-25T00:00:00.000Z',
    );
    const again = mergeFootprint(file, 'base', { figures: {} }, {}, '2026-11-26T00:00:00.000Z');
    expect(again.runs.base?.note).toBe('a copy of the baseline store');
    const text = footprintJson(again);
    expect(text).toContain('"load_average": [1.5, 2, 0.25]');
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(again);
  });

  it("writes the file as the repository's formatter would, number arrays and short arrays of them on one line", async () => {
    const file = mergeFootprint(
      null,
      'refresh',
      {
        figures: {
          x: {
            ...figure(1),
            values: [8.69, 7.74, 8.88],
            per_process: [
              [22.63, 8.69, 7.74],
              [21.95, 8.88, 8.1],
            ],
            // Too long for one line: an array per line, as the formatter leaves it.
            long: Array.from({ length: 8 }, (_, i) => [i + 0.123456789, i + 1000.123456789]),
          },
        },
      },
      {},
      '2026-11-28T00:00:00.000Z',
    );
    const text = footprintJson(file);
    expect(text).toContain('"per_process": [[22.63, 8.69, 7.74], [21.95, 8.88, 8.1]],');
    expect(JSON.parse(text)).toEqual(file);
    const biome = fileURLToPath(new URL('../../node_modules/@biomejs/biome/bin/biome', import.meta.url));
    const formatted = await new Promise<string>((ok, fail) => {
      const child = execFile(
        process.execPath,
        [biome, 'format', '--stdin-file-path=bench/footprint.json'],
        { cwd: fileURLToPath(new URL('../../', import.meta.url)) },
        (err, stdout) => (err ? fail(err) : ok(stdout)),
      );
      child.stdin?.end(text);
    });
    expect(formatted).toBe(text);
  });

  it('refuses lead figures and files of the wrong shape', () => {
    expect(() => leadFigure('refresh_cpu_s', '12 s', 'l.json')).toThrow('refresh_cpu_s must be a number');
    expect(() => leadFigure('refresh_cpu_s', { value: 'x' }, 'l.json')).toThrow('refresh_cpu_s.value');
    expect(() => parseFootprint('{"figures": {}}')).toThrow('not a footprint file');
    expect(parseFootprint(null)).toBeNull();
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([3], 0.99)).toBe(3);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('pmref bench --history --footprint', () => {
  const run = promisify(execFile);
  const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));

  it('writes history, measures the store and merges into bench/footprint.json keeping other labels', async () => {
    const db = join(dir, 'cli.sqlite');
    const store = await seedStore(`sqlite:${db}`);
    await store.close();
    const out = join(dir, 'footprint.json');
    const earlier: FootprintFile = {
      about: 'x',
      runs: { before: { updated_at: '2026-11-25T00:00:00.000Z', figures: { store_file_bytes: figure(1) } } },
    };
    writeFileSync(out, JSON.stringify(earlier));
    const lead = join(dir, 'lead.json');
    writeFileSync(lead, JSON.stringify({ refresh_cpu_s: 31.5 }));
    const env = { ...process.env, PMREF_DB_URL: `sqlite:${db}`, PMREF_LOG_LEVEL: 'warn' };
    const args = ['bench', '--history', '--days', '3', '--footprint', '--label', 'tiny', '--lead', lead];
    const { stdout, stderr } = await run(
      process.execPath,
      [BIN, ...args, '--feed-pages', '2', '--history-samples', '3', '--out', out],
      { env },
    );
    expect(stderr).toContain(`history: ${allMarkets.length * 3} / ${allMarkets.length * 3} marks (100.0%)`);
    expect(stdout).toContain(`wrote ${out} (label tiny:`);
    const file = parseFootprint(readFileSync(out, 'utf8'));
    expect(file?.runs.before).toEqual(earlier.runs.before);
    const tiny = file?.runs.tiny;
    expect(tiny?.dataset).toMatchObject({
      markets: allMarkets.length,
      marks: seedMarks().length + allMarkets.length * 3,
    });
    const figures = tiny?.figures ?? {};
    for (const key of [
      'history_marks_written',
      'history_write_s',
      'history_marks_per_s',
      'store_file_bytes',
      'store_wal_bytes',
      'pack_bytes',
      'marks_rows',
      'marks_table_bytes',
      'marks_bytes_per_mark',
      'marks_bytes_per_mark_with_indexes',
      'marks_all_bytes_per_mark',
      'marks_bytes_per_day',
      'table_bytes',
      'marks_feed_page_p50_ms',
      'marks_feed_page_p99_ms',
      'market_history_query_p50_ms',
      'market_history_query_p99_ms',
      'latest_marks_ms',
      'latest_mark_facts_ms',
    ]) {
      expect(figures[key], key).toMatchObject({
        how: expect.any(String),
        command: expect.stringContaining('--footprint'),
      });
      expect(new Date(figures[key]?.at ?? '').toISOString(), key).toBe(figures[key]?.at);
    }
    expect(figures.history_marks_written?.value).toBe(allMarkets.length * 3);
    expect(figures.marks_rows?.value).toBe(seedMarks().length + allMarkets.length * 3);
    expect(figures.marks_feed_page_p50_ms).toMatchObject({ pages: 1, marks: expect.any(Number) });
    expect(figures.market_history_query_p99_ms).toMatchObject({ markets: 3, goal: 'p99 ≤ 20 ms' });
    const perMark = figures.marks_bytes_per_mark_with_indexes?.value as number;
    expect(perMark).toBeGreaterThanOrEqual(figures.marks_bytes_per_mark?.value as number);
    expect(figures.marks_bytes_per_day?.value).toBe(
      (figures.marks_all_bytes_per_mark?.value as number) * allMarkets.length,
    );
    expect(figures.pack_bytes).toMatchObject({ value: null, note: expect.stringContaining('no pack') });
    expect(figures.refresh_cpu_s).toMatchObject({ value: 31.5, unit: 's' });
    expect(figures.npm_start_peak_rss_mb?.value).toBeNull();
  }, 60_000);
});
