// Every rule id the resolution judgment can emit is documented in METHODOLOGY.md, and the documented rubric version is the one the code stamps.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RCG_CAPS } from '../../../src/domain/index.ts';
import { RUBRIC_VERSION } from '../../../src/editorial/resolution/index.ts';

const SRC = new URL('../../../src/editorial/resolution/', import.meta.url);
const doc = readFileSync(new URL('../../../METHODOLOGY.md', import.meta.url), 'utf8');
const RULE_ID =
  /'((?:commit|trigger|contested|clarity|arbiter|conflict|time|mutability|arbitration|status|sources|triggers)\.[a-z_]+)'/g;

describe('METHODOLOGY.md', () => {
  const ids = new Set<string>();
  for (const f of readdirSync(SRC).filter((n) => n.endsWith('.ts')))
    for (const m of readFileSync(new URL(f, SRC), 'utf8').matchAll(RULE_ID)) if (m[1]) ids.add(m[1]);

  it('documents every rule id with its own table row', () => {
    expect(ids.size).toBeGreaterThan(40);
    expect([...ids].filter((id) => !doc.includes(`| \`${id}\` |`))).toEqual([]);
  });

  it('documents every cap and the rubric version', () => {
    expect(RCG_CAPS.filter((c) => !doc.includes(`| \`${c}\` |`))).toEqual([]);
    expect(doc).toContain(`**\`${RUBRIC_VERSION}\`**`);
  });
});
