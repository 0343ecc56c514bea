/**
 * The job table is the queue. This file holds the SQL every dialect shares: enqueue,
 * read a job for its owner, queue position, and the state changes after a claim, each
 * guarded by `locked_by` so a worker that lost its lease cannot complete a job twice.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Format } from '../formats/format.js';
import type { PublicModel } from '../engines/registry.js';
import { chargeUsage, releaseJobReservation, type Usage } from '../usage/ledger.js';
import type { JobRow } from './dialect.js';
import { adjustQueueCounts, countedQueuePosition } from './queue-counts.js';

/** What POST /jobs accepted, replayed by the worker. */
export interface JobRequest {
  readonly content: string;
  /** As the caller spelled them; they key the translations. */
  readonly targets: readonly string[];
  readonly format?: Format;
  readonly source?: string;
  readonly model: PublicModel;
  /** Present (false) only when the request opted out of translation memory. */
  readonly memory?: false;
  /** The glossary to apply, as given; its current version applies when the job runs. */
  readonly glossary_id?: string;
}

/** Transient failures are retried this many times in all (docs/contract.md §3.11). */
export const JOB_MAX_ATTEMPTS = 3;

export async function insertJob(
  db: Db,
  options: { userId: string; request: JobRequest; now: number; id?: string },
): Promise<JobRow> {
  const { userId, request, now } = options;
  return db.transaction().execute(async (trx) => {
    const job = await trx
      .insertInto('jobs')
      .values({
        id: options.id ?? randomUUID(),
        user_id: userId,
        status: 'pending',
        request: JSON.stringify(request),
        created_at: now,
        updated_at: now,
        completed_at: null,
        max_attempts: JOB_MAX_ATTEMPTS,
        run_at: now,
        locked_by: null,
        lease_expires_at: null,
        result: null,
        model: request.model,
        input_tokens: null,
        output_tokens: null,
        error: null,
        cached_segments: null,
        glossary_misses: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await adjustQueueCounts(trx, job.created_at, 1);
    return job;
  });
}

export function newJobId(): string {
  return randomUUID();
}

/** The job if it exists and belongs to `userId`; another user's job is indistinguishable from none. */
export async function findJobForUser(db: Db, id: string, userId: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** 1 + pending or processing jobs of all users created strictly before this one (ties by id). */
export async function queuePosition(db: Db, job: Pick<JobRow, 'id' | 'created_at'>): Promise<number> {
  return countedQueuePosition(db, job);
}

export function parseJobRequest(job: JobRow): JobRequest {
  return JSON.parse(job.request) as JobRequest;
}

/** Extends the lease; false when the job is no longer this worker's. */
export async function renewLease(db: Db, jobId: string, workerId: string, leaseMs: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_expires_at: now + leaseMs })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Completes the job and charges its usage in one transaction; false (and nothing
 * charged) when the job is no longer this worker's.
 */
export async function completeJob(
  db: Db,
  options: {
    job: JobRow;
    workerId: string;
    translations: Record<string, string>;
    usage: Usage;
    /** Pairs served from memory, and glossary misses (undefined: no glossary applied); default none. */
    memory?: { cachedSegments: number; glossaryMisses: number | undefined };
    now: number;
  },
): Promise<boolean> {
  const { job, workerId, usage, now } = options;
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('jobs')
      .set({
        status: 'completed',
        result: JSON.stringify(options.translations),
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cached_segments: options.memory?.cachedSegments ?? 0,
        glossary_misses: options.memory?.glossaryMisses ?? null,
        completed_at: now,
        updated_at: now,
        locked_by: null,
        lease_expires_at: null,
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await chargeUsage(trx, job.user_id, usage, now);
    await releaseJobReservation(trx, job.id);
    await adjustQueueCounts(trx, job.created_at, -1);
    return true;
  });
}

/** Fails the job for good with a human-readable message; nothing is charged. */
export async function failJob(
  db: Db,
  options: { jobId: string; workerId: string; error: string; now: number },
): Promise<boolean> {
  const { jobId, workerId, error, now } = options;
  return db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable('jobs')
      .set({ status: 'failed', error, updated_at: now, locked_by: null, lease_expires_at: null })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'processing')
      .returning('created_at')
      .executeTakeFirst();
    if (!failed) return false;
    await releaseJobReservation(trx, jobId);
    await adjustQueueCounts(trx, failed.created_at, -1);
    return true;
  });
}

/**
 * Puts the job back to `pending`. `runAt` delays a retry; `refundAttempt` is for a job
 * released unfinished at shutdown, which should not lose one of its attempts.
 */
export async function returnJobToQueue(
  db: Db,
  options: { jobId: string; workerId: string; runAt: number; refundAttempt: boolean; now: number },
): Promise<boolean> {
  const { jobId, workerId, runAt, now } = options;
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'pending',
      run_at: runAt,
      updated_at: now,
      locked_by: null,
      lease_expires_at: null,
      attempts: options.refundAttempt ? eb('attempts', '-', 1) : eb.ref('attempts'),
    }))
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
