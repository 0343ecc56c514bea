/**
 * PostgreSQL: many workers in many processes claim from one table. A CTE picks the
 * oldest runnable pending job `FOR UPDATE SKIP LOCKED` (so concurrent claimers never
 * wait on, or double-claim, the same row) and the UPDATE counts the attempt in the same
 * statement (after graphile-worker's getJobs.ts). Wake-ups travel by LISTEN/NOTIFY on a
 * dedicated connection that reconnects when it drops; every reconnect nudges, since a
 * notification may have been missed while it was down.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.js';
import { NotificationListener } from '../../db/notifications.js';
import { oldestFirst, type JobDialect, type JobRow } from '../dialect.js';

export const JOBS_CHANNEL = 'translate_jobs';

export interface PostgresJobDialectOptions {
  /** The database URL; LISTEN needs its own long-lived connection outside the pool. */
  readonly url: string;
  readonly logger?: Logger;
}

export function createPostgresJobDialect(options: PostgresJobDialectOptions): JobDialect {
  const listener = new NotificationListener({
    url: options.url,
    channel: JOBS_CHANNEL,
    what: 'job notifications',
    meanwhile: 'workers still poll',
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    async claimBatch(db: Db, workerId: string, leaseMs: number, now: number, limit: number): Promise<JobRow[]> {
      const result = await sql<JobRow>`
        with next as (
          select id from jobs
          where status = 'pending' and run_at <= ${now}
          order by created_at, id
          limit ${limit}
          for update skip locked
        )
        update jobs
        set status = 'processing',
            attempts = jobs.attempts + 1,
            locked_by = ${workerId},
            lease_expires_at = ${now + leaseMs},
            updated_at = ${now}
        from next
        where jobs.id = next.id
        returning jobs.*
      `.execute(db);
      return result.rows.sort(oldestFirst);
    },

    subscribe(onNudge: () => void): Promise<() => Promise<void>> {
      return listener.add(onNudge);
    },

    async notify(db: Db): Promise<void> {
      await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(db);
    },
  };
}
