// `pmref grade` reads venue_a, venue_b and canonical records, answers with spec §2.2 field names plus the full rcg (a list for a list), explains on request, and exits 2 on unreadable input.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { gradeCommand } from '../../src/commands/grade.ts';

const inputs = readFileSync(new URL('../fixtures/editorial/grade-inputs.json', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'pmref-grade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, body: string) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    out += String(c);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => {
    err += String(c);
    return true;
  });
  try {
    return { code: await gradeCommand.run(args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('pmref grade', () => {
  it('grades a list of venue_a, venue_b and canonical records into a list with spec field names', async () => {
    const { code, out } = await run([file('list.json', inputs)]);
    expect(code).toBe(0);
    const list = JSON.parse(out) as Array<Record<string, unknown>>;
    expect(list.map((r) => r.input_kind)).toEqual(['venue_a', 'venue_b', 'canonical']);
    for (const r of list)
      for (const k of [
        'resolution_source_list',
        'source_commitment',
        'source_commitment_subtype',
        'source_mechanism',
        'source_of_record',
        'source_type',
        'source_status',
        'resolution_source',
        'source_citation',
        'arbitration_model',
        'resolution_proposer',
        'regulatory_class',
        'resolution_triggers',
        'rcg',
      ])
        expect(r).toHaveProperty(k);
    // The FIFA record is a named primary with a placeholder fallback (issue 16), not a placeholder.
    expect(list.map((r) => r.source_commitment_subtype)).toEqual(['named', 'named', 'committed_secondhand']);
    expect(list[0]?.source_of_record).toBe('Bureau of Labor Statistics');
    const rcg = list[0]?.rcg as { grade: string; factors: unknown[] } | undefined;
    expect(rcg?.grade).toBe('A');
    expect(rcg?.factors).toHaveLength(7);
    expect(list[1]?.resolution_proposer).toBe('managed_whitelist');
  });

  it('answers one object for one record', async () => {
    const one = JSON.stringify((JSON.parse(inputs) as unknown[])[1]);
    const { code, out } = await run([file('one.json', one)]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      platform_market_id: expect.stringMatching(/^0xcase/),
      regulatory_class: 'DeFi',
    });
  });

  it('explains factor by factor with the quoted evidence', async () => {
    const { code, out } = await run([file('list2.json', inputs), '--explain']);
    expect(code).toBe(0);
    expect(out).toContain('Grade A');
    expect(out).toContain('trigger_objectivity');
    expect(out).toContain('commit.primary_with_fallback');
    expect(out).toContain('hedge: "however, a consensus of credible reporting may also be used"');
    expect(out).toMatch(/description_raw\[\d+\.\.\d+\]: "a consensus of credible reporting"/);
  });

  it('exits 2 with a clear message on unreadable or unrecognised input', async () => {
    const missing = await run([join(dir, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
    const bad = await run([file('bad.json', '{not json')]);
    expect(bad.code).toBe(2);
    const odd = await run([file('odd.json', '{"hello": 1}')]);
    expect(odd.code).toBe(2);
    expect(odd.err).toContain('not a venue_a market');
  });
});
