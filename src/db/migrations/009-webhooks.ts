import { sql, type Kysely } from 'kysely';

/**
 * Webhook endpoints and their deliveries (src/webhooks/README.md). A delivery is a row
 * written in the same transaction as the job state it announces, and sent by workers:
 * `pending` until due, `sending` while a worker holds its lease, then `succeeded` or
 * `failed`. Partial indexes keep the sender's lookups proportional to what is due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_lease')
    .on('webhook_deliveries')
    .column('lease_expires_at')
    .where(sql.ref('status'), '=', 'sending')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_finished')
    .on('webhook_deliveries')
    .column('updated_at')
    .where(sql.ref('status'), 'in', ['succeeded', 'failed'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
