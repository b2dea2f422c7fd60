/**
 * Leader election for `pmref worker` on PostgreSQL (DESIGN.md §2): a session-level
 * `pg_try_advisory_lock` held on a dedicated connection for as long as the worker lives. Whoever
 * holds it runs pipelines; the others try again at each refresh. The lock goes with the connection,
 * so a crashed leader frees it at once.
 */
import pg from 'pg';
import type { PipelineLogger } from './types.ts';

export interface LeaderLock {
  /** True when this process holds the lock (taking it if it is free). */
  acquire(): Promise<boolean>;
  /** Releases the lock and closes the connection. */
  release(): Promise<void>;
}

/** A leader lock named `name` on the PostgreSQL database at `dbUrl`. */
export function postgresLeaderLock(dbUrl: string, name: string, logger: PipelineLogger): LeaderLock {
  let client: pg.Client | null = null;
  let held = false;
  const drop = () => {
    held = false;
    client = null;
  };
  return {
    async acquire() {
      if (held && client) return true;
      try {
        if (!client) {
          const c = new pg.Client({ connectionString: dbUrl });
          c.on('error', (err) => {
            logger.warn(
              { err: err.message },
              'leader lock connection lost; will try to lead again at the next refresh',
            );
            drop();
          });
          await c.connect();
          client = c;
        }
        const res = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
          name,
        ]);
        held = res.rows[0]?.locked === true;
        return held;
      } catch (err) {
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not take the leader lock');
        const c = client;
        drop();
        await c?.end().catch(() => undefined);
        return false;
      }
    },
    async release() {
      const c = client;
      drop();
      await c?.end().catch(() => undefined);
    },
  };
}
