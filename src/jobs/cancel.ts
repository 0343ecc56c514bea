/**
 * Cancelling a job. A pending job becomes `canceled` in one guarded statement. A
 * processing job gets `cancel_requested_at`: its worker reads it before each model call
 * (cancel-gate.ts) and records `canceled` with the usage of the calls already made —
 * or, if the worker dies, the lease sweep does (recover.ts), charging nothing.
 * Every way into `canceled` writes the job.canceled webhook deliveries in the same
 * transaction.
 */
import type { Db } from '../db/database.js';
import type { Usage } from '../usage/ledger.js';
import { writeCharges } from '../usage/group-commit.js';
import { endUncompleted, heldBy } from './queue.js';

export type CancelRequestOutcome = 'canceled' | 'requested' | 'finished' | 'not_found';

/** A job's state may change between our statements (claimed, released); each retry reads it anew. */
const RACE_RETRIES = 5;

export async function requestCancel(db: Db, options: { jobId: string; userId: string; now: number }): Promise<CancelRequestOutcome> {
  const { jobId, userId, now } = options;
  for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
    const canceled = await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('jobs')
        .set({ status: 'canceled', canceled_at: now, updated_at: now, input_tokens: 0, output_tokens: 0, run_at: now })
        .where('id', '=', jobId)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .returning(['created_at'])
        .executeTakeFirst();
      if (!row) return false;
      await endUncompleted(trx, [{ id: jobId, user_id: userId, created_at: row.created_at }], 'job.canceled', now);
      return true;
    });
    if (canceled) return 'canceled';
    const requested = await db
      .updateTable('jobs')
      // A second request keeps the first one's time.
      .set((eb) => ({ cancel_requested_at: eb.fn.coalesce('cancel_requested_at', eb.val(now)), updated_at: now }))
      .where('id', '=', jobId)
      .where('user_id', '=', userId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    if (requested.numUpdatedRows > 0n) return 'requested';
    const job = await db.selectFrom('jobs').select('status').where('id', '=', jobId).where('user_id', '=', userId).executeTakeFirst();
    if (!job) return 'not_found';
    if (job.status === 'completed' || job.status === 'failed' || job.status === 'canceled') return 'finished';
  }
  // Claimed and released this many times while we looked: ask the caller to try again.
  throw new Error('the job kept changing state while it was being canceled');
}

/** Whether the job's owner asked to cancel it (read by its worker before each model call). */
export async function isCancelRequested(db: Db, jobId: string): Promise<boolean> {
  const row = await db.selectFrom('jobs').select(['status', 'cancel_requested_at']).where('id', '=', jobId).executeTakeFirst();
  return row === undefined || row.status === 'canceled' || (row.cancel_requested_at !== null && row.cancel_requested_at !== undefined);
}

/**
 * The worker's side: the job stopped before a model call because its owner asked. Records
 * `canceled`, charges the calls made and drops the reservation, in one transaction;
 * false when the job is no longer this worker's.
 */
export async function recordCanceled(db: Db, options: { jobId: string; workerId: string; usage: Usage; now: number }): Promise<boolean> {
  const { jobId, workerId, usage, now } = options;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('jobs')
      .set({
        status: 'canceled',
        canceled_at: now,
        updated_at: now,
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        locked_by: null,
        lease_expires_at: null,
      })
      .where(heldBy(jobId, workerId))
      .returning(['created_at', 'user_id'])
      .executeTakeFirst();
    if (!row) return false;
    if (usage.inputTokens > 0 || usage.outputTokens > 0) await writeCharges(trx, [{ userId: row.user_id, usage, now }]);
    await endUncompleted(trx, [{ id: jobId, ...row }], 'job.canceled', now);
    return true;
  });
}
