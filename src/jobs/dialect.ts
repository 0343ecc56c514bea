/**
 * The only job-queue SQL that differs between databases: claiming the next job, and
 * waking workers when one is enqueued. Everything else is shared Kysely in queue.ts.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { JobsTable } from '../db/schema.js';

export type JobRow = Selectable<JobsTable>;

export interface JobDialect {
  /**
   * Claims up to `limit` of the oldest runnable pending jobs for `workerId`, leased until
   * `now + leaseMs`, counting the attempt in the same statement (a worker killed mid-job
   * has spent it); oldest first.
   */
  claimBatch(db: Db, workerId: string, leaseMs: number, now: number, limit: number): Promise<JobRow[]>;
  /** Calls `onNudge` whenever a job may have become claimable; resolves to an unsubscribe. */
  subscribe(onNudge: () => void): Promise<() => Promise<void>>;
  /** Tells every subscriber, in this process or (where the dialect can) others, to look. */
  notify(db: Db): Promise<void>;
}

/** Claimed rows oldest first (UPDATE … RETURNING keeps no order). */
export function oldestFirst(a: JobRow, b: JobRow): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
