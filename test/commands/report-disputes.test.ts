// Invariant: `pmref report disputes` counts every venue_b market with a UMA history once (its longest recorded
// history, a lagging status included), and every table (grade, score band, factor, rule, cap, window) splits exactly
// those markets and their disputes, from the store or from native files graded in place.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportCommand } from '../../src/commands/report.ts';
import {
  type DisputeCase,
  disputeCasesFromFiles,
  disputeCasesFromMarkets,
  disputeReport,
} from '../../src/commands/report-disputes.ts';
import { UsageError } from '../../src/commands/types.ts';
import type { Grade, Rcg, ResolutionHistory } from '../../src/domain/index.ts';
import { judgeResolution } from '../../src/editorial/resolution/index.ts';
import { FIXTURE_DIR, loadFixtureMarkets } from '../editorial/resolution/fixture-markets.ts';
import { makeMarket } from '../support/records.ts';

const SMALL = new URL('../fixtures/disputes/', import.meta.url).pathname;

function rcg(grade: Grade, score: number, trigger: 'pass' | 'partial', caps: Rcg['caps'] = []): Rcg {
  return {
    grade,
    score,
    caps,
    applied_factors: 2,
    rubric_version: 'test',
    factors: [
      {
        factor: 'trigger_objectivity',
        weight: 28,
        rating: trigger,
        points: trigger === 'pass' ? 28 : 14,
        rule: trigger === 'pass' ? 'trigger.numeric_threshold' : 'trigger.unanchored_occurrence',
        evidence: [],
      },
      {
        factor: 'source_conflict_rule',
        weight: 8,
        rating: 'not_applicable',
        points: 0,
        rule: 'conflict.single_source',
        evidence: [],
      },
    ],
  };
}

function history(statuses: string[]): ResolutionHistory {
  return {
    state: statuses.at(-1) ?? null,
    statuses,
    proposals: statuses.filter((s) => s === 'proposed').length,
    disputes: statuses.filter((s) => s === 'disputed').length,
  };
}

const kase = (id: string, r: Rcg, statuses: string[], origin = 'a.json', event: string | null = id): DisputeCase => ({
  market_id: id,
  question: `Q ${id}?`,
  event,
  origin,
  history: history(statuses),
  rcg: r,
});

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    out += String(c);
    return true;
  });
  try {
    return { code: await reportCommand.run(args), out };
  } finally {
    o.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('disputeReport', () => {
  const cases = [
    kase('0xa1', rcg('A', 92, 'pass'), ['proposed', 'resolved']),
    kase('0xa2', rcg('A', 85, 'pass'), ['proposed']),
    kase('0xb1', rcg('B', 60, 'partial'), ['proposed', 'disputed', 'proposed'], 'b.json'),
    kase(
      '0xc1',
      rcg('C', 45, 'partial', ['commitment_uncommitted_placeholder']),
      ['proposed', 'disputed'],
      'b.json',
      'E1',
    ),
    kase(
      '0xc2',
      rcg('C', 30, 'partial', ['commitment_uncommitted_placeholder']),
      ['proposed', 'disputed'],
      'b.json',
      'E1',
    ),
    kase('0xc3', rcg('C', 50, 'partial', ['commitment_uncommitted_placeholder']), ['proposed', 'resolved'], 'b.json'),
  ];
  const r = disputeReport(cases, 'files', 0);

  it('counts markets and disputes by grade, score band and cap, with rates', () => {
    expect([r.markets, r.disputed, r.rate, r.disputed_events]).toEqual([6, 3, 0.5, 2]);
    expect(r.by_grade).toEqual({
      A: { markets: 2, disputed: 0, rate: 0 },
      B: { markets: 1, disputed: 1, rate: 1 },
      C: { markets: 3, disputed: 2, rate: 0.6667 },
    });
    expect(r.by_score_band.filter((b) => b.markets > 0)).toEqual([
      { band: '90-100', markets: 1, disputed: 0, rate: 0 },
      { band: '80-89', markets: 1, disputed: 0, rate: 0 },
      { band: '55-69', markets: 1, disputed: 1, rate: 1 },
      { band: '40-54', markets: 2, disputed: 1, rate: 0.5 },
      { band: '0-39', markets: 1, disputed: 1, rate: 1 },
    ]);
    expect(r.by_cap).toEqual([
      { cap: '(no cap)', markets: 3, disputed: 1, rate: 0.3333 },
      { cap: 'commitment_uncommitted_placeholder', markets: 3, disputed: 2, rate: 0.6667 },
    ]);
  });

  it('counts every factor and rule by rating, not-applicable ratings included', () => {
    expect(r.by_factor).toEqual([
      { factor: 'trigger_objectivity', rating: 'pass', markets: 2, disputed: 0, rate: 0 },
      { factor: 'trigger_objectivity', rating: 'partial', markets: 4, disputed: 3, rate: 0.75 },
      { factor: 'source_conflict_rule', rating: 'not_applicable', markets: 6, disputed: 3, rate: 0.5 },
    ]);
    expect(r.by_rule.map((x) => [x.rule, x.rating, x.markets, x.disputed])).toEqual([
      ['trigger.numeric_threshold', 'pass', 2, 0],
      ['trigger.unanchored_occurrence', 'partial', 4, 3],
      ['conflict.single_source', 'not_applicable', 6, 3],
    ]);
  });

  it('lists disputed markets by grade with their deciding factors; A and B ones are findings', () => {
    expect(r.disputed_markets.map((d) => [d.market_id, d.grade, d.score])).toEqual([
      ['0xb1', 'B', 60],
      ['0xc1', 'C', 45],
      ['0xc2', 'C', 30],
    ]);
    expect(r.findings.map((f) => f.market_id)).toEqual(['0xb1']);
    // Not-applicable factors decide nothing; caps are listed after the factors.
    expect(r.findings[0]?.deciding).toEqual(['trigger_objectivity partial [trigger.unanchored_occurrence] -14/28']);
    expect(r.disputed_markets[1]?.deciding).toEqual([
      'trigger_objectivity partial [trigger.unanchored_occurrence] -14/28',
      'cap commitment_uncommitted_placeholder',
    ]);
    expect(r.windows).toEqual([
      {
        origin: 'a.json',
        markets: 2,
        disputed: 0,
        rate: 0,
        by_grade: {
          A: { markets: 2, disputed: 0, rate: 0 },
          B: { markets: 0, disputed: 0, rate: null },
          C: { markets: 0, disputed: 0, rate: null },
        },
      },
      {
        origin: 'b.json',
        markets: 4,
        disputed: 3,
        rate: 0.75,
        by_grade: {
          A: { markets: 0, disputed: 0, rate: null },
          B: { markets: 1, disputed: 1, rate: 1 },
          C: { markets: 3, disputed: 2, rate: 0.6667 },
        },
      },
    ]);
  });

  it('gives the one-sided Fisher exact p of C against A+B (hypergeometric tail)', () => {
    // 6 markets, 3 disputed, 3 C of which 2 disputed: P(X >= 2) = (C(3,2)C(3,1) + C(3,3)C(3,0)) / C(6,3) = 10/20.
    expect(r.c_versus_ab_p).toBeCloseTo(0.5, 10);
    expect(disputeReport(cases.slice(0, 2), 'files', 0).c_versus_ab_p).toBeNull();
  });
});

describe('disputeCasesFromMarkets (store input)', () => {
  it('keeps venue_b markets with a proposal or a dispute, and only counts the ungraded ones', () => {
    const b = (native: string, statuses: string[] | null, graded = true) =>
      makeMarket({
        native,
        platform: 'venue_b',
        resolution_history: statuses ? history(statuses) : null,
        rcg: graded ? rcg('B', 70, 'pass') : null,
      });
    const { cases, ungraded } = disputeCasesFromMarkets([
      b('0x1', ['proposed', 'resolved']),
      b('0x2', ['disputed']),
      b('0x3', ['resolved']),
      b('0x4', null),
      b('0x5', ['proposed'], false),
      makeMarket({ native: 'KX-1', resolution_history: history(['disputed']), rcg: rcg('A', 90, 'pass') }),
    ]);
    expect(cases.map((c) => [c.market_id, c.origin, c.history.disputes])).toEqual([
      ['0x1', 'store', 0],
      ['0x2', 'store', 1],
    ]);
    expect(ungraded).toBe(1);
  });
});

describe('pmref report disputes --files (small Gamma fixtures)', () => {
  it('grades the records in place, once per market, from the longest history', () => {
    const { cases, files } = disputeCasesFromFiles([SMALL]);
    expect(files.map((f) => f.slice(SMALL.length))).toEqual(['events_uma.json', 'markets_uma.json']);
    const byId = new Map(cases.map((c) => [c.market_id, c]));
    expect([...byId.keys()].sort()).toEqual(['0xd1', '0xd2', '0xd4', '0xd5']);
    expect(byId.get('0xd1')?.origin).toBe('markets_uma.json');
    expect(byId.get('0xd1')?.history.statuses).toEqual(['proposed', 'resolved']);
    expect(byId.get('0xd1')?.event).toBe('7001');
    expect(byId.get('0xd5')?.history).toEqual({ state: 'disputed', statuses: ['disputed'], proposals: 0, disputes: 1 });
    // A named exchange price against a number is a clean A; "a consensus of credible reporting" caps at C.
    expect(byId.get('0xd1')?.rcg.grade).toBe('A');
    expect(byId.get('0xd2')?.rcg.grade).toBe('C');
    expect(byId.get('0xd4')?.rcg.grade).toBe('C');
  });

  it('prints the tables with counts, the disputed markets and the caveats; --json for machines', async () => {
    const json = await run(['disputes', '--files', SMALL, '--json']);
    expect(json.code).toBe(0);
    const r = JSON.parse(json.out) as ReturnType<typeof disputeReport>;
    expect([r.input, r.markets, r.disputed]).toEqual(['files', 4, 2]);
    const grades = (['A', 'B', 'C'] as const).map((g) => r.by_grade[g]);
    expect(grades.reduce((n, g) => n + g.markets, 0)).toBe(4);
    expect(grades.reduce((n, g) => n + g.disputed, 0)).toBe(2);
    expect(r.disputed_markets.map((d) => d.market_id).sort()).toEqual(['0xd2', '0xd5']);

    const text = await run(['disputes', `${SMALL}events_uma.json`, `${SMALL}markets_uma.json`]);
    expect(text.code).toBe(0);
    expect(text.out).toContain('4 markets with a UMA history (at least one proposal or dispute), 2 disputed (50.0%)');
    expect(text.out).toContain(
      [
        '  grade  markets  disputed    rate',
        '  A            1         0    0.0%',
        '  B            1         1  100.0%',
        '  C            2         1   50.0%',
      ].join('\n'),
    );
    for (const heading of ['By score band', 'By factor x rating', 'By rule x rating', 'By cap', 'Caveats'])
      expect(text.out).toContain(heading);
    expect(text.out).toContain('Small numbers');
    expect(text.out).toContain('Recorded windows');
  });

  it('refuses an unnamed report and files on the grades report; usage describes both reports', async () => {
    await expect(reportCommand.run([])).rejects.toThrow(UsageError);
    await expect(reportCommand.run(['grades', '--files', SMALL])).rejects.toThrow(UsageError);
    expect(reportCommand.usage).toContain('pmref report grades');
    expect(reportCommand.usage).toContain('pmref report disputes');
  });
});

const REAL_B = `${FIXTURE_DIR}/venue_b`;
const present = existsSync(REAL_B);
if (!present)
  console.warn(`report-disputes real-fixture test skipped: ${REAL_B} is absent (it holds the recorded venue data)`);

/** conditionIds whose raw `umaResolutionStatuses` list names a status (the recorded data's own count). */
function listed(status: string): Set<string> {
  const ids = new Set<string>();
  const visit = (o: unknown): void => {
    if (Array.isArray(o)) for (const x of o) visit(x);
    else if (typeof o === 'object' && o !== null) {
      const r = o as Record<string, unknown>;
      if (typeof r.conditionId === 'string' && typeof r.umaResolutionStatuses === 'string' && r.umaResolutionStatuses) {
        const list: unknown = JSON.parse(r.umaResolutionStatuses);
        if (Array.isArray(list) && list.includes(status)) ids.add(r.conditionId);
      }
      for (const v of Object.values(r)) visit(v);
    }
  };
  for (const f of readdirSync(REAL_B).filter((x) => x.endsWith('.json')))
    visit(JSON.parse(readFileSync(`${REAL_B}/${f}`, 'utf8')));
  return ids;
}

describe.skipIf(!present)('pmref report disputes over the recorded venue_b fixtures', () => {
  it('counts 514 markets with a UMA history and 20 disputed: the 512 and 19 of the lists, plus 2 whose status leads the list', () => {
    const { cases } = disputeCasesFromFiles([REAL_B]);
    const r = disputeReport(cases, 'files', 0);
    const proposedInList = listed('proposed');
    const disputedInList = listed('disputed');
    expect([proposedInList.size, disputedInList.size]).toEqual([512, 19]);
    // Gamma sends `umaResolutionStatuses: "[]"` with a current `umaResolutionStatus` on two markets:
    // "proposed" (Trump margin of victory in New Hampshire Primary 0-2.5%) and "disputed" (Will a new country
    // buy Bitcoin in 2025?). Market.resolution_history appends the status, so both count; a dispute presupposes
    // a proposal.
    const extra = cases.map((c) => c.market_id).filter((id) => !proposedInList.has(id));
    expect(extra.map((id) => id.slice(0, 12)).sort()).toEqual(['0x50b8b0f741', '0xa9e204946b']);
    const disputedIds = cases.filter((c) => c.history.disputes > 0).map((c) => c.market_id);
    expect(disputedIds.filter((id) => !disputedInList.has(id)).map((id) => id.slice(0, 12))).toEqual(['0x50b8b0f741']);
    expect([r.markets, r.disputed]).toEqual([514, 20]);

    const sum = (cells: ReadonlyArray<{ markets: number; disputed: number }>) => [
      cells.reduce((n, c) => n + c.markets, 0),
      cells.reduce((n, c) => n + c.disputed, 0),
    ];
    expect(sum(Object.values(r.by_grade))).toEqual([514, 20]);
    expect(sum(r.by_score_band)).toEqual([514, 20]);
    expect(sum(r.windows)).toEqual([514, 20]);
    for (const factor of new Set(r.by_factor.map((f) => f.factor)))
      expect([factor, ...sum(r.by_factor.filter((f) => f.factor === factor))]).toEqual([factor, 514, 20]);
    console.info(
      `report disputes (real fixtures): ${r.markets} markets with a UMA history, ${r.disputed} disputed; ` +
        (['A', 'B', 'C'] as const).map((g) => `${g} ${r.by_grade[g].disputed}/${r.by_grade[g].markets}`).join(', '),
    );
  });

  it('grades each market as the fixture loader native input does', () => {
    const loader = new Map(
      loadFixtureMarkets()
        .filter((m) => m.venue === 'venue_b')
        .map((m) => [m.id, m]),
    );
    const differ = disputeCasesFromFiles([REAL_B]).cases.flatMap((c) => {
      const l = loader.get(c.market_id);
      const g = l ? judgeResolution(l.market, l.facts).rcg : null;
      return g && g.grade === c.rcg.grade && g.score === c.rcg.score ? [] : [[c.market_id, g?.grade, c.rcg.grade]];
    });
    expect(differ).toEqual([]);
  });
});
