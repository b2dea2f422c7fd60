// A long run of statements on SQLite (answered synchronously) still lets timers run: the pipeline thread's heap
// guard is a timer (turn-plugin.ts).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';

describe('event-loop turns between statements', () => {
  it('fires a due timer during a chain of statements that runs longer than the turn interval', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      await store.migrate();
      let firedAfter: number | null = null;
      let statements = 0;
      setTimeout(() => {
        firedAfter = statements;
      }, 0);
      const started = performance.now();
      // About 300 ms of statements with no await of anything but the store.
      while (performance.now() - started < 300) {
        await sql`SELECT count(*) FROM markets`.execute(store.db);
        statements++;
      }
      expect(firedAfter).not.toBeNull();
      expect(firedAfter).toBeLessThan(statements);
    } finally {
      await store.close();
    }
  });
});
