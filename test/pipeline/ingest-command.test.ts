// `pmref ingest --json` prints exactly one JSON object with the documented keys on stdout, and bad flags say what to fix.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DAY1 } from './harness.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pmref-ingest-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pmref(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PMREF_DB_URL: `sqlite:${join(dir, 'cli.sqlite')}`, PMREF_LOG_LEVEL: 'warn' };
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'ingest', ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pmref ingest', () => {
  it('--json prints one JSON object with venues, log_entries, marks, duration_ms and generation', async () => {
    const { code, stdout, stderr } = await pmref(['--source', 'replay', '--replay-dir', DAY1, '--json']);
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(report).toMatchObject({
      venues: {
        venue_a: { pulled: 5, stored: 4, out_of_scope: { 'category:sports': 1 }, rejected: {}, error: null },
        venue_b: { pulled: 3, stored: 3, out_of_scope: {}, rejected: {}, error: null },
      },
      // The run clock is the wall clock, after every fixture market's close: besides the two settled markets,
      // the six still reported open are logged as closed (derived from close_at, METHODOLOGY "Market lifecycle").
      log_entries: 8,
      marks: 7,
      generation: 1,
    });
    expect(typeof report.duration_ms).toBe('number');
  });

  it('rejects a replay without a folder and faults outside replay, saying what to fix', async () => {
    const [noDir, faults, badSpec] = await Promise.all([
      pmref(['--source', 'replay']),
      pmref(['--source', 'live', '--faults', 'venue_a:5xx']),
      pmref(['--source', 'replay', '--replay-dir', DAY1, '--faults', 'venue_c:5xx']),
    ]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toContain('--source replay needs --replay-dir DIR');
    expect(faults.code).toBe(2);
    expect(faults.stderr).toContain('--faults applies to --source replay only');
    expect(badSpec.code).toBe(2);
    expect(badSpec.stderr).toContain('--faults: fault "venue_c:5xx": target must be one of');
  });
});
