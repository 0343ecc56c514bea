/**
 * Status conditions written as SQL literals. SQLite uses a partial index (jobs_pending_order,
 * jobs_active_order, …) only when the query's condition matches the index's WHERE
 * literally; with a bound parameter (`status = ?`) it scans the whole table — every
 * finished job in history — and sorts it (measured with EXPLAIN QUERY PLAN).
 */
import { sql } from 'kysely';

export const isPending = sql<boolean>`status = 'pending'`;
export const isProcessing = sql<boolean>`status = 'processing'`;
export const isLive = sql<boolean>`status in ('pending', 'processing')`;
export const isFinished = sql<boolean>`status in ('completed', 'failed', 'canceled')`;

/** Every status a job can have, as GET /v1/jobs?status= accepts them. */
export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
