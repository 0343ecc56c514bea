/**
 * The deliveries table as a queue, shared by both databases: claim due rows (counting the
 * attempt and leasing the row in the same statement, so a worker killed mid-send has
 * spent it and the lease brings the row back), then record the attempt's outcome,
 * guarded by `locked_by` so a worker that lost its lease records nothing.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { WebhookDeliveriesTable } from '../db/schema.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

// Written as literals so SQLite uses the partial indexes of migration 009 (a bound
// parameter in their place makes it scan every delivery ever made).
const isPending = sql<boolean>`status = 'pending'`;
const isSending = sql<boolean>`status = 'sending'`;
const isFinished = sql<boolean>`status in ('succeeded', 'failed')`;

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends DeliveryRow {
  readonly url: string;
  readonly secret: string;
}

/** Claims up to `limit` due deliveries for `workerId`, oldest due first. */
export async function claimDeliveries(db: Db, options: { workerId: string; leaseMs: number; now: number; limit: number }): Promise<ClaimedDelivery[]> {
  const { workerId, leaseMs, now, limit } = options;
  // The outer status guard decides under concurrency: on PostgreSQL a row another claimer
  // took meanwhile fails it on recheck; SQLite runs one writer at a time.
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('attempts', '+', 1),
      locked_by: workerId,
      lease_expires_at: now + leaseMs,
      updated_at: now,
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where(isPending)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit),
    )
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .execute();
  if (claimed.length === 0) return [];
  const endpoints = await db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret'])
    .where('id', 'in', [...new Set(claimed.map((row) => row.webhook_id))])
    .execute();
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  const ready: ClaimedDelivery[] = [];
  for (const row of claimed) {
    const endpoint = byId.get(row.webhook_id);
    // Its endpoint was deleted after the claim's read: nothing to send to.
    if (endpoint === undefined) await db.deleteFrom('webhook_deliveries').where('id', '=', row.id).execute();
    else ready.push(Object.assign({}, row, { url: endpoint.url, secret: endpoint.secret }));
  }
  return ready;
}

export interface AttemptRecord {
  readonly id: string;
  readonly workerId: string;
  readonly now: number;
  readonly responseStatus: number | null;
  /** Null on success. */
  readonly error: string | null;
  /** Failed with retries left: when to try again; undefined: succeeded, or failed for good. */
  readonly retryAt?: number;
}

/** Records an attempt: `succeeded`, `pending` again (retryAt) or `failed`; false when the row is no longer ours. */
export async function recordAttempt(db: Db, record: AttemptRecord): Promise<boolean> {
  const status = record.error === null ? 'succeeded' : record.retryAt !== undefined ? 'pending' : 'failed';
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status,
      response_status: record.responseStatus,
      last_error: record.error,
      last_attempt_at: record.now,
      updated_at: record.now,
      locked_by: null,
      lease_expires_at: null,
      ...(record.retryAt !== undefined ? { next_attempt_at: record.retryAt } : {}),
    })
    .where('id', '=', record.id)
    .where('locked_by', '=', record.workerId)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deliveries whose sender died mid-attempt go back to `pending`, due now; returns how many. */
export async function recoverLapsedDeliveries(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, locked_by: null, lease_expires_at: null, updated_at: now, last_error: 'the sender stopped mid-attempt' })
    .where(isSending)
    .where('lease_expires_at', '<', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Returns a released attempt to `pending` without spending it (shutdown). */
export async function releaseDelivery(db: Db, id: string, workerId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ status: 'pending', next_attempt_at: now, locked_by: null, lease_expires_at: null, updated_at: now, attempts: eb('attempts', '-', 1) }))
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'sending')
    .execute();
}

/** Finished deliveries older than the retention are deleted; returns how many. */
export async function deleteExpiredDeliveries(db: Db, retentionMs: number, now: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where(isFinished)
    .where('updated_at', '<', now - retentionMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
