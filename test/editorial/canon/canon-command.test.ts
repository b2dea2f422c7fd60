// `pmref canon FILE... --json` prints every market with its question_id or the reason it has none, and the cross-venue links with their kind.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
  afterEach(() => vi.restoreAllMocks());

  it('prints markets and links as JSON for a venue-shaped fixture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'canon-'));
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

  it('refuses to run without files and names an unreadable file', async () => {
    await expect(canonCommand.run([])).rejects.toBeInstanceOf(UsageError);
    await expect(canonCommand.run(['/nonexistent/file.json'])).rejects.toThrow(/nonexistent/);
  });
});
