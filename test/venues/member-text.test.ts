import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadReplayData } from '../../src/venues/replay/load.ts';
import { memberText } from '../../src/venues/replay/member-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'pmref-member-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string | Buffer>): string {
  const root = join(dir, name);
  for (const [file, body] of Object.entries(files)) {
    const path = join(root, file);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, body);
  }
  return root;
}

describe('replay history members', () => {
  it('keeps an ASCII history file as byte spans read on request, after a byte-order mark too', () => {
    const candles = '{"KXA-1": [{"end_period_ts": 1, "price": {"close": 5}}],\n "KXB-2": []}';
    const history = `\uFEFF{"111": [{"t": 1, "p": 0.5}], "222": [{"t": 2, "p": 0.25}]}`;
    const data = loadReplayData(
      folder('ascii', { 'venue_a/candlesticks.json': candles, 'venue_b/prices-history.json': history }),
    );
    const a = data.venueA.candles.get('KXA-1');
    expect(typeof a).toBe('object');
    expect(JSON.parse(memberText(a) ?? 'null')).toEqual([{ end_period_ts: 1, price: { close: 5 } }]);
    expect(memberText(data.venueA.candles.get('KXB-2'))).toBe('[]');
    expect(typeof data.venueB.history.get('222')).toBe('object');
    expect(JSON.parse(memberText(data.venueB.history.get('222')) ?? 'null')).toEqual([{ t: 2, p: 0.25 }]);
    expect(memberText(data.venueB.history.get('333'))).toBeUndefined();
  });

  it('keeps the member texts of a file that is not ASCII (character indexes are not byte offsets)', () => {
    const history = '{"é-token": [{"t": 1, "p": 0.5}], "b": [{"t": 2, "p": 0.75}]}';
    const data = loadReplayData(folder('utf8', { 'venue_b/prices-history.json': history }));
    expect(data.venueB.history.get('b')).toBe('[{"t": 2, "p": 0.75}]');
    expect(JSON.parse(memberText(data.venueB.history.get('é-token')) ?? 'null')).toEqual([{ t: 1, p: 0.5 }]);
  });
});
