/**
 * Sweeps that keep the queue honest: a job whose worker died (its lease lapsed) goes
 * back to `pending` — or fails, if it has used all its attempts, or is canceled, if its
 * owner asked for that — and finished jobs
 * older than the retention period are deleted.
 */
import type { Db } from '../db/database.js';
import { endUncompleted } from './queue.js';
import { isFinished, isProcessing } from './status-filters.js';

export const INTERRUPTED_TOO_OFTEN = 'the job was interrupted too many times and was not completed';

/** Returns how many jobs went back to pending and how many failed. */
export async function recoverLapsedLeases(db: Db, now: number): Promise<{ requeued: number; failed: number; canceled: number }> {
  return db.transaction().execute(async (trx) => {
    // Jobs whose worker's lease lapsed, each sweep below taking some of them.
    const lapsed = () => trx.updateTable('jobs').where(isProcessing).where('lease_expires_at', '<', now);
    // Its owner asked to cancel it and its worker is gone: canceled, charging nothing (what
    // the lost worker's calls cost is unknown, and a failed run is never charged).
    const canceled = await lapsed()
      .set({ status: 'canceled', canceled_at: now, updated_at: now, locked_by: null, lease_expires_at: null, input_tokens: 0, output_tokens: 0 })
      .where('cancel_requested_at', 'is not', null)
      .returning(['id', 'created_at', 'user_id'])
      .execute();
    await endUncompleted(trx, canceled, 'job.canceled', now);
    const exhausted = await lapsed()
      .set({ status: 'failed', error: INTERRUPTED_TOO_OFTEN, updated_at: now, locked_by: null, lease_expires_at: null })
      .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
      .returning(['id', 'created_at', 'user_id'])
      .execute();
    await endUncompleted(trx, exhausted, 'job.failed', now);
    const requeued = await lapsed()
      .set({ status: 'pending', run_at: now, updated_at: now, locked_by: null, lease_expires_at: null })
      .executeTakeFirst();
    return { requeued: Number(requeued.numUpdatedRows), failed: exhausted.length, canceled: canceled.length };
  });
}

export async function deleteExpiredJobs(db: Db, retentionMs: number, now: number): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where(isFinished)
    .where('updated_at', '<', now - retentionMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
