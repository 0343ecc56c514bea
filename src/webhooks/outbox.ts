/**
 * Writing an event's deliveries: one row per endpoint of the user that subscribed to it,
 * inside the caller's transaction — the one that changes the job's state — so an event
 * is stored exactly when its state change commits, and a worker sends it at least once
 * from there (the transactional outbox).
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import type { WebhookEvent } from './events.js';

export interface EventToDeliver {
  readonly userId: string;
  readonly type: WebhookEvent;
  /** The job the event is about. */
  readonly subjectId: string;
}

/** Stores the deliveries of `events` (all at time `now`); returns how many rows it wrote. */
export async function enqueueEvents(trx: Transaction<DatabaseSchema>, events: readonly EventToDeliver[], now: number): Promise<number> {
  if (events.length === 0) return 0;
  const userIds = [...new Set(events.map((event) => event.userId))];
  const endpoints = await trx.selectFrom('webhooks').select(['id', 'user_id', 'events']).where('user_id', 'in', userIds).execute();
  if (endpoints.length === 0) return 0;
  const rows = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.user_id !== event.userId || !(JSON.parse(endpoint.events) as string[]).includes(event.type)) continue;
      rows.push({
        id: newMessageId(),
        webhook_id: endpoint.id,
        user_id: event.userId,
        event_type: event.type,
        subject_id: event.subjectId,
        // The lease and the last attempt's outcome start NULL.
        status: 'pending' as const,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      });
    }
  }
  if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).execute();
  return rows.length;
}

/** A delivery's id, sent as `webhook-id`: the same on every retry, so receivers can drop duplicates. */
function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}
