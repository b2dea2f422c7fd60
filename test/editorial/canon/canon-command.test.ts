// `pmref canon FILE... --json` prints every market with its question_id or the reason it has none, and the cross-venue links as [venue_a id, venue_b id, relation, differences?].
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { canonCommand } from '../../../src/commands/canon.ts';
import { UsageError } from '../../../src/commands/types.ts';

const fixture = resolve(import.meta.dirname, '../../fixtures/canon/bundles.json');

async function runJson(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await canonCommand.run(args), out };
  } finally {
    spy.mockRestore();
  }
}

describe('pmref canon', () => {
  const dirs: string[] = [];
  /** A temp folder removed after the suite. */
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'canon-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('prints markets and links as JSON for a venue-shaped fixture', async () => {
    const dir = tempDir();
    const twin = join(dir, 'twin.json');
    // A venue_b twin of the fixture's venue_a "Putin leaves office before Jan 1, 2027" market.
    writeFileSync(
      twin,
      JSON.stringify([
        {
          conditionId: '0xtwin',
          question: 'Will Vladimir Putin leave office by December 31, 2026?',
          description:
            'This market will resolve to "Yes" if Vladimir Putin leaves office by December 31, 2026, 11:59 PM ET.',
          endDate: '2026-12-31T00:00:00Z',
          outcomes: '["Yes", "No"]',
        },
      ]),
    );
    const { code, out } = await runJson([fixture, twin, '--json']);
    expect(code).toBe(0);
    const body = JSON.parse(out) as {
      markets: Array<{
        venue: string;
        native_id: string;
        question_id: string | null;
        reason?: string;
        claim_key: string | null;
      }>;
      links: Array<[string, string, string]>;
    };
    expect(body.markets.length).toBeGreaterThan(10);
    for (const m of body.markets) {
      if (m.question_id === null) expect(m.reason).toEqual(expect.any(String));
      else expect(m.question_id).toMatch(/^SVCX-[0-9A-F]{10}$/);
    }
    expect(body.links).toEqual([['TOUT-PUT-27JAN01', '0xtwin', 'same']]);
  });

  it('prints a related link with its typed differences as the fourth element', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(
      a,
      JSON.stringify({
        markets: [
          {
            ticker: 'KXPRESPERSON-28-JVAN',
            event_ticker: 'KXPRESPERSON-28',
            title: 'Who will win the next presidential election?',
            yes_sub_title: 'J.D. Vance',
            rules_primary:
              'If J.D. Vance is the next person inaugurated as President for the term beginning in 2029, then the market resolves to Yes.',
            close_time: '2029-11-07T15:00:00Z',
            status: 'active',
          },
        ],
      }),
    );
    writeFileSync(
      b,
      JSON.stringify([
        {
          conditionId: '0xvance',
          question: 'Will JD Vance win the 2028 US Presidential Election?',
          description:
            'This market will resolve to the person who wins the 2028 US Presidential Election. The resolution source for this market is the Associated Press, Fox News, and NBC. This market will resolve once all three sources call the race for the same candidate.',
          endDate: '2028-11-07T00:00:00Z',
          outcomes: '["Yes", "No"]',
        },
      ]),
    );
    const { code, out } = await runJson([a, b, '--json']);
    expect(code).toBe(0);
    const body = JSON.parse(out) as { links: unknown[] };
    expect(body.links).toEqual([
      [
        'KXPRESPERSON-28-JVAN',
        '0xvance',
        'related',
        [
          { type: 'resolves_on', venue_a: 'inauguration', venue_b: 'election_call' },
          {
            type: 'wording',
            venue_a: 'phrase:@person:jd-vance win next presidential election',
            venue_b: 'phrase:@person:jd-vance win @election:us-president-2028',
          },
        ],
      ],
    ]);
  });

  it('refuses to run without files and names an unreadable file', async () => {
    await expect(canonCommand.run([])).rejects.toBeInstanceOf(UsageError);
    await expect(canonCommand.run(['/nonexistent/file.json'])).rejects.toThrow(/nonexistent/);
  });
});
