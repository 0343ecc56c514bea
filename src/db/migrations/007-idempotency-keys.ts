import type { Kysely } from 'kysely';

/**
 * Idempotency keys (src/idempotency/): the first answer to a request sent with an
 * `Idempotency-Key`, by user and key, kept 24 hours. A row without `status_code` is a
 * request still running; `locked_until` is its owner's lease, renewed while it runs, so a
 * process that died mid-request does not hold the key for the whole day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    // sha256 of the route and the body: the same key with another request is refused.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // A random id of the request that holds the key; only it completes or releases it.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('content_type', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
