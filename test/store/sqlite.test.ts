/** The Store contract holds on the embedded SQLite engine (a temp file per test), and `sqlite:` URLs open as documented. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../src/store/index.ts';
import { runStoreContract } from './contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'pmref-store-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract({ name: 'sqlite', newStore: () => openStore(`sqlite:${join(dir, `store-${n++}.sqlite`)}`) });

describe('openStore with sqlite URLs', () => {
  it('creates the parent folder, uses WAL, and keeps data across reopen', async () => {
    const file = join(dir, 'nested', 'deeper', 'pmref.sqlite');
    const store = await openStore(`sqlite:${file}`);
    expect(store.engine).toBe('sqlite');
    await store.migrate();
    const id = await store.resolveId('event', 'venue_a:X', () => 'SVC-EVT-000000000X');
    await store.close();
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}-wal`) || existsSync(file)).toBe(true);

    const again = await openStore(`sqlite:${file}`);
    expect(await again.migrate()).toEqual([]);
    expect(await again.resolveId('event', 'venue_a:X', () => 'SVC-EVT-OTHER00000')).toBe(id);
    await again.close();
  });

  it('sqlite::memory: opens a throwaway database', async () => {
    const store = await openStore('sqlite::memory:');
    expect(await store.migrate()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await store.counts()).toEqual({ events: 0, markets: 0, marks: 0, log: 0, signals: 0 });
    await store.close();
  });

  it('rejects URLs it cannot open', async () => {
    await expect(openStore('mysql://localhost/x')).rejects.toThrow(/unsupported database URL/);
    await expect(openStore('sqlite:')).rejects.toThrow(/needs a path/);
  });
});
