/**
 * The job table is the queue. This file holds the SQL every dialect shares: enqueue,
 * read a job for its owner, queue position, and the state changes after a claim, each
 * guarded by `locked_by` so a worker that lost its lease cannot complete a job twice.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Format } from '../formats/format.js';
import type { PublicModel } from '../engines/registry.js';
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import { TransactionBatcher } from '../db/transaction-batcher.js';
import { writeCharges } from '../usage/group-commit.js';
import { releaseJobReservation, type Usage } from '../usage/ledger.js';
import type { Formality } from '../engines/engine.js';
import type { JobRow } from './dialect.js';
import { adjustQueueCounts, releaseQueueCounts } from './queue-counts.js';
import { isLive } from './status-filters.js';
import { enqueueEvents } from '../webhooks/outbox.js';

/** The job while `workerId` holds its lease: every write after a claim is guarded by it. */
export const heldBy = (jobId: string, workerId: string) => (eb: ExpressionBuilder<DatabaseSchema, 'jobs'>) =>
  eb.and({ id: jobId, locked_by: workerId, status: 'processing' });

/**
 * What every way a job ends without completing writes in its transaction: its token
 * reservation released, its place in the queue counts given up, its webhook event.
 */
export async function endUncompleted(
  trx: Transaction<DatabaseSchema>,
  jobs: readonly Pick<JobRow, 'id' | 'created_at' | 'user_id'>[],
  event: 'job.failed' | 'job.canceled',
  now: number,
): Promise<void> {
  for (const job of jobs) {
    await releaseJobReservation(trx, job.id);
    await adjustQueueCounts(trx, job.created_at, -1);
  }
  await enqueueEvents(trx, jobs.map((job) => ({ userId: job.user_id, type: event, subjectId: job.id })), now);
}

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
  /** `formal` or `informal`, as resolved for the targets when the job was accepted. */
  readonly formality?: Formality;
  readonly context?: string;
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
        max_attempts: JOB_MAX_ATTEMPTS,
        run_at: now,
        model: request.model,
        // The columns of a later state (lease, result, usage, error) start NULL.
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await adjustQueueCounts(trx, job.created_at, 1);
    return job;
  });
}

/** The job if it exists and belongs to `userId`; another user's job is indistinguishable from none. */
export async function findJobForUser(db: Db, id: string, userId: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Extends the lease; false when the job is no longer this worker's. */
export async function renewLease(db: Db, jobId: string, workerId: string, leaseMs: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_expires_at: now + leaseMs })
    .where(heldBy(jobId, workerId))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface Completion {
  readonly job: JobRow;
  readonly workerId: string;
  readonly translations: Record<string, string>;
  readonly usage: Usage;
  /** Pairs served from memory, and glossary misses (undefined: no glossary applied); default none. */
  readonly memory?: { readonly cachedSegments: number; readonly glossaryMisses: number | undefined };
  readonly now: number;
}

/**
 * Completes the job and charges its usage in one transaction; false (and nothing
 * charged) when the job is no longer this worker's.
 */
export async function completeJob(db: Db, completion: Completion): Promise<boolean> {
  return db.transaction().execute(async (trx) => (await completeJobsIn(trx, [completion]))[0]!);
}

/**
 * completeJob for completions that finish at the same time share a transaction (group
 * commit, db/transaction-batcher.ts): each resolves once committed. One batch at a time:
 * a worker runs only a few jobs at once, and those that finish while a batch commits
 * should wait for the next one rather than start their own.
 */
export function jobCompletions(db: Db): TransactionBatcher<Completion, boolean> {
  return new TransactionBatcher(db, completeJobsIn, { maxInFlight: 1 });
}

/**
 * Completes `completions` inside `trx`: each job's row first (guarded by its lease),
 * then, for those still ours, the charges, reservations, queue counts and job.completed
 * webhook deliveries in one statement each — in a fixed order of rows, so concurrent batches cannot deadlock.
 */
async function completeJobsIn(trx: Transaction<DatabaseSchema>, completions: readonly Completion[]): Promise<boolean[]> {
  const done: boolean[] = [];
  for (const { job, workerId, translations, usage, memory, now } of completions) {
    const result = await trx
      .updateTable('jobs')
      .set({
        status: 'completed',
        result: JSON.stringify(translations),
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cached_segments: memory?.cachedSegments ?? 0,
        glossary_misses: memory?.glossaryMisses ?? null,
        completed_at: now,
        updated_at: now,
        locked_by: null,
        lease_expires_at: null,
      })
      .where(heldBy(job.id, workerId))
      .executeTakeFirst();
    done.push(result.numUpdatedRows > 0n);
  }
  const completed = completions.filter((_, i) => done[i]);
  if (completed.length === 0) return done;
  await writeCharges(
    trx,
    completed.map(({ job, usage, now }) => ({ userId: job.user_id, usage, now })),
  );
  await trx.deleteFrom('token_reservations').where('job_id', 'in', completed.map(({ job }) => job.id)).execute();
  await releaseQueueCounts(
    trx,
    completed.map(({ job }) => job.created_at),
  );
  await enqueueEvents(
    trx,
    completed.map(({ job }) => ({ userId: job.user_id, type: 'job.completed', subjectId: job.id })),
    completed[0]!.now,
  );
  return done;
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
      .where(heldBy(jobId, workerId))
      .returning(['created_at', 'user_id'])
      .executeTakeFirst();
    if (!failed) return false;
    await endUncompleted(trx, [{ id: jobId, ...failed }], 'job.failed', now);
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
    .where(heldBy(jobId, workerId))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Jobs waiting and running, of all users (GET /metrics); the live states' partial indexes serve it. */
export async function liveJobCounts(db: Db): Promise<{ pending: number; processing: number }> {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', db.fn.countAll<number | string>().as('count')])
    .where(isLive)
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
  return { pending: count('pending'), processing: count('processing') };
}
