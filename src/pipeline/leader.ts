/**
 * Leader election for `pmref worker` on PostgreSQL (DESIGN.md §2): a session-level
 * `pg_try_advisory_lock` held on a dedicated connection for as long as the worker lives. Whoever
 * holds it runs pipelines; the others try again every PMREF_LEADER_POLL_SECONDS (worker.ts). The lock goes
 * with the connection, so a leader killed on its host frees it at once (the kernel closes its socket). A
 * leader whose host vanishes leaves a half-open connection: the session's TCP keepalives (set below) let the
 * server notice within about a minute and free the lock.
 */
import pg from 'pg';
import type { PipelineLogger } from './types.ts';

export interface LeaderLock {
  /** True when this process holds the lock (taking it if it is free). */
  acquire(): Promise<boolean>;
  /** Releases the lock and closes the connection. */
  release(): Promise<void>;
}

/**
 * Server-side keepalives of the lock's session, in seconds: idle time before the first probe, between probes,
 * and probes lost before the server drops the connection (and with it the lock). Ignored on Unix sockets.
 */
const KEEPALIVE = { idle: 20, interval: 10, count: 3 } as const;

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
      try {
        // Holding it: make sure the session that holds it still answers (a lost session lost the lock too).
        if (held && client) {
          await client.query('SELECT 1');
          return true;
        }
        if (!client) {
          const c = new pg.Client({ connectionString: dbUrl, keepAlive: true });
          c.on('error', (err) => {
            logger.warn(
              { err: err.message },
              'leader lock connection lost; will try to lead again at the next refresh',
            );
            drop();
          });
          await c.connect();
          await c.query(
            `SET tcp_keepalives_idle = ${KEEPALIVE.idle}; SET tcp_keepalives_interval = ${KEEPALIVE.interval}; SET tcp_keepalives_count = ${KEEPALIVE.count}`,
          );
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
